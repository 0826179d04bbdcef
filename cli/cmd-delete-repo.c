/* cli/cmd-delete-repo.c — `xdg-app delete-repo` (Flatpak: remote-delete). */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "store/remote.h"

int
xa_cmd_delete_repo (int            argc,
                    char         **argv,
                    XaCliGlobals  *globals,
                    GError       **error)
{
  gboolean force = FALSE;
  const GOptionEntry entries[] = {
    { "force", 0, 0, G_OPTION_ARG_NONE, &force,
      N_("Delete it even if installed apps or runtimes came from it (they stay, "
         "but cannot be updated)"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new (argv[0], _("NAME"), _("Delete a remote repository."),
                  _("Forgets remote NAME.  Refused while installed apps or runtimes came\n"
                    "from it, unless --force.  Flatpak calls this remote-delete."));

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 1, error))
    return EXIT_FAILURE;
  if (!xa_remote_delete (xa_cli_globals_get_installation (globals), argv[1], force, error))
    return EXIT_FAILURE;
  return EXIT_SUCCESS;
}
