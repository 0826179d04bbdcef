/* cli/cancel.h — Ctrl-C during a pull, a deploy or an export: the
 * store commands' cancellable (xdg-app-store only). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Cancelled by the first SIGINT; a second one ends the process as
 * SIGINT does.  The handler is installed on the first call, so a command
 * that never asks keeps the default disposition. */
GCancellable *xa_cli_get_cancellable (void);

G_END_DECLS
