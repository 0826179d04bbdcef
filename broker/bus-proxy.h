/* broker/bus-proxy.h — XaBusProxy: carries every sandboxed connection to
 * the real bus, one upstream connection per client, and runs each
 * message past that client's XaBusFilter, in a thread of its own. */
#pragma once

#include <glib.h>

#include "broker/broker.h"

G_BEGIN_DECLS

typedef struct _XaBusProxy XaBusProxy;

/* Limits, per client and direction: past the high mark the proxy stops
 * reading the other side; a client that stops reading for longer than
 * the stall time with a full queue is dropped. */
typedef struct
{
  gsize  queue_high_bytes;
  gsize  queue_low_bytes;
  guint  stall_seconds;
} XaBusProxyLimits;

/* Takes over @broker's accept hook: every connection to an instance's
 * socket becomes a proxied client, served by the thread this starts.
 * Call both from the thread that runs @broker's main loop; freeing
 * closes every client and joins the thread. */
XaBusProxy *xa_bus_proxy_new        (XaBroker               *broker,
                                     const XaBusProxyLimits *limits);
void        xa_bus_proxy_free       (XaBusProxy             *self);

G_END_DECLS
