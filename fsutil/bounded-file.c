/* fsutil/bounded-file.c — reads metadata, override files and the like
 * with a limit, so a huge or endless file (a FIFO, /dev/zero behind a
 * symlink) costs a bounded amount of memory and no hang.  Trusts nothing
 * at the path: it must be a regular file and is opened without following
 * a symlink in its last component. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/autofd.h"
#include "fsutil/bounded-file.h"

static char *
set_error (GError     **error,
           int          code,
           const char  *path,
           const char  *message)
{
  g_set_error (error, G_FILE_ERROR, code, "'%s': %s", path, message);
  return NULL;
}

char *
xa_bounded_file_read (const char  *path,
                      gsize        max_len,
                      gsize       *out_len,
                      GError     **error)
{
  g_autofree char *buf = NULL;
  xa_autofd int fd = -1;
  struct stat st;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (max_len < G_MAXSIZE - 1, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is then
   * refused as not regular.  Regular files ignore the flag. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
  if (fd < 0 && errno == ELOOP)
    return set_error (error, G_FILE_ERROR_LOOP, path, _("is a symbolic link, not a regular file"));
  if (fd < 0 || fstat (fd, &st) < 0)
    {
      int errsv = errno;

      return set_error (error, g_file_error_from_errno (errsv), path, g_strerror (errsv));
    }
  if (!S_ISREG (st.st_mode))
    return set_error (error, G_FILE_ERROR_INVAL, path, _("not a regular file"));

  /* One byte past the limit tells "exactly max_len" from "longer". */
  buf = g_malloc (max_len + 2);
  while (len < max_len + 1)
    {
      ssize_t n = read (fd, buf + len, max_len + 1 - len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;

          return set_error (error, g_file_error_from_errno (errsv), path, g_strerror (errsv));
        }
      if (n == 0)
        break;
      len += (gsize) n;
    }
  if (len > max_len)
    {
      g_autofree char *message = g_strdup_printf (_("larger than %zu bytes"),
                                                  (size_t) max_len);
      return set_error (error, G_FILE_ERROR_FAILED, path, message);
    }
  buf[len] = '\0';
  *out_len = len;
  return g_steal_pointer (&buf);
}
