/* broker/bus-proxy.h — XaBusProxy: carries every sandboxed connection to
 * the real bus, one upstream connection per client, and runs each
 * message past that client's XaBusFilter, in two threads per client. */
#pragma once

#include <glib.h>

#include "broker/broker.h"

G_BEGIN_DECLS

typedef struct _XaBusProxy XaBusProxy;

/* Limits: per client and direction, a thread reads at most a batch (or
 * one whole message) and passes it on before it reads again; a client
 * whose socket stays full for the stall time is dropped; an instance
 * holds at most max_clients connections at once (each costs two
 * threads), and one more is closed as soon as it is accepted. */
typedef struct
{
  gsize  batch_bytes;
  guint  stall_seconds;
  guint  max_clients;
} XaBusProxyLimits;

/* Takes over @broker's accept hook: every connection to an instance's
 * socket becomes a proxied client, served by threads of its own.
 * Call both from the thread that runs @broker's main loop; freeing
 * closes every client and waits for their threads to end. */
XaBusProxy *xa_bus_proxy_new        (XaBroker               *broker,
                                     const XaBusProxyLimits *limits);
void        xa_bus_proxy_free       (XaBusProxy             *self);

G_END_DECLS
