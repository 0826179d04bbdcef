/* cli/cmd-build-init.c — `xdg-app build-init`: lays out a build directory
 * (store/build-init.h) and says when the SDK or the platform it names is
 * not installed yet. */
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "store/build-init.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/ref.h"
#include "store/store-error.h"

typedef struct
{
  char *type;
  char *arch;
  char *var;
} XaBuildInitCliOptions;

static void
xa_build_init_cli_options_clear (XaBuildInitCliOptions *o)
{
  g_clear_pointer (&o->type, g_free);
  g_clear_pointer (&o->arch, g_free);
  g_clear_pointer (&o->var, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XaBuildInitCliOptions, xa_build_init_cli_options_clear)

/* The first installation of the search path that has runtime @id, for
 * -v; the chosen one otherwise (the store then says it is missing). */
static XaInstallation *
find_var_installation (XaCliGlobals *globals,
                       const char   *id,
                       const char   *arch,
                       const char   *branch)
{
  XaInstallation *const *search_path = xa_cli_globals_get_search_path (globals);

  for (gsize i = 0; search_path[i] != NULL; i++)
    {
      g_autoptr(XaDeployment) d = xa_deployment_open (search_path[i], XA_METADATA_RUNTIME,
                                                      id, arch, branch, NULL);

      if (d != NULL)
        return search_path[i];
    }
  return xa_cli_globals_get_installation (globals);
}

static void
warn_not_installed (XaCliGlobals *globals,
                    const char   *what,
                    const char   *id,
                    const char   *arch,
                    const char   *branch)
{
  g_autofree char *spec = g_strdup_printf ("%s/%s/%s", id, arch, branch);
  g_autoptr(XaDeployment) d = NULL;
  g_autoptr(GError) local_error = NULL;

  d = xa_deployment_find_runtime (xa_cli_globals_get_search_path (globals), spec, &local_error);
  if (d == NULL && g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED))
    g_printerr (_("warning: the %s '%s' is not installed; "
                  "try: xdg-app install-runtime REMOTE %s %s\n"), what, spec, id, branch);
}

int
xa_cmd_build_init (int            argc,
                   char         **argv,
                   XaCliGlobals  *globals,
                   GError       **error)
{
  g_auto(XaBuildInitCliOptions) o = { 0 };
  const GOptionEntry entries[] = {
    { "type", 0, 0, G_OPTION_ARG_STRING, &o.type,
      N_("What is built: app (the default) or runtime"), N_("TYPE") },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &o.arch,
      N_("The architecture to build for (this machine's by default)"), N_("ARCH") },
    { "var", 'v', 0, G_OPTION_ARG_STRING, &o.var,
      N_("Fill var/ from the files of the installed runtime VAR (same branch)"), N_("VAR") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("build-init", _("DIR ID SDK PLATFORM [BRANCH]"),
                  _("Set up a directory to build an app or a runtime in."),
                  _("Writes DIR/metadata (ID, runtime PLATFORM and sdk SDK, both of BRANCH,\n"
                    "\"master\" by default) and makes DIR/files (the build's /self) and\n"
                    "DIR/var.  Then: xdg-app build DIR COMMAND…, xdg-app build-finish DIR,\n"
                    "xdg-app build-export REPO DIR.\n"
                    "\n"
                    "Example: xdg-app build-init /a/directory org.gnome.Builder org.gnome.Sdk "
                    "org.gnome.Platform 3.16"));
  XaBuildInitOptions options = { 0 };
  const char *arch;
  const char *branch;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 4, 5, error))
    return EXIT_FAILURE;
  if (o.type != NULL && strcmp (o.type, "app") != 0 && strcmp (o.type, "runtime") != 0)
    {
      xa_usage_set_error (usage, error, _("unknown --type '%s' (valid: app, runtime)"), o.type);
      return EXIT_FAILURE;
    }

  arch = o.arch != NULL ? o.arch : xa_ref_get_default_arch ();
  branch = argc > 5 ? argv[5] : "master";
  options.dir = argv[1];
  options.id = argv[2];
  options.sdk = argv[3];
  options.runtime = argv[4];
  options.branch = branch;
  options.arch = arch;
  options.var = o.var;
  options.is_runtime = g_strcmp0 (o.type, "runtime") == 0;
  if (o.var != NULL)
    options.installation = find_var_installation (globals, o.var, arch, branch);
  if (!xa_build_init (&options, error))
    return EXIT_FAILURE;

  warn_not_installed (globals, _("SDK"), options.sdk, arch, branch);
  warn_not_installed (globals, _("platform"), options.runtime, arch, branch);
  return EXIT_SUCCESS;
}
