/* fsutil/atomic-file.c — writes a file so that a crash at any point leaves
 * either the old content or the new one: temporary file in the same
 * directory (rename is only atomic within one filesystem), write, fsync,
 * rename over the target, fsync the directory so the rename itself is on
 * disk.  Trusts: the caller for the path; nothing about what is already
 * there (the temporary file is created with O_EXCL | O_NOFOLLOW, and a
 * symlink at the target is replaced by the rename, not followed). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/atomic-file.h"
#include "fsutil/autofd.h"

/* Tries at a free temporary name before giving up; a clash needs another
 * writer in the same directory picking the same six random characters. */
#define TEMP_ATTEMPTS 100
/* The temporary name repeats at most this much of the target's name, so it
 * stays under NAME_MAX (255) whatever the target is called. */
#define TEMP_BASE_MAX 200

/* A temporary file that unlinks itself unless it was renamed into place. */
typedef struct
{
  int   dfd;    /* borrowed */
  char *name;   /* NULL once renamed */
} TempFile;

static void
temp_file_clear (TempFile *tmp)
{
  if (tmp->name != NULL)
    {
      int saved = errno;

      (void) unlinkat (tmp->dfd, tmp->name, 0);
      errno = saved;
      g_clear_pointer (&tmp->name, g_free);
    }
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TempFile, temp_file_clear)

/* Callers pass errno straight in: gettext and g_strerror keep errno. */
static gboolean
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *path,
                 const char  *step)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
               "'%s': %s: %s", path, step, g_strerror (errsv));
  return FALSE;
}

static char *
temp_name_new (const char *base)
{
  static const char chars[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char suffix[7];
  gsize i;

  for (i = 0; i < 6; i++)
    suffix[i] = chars[g_random_int_range (0, (gint32) sizeof chars - 1)];
  suffix[6] = '\0';
  return g_strdup_printf (".%.*s.tmp-%s", TEMP_BASE_MAX, base, suffix);
}

/* Creates a fresh temporary file in @dfd; its name goes into @tmp. */
static int
temp_file_open (TempFile   *tmp,
                int         dfd,
                const char *base,
                guint       mode)
{
  int attempt;

  tmp->dfd = dfd;
  for (attempt = 0; attempt < TEMP_ATTEMPTS; attempt++)
    {
      g_autofree char *name = temp_name_new (base);
      int fd = openat (dfd, name,
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       mode & 07777);

      if (fd >= 0)
        {
          tmp->name = g_steal_pointer (&name);
          return fd;
        }
      if (errno != EEXIST)
        return -1;
    }
  errno = EEXIST;
  return -1;
}

static int
write_all (int           fd,
           const guint8 *data,
           gsize         len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno;
      if (n == 0)
        return EIO;
      data += n;
      len -= (gsize) n;
    }
  return 0;
}

/* Writes, sets the exact mode, syncs and closes @fd; returns an errno. */
static int
fill_and_close (int          fd,
                const void  *data,
                gsize        len,
                guint        mode,
                const char **out_step)
{
  xa_autofd int owned = fd;
  int errsv;

  *out_step = _("write");
  errsv = write_all (owned, data, len);
  if (errsv != 0)
    return errsv;
  /* open() narrowed the mode by the umask; the caller asked for this one. */
  *out_step = _("chmod");
  if (fchmod (owned, mode & 07777) < 0)
    return errno;
  *out_step = _("fsync");
  if (fsync (owned) < 0)
    return errno;
  /* close() can report a delayed write error (NFS): it must be checked. */
  *out_step = _("close");
  if (close (g_steal_fd (&owned)) < 0)
    return errno;
  return 0;
}

gboolean
xa_atomic_file_write (const char  *path,
                      const void  *data,
                      gsize        len,
                      guint        mode,
                      GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  /* dfd first: cleanups run in reverse order, and tmp needs dfd open. */
  xa_autofd int dfd = -1;
  g_auto(TempFile) tmp = { -1, NULL };
  const char *step = NULL;
  int fd;
  int errsv;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  if (g_str_has_suffix (path, "/") || strcmp (base, ".") == 0 ||
      strcmp (base, "..") == 0 || strcmp (base, "/") == 0)
    return set_errno_error (error, EISDIR, path, _("not a file name"));

  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return set_errno_error (error, errno, dir, _("open directory"));

  fd = temp_file_open (&tmp, dfd, base, mode);
  if (fd < 0)
    return set_errno_error (error, errno, path, _("create temporary file"));

  errsv = fill_and_close (fd, data, len, mode, &step);
  if (errsv != 0)
    return set_errno_error (error, errsv, path, step);

  if (renameat (dfd, tmp.name, dfd, base) < 0)
    return set_errno_error (error, errno, path, _("rename"));
  g_clear_pointer (&tmp.name, g_free);

  /* The rename is durable only once the directory is synced.  Some
   * filesystems cannot sync a directory (EINVAL): the rename still
   * happened, so that is not a failure. */
  if (fsync (dfd) < 0 && errno != EINVAL)
    return set_errno_error (error, errno, dir, _("fsync directory"));

  return TRUE;
}
