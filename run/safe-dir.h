/* run/safe-dir.h — directories under an app's data directory, opened
 * without following any symlink the app may have planted there. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Opens (creating with mode 0700 what is missing) RELPATH below the
 * directory `base_fd`, one component at a time, never following a
 * symlink and refusing "..", "." and absolute paths.  Returns an
 * O_PATH|O_CLOEXEC fd, or -1 with `error` set.
 *
 * The app can write its data directory, so a path under it is the app's
 * to point anywhere: resolving it on the host would let it bind any host
 * directory into its sandbox on the next run (CVE-2024-42472). */
int  xa_safe_dir_ensure (int          base_fd,
                         const char  *relpath,
                         GError     **error);

/* TRUE if RELPATH is relative, non-empty, and has no "." or ".."
 * component: what `persistent=` may name. */
gboolean xa_safe_dir_is_valid_relpath (const char *relpath);

G_END_DECLS
