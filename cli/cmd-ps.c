/* cli/cmd-ps.c — `xdg-app ps` and `xdg-app kill`: the running instances,
 * as the broker knows them (org.freedesktop.XdgApp.Broker1 on the session
 * bus).  Neither starts the broker: with none running, nothing runs. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "interfaces/xa-dbus-broker1.h"
#include "policy/escape.h"

#define BROKER_NAME "org.freedesktop.XdgApp.Broker"
#define BROKER_PATH "/org/freedesktop/XdgApp/Broker"

/* A proxy for the broker, whether it runs or not; NULL with no error
 * when there is no session bus (and so no broker). */
static XaDbusBroker1 *
connect_broker (GError **error)
{
  g_autoptr(GDBusConnection) bus = NULL;

  /* GIO would try to autolaunch one through X11. */
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    return NULL;
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, error);
  if (bus == NULL)
    {
      g_prefix_error (error, _("no session bus: "));
      return NULL;
    }
  return xa_dbus_broker1_proxy_new_sync (bus, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START |
                                              G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                              G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS,
                                         BROKER_NAME, BROKER_PATH, NULL, error);
}

static gboolean
is_running (XaDbusBroker1 *broker)
{
  g_autofree char *owner = g_dbus_proxy_get_name_owner (G_DBUS_PROXY (broker));

  return owner != NULL;
}

int
xa_cmd_ps (int            argc,
           char         **argv,
           XaCliGlobals  *globals,
           GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new ("ps", "", _("List the running instances."),
                  _("Prints one line per running sandbox, oldest first, with tab-separated\n"
                    "columns:\n"
                    "  INSTANCE  PID  APP  CLIENTS (bus connections open)\n"
                    "PID is the sandbox's monitor, the process that `xdg-app run` became."));
  g_autoptr(XaDbusBroker1) broker = NULL;
  g_autoptr(GVariant) instances = NULL;
  g_autoptr(GVariantIter) iter = NULL;
  const char *id;
  const char *app_id;
  guint32 pid;
  GVariant *details;

  if (!xa_usage_parse (usage, globals, &argc, &argv, 0, 0, error))
    return EXIT_FAILURE;
  broker = connect_broker (error);
  if (error != NULL && *error != NULL)
    return EXIT_FAILURE;
  /* No broker: nothing runs. */
  if (broker == NULL || !is_running (broker))
    return EXIT_SUCCESS;
  if (!xa_dbus_broker1_call_list_instances_sync (broker, &instances, NULL, error))
    return EXIT_FAILURE;

  iter = g_variant_iter_new (instances);
  while (g_variant_iter_next (iter, "(&s&su@a{sv})", &id, &app_id, &pid, &details))
    {
      g_autofree char *shown_id = xa_escape_for_terminal (id, -1);
      g_autofree char *shown_app = xa_escape_for_terminal (app_id, -1);
      guint32 clients = 0;

      (void) g_variant_lookup (details, "clients", "u", &clients);
      g_print ("%s\t%u\t%s\t%u\n", shown_id, pid, shown_app, clients);
      g_variant_unref (details);
    }
  return EXIT_SUCCESS;
}

int
xa_cmd_kill (int            argc,
             char         **argv,
             XaCliGlobals  *globals,
             GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new ("kill", _("INSTANCE|APP"), _("Stop a running instance."),
                  _("Ends the instance with that id (see `xdg-app ps`), or every instance\n"
                    "of that app: SIGKILL to its sandbox, then its bus sockets go."));
  g_autoptr(XaDbusBroker1) broker = NULL;
  g_autoptr(GVariant) instances = NULL;
  g_autoptr(GVariantIter) iter = NULL;
  g_autofree char *shown = NULL;
  guint n_killed = 0;
  const char *id;
  const char *app_id;

  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 1, error))
    return EXIT_FAILURE;
  shown = xa_escape_for_terminal (argv[1], -1);
  broker = connect_broker (error);
  if (error != NULL && *error != NULL)
    return EXIT_FAILURE;
  if (broker == NULL || !is_running (broker))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("no instance '%s': nothing runs (the broker is not running)"), shown);
      return EXIT_FAILURE;
    }
  if (!xa_dbus_broker1_call_list_instances_sync (broker, &instances, NULL, error))
    return EXIT_FAILURE;

  iter = g_variant_iter_new (instances);
  while (g_variant_iter_next (iter, "(&s&su@a{sv})", &id, &app_id, NULL, NULL))
    {
      if (g_strcmp0 (id, argv[1]) != 0 && g_strcmp0 (app_id, argv[1]) != 0)
        continue;
      if (!xa_dbus_broker1_call_kill_instance_sync (broker, id, NULL, error))
        return EXIT_FAILURE;
      n_killed++;
    }
  if (n_killed == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("no running instance or app '%s'; see `xdg-app ps`"), shown);
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
