/* run/broker-client.h — `xdg-app run` asking the broker for an instance
 * (org.freedesktop.XdgApp.Broker1.RegisterInstance), over the session
 * bus, without GIO: wire/ speaks the protocol.  The broker is started by
 * the bus (D-Bus activation) or, failing that, from @broker_program. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *instance_id;
  char *session_bus;   /* the instance's socket, a host path */
  char *system_bus;    /* NULL unless the context grants sockets=system-bus */
} XaBrokerInstance;

/* Registers this process (its pidfd goes with the call: the instance
 * lives as long as this process and what it execs) as an instance of
 * @app_id with @context (the merged context, metadata form). */
gboolean xa_broker_client_register (const char        *bus_address,
                                    const char        *app_id,
                                    const char        *context,
                                    const char        *broker_program,
                                    XaBrokerInstance  *out_instance,
                                    GError           **error);
void     xa_broker_instance_clear  (XaBrokerInstance  *instance);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XaBrokerInstance, xa_broker_instance_clear)

G_END_DECLS
