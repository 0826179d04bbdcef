/* broker/service.h — org.freedesktop.XdgApp.Broker1 on the session bus
 * (interfaces/org.freedesktop.XdgApp.Broker1.xml): registering, listing
 * and killing instances, and telling services who calls them. */
#pragma once

#include <gio/gio.h>

#include "broker/broker.h"
#include "broker/identity.h"

G_BEGIN_DECLS

#define XA_BROKER_SERVICE_NAME "org.freedesktop.XdgApp.Broker"
#define XA_BROKER_SERVICE_PATH "/org/freedesktop/XdgApp/Broker"
#define XA_BROKER_SERVICE_VERSION 2

typedef struct _XaBrokerService XaBrokerService;

/* Exports the interface on @connection; the caller owns the name. */
XaBrokerService *xa_broker_service_new  (XaBroker         *broker,
                                         XaIdentity       *identity,
                                         GDBusConnection  *connection,
                                         GError          **error);
void             xa_broker_service_free (XaBrokerService  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaBrokerService, xa_broker_service_free)

G_END_DECLS
