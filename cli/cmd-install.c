/* cli/cmd-install.c — `xdg-app install-runtime`, `install-app` and
 * `install`: find the ref in the remote's summary, pull it (progress on a
 * terminal), deploy it, and say what happened. */
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/cancel.h"
#include "cli/commands.h"
#include "cli/label.h"
#include "cli/progress.h"
#include "cli/ref-match.h"
#include "cli/usage.h"
#include "policy/metadata.h"
#include "store/deploy.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/remote.h"
#include "store/store-error.h"
#include "store/summary.h"

/* The refs (XaRef *) of remote @remote for this machine's arch, read from
 * its summary and sorted.  Refs the store would refuse are left out. */
static GPtrArray *
list_remote_refs (XaInstallation  *inst,
                  const char      *remote,
                  GCancellable    *cancellable,
                  GError         **error)
{
  const char *arch = xa_ref_get_default_arch ();
  g_autoptr(GHashTable) table = xa_remote_list_refs (inst, remote, arch, cancellable, error);
  g_autoptr(GPtrArray) refs = NULL;
  GHashTableIter iter;
  gpointer key;

  if (table == NULL)
    return NULL;
  refs = g_ptr_array_new_with_free_func ((GDestroyNotify) xa_ref_free);
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      XaRef *ref = xa_ref_parse (key, NULL);

      if (ref == NULL)
        continue;
      if (strcmp (xa_ref_get_arch (ref), arch) != 0)
        {
          xa_ref_free (ref);
          continue;
        }
      g_ptr_array_add (refs, ref);
    }
  xa_ref_match_sort (refs);
  return g_steal_pointer (&refs);
}

static void
print_warnings (GPtrArray *warnings)
{
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) warnings->pdata[i]);
}

/* An app installs without its runtime (the user may install that next),
 * but it will not run: say so, and how to fix it. */
static void
warn_missing_runtime (XaCliGlobals *globals,
                      const XaRef  *ref,
                      const char   *remote)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  g_autoptr(XaDeployment) app = xa_deployment_open_ref (inst, ref, NULL);
  g_autoptr(XaDeployment) runtime = NULL;
  g_autoptr(XaRef) runtime_ref = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *spec;

  if (app == NULL)
    return;
  spec = xa_metadata_get_runtime (xa_deployment_get_metadata (app));
  runtime = xa_deployment_find_runtime (xa_cli_globals_get_search_path (globals), spec,
                                        &local_error);
  if (runtime != NULL ||
      !g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED))
    return;
  runtime_ref = xa_ref_parse_runtime (spec, NULL);
  if (runtime_ref == NULL)
    return;
  g_printerr (_("warning: '%s' needs runtime '%s', which is not installed; "
                "try: xdg-app install-runtime %s %s %s\n"),
              xa_ref_get_id (ref), spec, remote, xa_ref_get_id (runtime_ref),
              xa_ref_get_branch (runtime_ref));
}

static gboolean
install_ref (XaCliGlobals  *globals,
             const char    *remote,
             const XaRef   *ref,
             GError       **error)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  GCancellable *cancellable = xa_cli_get_cancellable ();
  g_autofree char *label = xa_label_dup_ref (ref);
  g_autofree char *active = xa_installation_lookup_active (inst, ref);
  g_autoptr(XaProgress) progress = NULL;
  g_auto(XaDeployResult) result = { 0 };
  g_autofree char *commit = NULL;

  /* Before anything is fetched: both are cheap to find out. */
  if (active != NULL)
    {
      if (xa_ref_get_kind (ref) == XA_METADATA_APP)
        g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_ALREADY_INSTALLED,
                     _("%s is already installed; try: xdg-app update-app %s %s"),
                     label, xa_ref_get_id (ref), xa_ref_get_branch (ref));
      else
        g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_ALREADY_INSTALLED,
                     _("%s is already installed; try: xdg-app update-runtime %s %s"),
                     label, xa_ref_get_id (ref), xa_ref_get_branch (ref));
      return FALSE;
    }
  if (!xa_installation_check_writable (inst, error))
    return FALSE;

  progress = xa_progress_new (xa_ref_get_string (ref));
  if (!xa_pull_ref (inst, remote, xa_ref_get_string (ref),
                    xa_progress_get_pull_progress (progress), cancellable, &commit, error))
    return FALSE;
  g_clear_pointer (&progress, xa_progress_free);
  if (!xa_deploy_install_full (inst, ref, remote, commit, cancellable, &result, error))
    return FALSE;

  print_warnings (result.warnings);
  g_print (_("Installed %s from '%s', commit %.12s\n"), label, remote, commit);
  if (xa_ref_get_kind (ref) == XA_METADATA_APP)
    warn_missing_runtime (globals, ref, remote);
  return TRUE;
}

/* The one ref of remote @remote that ID [BRANCH] names. */
static XaRef *
resolve_in_remote (XaCliGlobals     *globals,
                   const char       *remote,
                   XaRefMatchKinds   kinds,
                   const char       *id,
                   const char       *branch,
                   GError          **error)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  g_autoptr(GPtrArray) refs = NULL;
  g_autofree char *where = NULL;

  /* A typo is found before anything is fetched. */
  if (!xa_remote_validate_name (remote, error) ||
      !xa_metadata_validate_id (id, error) ||
      (branch != NULL && !xa_metadata_validate_branch (branch, error)))
    return NULL;
  /* The summary read here is the one the pull then uses. */
  if (!xa_summary_enable_cache (inst, xa_cli_get_cancellable (), error))
    return NULL;
  refs = list_remote_refs (inst, remote, xa_cli_get_cancellable (), error);
  if (refs == NULL)
    return NULL;
  where = g_strdup_printf (_("remote '%s'"), remote);
  return xa_ref_match_pick (refs, kinds, id, branch, where, error);
}

int
xa_cmd_install_runtime (int            argc,
                        char         **argv,
                        XaCliGlobals  *globals,
                        GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new ("install-runtime", _("REMOTE ID BRANCH"), _("Install a runtime from a remote."),
                  _("Pulls runtime/ID/ARCH/BRANCH from REMOTE (made with add-repo) and\n"
                    "deploys it.  Progress is shown on a terminal.\n"
                    "\n"
                    "Example: xdg-app install-runtime testrepo org.gnome.Platform 3.16"));
  g_autoptr(XaRef) ref = NULL;

  if (!xa_usage_parse (usage, globals, &argc, &argv, 3, 3, error))
    return EXIT_FAILURE;
  ref = resolve_in_remote (globals, argv[1], XA_REF_MATCH_RUNTIME, argv[2], argv[3], error);
  if (ref == NULL || !install_ref (globals, argv[1], ref, error))
    return EXIT_FAILURE;
  return EXIT_SUCCESS;
}

int
xa_cmd_install_app (int            argc,
                    char         **argv,
                    XaCliGlobals  *globals,
                    GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new ("install-app", _("REMOTE ID [BRANCH]"), _("Install an app from a remote."),
                  _("Pulls app/ID/ARCH/BRANCH from REMOTE and deploys it, with its desktop\n"
                    "files and icons exported.  Without BRANCH, the remote must carry only\n"
                    "one.  The app's runtime is installed with install-runtime.\n"
                    "\n"
                    "Example: xdg-app install-app testrepo org.gnome.Builder"));
  g_autoptr(XaRef) ref = NULL;

  if (!xa_usage_parse (usage, globals, &argc, &argv, 2, 3, error))
    return EXIT_FAILURE;
  ref = resolve_in_remote (globals, argv[1], XA_REF_MATCH_APP, argv[2],
                           argc > 3 ? argv[3] : NULL, error);
  if (ref == NULL || !install_ref (globals, argv[1], ref, error))
    return EXIT_FAILURE;
  return EXIT_SUCCESS;
}

int
xa_cmd_install (int            argc,
                char         **argv,
                XaCliGlobals  *globals,
                GError       **error)
{
  gboolean app = FALSE;
  gboolean runtime = FALSE;
  const GOptionEntry entries[] = {
    { "app", 0, 0, G_OPTION_ARG_NONE, &app, N_("ID is an app"), NULL },
    { "runtime", 0, 0, G_OPTION_ARG_NONE, &runtime, N_("ID is a runtime"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("install", _("REMOTE ID|REF [BRANCH]"),
                  _("Install an app or a runtime from a remote."),
                  _("Finds out from the remote's refs whether ID is an app or a runtime\n"
                    "(or takes --app or --runtime), then installs it as install-app or\n"
                    "install-runtime does.  A full ref (app/ID/ARCH/BRANCH) works too.\n"
                    "\n"
                    "Example: xdg-app install testrepo org.gnome.Platform 3.16"));
  XaRefMatchKinds kinds = XA_REF_MATCH_ANY;
  g_autoptr(XaRef) ref = NULL;
  const char *id;
  const char *branch;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 2, 3, error))
    return EXIT_FAILURE;
  if (app && runtime)
    {
      xa_usage_set_error (usage, error, _("--app and --runtime cannot be used together"));
      return EXIT_FAILURE;
    }
  kinds = app ? XA_REF_MATCH_APP : runtime ? XA_REF_MATCH_RUNTIME : XA_REF_MATCH_ANY;
  id = argv[2];
  branch = argc > 3 ? argv[3] : NULL;

  if (strchr (id, '/') != NULL)
    {
      g_autoptr(XaRef) full = xa_ref_parse (id, error);

      if (full == NULL)
        return EXIT_FAILURE;
      if (branch != NULL)
        {
          xa_usage_set_error (usage, error, _("a full ref names its branch; drop '%s'"), branch);
          return EXIT_FAILURE;
        }
      kinds = xa_ref_get_kind (full) == XA_METADATA_APP ? XA_REF_MATCH_APP : XA_REF_MATCH_RUNTIME;
      ref = resolve_in_remote (globals, argv[1], kinds, xa_ref_get_id (full),
                               xa_ref_get_branch (full), error);
    }
  else
    ref = resolve_in_remote (globals, argv[1], kinds, id, branch, error);
  if (ref == NULL || !install_ref (globals, argv[1], ref, error))
    return EXIT_FAILURE;
  return EXIT_SUCCESS;
}
