/* cli/cmd-info.c — `xdg-app info`: what is installed as ID, as
 * "Key: value" lines; with --show-permissions, what a run of it would be
 * granted (metadata, then the installation's overrides) as policy/
 * words it.  Everything from the deployment is escaped. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/label.h"
#include "cli/usage.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "policy/metadata.h"
#include "policy/override.h"
#include "run/user-net.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/ref.h"
#include "store/store-error.h"

typedef struct
{
  gboolean show_permissions;
  int      landlock_abi_max;   /* hidden, for tests; -1: the kernel's */
  gboolean app;
  gboolean runtime;
} XaInfoOptions;

/* The first installation of the search path that has ID [BRANCH]: an app
 * before a runtime, unless told which. */
static XaDeployment *
find_deployment (XaCliGlobals         *globals,
                 const XaInfoOptions  *o,
                 const char           *id,
                 const char           *branch,
                 GError              **error)
{
  XaInstallation *const *search_path = xa_cli_globals_get_search_path (globals);
  const XaMetadataKind kinds[] = { XA_METADATA_APP, XA_METADATA_RUNTIME };

  if (!xa_metadata_validate_id (id, error) ||
      (branch != NULL && !xa_metadata_validate_branch (branch, error)))
    return NULL;
  for (gsize i = 0; search_path[i] != NULL; i++)
    for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        g_autoptr(GError) local_error = NULL;
        XaDeployment *d;

        if ((kinds[k] == XA_METADATA_APP && o->runtime) ||
            (kinds[k] == XA_METADATA_RUNTIME && o->app))
          continue;
        d = xa_deployment_open (search_path[i], kinds[k], id, NULL, branch, &local_error);
        if (d != NULL)
          return d;
        if (!g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED))
          {
            g_propagate_error (error, g_steal_pointer (&local_error));
            return NULL;
          }
      }
  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
               _("'%s' is not installed; try: xdg-app list"), id);
  return NULL;
}

static void
print_field (const char *key,
             const char *value)
{
  g_autofree char *shown = NULL;

  if (value == NULL)
    return;
  shown = xa_escape_for_terminal (value, -1);
  g_print ("%s: %s\n", key, shown);
}

static void
print_info (XaDeployment *d)
{
  XaInstallation *inst = xa_deployment_get_installation (d);
  XaMetadata *metadata = xa_deployment_get_metadata (d);
  const XaRef *ref = xa_deployment_get_ref (d);
  g_autofree char *data = NULL;

  /* Keys are not translated: scripts read them. */
  print_field ("ID", xa_deployment_get_id (d));
  print_field ("Kind", xa_ref_get_kind_name (ref));
  print_field ("Ref", xa_ref_get_string (ref));
  print_field ("Arch", xa_deployment_get_arch (d));
  print_field ("Branch", xa_deployment_get_branch (d));
  print_field ("Origin", xa_deployment_get_origin (d));
  print_field ("Commit", xa_deployment_get_commit (d));
  print_field ("Installation", xa_label_get_scope (inst));
  print_field ("Location", xa_deployment_get_dir (d));
  print_field ("Runtime", xa_metadata_get_runtime (metadata));
  print_field ("Sdk", xa_metadata_get_sdk (metadata));
  print_field ("Command", xa_metadata_get_command (metadata));
  if (xa_ref_get_kind (ref) == XA_METADATA_APP)
    {
      data = xa_installation_dup_data_dir (inst, xa_deployment_get_id (d));
      print_field ("Data", data);
    }
}

/* Metadata, then the overrides of the installation the app comes from
 * (global, then its own): what `xdg-app run` starts from. */
static gboolean
print_permissions (XaDeployment  *d,
                   int            landlock_abi_max,
                   GError       **error)
{
  XaMetadata *metadata = xa_deployment_get_metadata (d);
  g_autoptr(XaContext) context = xa_context_dup (xa_metadata_get_context (metadata));
  g_autofree char *text = NULL;
  const char *const *warnings;

  if (xa_deployment_get_kind (d) == XA_METADATA_APP)
    {
      g_autofree char *dir = xa_installation_dup_overrides_dir (xa_deployment_get_installation (d));
      g_autoptr(XaContext) overrides = xa_override_load_merged (dir, xa_deployment_get_id (d), error);

      if (overrides == NULL)
        return FALSE;
      xa_context_merge (context, overrides);
    }
  warnings = xa_context_get_warnings (context);
  for (gsize i = 0; warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), warnings[i]);
  /* Escaped by policy/, and a "note:" line when the whole session bus
   * is granted. */
  text = xa_context_to_text (context);
  g_print ("%s", text);
  /* What keeps the app from the host's abstract sockets on this kernel
   * (run/user-net.h); a comment, so that the output stays a keyfile. */
  if (xa_deployment_get_kind (d) == XA_METADATA_APP)
    {
      int abi = xa_user_net_landlock_abi (landlock_abi_max);
      g_autofree char *pasta = NULL;
      XaUserNetMode mode = xa_user_net_choose (xa_context_has_share (context, XA_SHARE_NETWORK),
                                               abi, &pasta);
      g_autofree char *line = xa_user_net_describe (mode, abi);

      g_print ("# network: %s\n", line);
    }
  return TRUE;
}

int
xa_cmd_info (int            argc,
             char         **argv,
             XaCliGlobals  *globals,
             GError       **error)
{
  XaInfoOptions o = { .landlock_abi_max = -1 };
  const GOptionEntry entries[] = {
    { "show-permissions", 'M', 0, G_OPTION_ARG_NONE, &o.show_permissions,
      N_("Show what the app is granted: its metadata and the overrides"), NULL },
    { "app", 0, 0, G_OPTION_ARG_NONE, &o.app, N_("ID is an app"), NULL },
    { "runtime", 0, 0, G_OPTION_ARG_NONE, &o.runtime, N_("ID is a runtime"), NULL },
    /* Tests act as on an older kernel with it; not for users. */
    { "landlock-abi-max", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &o.landlock_abi_max, NULL, "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("info", _("ID [BRANCH]"), _("Show an installed app or runtime."),
                  _("Prints \"Key: value\" lines: ID, Kind, Ref, Arch, Branch, Origin, Commit,\n"
                    "Installation, Location, Runtime, Sdk, Command, Data.  An app is looked\n"
                    "for before a runtime, the user's installation before the system's.\n"
                    "\n"
                    "With --show-permissions, prints what the app is granted, in the\n"
                    "metadata's keyfile form: its metadata with the installation's\n"
                    "overrides (xdg-app override) applied, the permissions a plain\n"
                    "`xdg-app run ID` starts with."));
  g_autoptr(XaDeployment) d = NULL;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 1, 2, error))
    return EXIT_FAILURE;
  if (o.app && o.runtime)
    {
      xa_usage_set_error (usage, error, _("--app and --runtime cannot be used together"));
      return EXIT_FAILURE;
    }
  d = find_deployment (globals, &o, argv[1], argc > 2 ? argv[2] : NULL, error);
  if (d == NULL)
    return EXIT_FAILURE;
  if (o.show_permissions)
    return print_permissions (d, o.landlock_abi_max, error) ? EXIT_SUCCESS : EXIT_FAILURE;
  print_info (d);
  return EXIT_SUCCESS;
}
