/* fsutil/remove-tree.c — see remove-tree.h.  Trusts nothing below @name:
 * it may be an app's own data. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "fsutil/autofd.h"
#include "fsutil/errno-error.h"
#include "fsutil/remove-tree.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DIR, closedir)

gboolean
xa_remove_tree_at (int dfd,
                   const char *name,
                   const char *path,
                   GError **error)
{
  g_autoptr(DIR) dir = NULL;
  struct dirent *entry;
  xa_autofd int fd = -1;

  if (unlinkat (dfd, name, 0) == 0 || errno == ENOENT)
    return TRUE;
  if (errno != EISDIR && errno != EPERM)
    return xa_set_error_from_errno (error, errno, _("cannot remove '%s'"), path);

  fd = openat (dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return xa_set_error_from_errno (error, errno, _("cannot open '%s'"), path);
  dir = fdopendir (fd);
  if (dir == NULL)
    return xa_set_error_from_errno (error, errno, _("cannot open '%s'"), path);
  /* The DIR owns the descriptor now. */
  (void) g_steal_fd (&fd);
  (void) fchmod (dirfd (dir), 0700);

  while ((errno = 0, entry = readdir (dir)) != NULL)
    {
      g_autofree char *child = NULL;

      if (strcmp (entry->d_name, ".") == 0 || strcmp (entry->d_name, "..") == 0)
        continue;
      child = g_build_filename (path, entry->d_name, NULL);
      if (!xa_remove_tree_at (dirfd (dir), entry->d_name, child, error))
        return FALSE;
    }
  if (errno != 0)
    return xa_set_error_from_errno (error, errno, _("cannot read '%s'"), path);

  if (unlinkat (dfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
    return xa_set_error_from_errno (error, errno, _("cannot remove '%s'"), path);
  return TRUE;
}
