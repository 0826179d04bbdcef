/* cli/globals.h — XaCliGlobals: what every `xdg-app` command shares: the
 * global options (--user, --system, --verbose), the installations they
 * select, and a GCancellable that the first Ctrl-C cancels.
 *
 * The global options are accepted before the command name and after it
 * (`xdg-app --system list`, `xdg-app list --system`): main() parses them
 * once, and each command adds them to its own options
 * (xa_cli_globals_add_options()) and calls xa_cli_globals_apply() again
 * after its own parse. */
#pragma once

#include <glib.h>

#include "store/installation.h"

G_BEGIN_DECLS

typedef struct _XaCliGlobals XaCliGlobals;

XaCliGlobals   *xa_cli_globals_new             (void);
void            xa_cli_globals_free            (XaCliGlobals    *self);

/* Adds --user, --system and --verbose to the main group of @context;
 * they write into @self, which must outlive the parse. */
void            xa_cli_globals_add_options     (XaCliGlobals    *self,
                                                GOptionContext  *context);

/* Checks the global options seen so far and opens the installations
 * they name.  Refuses --user with --system, and --system for anyone but
 * root (the system installation has no polkit-guarded helper yet).
 * Idempotent: a command calls it again after parsing its own options. */
gboolean        xa_cli_globals_apply           (XaCliGlobals    *self,
                                                GError         **error);

/* The installation that changes go to: the user's unless --system.
 * Valid after xa_cli_globals_apply(). */
XaInstallation *xa_cli_globals_get_installation (XaCliGlobals   *self);
/* The installations that lookups search, in order, NULL-terminated:
 * with --user or --system only that one, else the user's, then the
 * system's.  Borrowed; valid after xa_cli_globals_apply(). */
XaInstallation *const *xa_cli_globals_get_search_path (XaCliGlobals *self);

gboolean        xa_cli_globals_is_verbose      (XaCliGlobals    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaCliGlobals, xa_cli_globals_free)

G_END_DECLS
