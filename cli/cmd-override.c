/* cli/cmd-override.c — `xdg-app override`: changes, shows or resets the
 * permission overrides of an app (or of every app: the global override)
 * in the chosen installation.  policy/ parses the options and owns the
 * file; this only picks which file and says what happened. */
#include <errno.h>
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/label.h"
#include "cli/ref-match.h"
#include "cli/usage.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "policy/metadata.h"
#include "policy/override.h"
#include "store/installation.h"

typedef struct
{
  gboolean show;
  gboolean reset;
} XaOverrideOptions;

/* The override's own layer in keyfile form, negations included (they
 * are what an override is mostly for). */
static void
print_override (XaOverride *override)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *data = NULL;
  g_auto(GStrv) lines = NULL;
  guint n;

  xa_context_save_keyfile (xa_override_get_context (override), keyfile);
  data = g_key_file_to_data (keyfile, NULL, NULL);
  lines = g_strsplit (data, "\n", -1);
  n = g_strv_length (lines);
  while (n > 0 && lines[n - 1][0] == '\0')
    n--;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *shown = xa_escape_for_terminal (lines[i], -1);

      g_print ("%s\n", shown);
    }
}

static gboolean
is_installed_in (XaInstallation *inst,
                 const char     *app_id)
{
  g_autoptr(GPtrArray) refs = xa_ref_match_list_installed (inst, NULL);
  g_autoptr(GPtrArray) found = NULL;

  if (refs == NULL)
    return FALSE;
  found = xa_ref_match_filter (refs, XA_REF_MATCH_APP, app_id, NULL);
  return found->len > 0;
}

/* A run reads the overrides of the installation its app comes from, so
 * an override elsewhere changes nothing yet: say so. */
static void
warn_where_it_applies (XaCliGlobals *globals,
                       const char   *app_id)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  XaInstallation *const *search_path = xa_cli_globals_get_search_path (globals);

  if (is_installed_in (inst, app_id))
    return;
  for (gsize i = 0; search_path[i] != NULL; i++)
    if (search_path[i] != inst && is_installed_in (search_path[i], app_id))
      {
        g_printerr (_("warning: '%s' is installed in the %s installation, which has "
                      "overrides of its own; this one applies to the %s installation "
                      "(use --%s)\n"),
                    app_id, xa_label_get_scope (search_path[i]), xa_label_get_scope (inst),
                    xa_label_get_scope (search_path[i]));
        return;
      }
  g_printerr (_("warning: '%s' is not installed; the override applies once it is\n"), app_id);
}

static gboolean
change_override (XaCliGlobals  *globals,
                 const char    *dir,
                 const char    *app_id,
                 XaContext     *flags,
                 GError       **error)
{
  XaInstallation *inst = xa_cli_globals_get_installation (globals);
  g_autoptr(XaOverride) override = NULL;
  const char *const *warnings;

  if (!xa_installation_check_writable (inst, error))
    return FALSE;
  override = xa_override_load (dir, app_id, error);
  if (override == NULL)
    return FALSE;
  /* policy/ makes overrides/ itself, not the installation above it. */
  if (g_mkdir_with_parents (xa_installation_get_path (inst), 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("cannot create '%s': %s"), xa_installation_get_path (inst),
                   g_strerror (saved_errno));
      return FALSE;
    }
  xa_context_merge (xa_override_get_context (override), flags);
  warnings = xa_context_get_warnings (flags);
  for (gsize i = 0; warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), warnings[i]);
  if (!xa_override_save (override, error))
    return FALSE;
  if (app_id != NULL)
    warn_where_it_applies (globals, app_id);
  return TRUE;
}

int
xa_cmd_override (int            argc,
                 char         **argv,
                 XaCliGlobals  *globals,
                 GError       **error)
{
  XaOverrideOptions o = { 0 };
  const GOptionEntry entries[] = {
    { "show", 0, 0, G_OPTION_ARG_NONE, &o.show, N_("Show the override"), NULL },
    { "reset", 0, 0, G_OPTION_ARG_NONE, &o.reset, N_("Remove the override"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("override", _("[ID]"), _("Change, show or reset the permissions of an app."),
                  _("Overrides are kept per installation, one file per app, and one for\n"
                    "every app when no ID is given.  A run's permissions are the app's\n"
                    "metadata, then the global override, then the app's, then the run's\n"
                    "own options.  Each option grants (--socket=wayland) or takes away\n"
                    "(--nosocket=pulseaudio) one permission; --show prints the override,\n"
                    "--reset removes it.  See the merged result with\n"
                    "`xdg-app info --show-permissions ID`.\n"
                    "\n"
                    "Example: xdg-app override --nosocket=pulseaudio --share=network org.gnome.Builder"));
  g_autoptr(XaContext) flags = xa_context_new ();
  g_autoptr(XaOverride) override = NULL;
  g_autofree char *dir = NULL;
  const char *app_id;
  guint n_permissions;

  xa_usage_add_entries (usage, entries);
  xa_usage_add_permission_options (usage, flags);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 0, 1, error))
    return EXIT_FAILURE;
  app_id = argc > 1 ? argv[1] : NULL;
  n_permissions = xa_usage_get_permission_count (usage);
  if (o.show + o.reset + (n_permissions > 0) > 1)
    {
      xa_usage_set_error (usage, error,
                          _("use one of --show, --reset or permission options"));
      return EXIT_FAILURE;
    }
  if (!o.show && !o.reset && n_permissions == 0)
    {
      xa_usage_set_error (usage, error,
                          _("nothing to do: give permission options, --show or --reset"));
      return EXIT_FAILURE;
    }
  if (app_id != NULL && !xa_metadata_validate_id (app_id, error))
    return EXIT_FAILURE;

  dir = xa_installation_dup_overrides_dir (xa_cli_globals_get_installation (globals));
  if (o.reset)
    {
      if (!xa_installation_check_writable (xa_cli_globals_get_installation (globals), error) ||
          !xa_override_remove (dir, app_id, error))
        return EXIT_FAILURE;
      return EXIT_SUCCESS;
    }
  if (o.show)
    {
      override = xa_override_load (dir, app_id, error);
      if (override == NULL)
        return EXIT_FAILURE;
      print_override (override);
      return EXIT_SUCCESS;
    }
  return change_override (globals, dir, app_id, flags, error) ? EXIT_SUCCESS : EXIT_FAILURE;
}
