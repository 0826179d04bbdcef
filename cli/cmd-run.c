/* cli/cmd-run.c — `xdg-app run` and `xdg-app build`: parse the command
 * line, hand it to run/ (which decides), print its warnings, and exec the
 * launcher.  Exit status and signals pass through the launcher. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/commands.h"
#include "cli/programs.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "run/launch.h"

typedef struct
{
  char      *command;
  char      *branch;
  char      *arch;
  gboolean   devel;
  XaContext *flags;
  GError    *flag_error;   /* the first bad --socket=… value */
  int        landlock_abi_max;  /* hidden, for tests; -1: the kernel's */
} XaRunOptions;

static gboolean
xa_cmd_run_context_flag (const char  *option_name,
                         const char  *value,
                         gpointer     data,
                         GError     **error)
{
  XaRunOptions *o = data;

  return xa_context_parse_option (o->flags, option_name, value, error);
}

/* The permission flags users know from `flatpak run` (--socket=…,
 * --share=…, --filesystem=…), one GOption each, all parsed by policy/. */
static GOptionGroup *
xa_cmd_run_context_group (XaRunOptions *o)
{
  const char *const *names = xa_context_get_option_names ();
  GOptionGroup *group = g_option_group_new ("permissions", _("Permission options:"),
                                            _("Show the permission options"), o, NULL);
  GArray *entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));

  for (gsize i = 0; names[i] != NULL; i++)
    {
      const char *name = names[i] + (g_str_has_prefix (names[i], "--") ? 2 : 0);
      GOptionEntry e = {
        .long_name = g_intern_string (name),
        .arg = G_OPTION_ARG_CALLBACK,
        .arg_data = (gpointer) xa_cmd_run_context_flag,
        .description = _("Grant or revoke for this run (see xdg-app override --help)"),
        .arg_description = "VALUE",
      };

      g_array_append_val (entries, e);
    }
  /* The group copies the entries; their strings are interned. */
  g_option_group_add_entries (group, (GOptionEntry *) entries->data);
  g_array_free (entries, TRUE);
  return group;
}

static void
xa_cmd_run_print_warnings (XaLaunch *launch)
{
  GPtrArray *warnings = xa_launch_get_warnings (launch);

  for (guint i = 0; i < warnings->len; i++)
    {
      g_autofree char *safe = xa_escape_for_terminal (warnings->pdata[i], -1);
      g_printerr (_("warning: %s\n"), safe);
    }
}

static XaLaunchOptions
xa_cmd_run_launch_options (XaCliGlobals      *g,
                           XaRunOptions      *o,
                           const char        *app_id,
                           const char *const *args,
                           char             **out_bus,
                           char             **out_broker)
{
  *out_bus = xa_launch_bus_socket_from_address (g_getenv ("DBUS_SESSION_BUS_ADDRESS"));
  *out_broker = xa_cli_find_program ("xdg-app-broker", "../broker", XA_LIBEXECDIR);
  return (XaLaunchOptions) {
    .installations = xa_cli_globals_get_search_path (g),
    .app_id = app_id,
    .arch = o->arch,
    .branch = o->branch,
    .command = o->command,
    .devel = o->devel,
    .flags = o->flags,
    .args = args,
    .host_runtime_dir = g_getenv ("XDG_RUNTIME_DIR"),
    .host_wayland_display = g_getenv ("WAYLAND_DISPLAY"),
    .host_session_bus = *out_bus,
    .host_session_address = g_getenv ("DBUS_SESSION_BUS_ADDRESS"),
    .broker_program = *out_broker,
    .host_env = (const char *const *) g_get_environ (),
    .landlock_abi_max = o->landlock_abi_max,
  };
}

static int
xa_cmd_run_exec (XaCliGlobals  *g,
                 XaLaunch      *launch,
                 GError       **error)
{
  g_autofree char *launcher = xa_cli_find_program ("xdg-app-sandbox", "../sandbox", XA_BINDIR);

  xa_cmd_run_print_warnings (launch);
  if (xa_cli_globals_is_verbose (g))
    {
      GPtrArray *args = xa_sandbox_argv_get_args (xa_launch_get_argv (launch));

      for (guint i = 0; i < args->len; i++)
        {
          g_autofree char *safe = xa_escape_for_terminal (args->pdata[i], -1);
          g_printerr ("%s%s", i == 0 ? "sandbox:" : "", " ");
          g_printerr ("%s", safe);
        }
      g_printerr ("\n");
    }
  (void) xa_launch_exec (launch, launcher, error);
  return EXIT_FAILURE;
}

static void
xa_cmd_run_options_clear (XaRunOptions *o)
{
  g_clear_pointer (&o->command, g_free);
  g_clear_pointer (&o->branch, g_free);
  g_clear_pointer (&o->arch, g_free);
  g_clear_pointer (&o->flags, xa_context_free);
}

/* Parses run's or build's options, up to the first word that is not one
 * (the app id or the build directory: what follows belongs to the
 * command).  "-- ID ARGS" also works: exported desktop files put "--"
 * before the id so that nothing after it reads as an option.  On success
 * argc/argv start at that word and at least `min_args` words remain. */
static gboolean
xa_cmd_run_parse (GOptionContext  *ctx,
                  XaRunOptions    *o,
                  XaCliGlobals    *g,
                  int              min_args,
                  const char      *missing,
                  int             *argcp,
                  char          ***argvp,
                  GError         **error)
{
  g_option_context_set_strict_posix (ctx, TRUE);
  xa_cli_globals_add_options (g, ctx);
  g_option_context_add_group (ctx, xa_cmd_run_context_group (o));
  if (!g_option_context_parse (ctx, argcp, argvp, error) || !xa_cli_globals_apply (g, error))
    return FALSE;
  if (*argcp >= 2 && g_str_equal ((*argvp)[1], "--"))
    {
      (*argvp)++;
      (*argcp)--;
    }
  if (*argcp < 1 + min_args)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, missing);
      return FALSE;
    }
  (*argvp)++;
  (*argcp)--;
  return TRUE;
}

/* Prepares the launch (of the app, or of `build_dir` when not NULL) and
 * execs the launcher. */
static int
xa_cmd_run_launch (XaCliGlobals       *g,
                   XaRunOptions       *o,
                   const char         *app_id,
                   const char         *build_dir,
                   const char *const  *args,
                   GError            **error)
{
  g_autoptr(XaLaunch) launch = NULL;
  g_autofree char *bus = NULL;
  g_autofree char *broker = NULL;
  g_auto(GStrv) host_env = NULL;
  XaLaunchOptions lo = xa_cmd_run_launch_options (g, o, app_id, args, &bus, &broker);

  host_env = (GStrv) lo.host_env;
  /* A build's commands get no bus of the broker's. */
  if (build_dir != NULL)
    lo.broker_program = NULL;
  launch = build_dir != NULL ? xa_launch_prepare_build (build_dir, &lo, error)
                             : xa_launch_prepare (&lo, error);
  return launch != NULL ? xa_cmd_run_exec (g, launch, error) : EXIT_FAILURE;
}

int
xa_cmd_run (int            argc,
            char         **argv,
            XaCliGlobals  *g,
            GError       **error)
{
  XaRunOptions o = { .flags = xa_context_new (), .landlock_abi_max = -1 };
  const GOptionEntry entries[] = {
    { "command", 0, 0, G_OPTION_ARG_STRING, &o.command, N_("Run CMD instead of the app's command"), "CMD" },
    { "branch", 0, 0, G_OPTION_ARG_STRING, &o.branch, N_("The branch to run"), "BRANCH" },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &o.arch, N_("The architecture to run"), "ARCH" },
    { "devel", 'd', 0, G_OPTION_ARG_NONE, &o.devel, N_("Use the SDK as /usr and allow debugging"), NULL },
    /* Tests act as on an older kernel with it; not for users. */
    { "landlock-abi-max", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &o.landlock_abi_max, NULL, "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (_("ID [ARGS…] — run an installed app in its sandbox"));
  int status = EXIT_FAILURE;

  g_option_context_set_summary (ctx, _("Runs an installed app in a new sandbox.  Its permissions are its\n"
                                       "metadata, then `xdg-app override`, then the options given here."));
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (xa_cmd_run_parse (ctx, &o, g, 1, _("run needs an app id; see: xdg-app run --help"),
                        &argc, &argv, error))
    status = xa_cmd_run_launch (g, &o, argv[0], NULL, (const char *const *) argv + 1, error);
  xa_cmd_run_options_clear (&o);
  return status;
}

int
xa_cmd_build (int            argc,
              char         **argv,
              XaCliGlobals  *g,
              GError       **error)
{
  XaRunOptions o = { .flags = xa_context_new (), .landlock_abi_max = -1 };
  g_autoptr(GOptionContext) ctx = g_option_context_new (_("DIR COMMAND [ARGS…] — run a build command in a build directory"));
  int status = EXIT_FAILURE;

  g_option_context_set_summary (ctx, _("Runs COMMAND with the build directory's SDK as /usr and its files/\n"
                                       "writable at /self (made by `xdg-app build-init`)."));
  if (xa_cmd_run_parse (ctx, &o, g, 2, _("build needs a directory and a command; see: xdg-app build --help"),
                        &argc, &argv, error))
    {
      o.command = g_strdup (argv[1]);
      status = xa_cmd_run_launch (g, &o, NULL, argv[0], (const char *const *) argv + 2, error);
    }
  xa_cmd_run_options_clear (&o);
  return status;
}
