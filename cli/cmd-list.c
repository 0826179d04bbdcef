/* cli/cmd-list.c — `xdg-app list`: one line per installed ref on stdout,
 * tab-separated columns that a script can cut. */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/label.h"
#include "cli/usage.h"
#include "policy/escape.h"
#include "policy/metadata.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/ref.h"

static gboolean
print_kind (XaInstallation  *inst,
            XaMetadataKind   kind,
            GError         **error)
{
  g_autoptr(GPtrArray) deployments = xa_deployment_list (inst, kind, error);

  if (deployments == NULL)
    return FALSE;
  for (guint i = 0; i < deployments->len; i++)
    {
      XaDeployment *d = deployments->pdata[i];
      const char *origin = xa_deployment_get_origin (d);
      /* The origin comes from a file in the deployment; the rest was
       * checked when the ref was made. */
      g_autofree char *shown_origin = xa_escape_for_terminal (origin != NULL ? origin : "-", -1);

      g_print ("%s\t%s\t%s\t%s\t%s\t%.12s\t%s\n",
               xa_deployment_get_id (d), xa_deployment_get_branch (d),
               xa_deployment_get_arch (d), xa_ref_get_kind_name (xa_deployment_get_ref (d)),
               shown_origin, xa_deployment_get_commit (d), xa_label_get_scope (inst));
    }
  return TRUE;
}

int
xa_cmd_list (int            argc,
             char         **argv,
             XaCliGlobals  *globals,
             GError       **error)
{
  gboolean app = FALSE;
  gboolean runtime = FALSE;
  const GOptionEntry entries[] = {
    { "app", 0, 0, G_OPTION_ARG_NONE, &app, N_("List apps only"), NULL },
    { "runtime", 0, 0, G_OPTION_ARG_NONE, &runtime, N_("List runtimes only"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("list", "", _("List the installed apps and runtimes."),
                  _("Prints one line per installed ref, apps first, with tab-separated\n"
                    "columns:\n"
                    "  ID  BRANCH  ARCH  app|runtime  ORIGIN  COMMIT (12 digits)  user|system\n"
                    "Without --user or --system, both installations are listed.\n"
                    "\n"
                    "Example: xdg-app list --app | cut -f1"));
  XaInstallation *const *search_path;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 0, 0, error))
    return EXIT_FAILURE;
  if (app && runtime)
    {
      xa_usage_set_error (usage, error, _("--app and --runtime cannot be used together"));
      return EXIT_FAILURE;
    }
  search_path = xa_cli_globals_get_search_path (globals);
  for (gsize i = 0; search_path[i] != NULL; i++)
    if ((!runtime && !print_kind (search_path[i], XA_METADATA_APP, error)) ||
        (!app && !print_kind (search_path[i], XA_METADATA_RUNTIME, error)))
      return EXIT_FAILURE;
  return EXIT_SUCCESS;
}
