/* sandbox/newroot.c — the new root while it is being built (see
 * newroot.h).
 *
 * Enforces: no lookup of a sandbox path leaves the new root.  Every such
 * lookup is an openat2 (RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS) from the
 * new root's fd, so "..", absolute symlinks and /proc magic links in the
 * tree — including those inside bound host trees — resolve as they will
 * inside the sandbox, never to the host.  Names are created only with
 * *at() calls on a directory fd obtained that way, and only as a single
 * component that the call itself does not follow.
 * Trusts: the kernel (Linux 5.6 for openat2, 5.8 for STATX_MNT_ID).
 *
 * Layout: the new root is a tmpfs, made detached before the bind sources
 * are cloned (so it is the first mount of the sandbox's mountinfo, as in
 * bubblewrap) and then stacked on the host's "/".  There it hides no host
 * path from absolute lookups — the kernel does not cross mounts at the
 * start of a path — so, unlike bubblewrap, which pivots into a tmpfs on
 * /tmp first to keep the host reachable at /oldroot, one pivot_root
 * suffices. */
#include "sandbox/newroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/mount-api.h"

#define NEWROOT_RESOLVE (RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)

int
sb_fail (SbFailure  *f,
         SbFailKind  kind,
         const char *path)
{
  f->errsv = errno;
  f->kind = kind;
  snprintf (f->path, sizeof f->path, "%s", path != NULL ? path : "");
  return -1;
}

/* openat2 inside the new root.  A scoped lookup that meets ".." returns
 * EAGAIN when any mount or rename happened on the system meanwhile, so
 * that it cannot be tricked by a race; retry a few times. */
static int
newroot_open (SbNewRoot  *self,
              const char *path,
              int         flags,
              mode_t      mode)
{
  int fd = -1;

  for (int tries = 0; tries < 16; tries++)
    {
      fd = sb_openat2 (self->root_fd, path, (uint64_t) flags | O_CLOEXEC,
                       mode, NEWROOT_RESOLVE);
      if (fd >= 0 || errno != EAGAIN)
        break;
    }
  return fd;
}

static int
newroot_identity (int       fd,
                  uint64_t *out_mnt_id,
                  ino_t    *out_ino)
{
  struct statx stx;

  if (statx (fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
             STATX_INO | STATX_MNT_ID, &stx) != 0)
    return -1;
  *out_mnt_id = (stx.stx_mask & STATX_MNT_ID) ? stx.stx_mnt_id : 0;
  *out_ino = stx.stx_ino;
  return 0;
}

/* Internal helpers may hand back self->root_fd itself; this closes any
 * other fd. */
static void
newroot_release (SbNewRoot *self,
                 int        fd)
{
  if (fd >= 0 && fd != self->root_fd)
    (void) close (fd);
}

static bool
path_is_root (const char *path)
{
  return path[strspn (path, "/")] == '\0';
}

/* Copies PATH, absolute and without trailing slashes, and cuts it at its
 * last slash: the copy becomes the parent ("" for the root) and
 * *out_name its last component ("" if PATH is the root). */
static char *
newroot_split (const char  *path,
               const char **out_name)
{
  char *copy = sb_xasprintf ("%s%s", path[0] == '/' ? "" : "/", path);
  size_t len = strlen (copy);
  char *slash;

  while (len > 0 && copy[len - 1] == '/')
    copy[--len] = '\0';
  slash = strrchr (copy, '/');
  if (slash == NULL)
    {
      *out_name = copy + len;   /* the root: empty name, empty parent */
      return copy;
    }
  *slash = '\0';
  *out_name = slash + 1;
  return copy;
}

/* One step of mkdir -p: NAME in the directory PARENT_FD, which is the
 * sandbox path PREFIX minus its last component.  A name that already
 * exists (a directory, or a symlink to one) is looked up from the root,
 * as the sandbox would; one that we just made cannot be a symlink. */
static int
newroot_step_dir (SbNewRoot  *self,
                  int         parent_fd,
                  const char *prefix,
                  const char *name,
                  mode_t      mode,
                  bool       *out_created,
                  SbFailure  *f)
{
  int mkdir_errno;
  int fd;

  *out_created = false;
  if (mkdirat (parent_fd, name, mode) == 0)
    {
      *out_created = true;
      fd = openat (parent_fd, name,
                   O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      return fd >= 0 ? fd : sb_fail (f, SB_FAIL_RESOLVE, prefix);
    }

  /* EEXIST is the usual answer; some file systems say EROFS or EACCES
   * first for a name that exists, so try the lookup in every case. */
  mkdir_errno = errno;
  fd = newroot_open (self, prefix, O_PATH | O_DIRECTORY, 0);
  if (fd >= 0)
    return fd;
  if (mkdir_errno != EEXIST && errno == ENOENT)
    {
      errno = mkdir_errno;
      return sb_fail (f, SB_FAIL_MKDIR, prefix);
    }
  return sb_fail (f, SB_FAIL_RESOLVE, prefix);
}

/* Opens the directory DIR (a sandbox path), creating what is missing with
 * MODE.  May return self->root_fd: use newroot_release. */
static int
newroot_open_dir_creating (SbNewRoot  *self,
                           const char *dir,
                           mode_t      mode,
                           SbFailure  *f)
{
  sb_autofree char *prefix = NULL;
  char *p;
  int cur;
  int fd;

  if (path_is_root (dir))
    return self->root_fd;

  /* Usually the parent exists: one syscall. */
  fd = newroot_open (self, dir, O_PATH | O_DIRECTORY, 0);
  if (fd >= 0)
    return fd;
  if (errno != ENOENT)
    return sb_fail (f, SB_FAIL_RESOLVE, dir);

  /* Walk down from the root, creating each missing component. */
  prefix = sb_xstrdup (dir);
  cur = self->root_fd;
  p = prefix + strspn (prefix, "/");
  while (*p != '\0')
    {
      char *end = strchrnul (p, '/');
      char saved = *end;
      bool created;
      int next;

      *end = '\0';
      next = newroot_step_dir (self, cur, prefix, p, mode, &created, f);
      newroot_release (self, cur);
      if (next < 0)
        return -1;
      cur = next;
      *end = saved;
      p = end + strspn (end, "/");
    }
  return cur;
}

int
sb_newroot_create (SbNewRoot *self,
                   SbFailure *f)
{
  sb_autofd int fs_fd = -1;
  char proc_path[40];

  self->host_root_fd = self->base_fd = self->root_fd = -1;

  self->host_root_fd = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (self->host_root_fd < 0)
    return sb_fail (f, SB_FAIL_BASE, "/");

  /* nosuid and nodev, like bubblewrap's base tmpfs. */
  fs_fd = sb_fsopen ("tmpfs", FSOPEN_CLOEXEC);
  if (fs_fd < 0
      || sb_fsconfig (fs_fd, FSCONFIG_SET_STRING, "source", "tmpfs", 0) != 0
      || sb_fsconfig (fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0)
    return sb_fail (f, SB_FAIL_BASE, "tmpfs");
  self->base_fd = sb_fsmount (fs_fd, FSMOUNT_CLOEXEC,
                              MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
  if (self->base_fd < 0)
    return sb_fail (f, SB_FAIL_BASE, "tmpfs");
  /* "/" is 0755 like bubblewrap's newroot directory (a tmpfs root starts
   * at 1777); chmod rather than mode=, so mountinfo reads the same. */
  snprintf (proc_path, sizeof proc_path, "/proc/self/fd/%d", self->base_fd);
  if (fchmodat (AT_FDCWD, proc_path, 0755, 0) != 0)
    return sb_fail (f, SB_FAIL_BASE, "tmpfs");
  self->root_fd = fcntl (self->base_fd, F_DUPFD_CLOEXEC, 3);
  if (self->root_fd < 0
      || newroot_identity (self->root_fd, &self->root_mnt_id,
                           &self->root_ino) != 0)
    return sb_fail (f, SB_FAIL_BASE, "tmpfs");
  return 0;
}

int
sb_newroot_attach (SbNewRoot *self,
                   SbFailure *f)
{
  if (sb_move_mount (self->base_fd, "", self->host_root_fd, "",
                     MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
    return sb_fail (f, SB_FAIL_BASE, "/");
  return 0;
}

int
sb_newroot_refresh (SbNewRoot *self,
                    SbFailure *f)
{
  /* ".." at a mount stacked on the process root stays there and crosses
   * every mount stacked on it: this is the topmost one (Linux has looked
   * ".." up this way since long before openat2). */
  sb_autofd int fd = openat (self->root_fd, "..",
                             O_PATH | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0 || newroot_identity (fd, &self->root_mnt_id, &self->root_ino) != 0)
    return sb_fail (f, SB_FAIL_RESOLVE, "/");
  (void) close (self->root_fd);
  self->root_fd = sb_steal_fd (&fd);
  return 0;
}

int
sb_newroot_lookup (SbNewRoot  *self,
                   const char *path,
                   int         flags,
                   SbFailure  *f)
{
  int fd = newroot_open (self, path, O_PATH | flags, 0);

  return fd >= 0 ? fd : sb_fail (f, SB_FAIL_RESOLVE, path);
}

int
sb_newroot_ensure_parents (SbNewRoot  *self,
                           const char *path,
                           mode_t      parent_mode,
                           SbFailure  *f)
{
  const char *name;
  sb_autofree char *parent = newroot_split (path, &name);
  int fd;

  if (name[0] == '\0')
    return 0;
  fd = newroot_open_dir_creating (self, parent, parent_mode, f);
  if (fd < 0)
    return -1;
  newroot_release (self, fd);
  return 0;
}

int
sb_newroot_ensure_dir (SbNewRoot  *self,
                       const char *path,
                       mode_t      parent_mode,
                       mode_t      mode,
                       bool       *out_is_root,
                       SbFailure  *f)
{
  const char *name;
  sb_autofree char *parent = newroot_split (path, &name);
  uint64_t mnt_id;
  ino_t ino;
  bool created;
  int parent_fd;
  int fd;

  *out_is_root = false;
  if (name[0] == '\0')
    {
      *out_is_root = true;
      fd = fcntl (self->root_fd, F_DUPFD_CLOEXEC, 3);
      return fd >= 0 ? fd : sb_fail (f, SB_FAIL_RESOLVE, "/");
    }

  parent_fd = newroot_open_dir_creating (self, parent, parent_mode, f);
  if (parent_fd < 0)
    return -1;
  fd = newroot_step_dir (self, parent_fd, path, name, mode, &created, f);
  newroot_release (self, parent_fd);
  if (fd < 0 || created)
    return fd;

  /* An existing name may lead back to the root ("/a/..", a symlink to
   * "/"); a mount on it then changes what the root is. */
  if (newroot_identity (fd, &mnt_id, &ino) != 0)
    {
      (void) close (fd);
      return sb_fail (f, SB_FAIL_RESOLVE, path);
    }
  *out_is_root = (mnt_id == self->root_mnt_id && ino == self->root_ino);
  return fd;
}

int
sb_newroot_ensure_file (SbNewRoot  *self,
                        const char *path,
                        mode_t      parent_mode,
                        SbFailure  *f)
{
  const char *name;
  sb_autofree char *parent = newroot_split (path, &name);
  int parent_fd;
  int fd;

  if (name[0] == '\0')
    {
      errno = EISDIR;
      return sb_fail (f, SB_FAIL_CREATE, path);
    }

  parent_fd = newroot_open_dir_creating (self, parent, parent_mode, f);
  if (parent_fd < 0)
    return -1;
  /* O_EXCL: never follows NAME, never opens an existing file (which
   * could be a fifo or a device). */
  fd = openat (parent_fd, name,
               O_CREAT | O_EXCL | O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC,
               0444);
  newroot_release (self, parent_fd);
  if (fd >= 0)
    return fd;
  if (errno != EEXIST)
    return sb_fail (f, SB_FAIL_CREATE, path);

  /* Something is there: any non-directory will do; the mount reports a
   * directory.  Like bubblewrap, a dangling symlink gets its target
   * created — here inside the new root. */
  fd = newroot_open (self, path, O_PATH, 0);
  if (fd >= 0)
    {
      struct stat st;

      if (fstat (fd, &st) == 0 && !S_ISDIR (st.st_mode))
        return fd;
      (void) close (fd);
      errno = EISDIR;
      return sb_fail (f, SB_FAIL_CREATE, path);
    }
  if (errno != ENOENT)
    return sb_fail (f, SB_FAIL_RESOLVE, path);
  fd = newroot_open (self, path, O_CREAT | O_RDONLY | O_NOCTTY | O_NONBLOCK,
                     0444);
  return fd >= 0 ? fd : sb_fail (f, SB_FAIL_CREATE, path);
}

int
sb_newroot_create_file (SbNewRoot  *self,
                        const char *path,
                        mode_t      parent_mode,
                        mode_t      mode,
                        SbFailure  *f)
{
  /* bubblewrap uses creat(): an existing file is truncated.  O_NONBLOCK
   * makes an existing fifo an error instead of a hang. */
  int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_NONBLOCK;
  int fd;

  fd = newroot_open (self, path, flags, mode);
  if (fd >= 0)
    return fd;
  if (errno != ENOENT)
    return sb_fail (f, SB_FAIL_CREATE, path);
  if (sb_newroot_ensure_parents (self, path, parent_mode, f) != 0)
    return -1;
  fd = newroot_open (self, path, flags, mode);
  return fd >= 0 ? fd : sb_fail (f, SB_FAIL_CREATE, path);
}

int
sb_newroot_symlink (SbNewRoot  *self,
                    const char *target,
                    const char *path,
                    mode_t      parent_mode,
                    SbFailure  *f)
{
  const char *name;
  sb_autofree char *parent = newroot_split (path, &name);
  char existing[PATH_MAX];
  int parent_fd;
  ssize_t n;
  int ret = 0;

  if (name[0] == '\0')
    {
      errno = EEXIST;
      return sb_fail (f, SB_FAIL_CREATE, path);
    }
  parent_fd = newroot_open_dir_creating (self, parent, parent_mode, f);
  if (parent_fd < 0)
    return -1;

  if (symlinkat (target, parent_fd, name) != 0)
    {
      if (errno != EEXIST)
        ret = sb_fail (f, SB_FAIL_CREATE, path);
      else if ((n = readlinkat (parent_fd, name, existing,
                                sizeof existing - 1)) < 0)
        {
          /* EINVAL: it exists and is not a symlink. */
          if (errno == EINVAL)
            errno = EEXIST;
          ret = sb_fail (f, SB_FAIL_CREATE, path);
        }
      else
        {
          existing[n] = '\0';
          if (strcmp (existing, target) != 0)
            {
              errno = 0;
              ret = sb_fail (f, SB_FAIL_LINK_DIFFERS, existing);
            }
        }
    }
  newroot_release (self, parent_fd);
  return ret;
}

int
sb_newroot_chmod (SbNewRoot  *self,
                  const char *path,
                  mode_t      mode,
                  SbFailure  *f)
{
  sb_autofd int fd = sb_newroot_lookup (self, path, 0, f);
  char proc_path[40];

  if (fd < 0)
    return -1;
  /* An O_PATH fd cannot be fchmod()ed; its /proc link can be chmod()ed
   * (fchmodat2 with AT_EMPTY_PATH needs Linux 6.6). */
  snprintf (proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
  if (fchmodat (AT_FDCWD, proc_path, mode, 0) != 0)
    return sb_fail (f, SB_FAIL_CHMOD, path);
  return 0;
}

int
sb_newroot_data_file (SbNewRoot  *self,
                      mode_t      mode,
                      char      **out_name,
                      SbFailure  *f)
{
  /* The kernel will not attach a bind of an unlinked (O_TMPFILE) file, so
   * the file gets a name in the root directory for as long as the bind
   * takes — during setup, when nothing runs inside — like bubblewrap's
   * /bindfileXXXXXX in its base tmpfs. */
  for (unsigned int i = 0; i < 1000; i++)
    {
      sb_autofree char *name = sb_xasprintf (".xdg-app-sandbox-data-%u", i);
      int fd = openat (self->base_fd, name,
                       O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC,
                       mode);

      if (fd >= 0)
        {
          *out_name = sb_steal_pointer (&name);
          return fd;
        }
      if (errno != EEXIST)
        break;
    }
  return sb_fail (f, SB_FAIL_CREATE, "(data file)");
}

int
sb_newroot_enter (SbNewRoot *self,
                  SbFailure *f)
{
  int detached = 0;

  /* pivot_root (".", "."): the old root ends up stacked on the new one,
   * where the second fchdir finds it (runc and LXC do the same). */
  if (fchdir (self->root_fd) != 0 || sb_pivot_root (".", ".") != 0)
    return sb_fail (f, SB_FAIL_PIVOT, "/");

  /* umount2 crosses the mounts stacked on the path it is given: while
   * something that was under the new root (our tmpfs, when a bind was
   * put on "/") is still stacked on the host's root it goes first, then
   * the host's root with every mount under it.  EINVAL ends the loop: "."
   * is no longer a mount of this namespace.  Our mounts are slaves or
   * private, so nothing propagates to the host. */
  if (fchdir (self->host_root_fd) != 0)
    return sb_fail (f, SB_FAIL_PIVOT, "/");
  for (;;)
    {
      if (umount2 (".", MNT_DETACH) == 0)
        detached++;
      else if (errno == EINVAL && detached > 0)
        break;
      else
        return sb_fail (f, SB_FAIL_PIVOT, "/");
    }
  if (chdir ("/") != 0)
    return sb_fail (f, SB_FAIL_PIVOT, "/");

  (void) close (self->host_root_fd);
  (void) close (self->base_fd);
  (void) close (self->root_fd);
  self->host_root_fd = self->base_fd = self->root_fd = -1;
  return 0;
}
