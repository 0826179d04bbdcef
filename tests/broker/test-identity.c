/* tests/broker/test-identity.c — who the broker says a caller is, on a
 * real dbus-daemon (GTestDBus): a connection the proxy registered for an
 * instance is that instance's; the same connection once unregistered,
 * and any other connection of the broker's own process, is refused and
 * never taken for the host; a connection of another process is the
 * host; names that are not unique names, or that nobody has, are
 * errors. */
#include <sys/syscall.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "broker/broker.h"
#include "broker/identity.h"

typedef struct
{
  GTestDBus       *bus;
  GDBusConnection *connection;    /* the broker's own */
  char            *runtime_dir;
  XaBroker        *broker;
  XaIdentity      *identity;
} Fixture;

static void
no_accept (XaInstance *instance,
           XaInstanceBus bus,
           int fd,
           gpointer user_data)
{
  (void) close (fd);
}

static void
setup (Fixture *f,
       gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  XaBrokerOptions options = { 0 };

  f->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (f->bus);
  f->connection = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (f->bus),
                                                          G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                          G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                          NULL, NULL, &error);
  g_assert_no_error (error);
  f->runtime_dir = g_dir_make_tmp ("test-identity-XXXXXX", &error);
  g_assert_no_error (error);
  options.runtime_dir = f->runtime_dir;
  options.session_address = g_test_dbus_get_bus_address (f->bus);
  f->broker = xa_broker_new (&options);
  xa_broker_set_accept_func (f->broker, no_accept, NULL);
  f->identity = xa_identity_new (f->broker, f->connection);
}

static void
teardown (Fixture *f,
          gconstpointer data)
{
  xa_identity_free (f->identity);
  xa_broker_free (f->broker);
  (void) g_rmdir (f->runtime_dir);
  g_free (f->runtime_dir);
  g_dbus_connection_close_sync (f->connection, NULL, NULL);
  g_object_unref (f->connection);
  g_test_dbus_down (f->bus);
  g_object_unref (f->bus);
}

static void
on_found (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Runs xa_identity_find() to its end. */
static XaCaller *
find (Fixture *f,
      const char *sender,
      GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  xa_identity_find (f->identity, sender, NULL, on_found, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return xa_identity_find_finish (f->identity, result, error);
}

static GDBusConnection *
connect_again (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection *c;

  c = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (f->bus),
                                              G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                              G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                              NULL, NULL, &error);
  g_assert_no_error (error);
  return c;
}

static XaInstance *
add_instance (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  int pid_fd = (int) syscall (SYS_pidfd_open, getpid (), 0);
  XaInstance *instance;

  g_assert_cmpint (pid_fd, >=, 0);
  instance = xa_broker_add_instance (f->broker, "org.example.App", xa_context_new (), pid_fd, &error);
  g_assert_no_error (error);
  return instance;
}

static void
test_registered_connection_is_the_instance (Fixture *f,
                                            gconstpointer data)
{
  g_autoptr(GDBusConnection) app = connect_again (f);
  XaInstance *instance = add_instance (f);
  const char *name = g_dbus_connection_get_unique_name (app);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaCaller) caller = NULL;

  xa_broker_add_connection (f->broker, instance, XA_INSTANCE_BUS_SESSION, name);
  caller = find (f, name, &error);
  g_assert_no_error (error);
  g_assert_false (xa_caller_is_host (caller));
  g_assert_cmpstr (xa_caller_get_app_id (caller), ==, "org.example.App");
  g_assert_cmpstr (xa_caller_get_instance_id (caller), ==, xa_instance_get_id (instance));
  g_assert_nonnull (xa_caller_get_context (caller));

  /* The system bus's table is another: the same name there is nobody. */
  g_assert_null (xa_broker_lookup_connection (f->broker, XA_INSTANCE_BUS_SYSTEM, name));
}

static void
test_unregistered_connection_of_the_broker_is_refused (Fixture *f,
                                                       gconstpointer data)
{
  g_autoptr(GDBusConnection) app = connect_again (f);
  XaInstance *instance = add_instance (f);
  const char *name = g_dbus_connection_get_unique_name (app);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaCaller) caller = NULL;

  /* Never registered: a client whose Hello answer is not through yet. */
  caller = find (f, name, &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED);
  g_assert_null (caller);
  g_clear_error (&error);

  /* Registered, then closed by the proxy while its call travels. */
  xa_broker_add_connection (f->broker, instance, XA_INSTANCE_BUS_SESSION, name);
  xa_broker_remove_connection (f->broker, XA_INSTANCE_BUS_SESSION, name);
  caller = find (f, name, &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED);
  g_assert_null (caller);
}

/* The unique name of the connection @pid holds, once it has one. */
static char *
name_of_pid (Fixture *f,
             GPid pid)
{
  for (int tries = 0; tries < 200; tries++)
    {
      g_autoptr(GVariant) names = g_dbus_connection_call_sync (f->connection, "org.freedesktop.DBus",
                                                               "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                               "ListNames", NULL, G_VARIANT_TYPE ("(as)"),
                                                               G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
      g_autofree const char **list = NULL;

      g_assert_nonnull (names);
      g_variant_get (names, "(^a&s)", &list);
      for (gsize i = 0; list[i] != NULL; i++)
        {
          g_autoptr(GVariant) owner_pid = NULL;
          guint32 p = 0;

          if (list[i][0] != ':')
            continue;
          owner_pid = g_dbus_connection_call_sync (f->connection, "org.freedesktop.DBus",
                                                   "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                   "GetConnectionUnixProcessID",
                                                   g_variant_new ("(s)", list[i]), G_VARIANT_TYPE ("(u)"),
                                                   G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
          if (owner_pid != NULL)
            g_variant_get (owner_pid, "(u)", &p);
          if (p == (guint32) pid)
            return g_strdup (list[i]);
        }
      g_usleep (50000);
    }
  return NULL;
}

static void
test_other_process_is_the_host (Fixture *f,
                                gconstpointer data)
{
  const char *argv[] = { "gdbus", "wait", "--session", "--timeout", "30", "org.example.Never", NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "DBUS_SESSION_BUS_ADDRESS",
                                         g_test_dbus_get_bus_address (f->bus), TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaCaller) caller = NULL;
  g_autofree char *name = NULL;
  GPid pid;

  if (!g_spawn_async (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &pid, &error))
    {
      g_test_skip (error->message);
      return;
    }
  name = name_of_pid (f, pid);
  g_assert_nonnull (name);
  caller = find (f, name, &error);
  (void) kill (pid, SIGTERM);
  g_spawn_close_pid (pid);
  g_assert_no_error (error);
  g_assert_true (xa_caller_is_host (caller));
  g_assert_null (xa_caller_get_app_id (caller));
}

static void
test_bad_names (Fixture *f,
                gconstpointer data)
{
  static const struct
  {
    const char *name;
    int         code;
  } cases[] = {
    { "org.example.App", G_DBUS_ERROR_INVALID_ARGS },      /* well-known: may change hands */
    { "", G_DBUS_ERROR_INVALID_ARGS },
    { ":1..2", G_DBUS_ERROR_INVALID_ARGS },
    { ":1.99999", G_DBUS_ERROR_NAME_HAS_NO_OWNER },        /* nobody has it */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XaCaller) caller = find (f, cases[i].name, &error);

      g_test_message ("name '%s'", cases[i].name);
      g_assert_error (error, G_DBUS_ERROR, cases[i].code);
      g_assert_null (caller);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/identity/registered-connection-is-the-instance", Fixture, NULL, setup,
              test_registered_connection_is_the_instance, teardown);
  g_test_add ("/identity/unregistered-connection-of-the-broker-is-refused", Fixture, NULL, setup,
              test_unregistered_connection_of_the_broker_is_refused, teardown);
  g_test_add ("/identity/other-process-is-the-host", Fixture, NULL, setup,
              test_other_process_is_the_host, teardown);
  g_test_add ("/identity/bad-names", Fixture, NULL, setup, test_bad_names, teardown);
  return g_test_run ();
}
