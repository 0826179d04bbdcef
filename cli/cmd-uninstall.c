/* cli/cmd-uninstall.c — `xdg-app uninstall-runtime`, `uninstall-app` and
 * `uninstall`.  An app's data stays unless --delete-data; a runtime that
 * installed apps need stays unless --force. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/cancel.h"
#include "cli/commands.h"
#include "cli/label.h"
#include "cli/ref-match.h"
#include "cli/usage.h"
#include "policy/metadata.h"
#include "store/installation.h"
#include "store/ref.h"
#include "store/store-error.h"
#include "store/uninstall.h"

typedef struct
{
  gboolean delete_data;
  gboolean force;
  gboolean app;
  gboolean runtime;
} XaUninstallOptions;

/* The data an earlier uninstall kept can still be deleted: the ref is
 * gone, so it is made up from the id (the store only needs that). */
static XaRef *
lookup_kept_data (XaInstallation  *inst,
                  const char      *id,
                  const char      *branch)
{
  g_autofree char *data = NULL;

  if (!xa_metadata_validate_id (id, NULL))
    return NULL;
  data = xa_installation_dup_data_dir (inst, id);
  if (!g_file_test (data, G_FILE_TEST_IS_DIR))
    return NULL;
  return xa_ref_new (XA_METADATA_APP, id, NULL, branch != NULL ? branch : "master", NULL);
}

static int
uninstall (XaCliGlobals              *globals,
           const XaUninstallOptions  *o,
           XaRefMatchKinds            kinds,
           const char                *id,
           const char                *branch,
           GError                   **error)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  g_autoptr(GPtrArray) installed = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(XaRef) ref = NULL;
  g_autofree char *label = NULL;
  g_autofree char *data = NULL;
  XaUninstallFlags flags = XA_UNINSTALL_FLAGS_NONE;
  gboolean data_only = FALSE;

  if (!xa_installation_check_writable (inst, error))
    return EXIT_FAILURE;
  installed = xa_ref_match_list_installed (inst, error);
  if (installed == NULL)
    return EXIT_FAILURE;
  ref = xa_ref_match_pick (installed, kinds, id, branch, NULL, &local_error);
  if (ref == NULL && o->delete_data && (kinds & XA_REF_MATCH_APP) != 0 &&
      g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED))
    {
      ref = lookup_kept_data (inst, id, branch);
      data_only = ref != NULL;
    }
  if (ref == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return EXIT_FAILURE;
    }

  if (o->delete_data)
    flags |= XA_UNINSTALL_FLAGS_DELETE_DATA;
  if (o->force)
    flags |= XA_UNINSTALL_FLAGS_FORCE;
  if (!xa_uninstall_apply (inst, ref, flags, xa_cli_get_cancellable (), error))
    return EXIT_FAILURE;

  label = xa_label_dup_ref (ref);
  data = xa_installation_dup_data_dir (inst, xa_ref_get_id (ref));
  if (data_only)
    g_print (_("Deleted the data of %s\n"), label);
  else if (xa_ref_get_kind (ref) == XA_METADATA_APP && !o->delete_data &&
           g_file_test (data, G_FILE_TEST_IS_DIR))
    g_print (_("Uninstalled %s; its data stays in '%s' (--delete-data removes it)\n"),
             label, data);
  else
    g_print (_("Uninstalled %s\n"), label);
  return EXIT_SUCCESS;
}

int
xa_cmd_uninstall_runtime (int            argc,
                          char         **argv,
                          XaCliGlobals  *globals,
                          GError       **error)
{
  XaUninstallOptions o = { 0 };
  const GOptionEntry entries[] = {
    { "force", 0, 0, G_OPTION_ARG_NONE, &o.force,
      N_("Uninstall it even if installed apps need it"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("uninstall-runtime", _("ID BRANCH"), _("Uninstall a runtime."),
                  _("Removes runtime ID BRANCH.  Refused while installed apps need it,\n"
                    "unless --force."));

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 2, 2, error))
    return EXIT_FAILURE;
  return uninstall (globals, &o, XA_REF_MATCH_RUNTIME, argv[1], argv[2], error);
}

int
xa_cmd_uninstall_app (int            argc,
                      char         **argv,
                      XaCliGlobals  *globals,
                      GError       **error)
{
  XaUninstallOptions o = { 0 };
  const GOptionEntry entries[] = {
    { "delete-data", 0, 0, G_OPTION_ARG_NONE, &o.delete_data,
      N_("Also delete the app's data (its /var)"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("uninstall-app", _("ID [BRANCH]"), _("Uninstall an app."),
                  _("Removes app ID and its exports.  Without BRANCH, only one branch may\n"
                    "be installed.  Its data stays, for a later install, unless\n"
                    "--delete-data."));

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 2, error))
    return EXIT_FAILURE;
  return uninstall (globals, &o, XA_REF_MATCH_APP, argv[1], argc > 2 ? argv[2] : NULL, error);
}

int
xa_cmd_uninstall (int            argc,
                  char         **argv,
                  XaCliGlobals  *globals,
                  GError       **error)
{
  XaUninstallOptions o = { 0 };
  const GOptionEntry entries[] = {
    { "app", 0, 0, G_OPTION_ARG_NONE, &o.app, N_("ID is an app"), NULL },
    { "runtime", 0, 0, G_OPTION_ARG_NONE, &o.runtime, N_("ID is a runtime"), NULL },
    { "delete-data", 0, 0, G_OPTION_ARG_NONE, &o.delete_data,
      N_("Also delete an app's data (its /var)"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &o.force,
      N_("Uninstall a runtime even if installed apps need it"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("uninstall", _("ID [BRANCH]"), _("Uninstall an app or a runtime."),
                  _("Finds out whether ID is an installed app or runtime (or takes --app\n"
                    "or --runtime), then uninstalls it as uninstall-app or\n"
                    "uninstall-runtime does."));
  XaRefMatchKinds kinds;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 2, error))
    return EXIT_FAILURE;
  if (o.app && o.runtime)
    {
      xa_usage_set_error (usage, error, _("--app and --runtime cannot be used together"));
      return EXIT_FAILURE;
    }
  kinds = o.app ? XA_REF_MATCH_APP : o.runtime ? XA_REF_MATCH_RUNTIME : XA_REF_MATCH_ANY;
  return uninstall (globals, &o, kinds, argv[1], argc > 2 ? argv[2] : NULL, error);
}
