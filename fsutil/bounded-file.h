/* fsutil/bounded-file.h — reads a small file that someone else wrote. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Returns the content of @path, NUL-terminated, its length in @out_len.
 * Refuses what is not a regular file, a symlink at @path included
 * (O_NOFOLLOW), and a file longer than @max_len, without reading more
 * than @max_len + 1 bytes of it.  Errors are G_FILE_ERROR and name the
 * path (G_FILE_ERROR_NOENT when it is missing; G_FILE_ERROR_FAILED for a
 * file over the limit). */
char *xa_bounded_file_read (const char  *path,
                            gsize        max_len,
                            gsize       *out_len,
                            GError     **error);

G_END_DECLS
