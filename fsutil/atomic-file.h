/* fsutil/atomic-file.h — the one way persistent state is written
 * (DESIGN.md: "Persistent state is written atomically"). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Replaces @path with @len bytes of @data: a temporary file beside it,
 * fsync, rename over @path, fsync of the directory.  Readers see the old
 * content or the new one, never a mix, even after a kill -9 or a power
 * cut; on failure @path is untouched and no temporary file remains.
 * @mode is applied exactly (the umask does not narrow it), so a
 * system-wide installation written by root stays readable by everyone.
 * A symlink at @path is replaced, never written through.  Errors are in
 * G_FILE_ERROR and name the path. */
gboolean xa_atomic_file_write (const char  *path,
                               const void  *data,
                               gsize        len,
                               guint        mode,
                               GError     **error);

G_END_DECLS
