/* cli/commands.h — the entry point of every `xdg-app` command.
 *
 * Each gets its own argv (argv[0] is the command's name, as typed: an
 * alias reaches the same function) and the globals main() parsed.  It
 * returns the process's exit status.  Errors are never printed here:
 * a command sets @error and returns EXIT_FAILURE, and main() prints the
 * one line (STYLE.md §5).  Warnings ("warning: …") and output are the
 * command's. */
#pragma once

#include <glib.h>

#include "cli/globals.h"

G_BEGIN_DECLS

typedef int (*XaCommandFunc) (int            argc,
                              char         **argv,
                              XaCliGlobals  *globals,
                              GError       **error);

/* Remotes: cli/cmd-add-repo.c, cmd-delete-repo.c, cmd-list-repos.c */
int xa_cmd_add_repo          (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_delete_repo       (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_list_repos        (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* cli/cmd-install.c */
int xa_cmd_install_runtime   (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_install_app       (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_install           (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* cli/cmd-update.c */
int xa_cmd_update_runtime    (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_update_app        (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_update            (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* cli/cmd-uninstall.c */
int xa_cmd_uninstall_runtime (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_uninstall_app     (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_uninstall         (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* cli/cmd-list.c, cmd-info.c, cmd-override.c */
int xa_cmd_list              (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_info              (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_override          (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* Building: cli/cmd-build-init.c, cmd-build-finish.c, cmd-build-export.c */
int xa_cmd_build_init        (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_build_finish      (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_build_export      (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* Running: cli/cmd-run.c */
int xa_cmd_run               (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_build             (int argc, char **argv, XaCliGlobals *globals, GError **error);

/* Instances: cli/cmd-ps.c */
int xa_cmd_ps                (int argc, char **argv, XaCliGlobals *globals, GError **error);
int xa_cmd_kill              (int argc, char **argv, XaCliGlobals *globals, GError **error);

G_END_DECLS
