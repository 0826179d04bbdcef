/* broker/main.c — `xdg-app-broker`: one per user session, started by the
 * bus (D-Bus activation, org.freedesktop.XdgApp.Broker) or by `xdg-app
 * run` when it is not running.  Owns the name, serves Broker1, and proxies
 * every instance's bus connections.  Exits when it loses the name. */
#include <errno.h>
#include <locale.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>

#include "broker/broker.h"
#include "broker/bus-proxy.h"
#include "broker/identity.h"
#include "broker/service.h"

typedef struct
{
  GMainLoop       *loop;
  XaBroker        *broker;
  XaBusProxy      *proxy;
  XaIdentity      *identity;
  XaBrokerService *service;
  int              status;
} Daemon;

static void
on_name_acquired (GDBusConnection *connection,
                  const char *name,
                  gpointer user_data)
{
  g_debug ("owns %s", name);
}

static void
on_name_lost (GDBusConnection *connection,
              const char *name,
              gpointer user_data)
{
  Daemon *d = user_data;

  /* Another broker runs (or the bus went away): this one has nothing to
   * serve.  Its instances keep their sockets only while it runs. */
  g_printerr ("xdg-app-broker: %s is owned by another process, or the bus is gone\n", name);
  d->status = EXIT_FAILURE;
  g_main_loop_quit (d->loop);
}

static gboolean
on_terminate (gpointer user_data)
{
  Daemon *d = user_data;

  g_main_loop_quit (d->loop);
  return G_SOURCE_CONTINUE;
}

/* $XDG_RUNTIME_DIR/xdg-app-broker, 0700, ours. */
static char *
ensure_runtime_dir (GError **error)
{
  const char *base = g_getenv ("XDG_RUNTIME_DIR");
  g_autofree char *dir = NULL;
  struct stat st;

  if (base == NULL || !g_path_is_absolute (base))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("XDG_RUNTIME_DIR is not set"));
      return NULL;
    }
  dir = g_build_filename (base, "xdg-app-broker", NULL);
  if (mkdir (dir, 0700) != 0 && errno != EEXIST)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   _("cannot create '%s': %s"), dir, g_strerror (errno));
      return NULL;
    }
  if (lstat (dir, &st) != 0 || !S_ISDIR (st.st_mode) || st.st_uid != getuid () ||
      (st.st_mode & 0077) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("'%s' must be a directory of user %u with mode 0700"), dir, getuid ());
      return NULL;
    }
  return g_steal_pointer (&dir);
}

static int
run (int argc,
     char **argv,
     GError **error)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autofree char *runtime_dir = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  gboolean replace = FALSE;
  gboolean show_version = FALSE;
  const GOptionEntry entries[] = {
    { "replace", 'r', 0, G_OPTION_ARG_NONE, &replace,
      N_("Replace a running broker"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &show_version,
      N_("Print the version and exit"), NULL },
    G_OPTION_ENTRY_NULL
  };
  Daemon d = { .status = EXIT_SUCCESS };
  XaBrokerOptions options = { 0 };
  /* 1 MiB read at a time per direction (a pipelined burst is far less);
   * a client whose socket stays full for 30 s is dropped; 64
   * connections per instance (a GLib app opens one or two). */
  const XaBusProxyLimits limits = { 1024 * 1024, 30, 64 };
  guint owner;

  g_option_context_set_summary (context,
                                _("The session's broker: the only way out of xdg-app sandboxes.\n"
                                  "Gives every sandbox a bus socket of its own and filters each\n"
                                  "message by that app's permissions.  Started by the bus or by\n"
                                  "`xdg-app run`; there is no need to start it by hand."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, error))
    return EXIT_FAILURE;
  if (show_version)
    {
      g_print ("xdg-app-broker %s\n", XA_VERSION);
      return EXIT_SUCCESS;
    }

  runtime_dir = ensure_runtime_dir (error);
  if (runtime_dir == NULL)
    return EXIT_FAILURE;
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, error);
  if (bus == NULL)
    return EXIT_FAILURE;
  g_dbus_connection_set_exit_on_close (bus, FALSE);

  options.runtime_dir = runtime_dir;
  options.session_address = g_getenv ("DBUS_SESSION_BUS_ADDRESS");
  options.system_address = g_getenv ("DBUS_SYSTEM_BUS_ADDRESS");
  if (options.system_address == NULL)
    options.system_address = "unix:path=/run/dbus/system_bus_socket";
  d.loop = g_main_loop_new (NULL, FALSE);
  d.broker = xa_broker_new (&options);
  d.proxy = xa_bus_proxy_new (d.broker, &limits);
  d.identity = xa_identity_new (d.broker, bus);
  d.service = xa_broker_service_new (d.broker, d.identity, bus, error);
  if (d.service == NULL)
    return EXIT_FAILURE;

  owner = g_bus_own_name_on_connection (bus, XA_BROKER_SERVICE_NAME,
                                        G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE |
                                        G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT |
                                        (replace ? G_BUS_NAME_OWNER_FLAGS_REPLACE : 0),
                                        on_name_acquired, on_name_lost, &d, NULL);
  g_unix_signal_add (SIGTERM, on_terminate, &d);
  g_unix_signal_add (SIGINT, on_terminate, &d);
  g_main_loop_run (d.loop);

  g_bus_unown_name (owner);
  xa_broker_service_free (d.service);
  xa_bus_proxy_free (d.proxy);
  xa_identity_free (d.identity);
  xa_broker_free (d.broker);
  g_main_loop_unref (d.loop);
  return d.status;
}

int
main (int argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  setlocale (LC_ALL, "");
  /* One malloc arena for every thread: small blocks come from each
   * thread's own cache anyway, and the large ones of a client that has
   * gone can then be given back (malloc_trim() in broker/bus-proxy.c
   * does not shrink the other arenas' tops). */
  mallopt (M_ARENA_MAX, 1);
  status = run (argc, argv, &error);
  if (error != NULL)
    {
      g_printerr ("xdg-app-broker: %s\n", error->message);
      return EXIT_FAILURE;
    }
  return status;
}
