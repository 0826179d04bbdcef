/* broker/broker.h — XaBroker: the daemon's state.  The instance table,
 * the addresses of the real buses its proxies connect to, the hooks
 * that tie instances to their proxied connections, and which unique
 * name on which bus is which instance's connection. */
#pragma once

#include <glib.h>

#include "broker/caller.h"
#include "broker/instance.h"
#include "policy/context.h"

G_BEGIN_DECLS

typedef struct _XaBroker XaBroker;

typedef struct
{
  const char *runtime_dir;        /* 0700, the broker's own */
  const char *session_address;    /* "unix:path=…": where the proxies connect */
  const char *system_address;     /* likewise, for sockets=system-bus */
} XaBrokerOptions;

/* Called when an instance ends, before it is freed. */
typedef void (*XaBrokerInstanceEndedFunc) (XaBroker   *broker,
                                           XaInstance *instance,
                                           gpointer    user_data);

XaBroker       *xa_broker_new             (const XaBrokerOptions  *options);
void            xa_broker_free            (XaBroker               *self);

const XaBrokerOptions *xa_broker_get_options (XaBroker            *self);

/* Where connections to an instance's sockets go (broker/bus-proxy.c). */
void            xa_broker_set_accept_func (XaBroker                  *self,
                                           XaInstanceAcceptFunc       func,
                                           gpointer                   user_data);
/* Hooks run, in the order added, when an instance ends. */
void            xa_broker_add_ended_func  (XaBroker                  *self,
                                           XaBrokerInstanceEndedFunc  func,
                                           gpointer                   user_data);
void            xa_broker_remove_ended_func (XaBroker                *self,
                                             XaBrokerInstanceEndedFunc func,
                                             gpointer                 user_data);

/* Takes @context and @pid_fd.  The instance lives until its monitor
 * exits or it is killed; borrowed. */
XaInstance     *xa_broker_add_instance    (XaBroker               *self,
                                           const char             *app_id,
                                           XaContext              *context,
                                           int                     pid_fd,
                                           GError                **error);
XaInstance     *xa_broker_lookup_instance (XaBroker               *self,
                                           const char             *id);
/* Every instance, oldest first; the array is new, the instances borrowed. */
GPtrArray      *xa_broker_list_instances  (XaBroker               *self);

/* The connections the proxy made for instances, by the unique name the
 * bus gave each: added when the bus answers the client's Hello (before
 * any other message of the client reaches the bus), removed when the
 * proxy closes it.  These three may be called from any thread. */
void            xa_broker_add_connection    (XaBroker               *self,
                                             XaInstance             *instance,
                                             XaInstanceBus           bus,
                                             const char             *unique_name);
void            xa_broker_remove_connection (XaBroker               *self,
                                             XaInstanceBus           bus,
                                             const char             *unique_name);
/* The instance's caller behind @unique_name on @bus (a new reference);
 * NULL if it is none of the proxy's connections (now). */
XaCaller       *xa_broker_lookup_connection (XaBroker               *self,
                                             XaInstanceBus           bus,
                                             const char             *unique_name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaBroker, xa_broker_free)

G_END_DECLS
