/* store/deployment-lock.c — see deployment-lock.h.  Trusts: the
 * installation's directories.  POSIX record locks: they belong to the
 * process that holds them (the sandbox's reaper), vanish when it dies, and
 * another process can ask about them with F_GETLK without taking any. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/autofd.h"
#include "fsutil/errno-error.h"
#include "store/deployment-lock.h"

gboolean
xa_deployment_lock_create (const char *deploy_dir,
                           GError **error)
{
  g_autofree char *files = g_build_filename (deploy_dir, "files", NULL);
  g_autofree char *path = g_build_filename (files, XA_DEPLOYMENT_LOCK_NAME, NULL);
  xa_autofd int fd = -1;

  if (!g_file_test (files, G_FILE_TEST_IS_DIR))
    return TRUE;
  fd = open (path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return xa_set_error_from_errno (error, errno, _("cannot create '%s'"), path);
  return TRUE;
}

gboolean
xa_deployment_lock_is_held (const char *deploy_dir)
{
  g_autofree char *path = g_build_filename (deploy_dir, "files", XA_DEPLOYMENT_LOCK_NAME, NULL);
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  xa_autofd int fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  /* F_GETLK reports the first lock that a write lock would conflict
   * with: any reader's. */
  if (fcntl (fd, F_GETLK, &lock) != 0)
    return FALSE;
  return lock.l_type != F_UNLCK;
}
