/* cli/globals.c — the global options, the installations they select, and
 * the Ctrl-C cancellable (see globals.h). */
#include <signal.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib-unix.h>
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

  GCancellable   *cancellable;      /* NULL until asked for */
  GMainContext   *signal_context;   /* iterated by the signal thread */
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
  /* The signal thread runs until the process ends and keeps using its
   * context and the cancellable: both are left to it. */
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

/* Returning G_SOURCE_REMOVE drops GLib's handler, and with it the last
 * watch of SIGINT, so GLib puts back the default disposition: a second
 * Ctrl-C ends the process at once. */
static gboolean
on_sigint (gpointer user_data)
{
  GCancellable *cancellable = user_data;

  g_cancellable_cancel (cancellable);
  return G_SOURCE_REMOVE;
}

/* A blocking pull iterates a main context of its own, never the default
 * one, so the signal is watched from a context that this thread runs. */
static gpointer
signal_thread (gpointer user_data)
{
  GMainContext *context = user_data;

  for (;;)
    g_main_context_iteration (context, TRUE);
  return NULL;
}

GCancellable *
xa_cli_globals_get_cancellable (XaCliGlobals *self)
{
  g_autoptr(GSource) source = NULL;

  if (self->cancellable != NULL)
    return self->cancellable;

  self->cancellable = g_cancellable_new ();
  self->signal_context = g_main_context_new ();
  /* The handler is installed here, before this returns: no window in
   * which Ctrl-C would still kill the process outright. */
  source = g_unix_signal_source_new (SIGINT);
  g_source_set_callback (source, on_sigint, g_object_ref (self->cancellable), g_object_unref);
  g_source_attach (source, self->signal_context);
  g_thread_unref (g_thread_new ("sigint", signal_thread, self->signal_context));
  return self->cancellable;
}
