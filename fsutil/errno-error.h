/* fsutil/errno-error.h — the one way a failed system call becomes a
 * GError: G_FILE_ERROR, "WHAT: strerror". */
#pragma once

#include <stdarg.h>

#include <glib.h>

G_BEGIN_DECLS

/* Sets @error to "FORMAT: strerror(@saved_errno)" in G_FILE_ERROR, where
 * @format names the action and the path ("cannot open '%s'").  Returns
 * FALSE, for `return xa_set_error_from_errno (…);`.  Callers pass errno
 * straight in: gettext and g_strerror keep it. */
gboolean xa_set_error_from_errno   (GError     **error,
                                    int          saved_errno,
                                    const char  *format,
                                    ...) G_GNUC_PRINTF (3, 4);
gboolean xa_set_error_from_errno_v (GError     **error,
                                    int          saved_errno,
                                    const char  *format,
                                    va_list      args) G_GNUC_PRINTF (3, 0);

G_END_DECLS
