/* sandbox/mount-api.h — the kernel's fd-based mount API (open_tree,
 * move_mount, mount_setattr, fsopen/fsconfig/fsmount: Linux 5.2–5.12),
 * openat2 (5.6) and pivot_root, called through syscall(2) so that the
 * launcher builds against any libc.  Constants carry the kernel's
 * documented values and are defined only where the headers lack them. */
#pragma once

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The mount API and openat2 use the same numbers on every architecture
 * (the unified table of Linux 5.1+); alpha alone adds 110 and is not a
 * target. */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef MOVE_MOUNT_T_EMPTY_PATH
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef MOUNT_ATTR_NOSUID
#define MOUNT_ATTR_NOSUID 0x00000002
#endif
#ifndef MOUNT_ATTR_NODEV
#define MOUNT_ATTR_NODEV 0x00000004
#endif
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif
#ifndef FSCONFIG_CMD_CREATE
#define FSCONFIG_CMD_CREATE 6
#endif
#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02
#endif
#ifndef RESOLVE_IN_ROOT
#define RESOLVE_IN_ROOT 0x10
#endif

/* struct mount_attr and struct open_how, under our own names so that no
 * libc or kernel header has to provide them (the first published sizes). */
typedef struct
{
  uint64_t attr_set;
  uint64_t attr_clr;
  uint64_t propagation;
  uint64_t userns_fd;
} SbMountAttr;

typedef struct
{
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
} SbOpenHow;

static inline int
sb_open_tree (int dirfd, const char *path, unsigned int flags)
{
  return (int) syscall (SYS_open_tree, dirfd, path, flags);
}

static inline int
sb_move_mount (int from_dirfd, const char *from_path,
               int to_dirfd, const char *to_path, unsigned int flags)
{
  return (int) syscall (SYS_move_mount, from_dirfd, from_path,
                        to_dirfd, to_path, flags);
}

static inline int
sb_mount_setattr (int dirfd, const char *path, unsigned int flags,
                  uint64_t attr_set)
{
  SbMountAttr attr = { .attr_set = attr_set };

  return (int) syscall (SYS_mount_setattr, dirfd, path, flags,
                        &attr, sizeof attr);
}

static inline int
sb_fsopen (const char *fstype, unsigned int flags)
{
  return (int) syscall (SYS_fsopen, fstype, flags);
}

static inline int
sb_fsconfig (int fs_fd, unsigned int cmd, const char *key,
             const void *value, int aux)
{
  return (int) syscall (SYS_fsconfig, fs_fd, cmd, key, value, aux);
}

static inline int
sb_fsmount (int fs_fd, unsigned int flags, unsigned int attr_flags)
{
  return (int) syscall (SYS_fsmount, fs_fd, flags, attr_flags);
}

static inline int
sb_openat2 (int dirfd, const char *path, uint64_t flags, uint64_t mode,
            uint64_t resolve)
{
  SbOpenHow how = { .flags = flags, .mode = mode, .resolve = resolve };

  return (int) syscall (SYS_openat2, dirfd, path, &how, sizeof how);
}

static inline int
sb_pivot_root (const char *new_root, const char *put_old)
{
  return (int) syscall (SYS_pivot_root, new_root, put_old);
}

/* mount(2) of a new FSTYPE instance on the directory TARGET_FD refers to.
 * The kernel follows the /proc/self/fd magic link to exactly that
 * directory, so the target is never looked up by name again. */
static inline int
sb_mount_on_fd (const char    *fstype,
                int            target_fd,
                unsigned long  flags,
                const char    *data)
{
  char path[40];

  snprintf (path, sizeof path, "/proc/self/fd/%d", target_fd);
  return mount (fstype, path, fstype, flags, data);
}
