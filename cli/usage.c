/* cli/usage.c — one command's options, help and argument counts (see
 * usage.h).  Trusts nothing on the command line: every word shown back
 * in a message is escaped for the terminal. */
#include <stdarg.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "cli/globals.h"
#include "cli/usage.h"
#include "policy/escape.h"

struct _XaUsage
{
  char           *command;
  char           *params;
  GOptionContext *context;
  XaContext      *permissions;   /* borrowed: where permission options go */
  guint           n_permissions; /* permission options applied */
};

/* Help for the permission options; an option policy/ knows and this
 * table does not gets a generic line. */
static const struct
{
  const char *name;
  const char *arg;
  const char *help;
} permission_help[] = {
  { "share", "WHAT", N_("Share WHAT with the host: network, ipc") },
  { "unshare", "WHAT", N_("Stop sharing WHAT with the host") },
  { "socket", "SOCKET", N_("Expose SOCKET: wayland, pulseaudio, session-bus, system-bus, "
                           "ssh-auth, pcsc, cups, gpg-agent") },
  { "nosocket", "SOCKET", N_("Do not expose SOCKET") },
  { "device", "DEVICE", N_("Expose DEVICE: dri, input, usb, kvm, shm, all") },
  { "nodevice", "DEVICE", N_("Do not expose DEVICE") },
  { "allow", "FEATURE", N_("Allow FEATURE: devel, multiarch, bluetooth, canbus, "
                           "per-app-dev-shm") },
  { "disallow", "FEATURE", N_("Do not allow FEATURE") },
  { "filesystem", "FS", N_("Expose FS: host, host-os, host-etc, home, xdg-NAME[/PATH], "
                           "~/PATH or /PATH, each with :ro, :rw or :create") },
  { "nofilesystem", "FS", N_("Do not expose FS (\"host:reset\" drops every earlier one)") },
  { "persist", "PATH", N_("Keep ~/PATH per app, in its data directory") },
  { "env", "VAR=VALUE", N_("Set VAR to VALUE in the sandbox") },
  { "unset-env", "VAR", N_("Unset VAR in the sandbox") },
  { "own-name", "NAME", N_("Allow owning NAME on the session bus") },
  { "talk-name", "NAME", N_("Allow talking to NAME on the session bus") },
  { "see-name", "NAME", N_("Allow seeing NAME on the session bus") },
  { "no-talk-name", "NAME", N_("Do not allow talking to NAME on the session bus") },
  { "system-own-name", "NAME", N_("Allow owning NAME on the system bus") },
  { "system-talk-name", "NAME", N_("Allow talking to NAME on the system bus") },
  { "system-see-name", "NAME", N_("Allow seeing NAME on the system bus") },
  { "system-no-talk-name", "NAME", N_("Do not allow talking to NAME on the system bus") },
};

XaUsage *
xa_usage_new (const char *command,
              const char *params,
              const char *summary,
              const char *description)
{
  XaUsage *self = g_new0 (XaUsage, 1);

  self->command = g_strdup (command);
  self->params = g_strdup (params);
  self->context = g_option_context_new (params);
  /* A main group of our own, so that option callbacks get @self. */
  g_option_context_set_main_group (self->context,
                                   g_option_group_new (NULL, NULL, NULL, self, NULL));
  g_option_context_set_summary (self->context, summary);
  if (description != NULL)
    g_option_context_set_description (self->context, description);
  return self;
}

void
xa_usage_free (XaUsage *self)
{
  if (self == NULL)
    return;
  g_option_context_free (self->context);
  g_free (self->command);
  g_free (self->params);
  g_free (self);
}

void
xa_usage_add_entries (XaUsage            *self,
                      const GOptionEntry *entries)
{
  g_option_context_add_main_entries (self->context, entries, NULL);
}

GOptionContext *
xa_usage_get_context (XaUsage *self)
{
  return self->context;
}

static gboolean
on_permission_option (const char  *option_name,
                      const char  *value,
                      gpointer     user_data,
                      GError     **error)
{
  XaUsage *self = user_data;

  if (!xa_context_parse_option (self->permissions, option_name, value, error))
    return FALSE;
  self->n_permissions++;
  return TRUE;
}

guint
xa_usage_get_permission_count (XaUsage *self)
{
  return self->n_permissions;
}

void
xa_usage_add_permission_options (XaUsage   *self,
                                 XaContext *flags)
{
  const char *const *names = xa_context_get_option_names ();
  g_autoptr(GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));

  g_return_if_fail (self->permissions == NULL);
  self->permissions = flags;
  for (gsize i = 0; names[i] != NULL; i++)
    {
      GOptionEntry e = {
        .long_name = names[i],
        .arg = G_OPTION_ARG_CALLBACK,
        .arg_data = (gpointer) on_permission_option,
        .description = N_("Change this permission (see: xdg-app override --help)"),
        .arg_description = "VALUE",
      };

      for (gsize j = 0; j < G_N_ELEMENTS (permission_help); j++)
        if (strcmp (permission_help[j].name, names[i]) == 0)
          {
            e.description = permission_help[j].help;
            e.arg_description = permission_help[j].arg;
          }
      g_array_append_val (entries, e);
    }
  /* GOption copies the entries; the strings are static. */
  g_option_context_add_main_entries (self->context, (GOptionEntry *) entries->data, NULL);
}

gboolean
xa_usage_set_error (XaUsage     *self,
                    GError     **error,
                    const char  *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
               _("%s: %s (see: xdg-app %s --help)"), self->command, message, self->command);
  return FALSE;
}

char *
xa_usage_dup_option_message (const char *message)
{
  g_autofree char *shown = xa_escape_for_terminal (message, -1);

  if (g_ascii_isupper (shown[0]) && !g_ascii_isupper (shown[1]))
    shown[0] = g_ascii_tolower (shown[0]);
  return g_steal_pointer (&shown);
}

gboolean
xa_usage_parse (XaUsage       *self,
                XaCliGlobals  *globals,
                int           *argc,
                char        ***argv,
                guint          min_args,
                guint          max_args,
                GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  guint n_args;

  xa_cli_globals_add_options (globals, self->context);
  if (!g_option_context_parse (self->context, argc, argv, &local_error))
    {
      if (local_error->domain == G_OPTION_ERROR)
        {
          g_autofree char *shown = xa_usage_dup_option_message (local_error->message);

          return xa_usage_set_error (self, error, "%s", shown);
        }
      /* A value that a parser of ours refused (a permission option): its
       * message already names the option and the valid values. */
      g_prefix_error (&local_error, "%s: ", self->command);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!xa_cli_globals_apply (globals, error))
    return FALSE;

  n_args = *argc > 1 ? (guint) (*argc - 1) : 0;
  if (n_args < min_args)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: missing arguments; usage: xdg-app %s [OPTION…] %s"),
                   self->command, self->command, self->params);
      return FALSE;
    }
  if (n_args > max_args)
    {
      g_autofree char *shown = xa_escape_for_terminal ((*argv)[max_args + 1], -1);

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: unexpected argument '%s'; usage: xdg-app %s [OPTION…] %s"),
                   self->command, shown, self->command, self->params);
      return FALSE;
    }
  return TRUE;
}
