/* run/safe-dir.c — see safe-dir.h.  Enforces: no symlink below the base
 * directory is followed (CVE-2024-42472).  Trusts: the base directory fd,
 * which the store opened itself. */
#include "run/safe-dir.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

gboolean
xa_safe_dir_is_valid_relpath (const char *relpath)
{
  g_auto(GStrv) parts = NULL;
  gboolean any = FALSE;

  if (relpath == NULL || relpath[0] == '\0' || relpath[0] == '/')
    return FALSE;
  parts = g_strsplit (relpath, "/", -1);
  for (gsize i = 0; parts[i] != NULL; i++)
    {
      if (g_str_equal (parts[i], ".") || g_str_equal (parts[i], ".."))
        return FALSE;
      if (parts[i][0] != '\0')
        any = TRUE;
    }
  return any;
}

int
xa_safe_dir_ensure (int          base_fd,
                    const char  *relpath,
                    GError     **error)
{
  g_auto(GStrv) parts = NULL;
  int dir_fd;

  if (!xa_safe_dir_is_valid_relpath (relpath))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "'%s' is not a relative path without '.' or '..'", relpath);
      return -1;
    }

  dir_fd = fcntl (base_fd, F_DUPFD_CLOEXEC, 3);
  if (dir_fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "'%s': %s", relpath, g_strerror (errsv));
      return -1;
    }

  parts = g_strsplit (relpath, "/", -1);
  for (gsize i = 0; parts[i] != NULL; i++)
    {
      int next;

      if (parts[i][0] == '\0')
        continue;
      if (mkdirat (dir_fd, parts[i], 0700) < 0 && errno != EEXIST)
        next = -1;
      else
        next = openat (dir_fd, parts[i],
                       O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (next < 0)
        {
          int errsv = errno;
          (void) close (dir_fd);
          /* O_NOFOLLOW on a symlink: ELOOP, or ENOTDIR with O_PATH. */
          if (errsv == ELOOP || errsv == ENOTDIR)
            g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
                         "'%s': '%s' is not a directory (a symlink is never followed)",
                         relpath, parts[i]);
          else
            g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                         "'%s': %s", relpath, g_strerror (errsv));
          return -1;
        }
      (void) close (dir_fd);
      dir_fd = next;
    }
  return dir_fd;
}
