/* fsutil/remove-tree.h — the one way a tree is removed: inside an
 * installation (deployments, an app's data), a failed build directory. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes @name below the directory @dfd (or AT_FDCWD) and everything
 * below it; a missing @name is no error.  @path names it in messages.
 * Symlinks are removed, never followed: every open is O_NOFOLLOW, so a
 * link that the app swapped into its own data cannot lead the removal
 * elsewhere.  Directories the app made read-only are made writable first.
 * Errors are in G_FILE_ERROR and name the path. */
gboolean xa_remove_tree_at (int          dfd,
                            const char  *name,
                            const char  *path,
                            GError     **error);

G_END_DECLS
