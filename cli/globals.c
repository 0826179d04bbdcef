/* cli/globals.c — the global options, the installations they select, and
 * (see globals.h). */
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "cli/globals.h"
#include "store/installation.h"

struct _XaCliGlobals
{
  gboolean        opt_user;
  gboolean        opt_system;
  gboolean        opt_verbose;

  XaInstallation *user;
  XaInstallation *system;
  XaInstallation *search_path[3];   /* borrowed from user/system; NULL-terminated */
};

XaCliGlobals *
xa_cli_globals_new (void)
{
  return g_new0 (XaCliGlobals, 1);
}

void
xa_cli_globals_free (XaCliGlobals *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->user, xa_installation_unref);
  g_clear_pointer (&self->system, xa_installation_unref);
  g_free (self);
}

void
xa_cli_globals_add_options (XaCliGlobals   *self,
                            GOptionContext *context)
{
  const GOptionEntry entries[] = {
    { "user", 0, 0, G_OPTION_ARG_NONE, &self->opt_user,
      N_("Use the user's installation (the default): ~/.local/share/xdg-app"), NULL },
    { "system", 0, 0, G_OPTION_ARG_NONE, &self->opt_system,
      N_("Use the system-wide installation, /var/lib/xdg-app (root only, for now)"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &self->opt_verbose,
      N_("Say more about what is done"), NULL },
    G_OPTION_ENTRY_NULL
  };

  g_option_context_add_main_entries (context, entries, NULL);
}

gboolean
xa_cli_globals_apply (XaCliGlobals  *self,
                      GError       **error)
{
  if (self->opt_user && self->opt_system)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("--user and --system cannot be used together"));
      return FALSE;
    }
  if (self->opt_system && geteuid () != 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("--system: only root can use the system installation "
                     "'/var/lib/xdg-app' for now; use --user (the default)"));
      return FALSE;
    }
  if (self->opt_verbose)
    g_log_set_debug_enabled (TRUE);

  if (self->user == NULL)
    self->user = xa_installation_new_user ();
  if (self->system == NULL)
    self->system = xa_installation_new_system ();

  if (self->opt_system)
    {
      self->search_path[0] = self->system;
      self->search_path[1] = NULL;
    }
  else if (self->opt_user)
    {
      self->search_path[0] = self->user;
      self->search_path[1] = NULL;
    }
  else
    {
      self->search_path[0] = self->user;
      self->search_path[1] = self->system;
    }
  self->search_path[2] = NULL;
  return TRUE;
}

XaInstallation *
xa_cli_globals_get_installation (XaCliGlobals *self)
{
  g_return_val_if_fail (self->user != NULL, NULL);
  return self->opt_system ? self->system : self->user;
}

XaInstallation *const *
xa_cli_globals_get_search_path (XaCliGlobals *self)
{
  g_return_val_if_fail (self->search_path[0] != NULL, NULL);
  return self->search_path;
}

gboolean
xa_cli_globals_is_verbose (XaCliGlobals *self)
{
  return self->opt_verbose;
}
