/* cli/cmd-build-finish.c — `xdg-app build-finish`: the command and the
 * permissions go into the build's metadata, its desktop files and icons
 * into export/ (store/build-finish.h).  The permission options are the
 * same as `xdg-app override` takes. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "store/build-finish.h"

int
xa_cmd_build_finish (int            argc,
                     char         **argv,
                     XaCliGlobals  *globals,
                     GError       **error)
{
  g_autofree char *command = NULL;
  gboolean no_exports = FALSE;
  const GOptionEntry entries[] = {
    { "command", 0, 0, G_OPTION_ARG_STRING, &command,
      N_("The command the app runs (default: the one program in files/bin)"), N_("COMMAND") },
    { "no-exports", 0, 0, G_OPTION_ARG_NONE, &no_exports,
      N_("Export no desktop files, icons or D-Bus services"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("build-finish", _("DIR"),
                  _("Set the command and the permissions of a build, and its exports."),
                  _("Writes the command and the permission options into DIR/metadata and\n"
                    "copies the desktop files, icons and D-Bus service files that the\n"
                    "app may export (named after its id) from DIR/files/share into\n"
                    "DIR/export.  Then: xdg-app build-export REPO DIR.\n"
                    "\n"
                    "Example: xdg-app build-finish --command=gedit --socket=wayland "
                    "--share=ipc /a/directory"));
  g_autoptr(XaContext) flags = xa_context_new ();
  g_autoptr(GPtrArray) messages = NULL;
  XaBuildFinishOptions options = { 0 };

  xa_usage_add_entries (usage, entries);
  xa_usage_add_permission_options (usage, flags);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 1, error))
    return EXIT_FAILURE;

  options.dir = argv[1];
  options.command = command;
  options.context = flags;
  options.no_exports = no_exports;
  if (!xa_build_finish (&options, &messages, error))
    return EXIT_FAILURE;
  for (guint i = 0; messages != NULL && i < messages->len; i++)
    {
      g_autofree char *shown = xa_escape_for_terminal (messages->pdata[i], -1);

      g_print ("%s\n", shown);
    }
  return EXIT_SUCCESS;
}
