/* cli/cmd-add-repo.c — `xdg-app add-repo` (Flatpak: remote-add): records
 * a remote in the chosen installation.  Nothing is fetched: the remote's
 * summary is read by the first install. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "store/remote.h"
#include "store/store-error.h"

typedef struct
{
  gboolean  no_gpg_verify;
  gboolean  if_not_exists;
  char     *gpg_import;
  char     *title;
} XaAddRepoOptions;

static void
xa_add_repo_options_clear (XaAddRepoOptions *o)
{
  g_clear_pointer (&o->gpg_import, g_free);
  g_clear_pointer (&o->title, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XaAddRepoOptions, xa_add_repo_options_clear)

int
xa_cmd_add_repo (int            argc,
                 char         **argv,
                 XaCliGlobals  *globals,
                 GError       **error)
{
  g_auto(XaAddRepoOptions) o = { 0 };
  const GOptionEntry entries[] = {
    { "no-gpg-verify", 0, 0, G_OPTION_ARG_NONE, &o.no_gpg_verify,
      N_("Do not check GPG signatures of the remote's commits and summary"), NULL },
    { "gpg-import", 0, 0, G_OPTION_ARG_FILENAME, &o.gpg_import,
      N_("Trust the GPG keys in KEYFILE for this remote"), N_("KEYFILE") },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o.title,
      N_("A title for the remote, for people"), N_("TITLE") },
    { "if-not-exists", 0, 0, G_OPTION_ARG_NONE, &o.if_not_exists,
      N_("Do nothing if a remote of that name exists"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new (argv[0], _("NAME URL"), _("Add a remote repository."),
                  _("Records the OSTree repository at URL (http://, https:// or file://)\n"
                    "as remote NAME of the installation.  Its commits and summary must\n"
                    "be signed by a key of --gpg-import or of ostree's keyrings, unless\n"
                    "--no-gpg-verify.  Flatpak calls this remote-add.\n"
                    "\n"
                    "Example: xdg-app add-repo --no-gpg-verify testrepo http://127.0.0.1:8000/repo"));
  g_autoptr(GError) local_error = NULL;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 2, 2, error))
    return EXIT_FAILURE;

  if (!xa_remote_add (xa_cli_globals_get_installation (globals), argv[1], argv[2],
                      !o.no_gpg_verify, o.gpg_import, o.title, &local_error))
    {
      if (o.if_not_exists &&
          g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_EXISTS))
        return EXIT_SUCCESS;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
