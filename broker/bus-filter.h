/* broker/bus-filter.h — XaBusFilter: the decisions for one sandboxed
 * connection to one bus: which of the client's messages go to the bus,
 * which of the bus's reach the client, and what each side is told
 * instead.  No I/O: broker/bus-proxy.c moves the bytes and asks. */
#pragma once

#include <glib.h>

#include "broker/bus-rules.h"
#include "wire/message.h"

G_BEGIN_DECLS

/* Serials above this are the filter's own (its calls to the bus); a
 * client that uses one is dropped, as under xdg-dbus-proxy. */
#define XA_BUS_FILTER_MAX_CLIENT_SERIAL (G_MAXUINT32 - 65536)

typedef enum
{
  XA_BUS_FILTER_FORWARD,     /* pass the message on unchanged */
  XA_BUS_FILTER_DROP,        /* drop it silently */
  XA_BUS_FILTER_REPLACE,     /* pass *out_message on instead */
  XA_BUS_FILTER_ANSWER,      /* drop it; send *out_message back to the client */
  XA_BUS_FILTER_DISCONNECT,  /* the client broke the rules: drop the connection */
} XaBusFilterAction;

typedef struct _XaBusFilter XaBusFilter;

XaBusFilter       *xa_bus_filter_new               (XaBusRules         *rules);
void               xa_bus_filter_free              (XaBusFilter        *self);

/* A message the client sent, whole and valid (wire/message.h checked
 * it).  *@out_message is set for REPLACE and ANSWER; @error says why for
 * DISCONNECT. */
XaBusFilterAction  xa_bus_filter_from_client       (XaBusFilter        *self,
                                                    const guint8       *data,
                                                    const XaWireHeader *header,
                                                    GBytes            **out_message,
                                                    GError            **error);
/* A message from the bus for the client. */
XaBusFilterAction  xa_bus_filter_from_bus          (XaBusFilter        *self,
                                                    const guint8       *data,
                                                    const XaWireHeader *header,
                                                    GBytes            **out_message);

/* The filter's own calls to the bus, oldest first, to be sent after the
 * message just handled; NULL when there are none. */
GBytes            *xa_bus_filter_pop_outgoing      (XaBusFilter        *self);
/* Whether the client's messages must wait: for the answer to its Hello,
 * or while the filter learns who owns the names its rules cover. */
gboolean           xa_bus_filter_is_holding_client (XaBusFilter        *self);
/* The client's unique name once the bus has answered its Hello. */
const char        *xa_bus_filter_get_unique_name   (XaBusFilter        *self);
/* Calls on their way whose replies the bus has still to send: the
 * client's and the filter's own. */
guint              xa_bus_filter_get_n_pending     (XaBusFilter        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaBusFilter, xa_bus_filter_free)

G_END_DECLS
