/* cli/cmd-list-repos.c — `xdg-app list-repos` (Flatpak: remotes): one
 * line per remote on stdout, tab-separated, for people and scripts. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/label.h"
#include "cli/usage.h"
#include "policy/escape.h"
#include "store/installation.h"
#include "store/remote.h"

static gboolean
print_remotes (XaInstallation  *inst,
               GError         **error)
{
  g_autoptr(GPtrArray) remotes = NULL;

  /* Listing creates nothing: an installation without a repository has
   * no remotes. */
  if (!xa_installation_has_repo (inst))
    return TRUE;
  remotes = xa_remote_list (inst, error);
  if (remotes == NULL)
    return FALSE;
  for (guint i = 0; i < remotes->len; i++)
    {
      XaRemote *remote = remotes->pdata[i];
      const char *title = xa_remote_get_title (remote);
      /* A remote's config can be edited by hand: tabs and newlines in it
       * would break the columns. */
      g_autofree char *name = xa_escape_for_terminal (xa_remote_get_name (remote), -1);
      g_autofree char *url = xa_escape_for_terminal (xa_remote_get_url (remote), -1);
      g_autofree char *shown_title = xa_escape_for_terminal (title != NULL ? title : "-", -1);

      g_print ("%s\t%s\t%s\t%s\t%s\n", name, url, shown_title,
               xa_remote_get_gpg_verify (remote) ? "gpg-verify" : "no-gpg-verify",
               xa_label_get_scope (inst));
    }
  return TRUE;
}

int
xa_cmd_list_repos (int            argc,
                   char         **argv,
                   XaCliGlobals  *globals,
                   GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new (argv[0], "", _("List the remote repositories."),
                  _("Prints one line per remote, with tab-separated columns:\n"
                    "  NAME  URL  TITLE (- when none)  gpg-verify|no-gpg-verify  user|system\n"
                    "Without --user or --system, both installations are listed.\n"
                    "Flatpak calls this remotes."));
  XaInstallation *const *search_path;

  if (!xa_usage_parse (usage, globals, &argc, &argv, 0, 0, error))
    return EXIT_FAILURE;
  search_path = xa_cli_globals_get_search_path (globals);
  for (gsize i = 0; search_path[i] != NULL; i++)
    if (!print_remotes (search_path[i], error))
      return EXIT_FAILURE;
  return EXIT_SUCCESS;
}
