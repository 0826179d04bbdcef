/* sandbox/bind.c — bind mounts as detached trees (see bind.h).
 *
 * Enforces: every bind is recursive and every mount in it gets the
 * requested restrictions before it becomes visible.  Trusts: the kernel's
 * mount API (Linux 5.12 for mount_setattr); callers for the fds, which
 * they resolved inside the new root or on the host. */
#include "sandbox/bind.h"

#include "sandbox/mount-api.h"

int
sb_bind_clone (int         dirfd,
               const char *path)
{
  unsigned int flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE;

  if (path[0] == '\0')
    flags |= AT_EMPTY_PATH;
  return sb_open_tree (dirfd, path, flags);
}

int
sb_bind_restrict (int         tree_fd,
                  SbBindFlags flags)
{
  uint64_t attr = MOUNT_ATTR_NOSUID;

  if ((flags & SB_BIND_DEVICES) == 0)
    attr |= MOUNT_ATTR_NODEV;
  if (flags & SB_BIND_READONLY)
    attr |= MOUNT_ATTR_RDONLY;
  return sb_mount_setattr (tree_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, attr);
}

int
sb_bind_attach (int         tree_fd,
                int         target_dirfd,
                const char *target_path)
{
  unsigned int flags = MOVE_MOUNT_F_EMPTY_PATH;

  if (target_path[0] == '\0')
    flags |= MOVE_MOUNT_T_EMPTY_PATH;
  return sb_move_mount (tree_fd, "", target_dirfd, target_path, flags);
}

int
sb_bind_remount_ro (int target_fd)
{
  return sb_mount_setattr (target_fd, "", AT_EMPTY_PATH,
                           MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID
                           | MOUNT_ATTR_NODEV);
}
