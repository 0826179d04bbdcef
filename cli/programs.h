/* cli/programs.h — where `xdg-app` finds the programs it execs: the
 * launcher (xdg-app-sandbox) and the store commands (xdg-app-store). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @name beside this program (both installed in one directory, or both in
 * the build tree: @build_subdir is then tried relative to this program's
 * directory, e.g. "../sandbox"), else @installed_dir/@name.  Never
 * searches $PATH. */
char *xa_cli_find_program (const char *name,
                           const char *build_subdir,
                           const char *installed_dir);

G_END_DECLS
