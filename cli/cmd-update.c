/* cli/cmd-update.c — `xdg-app update-runtime`, `update-app` and `update`:
 * pull each ref again from the remote it came from (only what changed),
 * deploy the new commit, and say what changed or that nothing did. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/cancel.h"
#include "cli/commands.h"
#include "cli/label.h"
#include "cli/progress.h"
#include "cli/ref-match.h"
#include "cli/usage.h"
#include "policy/escape.h"
#include "policy/metadata.h"
#include "store/deploy.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/store-error.h"

/* Updates @ref; @out_changed says whether a new commit was deployed.
 * Prints the deploy's warnings and a line when something changed. */
static gboolean
update_ref (XaCliGlobals  *globals,
            const XaRef   *ref,
            gboolean      *out_changed,
            GError       **error)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  GCancellable *cancellable = xa_cli_get_cancellable ();
  g_autofree char *label = xa_label_dup_ref (ref);
  g_autoptr(XaDeployment) current = NULL;
  g_autoptr(XaProgress) progress = NULL;
  g_auto(XaDeployResult) result = { 0 };
  g_autofree char *commit = NULL;
  const char *origin;

  if (!xa_installation_check_writable (inst, error))
    return FALSE;
  current = xa_deployment_open_ref (inst, ref, error);
  if (current == NULL)
    return FALSE;
  origin = xa_deployment_get_origin (current);
  if (origin == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_NOT_FOUND,
                   _("%s does not record the remote it came from; uninstall and "
                     "install it again"), label);
      return FALSE;
    }

  progress = xa_progress_new (xa_ref_get_string (ref));
  if (!xa_pull_ref (inst, origin, xa_ref_get_string (ref),
                    xa_progress_get_pull_progress (progress), cancellable, &commit, error))
    return FALSE;
  g_clear_pointer (&progress, xa_progress_free);
  if (!xa_deploy_update_full (inst, ref, commit, cancellable, &result, error))
    return FALSE;

  for (guint i = 0; i < result.warnings->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) result.warnings->pdata[i]);
  if (result.changed)
    g_print (_("Updated %s to commit %.12s\n"), label, commit);
  *out_changed = result.changed;
  return TRUE;
}

/* update-app and update-runtime: one ref, and a line either way. */
static int
update_one (XaCliGlobals     *globals,
            XaRefMatchKinds   kinds,
            const char       *id,
            const char       *branch,
            GError          **error)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  g_autoptr(GPtrArray) installed = xa_ref_match_list_installed (inst, error);
  g_autoptr(XaRef) ref = NULL;
  g_autofree char *label = NULL;
  gboolean changed = FALSE;

  if (installed == NULL)
    return EXIT_FAILURE;
  ref = xa_ref_match_pick (installed, kinds, id, branch, NULL, error);
  if (ref == NULL || !update_ref (globals, ref, &changed, error))
    return EXIT_FAILURE;
  label = xa_label_dup_ref (ref);
  if (!changed)
    g_print (_("%s is already up to date\n"), label);
  return EXIT_SUCCESS;
}

int
xa_cmd_update_runtime (int            argc,
                       char         **argv,
                       XaCliGlobals  *globals,
                       GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new ("update-runtime", _("ID BRANCH"), _("Update an installed runtime."),
                  _("Pulls what changed in runtime ID BRANCH from the remote it was\n"
                    "installed from, and deploys it; apps that are running keep theirs."));

  if (!xa_usage_parse (usage, globals, &argc, &argv, 2, 2, error))
    return EXIT_FAILURE;
  return update_one (globals, XA_REF_MATCH_RUNTIME, argv[1], argv[2], error);
}

int
xa_cmd_update_app (int            argc,
                   char         **argv,
                   XaCliGlobals  *globals,
                   GError       **error)
{
  g_autoptr(XaUsage) usage =
    xa_usage_new ("update-app", _("ID [BRANCH]"), _("Update an installed app."),
                  _("Pulls what changed in app ID from the remote it was installed from,\n"
                    "and deploys it.  Without BRANCH, only one branch may be installed.\n"
                    "The app's data is kept."));

  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 2, error))
    return EXIT_FAILURE;
  return update_one (globals, XA_REF_MATCH_APP, argv[1], argc > 2 ? argv[2] : NULL, error);
}

/* The refs `update` works on: every installed one of @kinds, or every
 * branch of the ids named.  An id that is not installed is refused
 * before anything is pulled. */
static GPtrArray *
select_refs (GPtrArray         *installed,
             XaRefMatchKinds    kinds,
             char             **ids,
             GError           **error)
{
  g_autoptr(GPtrArray) selected = g_ptr_array_new ();

  for (guint i = 0; ids[0] == NULL && i < installed->len; i++)
    {
      const XaRef *ref = installed->pdata[i];
      XaRefMatchKinds kind = xa_ref_get_kind (ref) == XA_METADATA_APP ? XA_REF_MATCH_APP
                                                                     : XA_REF_MATCH_RUNTIME;

      if ((kinds & kind) != 0)
        g_ptr_array_add (selected, (gpointer) ref);
    }
  for (gsize i = 0; ids[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) found = NULL;

      if (!xa_metadata_validate_id (ids[i], error))
        return NULL;
      found = xa_ref_match_filter (installed, kinds, ids[i], NULL);
      if (found->len == 0)
        {
          g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
                       _("'%s' is not installed"), ids[i]);
          return NULL;
        }
      g_ptr_array_extend (selected, found, NULL, NULL);
    }
  return g_steal_pointer (&selected);
}

int
xa_cmd_update (int            argc,
               char         **argv,
               XaCliGlobals  *globals,
               GError       **error)
{
  gboolean app = FALSE;
  gboolean runtime = FALSE;
  const GOptionEntry entries[] = {
    { "app", 0, 0, G_OPTION_ARG_NONE, &app, N_("Only apps"), NULL },
    { "runtime", 0, 0, G_OPTION_ARG_NONE, &runtime, N_("Only runtimes"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("update", _("[ID…]"), _("Update installed apps and runtimes."),
                  _("Updates every installed app and runtime of the installation, or\n"
                    "those named (each installed branch).  One that cannot be updated is\n"
                    "reported and the others are still updated."));
  g_autoptr(GPtrArray) installed = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  XaRefMatchKinds kinds;
  guint n_changed = 0;
  guint n_failed = 0;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 0, XA_USAGE_ANY, error))
    return EXIT_FAILURE;
  if (app && runtime)
    {
      xa_usage_set_error (usage, error, _("--app and --runtime cannot be used together"));
      return EXIT_FAILURE;
    }
  kinds = app ? XA_REF_MATCH_APP : runtime ? XA_REF_MATCH_RUNTIME : XA_REF_MATCH_ANY;

  installed = xa_ref_match_list_installed (xa_cli_globals_get_installation (globals), error);
  if (installed == NULL)
    return EXIT_FAILURE;
  selected = select_refs (installed, kinds, argv + 1, error);
  if (selected == NULL)
    return EXIT_FAILURE;
  if (selected->len == 0)
    {
      g_print (_("Nothing to update: nothing is installed\n"));
      return EXIT_SUCCESS;
    }

  for (guint i = 0; i < selected->len; i++)
    {
      g_autoptr(GError) local_error = NULL;
      gboolean changed = FALSE;

      if (update_ref (globals, selected->pdata[i], &changed, &local_error))
        n_changed += changed ? 1 : 0;
      else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return EXIT_FAILURE;
        }
      else
        {
          /* One line: it is not the error main() prints. */
          g_autofree char *shown =
            xa_escape_for_terminal (g_strdelimit (local_error->message, "\n", ' '), -1);

          n_failed++;
          g_printerr (_("warning: %s\n"), shown);
        }
    }
  if (n_failed > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   ngettext ("%u of %u updates failed (see the warning above)",
                             "%u of %u updates failed (see the warnings above)", n_failed),
                   n_failed, selected->len);
      return EXIT_FAILURE;
    }
  if (n_changed == 0)
    g_print (_("Nothing to update: everything is up to date\n"));
  return EXIT_SUCCESS;
}
