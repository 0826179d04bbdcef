/* broker/service.c — see service.h.
 *
 * Enforces: only a process of the broker's own user registers an
 * instance, and only for itself: the pidfd it passes must name the very
 * process that sent the call (the bus daemon's credentials say which),
 * so that one process cannot make the broker watch, or later kill,
 * another.  The app id and the context are checked again here as policy/
 * checks metadata: nothing the caller sends is taken as valid.
 *
 * Trusts: the session bus daemon for the caller's uid and pid. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>

#include "broker/service.h"
#include "interfaces/xa-dbus-broker1.h"
#include "policy/bus-name.h"

struct _XaBrokerService
{
  XaBroker        *broker;
  XaIdentity      *identity;
  GDBusConnection *connection;
  XaDbusBroker1   *skeleton;
};

/* One registration while the bus tells us who called. */
typedef struct
{
  XaBrokerService       *service;
  GDBusMethodInvocation *invocation;
  char                  *app_id;
  XaContext             *context;
  int                    pid_fd;
} Registration;

static void
registration_free (Registration *r)
{
  g_object_unref (r->invocation);
  g_free (r->app_id);
  g_clear_pointer (&r->context, xa_context_free);
  if (r->pid_fd >= 0)
    (void) close (r->pid_fd);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Registration, registration_free)

/* A path as "ay" without the NUL g_variant_new_bytestring() adds. */
static GVariant *
new_path_bytes (const char *path)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, path, strlen (path), 1);
}

static void
on_credentials (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr(Registration) r = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  g_autoptr(GVariant) credentials = NULL;
  g_autoptr(GVariantBuilder) sockets = NULL;
  guint32 uid, pid;
  XaInstance *instance;

  if (reply == NULL)
    {
      g_dbus_method_invocation_return_error (r->invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                                             _("cannot tell who called: %s"), error->message);
      return;
    }
  g_variant_get (reply, "(@a{sv})", &credentials);
  if (!g_variant_lookup (credentials, "UnixUserID", "u", &uid) || uid != getuid ())
    {
      g_dbus_method_invocation_return_error (r->invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                                             _("only user %u may register instances here"), getuid ());
      return;
    }
  if (!g_variant_lookup (credentials, "ProcessID", "u", &pid) || (int) pid != xa_instance_read_pidfd_pid (r->pid_fd))
    {
      g_dbus_method_invocation_return_error (r->invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             _("pid_fd must be a pidfd of the calling process"));
      return;
    }

  instance = xa_broker_add_instance (r->service->broker, r->app_id,
                                     g_steal_pointer (&r->context), r->pid_fd, &error);
  r->pid_fd = -1;
  if (instance == NULL)
    {
      g_dbus_method_invocation_return_error (r->invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED,
                                             _("cannot start instance: %s"), error->message);
      return;
    }

  sockets = g_variant_builder_new (G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (sockets, "{sv}", "session-bus",
                         new_path_bytes (xa_instance_get_socket_path (instance, XA_INSTANCE_BUS_SESSION)));
  if (xa_instance_get_socket_path (instance, XA_INSTANCE_BUS_SYSTEM) != NULL)
    g_variant_builder_add (sockets, "{sv}", "system-bus",
                           new_path_bytes (xa_instance_get_socket_path (instance, XA_INSTANCE_BUS_SYSTEM)));
  g_debug ("instance %s: %s, pid %d", xa_instance_get_id (instance), r->app_id, (int) pid);
  xa_dbus_broker1_complete_register_instance (r->service->skeleton, r->invocation,
                                              xa_instance_get_id (instance),
                                              g_variant_builder_end (sockets));
}

static gboolean
handle_register_instance (XaDbusBroker1 *skeleton,
                          GDBusMethodInvocation *invocation,
                          const char *app_id,
                          const char *context_text,
                          GVariant *pid_fd_handle,
                          GVariant *options,
                          gpointer user_data)
{
  XaBrokerService *self = user_data;
  GUnixFDList *fds = g_dbus_message_get_unix_fd_list (g_dbus_method_invocation_get_message (invocation));
  g_autoptr(Registration) r = g_new0 (Registration, 1);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  gint32 handle = g_variant_get_handle (pid_fd_handle);

  r->service = self;
  r->invocation = g_object_ref (invocation);
  r->pid_fd = -1;
  if (fds == NULL || handle < 0 || handle >= g_unix_fd_list_get_length (fds) ||
      (r->pid_fd = g_unix_fd_list_get (fds, handle, &error)) < 0)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             _("pid_fd: no such fd"));
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  if (!xa_bus_name_is_well_known (app_id))
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             _("app_id: '%s' is not an app id"), app_id);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  r->app_id = g_strdup (app_id);
  r->context = xa_context_new ();
  if (!g_key_file_load_from_data (keyfile, context_text, -1, G_KEY_FILE_NONE, &error) ||
      !xa_context_load_keyfile (r->context, keyfile, "context", &error))
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             _("context: %s"), error->message);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  g_dbus_connection_call (self->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "GetConnectionCredentials",
                          g_variant_new ("(s)", g_dbus_method_invocation_get_sender (invocation)),
                          G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, -1, NULL,
                          on_credentials, g_steal_pointer (&r));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_list_instances (XaDbusBroker1 *skeleton,
                       GDBusMethodInvocation *invocation,
                       gpointer user_data)
{
  XaBrokerService *self = user_data;
  g_autoptr(GPtrArray) list = xa_broker_list_instances (self->broker);
  g_autoptr(GVariantBuilder) builder = g_variant_builder_new (G_VARIANT_TYPE ("a(ssua{sv})"));

  for (guint i = 0; i < list->len; i++)
    {
      XaInstance *instance = list->pdata[i];
      g_autoptr(GVariantBuilder) details = g_variant_builder_new (G_VARIANT_TYPE_VARDICT);

      g_variant_builder_add (details, "{sv}", "started",
                             g_variant_new_int64 (xa_instance_get_started (instance)));
      g_variant_builder_add (details, "{sv}", "clients",
                             g_variant_new_uint32 (xa_instance_get_n_clients (instance)));
      g_variant_builder_add (builder, "(ssu@a{sv})", xa_instance_get_id (instance),
                             xa_instance_get_app_id (instance),
                             (guint32) xa_instance_get_pid (instance),
                             g_variant_builder_end (details));
    }
  xa_dbus_broker1_complete_list_instances (skeleton, invocation, g_variant_builder_end (builder));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_kill_instance (XaDbusBroker1 *skeleton,
                      GDBusMethodInvocation *invocation,
                      const char *id,
                      gpointer user_data)
{
  XaBrokerService *self = user_data;
  XaInstance *instance = xa_broker_lookup_instance (self->broker, id);
  g_autoptr(GError) error = NULL;

  if (instance == NULL)
    {
      g_dbus_method_invocation_return_dbus_error (invocation,
                                                  "org.freedesktop.XdgApp.Broker1.Error.NoSuchInstance",
                                                  _("no instance with this id"));
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  if (!xa_instance_kill (instance, &error))
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  xa_dbus_broker1_complete_kill_instance (skeleton, invocation);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* One IdentifyConnection while the identity is found. */
typedef struct
{
  XaBrokerService       *service;
  GDBusMethodInvocation *invocation;
} Identification;

static void
on_identified (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  g_autofree Identification *id = user_data;
  XaBrokerService *self = id->service;
  g_autoptr(GDBusMethodInvocation) invocation = id->invocation;
  g_autoptr(GError) error = NULL;
  g_autoptr(XaCaller) caller = xa_identity_find_finish (self->identity, result, &error);
  g_autoptr(GVariantBuilder) details = g_variant_builder_new (G_VARIANT_TYPE_VARDICT);

  if (caller == NULL)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }
  if (!xa_caller_is_host (caller))
    {
      g_autoptr(GKeyFile) keyfile = g_key_file_new ();
      g_autofree char *text = NULL;

      xa_context_save_keyfile (xa_caller_get_context (caller), keyfile);
      text = g_key_file_to_data (keyfile, NULL, NULL);
      g_variant_builder_add (details, "{sv}", "context", g_variant_new_string (text));
    }
  xa_dbus_broker1_complete_identify_connection (self->skeleton, g_steal_pointer (&invocation),
                                                xa_caller_is_host (caller) ? "" : xa_caller_get_app_id (caller),
                                                xa_caller_is_host (caller) ? "" : xa_caller_get_instance_id (caller),
                                                g_variant_builder_end (details));
}

static gboolean
handle_identify_connection (XaDbusBroker1 *skeleton,
                            GDBusMethodInvocation *invocation,
                            const char *bus_name,
                            gpointer user_data)
{
  XaBrokerService *self = user_data;
  Identification *id = g_new0 (Identification, 1);

  id->service = self;
  id->invocation = g_object_ref (invocation);
  xa_identity_find (self->identity, bus_name, NULL, on_identified, id);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
on_instance_ended (XaBroker *broker,
                   XaInstance *instance,
                   gpointer user_data)
{
  XaBrokerService *self = user_data;

  xa_dbus_broker1_emit_instance_ended (self->skeleton, xa_instance_get_id (instance),
                                       xa_instance_get_app_id (instance));
}

XaBrokerService *
xa_broker_service_new (XaBroker *broker,
                       XaIdentity *identity,
                       GDBusConnection *connection,
                       GError **error)
{
  g_autoptr(XaBrokerService) self = g_new0 (XaBrokerService, 1);

  self->broker = broker;
  self->identity = identity;
  self->connection = g_object_ref (connection);
  self->skeleton = xa_dbus_broker1_skeleton_new ();
  xa_dbus_broker1_set_version (self->skeleton, XA_BROKER_SERVICE_VERSION);
  g_signal_connect (self->skeleton, "handle-register-instance", G_CALLBACK (handle_register_instance), self);
  g_signal_connect (self->skeleton, "handle-list-instances", G_CALLBACK (handle_list_instances), self);
  g_signal_connect (self->skeleton, "handle-kill-instance", G_CALLBACK (handle_kill_instance), self);
  g_signal_connect (self->skeleton, "handle-identify-connection",
                    G_CALLBACK (handle_identify_connection), self);
  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self->skeleton), connection,
                                         XA_BROKER_SERVICE_PATH, error))
    return NULL;
  xa_broker_add_ended_func (broker, on_instance_ended, self);
  return g_steal_pointer (&self);
}

void
xa_broker_service_free (XaBrokerService *self)
{
  if (self == NULL)
    return;
  if (self->skeleton != NULL)
    {
      g_dbus_interface_skeleton_unexport (G_DBUS_INTERFACE_SKELETON (self->skeleton));
      g_object_unref (self->skeleton);
    }
  xa_broker_remove_ended_func (self->broker, on_instance_ended, self);
  g_clear_object (&self->connection);
  g_free (self);
}
