/* cli/main.c — `xdg-app`: the global options, the table of commands, and
 * the one place where an error is printed (STYLE.md §5).  Everything a
 * command does is in its cmd-*.c file; what it decides is in store/,
 * policy/ and run/.
 *
 * Built twice.  `xdg-app` has no libostree in it, so that `run` starts
 * without loading libostree and the sixty libraries behind it (10 ms of
 * a 20 ms start); for a command that talks to a repository it execs
 * `xdg-app-store` (libexecdir), which is this file built with
 * XA_CLI_WITH_STORE and every command linked in. */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/globals.h"
#include "cli/programs.h"
#include "cli/usage.h"
#include "policy/escape.h"

typedef struct
{
  const char    *name;
  XaCommandFunc  func;
  const char    *alias_of;      /* NULL, or the command this name stands for */
  const char    *section;       /* starts a group of commands in --help */
  const char    *description;   /* one line */
} XaCommand;

/* Commands that need libostree or GIO's D-Bus: in `xdg-app` they have no
 * function, and xdg-app-store runs them. */
#if XA_CLI_WITH_STORE
#define STORE(func) func
#else
#define STORE(func) NULL
#endif

/* Every command, in the order `xdg-app --help` lists them.  The aliases
 * are the spellings users know from Flatpak. */
static const XaCommand commands[] = {
  { "add-repo", STORE (xa_cmd_add_repo), NULL, N_("Remote repositories"),
    N_("Add a remote repository") },
  { "delete-repo", STORE (xa_cmd_delete_repo), NULL, NULL,
    N_("Delete a remote repository") },
  { "list-repos", STORE (xa_cmd_list_repos), NULL, NULL,
    N_("List the remote repositories") },

  { "install", STORE (xa_cmd_install), NULL, N_("Installing"),
    N_("Install an app or a runtime from a remote") },
  { "install-app", STORE (xa_cmd_install_app), NULL, NULL,
    N_("Install an app from a remote") },
  { "install-runtime", STORE (xa_cmd_install_runtime), NULL, NULL,
    N_("Install a runtime from a remote") },
  { "update", STORE (xa_cmd_update), NULL, NULL,
    N_("Update every installed app and runtime, or the ones named") },
  { "update-app", STORE (xa_cmd_update_app), NULL, NULL,
    N_("Update an installed app") },
  { "update-runtime", STORE (xa_cmd_update_runtime), NULL, NULL,
    N_("Update an installed runtime") },
  { "uninstall", STORE (xa_cmd_uninstall), NULL, NULL,
    N_("Uninstall an app or a runtime") },
  { "uninstall-app", STORE (xa_cmd_uninstall_app), NULL, NULL,
    N_("Uninstall an app") },
  { "uninstall-runtime", STORE (xa_cmd_uninstall_runtime), NULL, NULL,
    N_("Uninstall a runtime") },

  { "list", xa_cmd_list, NULL, N_("Looking at what is installed"),
    N_("List the installed apps and runtimes") },
  { "info", xa_cmd_info, NULL, NULL,
    N_("Show an installed app or runtime, or its permissions") },
  { "override", xa_cmd_override, NULL, NULL,
    N_("Change, show or reset the permissions of an app") },

  { "run", xa_cmd_run, NULL, N_("Running"),
    N_("Run an installed app in its sandbox") },
  { "ps", STORE (xa_cmd_ps), NULL, NULL,
    N_("List the running instances") },
  { "kill", STORE (xa_cmd_kill), NULL, NULL,
    N_("Stop a running instance") },

  { "build-init", xa_cmd_build_init, NULL, N_("Building"),
    N_("Set up a directory to build an app or a runtime in") },
  { "build", xa_cmd_build, NULL, NULL,
    N_("Run a command in a build directory, with the SDK as /usr") },
  { "build-finish", xa_cmd_build_finish, NULL, NULL,
    N_("Set the command and the permissions of a build, and its exports") },
  { "build-export", STORE (xa_cmd_build_export), NULL, NULL,
    N_("Commit a build directory to an OSTree repository") },

  { "remote-add", STORE (xa_cmd_add_repo), "add-repo", N_("Flatpak's names"), NULL },
  { "remote-delete", STORE (xa_cmd_delete_repo), "delete-repo", NULL, NULL },
  { "remotes", STORE (xa_cmd_list_repos), "list-repos", NULL, NULL },
};

static const XaCommand *
lookup_command (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

static char *
dup_command_list (void)
{
  g_autoptr(GString) list = g_string_new (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", commands[i].name);
  return g_string_free (g_steal_pointer (&list), FALSE);
}

/* The "Commands:" part of `xdg-app --help`, from the table. */
static char *
dup_help_description (void)
{
  g_autoptr(GString) text = g_string_new (_("Commands:"));

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const XaCommand *c = &commands[i];

      if (c->section != NULL)
        g_string_append_printf (text, "\n %s\n", _(c->section));
      if (c->alias_of != NULL)
        {
          g_autofree char *same = g_strdup_printf (_("the same as %s"), c->alias_of);

          g_string_append_printf (text, "  %-20s%s\n", c->name, same);
        }
      else
        g_string_append_printf (text, "  %-20s%s\n", c->name, _(c->description));
    }
  g_string_append (text, _("\nEach command has its own --help: xdg-app COMMAND --help.\n"
                            "The global options work before and after the command name."));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Runs the whole command line again in xdg-app-store: it parses the same
 * options, so every message reads as if this program had given it. */
static int
exec_store (char   **original_argv,
            GError **error)
{
  g_autofree char *helper = xa_cli_find_program ("xdg-app-store", NULL, XA_LIBEXECDIR);
  int saved_errno;

  execv (helper, original_argv);
  saved_errno = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               _("cannot run '%s': %s"), helper, g_strerror (saved_errno));
  return EXIT_FAILURE;
}

/* Parses the options before the command name, then runs the command. */
static int
xa_cli_main (int      argc,
             char   **argv,
             GError **error)
{
  g_auto(GStrv) original_argv = g_strdupv (argv);
  g_autoptr(XaCliGlobals) globals = xa_cli_globals_new ();
  g_autoptr(GOptionContext) context = g_option_context_new (_("COMMAND [ARGUMENT…]"));
  g_autofree char *description = dup_help_description ();
  g_autoptr(GError) local_error = NULL;
  gboolean show_version = FALSE;
  const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, &show_version,
      N_("Print the version and exit"), NULL },
    G_OPTION_ENTRY_NULL
  };
  const XaCommand *command;
  g_autofree char *prgname = NULL;

  g_set_prgname ("xdg-app");
  g_option_context_set_summary (context,
                                _("Installs, updates and runs desktop apps, each in a sandbox,\n"
                                  "against a runtime that it does not share with the host."));
  g_option_context_set_description (context, description);
  /* Stop at the command name: what follows is the command's. */
  g_option_context_set_strict_posix (context, TRUE);
  g_option_context_add_main_entries (context, entries, NULL);
  xa_cli_globals_add_options (globals, context);
  if (!g_option_context_parse (context, &argc, &argv, &local_error))
    {
      g_autofree char *shown = xa_usage_dup_option_message (local_error->message);

      g_set_error (error, G_OPTION_ERROR, local_error->code,
                   _("%s (see: xdg-app --help)"), shown);
      return EXIT_FAILURE;
    }
  if (show_version)
    {
      g_print ("xdg-app %s\n", XA_VERSION);
      return EXIT_SUCCESS;
    }
  if (argc < 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("no command given (see: xdg-app --help)"));
      return EXIT_FAILURE;
    }

  command = lookup_command (argv[1]);
  if (command == NULL)
    {
      g_autofree char *shown = xa_escape_for_terminal (argv[1], -1);
      g_autofree char *valid = dup_command_list ();

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                   _("unknown command '%s' (valid: %s)"), shown, valid);
      return EXIT_FAILURE;
    }
  if (command->func == NULL)
    return exec_store (original_argv, error);
  if (!xa_cli_globals_apply (globals, error))
    return EXIT_FAILURE;
  /* Every command's "Usage:" line, GOption's or not, starts with the
   * program name: make it the command as typed. */
  prgname = g_strconcat ("xdg-app ", command->name, NULL);
  g_set_prgname (prgname);
  return command->func (argc - 1, argv + 1, globals, error);
}

/* One line, whatever the message holds: libostree's GPG messages span
 * several, and a name from a repository may hold anything. */
static char *
dup_one_line (const char *message)
{
  g_auto(GStrv) lines = g_strsplit (message, "\n", -1);
  g_autoptr(GString) flat = g_string_new (NULL);

  for (gsize i = 0; lines[i] != NULL; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      if (flat->len > 0)
        g_string_append (flat, "; ");
      g_string_append (flat, lines[i]);
    }
  return xa_escape_for_terminal (flat->str, -1);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  int status;

  setlocale (LC_ALL, "");
  status = xa_cli_main (argc, argv, &error);
  if (error == NULL)
    return status;

#if XA_CLI_WITH_STORE
  /* libostree passes on errors from GPG agents and the like. */
  g_dbus_error_strip_remote_error (error);
#endif
  message = dup_one_line (error->message);
  g_printerr (_("error: %s\n"), message);
  return EXIT_FAILURE;
}
