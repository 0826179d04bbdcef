/* broker/identity.c — see identity.h.
 *
 * Enforces: a caller is an app's instance exactly when its unique name
 * is one of the connections the broker's proxy opened for that instance
 * (broker.c's table, filled when the bus answers the client's Hello;
 * bus-filter.c holds every other message of the client until then, so
 * no call from such a name can arrive before it is in the table).  Any
 * other name is the host's only if the bus daemon says the connection
 * belongs to another process than the broker: every proxied connection
 * is the broker's own, so a name of the broker's that the table does not
 * know (its client already gone, a call still on its way) is refused,
 * never taken for the host.
 *
 * Nothing here reads /proc/PID/root, /.flatpak-info or anything else a
 * process controls: xdg-desktop-portal reads /.flatpak-info through the
 * caller's pid, which trusts a file any process can put in a mount
 * namespace of its own and a pid that may have been reused.  The pid is
 * used only to ask "is this the broker itself?", to which no other
 * process can make the bus say yes.
 *
 * Trusts: the session bus daemon, for the owner of a unique name and
 * the credentials of a connection (from SO_PEERCRED when it connected). */
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "broker/identity.h"

#define BUS_NAME "org.freedesktop.DBus"

struct _XaIdentity
{
  XaBroker        *broker;
  GDBusConnection *connection;
  gboolean         own_pid_known;
  guint32          own_pid;       /* the broker, in the bus's pid namespace */
};

typedef struct
{
  XaIdentity *identity;
  char       *sender;
} Find;

static void
find_free (Find *find)
{
  g_free (find->sender);
  g_free (find);
}

XaIdentity *
xa_identity_new (XaBroker *broker,
                 GDBusConnection *connection)
{
  XaIdentity *self = g_new0 (XaIdentity, 1);

  self->broker = broker;
  self->connection = g_object_ref (connection);
  return self;
}

void
xa_identity_free (XaIdentity *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->connection);
  g_free (self);
}

static void
get_pid (XaIdentity *self,
         const char *name,
         GTask *task,
         GAsyncReadyCallback callback)
{
  g_dbus_connection_call (self->connection, BUS_NAME, "/org/freedesktop/DBus", BUS_NAME,
                          "GetConnectionCredentials", g_variant_new ("(s)", name),
                          G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, -1,
                          g_task_get_cancellable (task), callback, task);
}

/* The ProcessID of a GetConnectionCredentials reply; FALSE (and @error)
 * when there is none. */
static gboolean
read_pid (GObject *source,
          GAsyncResult *result,
          guint32 *out_pid,
          GError **error)
{
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, error);
  g_autoptr(GVariant) credentials = NULL;
  guint32 pid = 0;

  if (reply == NULL)
    return FALSE;
  g_variant_get (reply, "(@a{sv})", &credentials);
  if (!g_variant_lookup (credentials, "ProcessID", "u", &pid) || pid == 0)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                   _("the bus does not say which process a connection is"));
      return FALSE;
    }
  *out_pid = pid;
  return TRUE;
}

static void
on_sender_pid (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  g_autoptr(GTask) task = user_data;
  Find *find = g_task_get_task_data (task);
  XaIdentity *self = find->identity;
  GError *error = NULL;
  XaCaller *caller;
  guint32 pid = 0;

  if (!read_pid (source, result, &pid, &error))
    {
      g_dbus_error_strip_remote_error (error);
      g_task_return_error (task, error);
      return;
    }
  /* Registered meanwhile?  Cannot happen (the client is held until it
   * is), but the table is the authority. */
  caller = xa_broker_lookup_connection (self->broker, XA_INSTANCE_BUS_SESSION, find->sender);
  if (caller != NULL)
    {
      g_task_return_pointer (task, caller, (GDestroyNotify) xa_caller_unref);
      return;
    }
  if (pid == self->own_pid)
    {
      g_task_return_new_error (task, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                               _("'%s' is a sandbox's connection whose instance is gone"),
                               find->sender);
      return;
    }
  g_task_return_pointer (task, xa_caller_new_host (), (GDestroyNotify) xa_caller_unref);
}

static void
on_own_pid (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  GTask *task = user_data;
  Find *find = g_task_get_task_data (task);
  XaIdentity *self = find->identity;
  GError *error = NULL;
  guint32 pid = 0;

  /* Without knowing itself the broker cannot tell the host from its
   * own proxied connections: nobody is the host then. */
  if (!read_pid (source, result, &pid, &error))
    {
      g_prefix_error (&error, _("cannot tell who the broker is: "));
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  self->own_pid = pid;
  self->own_pid_known = TRUE;
  get_pid (self, find->sender, task, on_sender_pid);
}

void
xa_identity_find (XaIdentity *self,
                  const char *sender,
                  GCancellable *cancellable,
                  GAsyncReadyCallback callback,
                  gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Find *find = g_new0 (Find, 1);
  XaCaller *caller;

  g_task_set_source_tag (task, xa_identity_find);
  find->identity = self;
  find->sender = g_strdup (sender);
  g_task_set_task_data (task, find, (GDestroyNotify) find_free);

  if (sender == NULL || sender[0] != ':' || !g_dbus_is_unique_name (sender))
    {
      g_task_return_new_error (task, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                               _("'%s' is not a unique bus name"), sender != NULL ? sender : "");
      return;
    }
  caller = xa_broker_lookup_connection (self->broker, XA_INSTANCE_BUS_SESSION, sender);
  if (caller != NULL)
    {
      g_task_return_pointer (task, caller, (GDestroyNotify) xa_caller_unref);
      return;
    }
  if (!self->own_pid_known)
    get_pid (self, g_dbus_connection_get_unique_name (self->connection),
             g_steal_pointer (&task), on_own_pid);
  else
    get_pid (self, sender, g_steal_pointer (&task), on_sender_pid);
}

XaCaller *
xa_identity_find_finish (XaIdentity *self,
                         GAsyncResult *result,
                         GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
