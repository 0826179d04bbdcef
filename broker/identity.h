/* broker/identity.h — XaIdentity: who sent a message that reached the
 * broker's own connection to the session bus (a portal call, a call of
 * Broker1), from the sender's unique name alone. */
#pragma once

#include <gio/gio.h>

#include "broker/broker.h"
#include "broker/caller.h"

G_BEGIN_DECLS

typedef struct _XaIdentity XaIdentity;

/* @connection: the broker's own connection to the session bus, the one
 * the calls to identify arrive on. */
XaIdentity *xa_identity_new         (XaBroker            *broker,
                                     GDBusConnection     *connection);
void        xa_identity_free        (XaIdentity          *self);

/* Finds the caller behind @sender, a unique name on the session bus.
 * Errors: G_DBUS_ERROR_INVALID_ARGS (not a unique name),
 * G_DBUS_ERROR_NAME_HAS_NO_OWNER (nobody has it), and
 * G_DBUS_ERROR_ACCESS_DENIED (a connection of the broker's proxy that
 * no instance holds now, or a bus that cannot say who is who). */
void        xa_identity_find        (XaIdentity          *self,
                                     const char          *sender,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
XaCaller   *xa_identity_find_finish (XaIdentity          *self,
                                     GAsyncResult        *result,
                                     GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaIdentity, xa_identity_free)

G_END_DECLS
