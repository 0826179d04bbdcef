/* fsutil/errno-error.c — see errno-error.h. */
#include "fsutil/errno-error.h"

gboolean
xa_set_error_from_errno_v (GError **error,
                           int saved_errno,
                           const char *format,
                           va_list args)
{
  g_autofree char *what = g_strdup_vprintf (format, args);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               "%s: %s", what, g_strerror (saved_errno));
  return FALSE;
}

gboolean
xa_set_error_from_errno (GError **error,
                         int saved_errno,
                         const char *format,
                         ...)
{
  va_list args;

  va_start (args, format);
  (void) xa_set_error_from_errno_v (error, saved_errno, format, args);
  va_end (args);
  return FALSE;
}
