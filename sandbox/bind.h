/* sandbox/bind.h — bind mounts as detached trees.
 *
 * A bind is made in three steps: clone the source with every mount below
 * it into a detached tree (open_tree), restrict every mount of that tree
 * at once (mount_setattr with AT_RECURSIVE), then attach it (move_mount).
 * The tree is restricted before it is attached, so no process ever sees
 * a writable or suid-capable mount where the plan asked for less, and a
 * submount can never be missed the way a walk of /proc/self/mountinfo can
 * miss one.  Binds are always recursive: a non-recursive bind would
 * uncover files that a submount hides on the host (and the kernel refuses
 * it inside a user namespace when the source has locked submounts). */
#pragma once

typedef enum
{
  SB_BIND_READONLY = 1 << 0, /* every mount of the tree read-only */
  SB_BIND_DEVICES  = 1 << 1, /* keep device nodes usable (no nodev) */
} SbBindFlags;

/* Clones DIRFD/PATH (PATH "" means DIRFD itself) and every mount below it
 * into a detached tree.  Follows a final symlink.  Returns the tree's fd,
 * or -1 with errno set. */
int sb_bind_clone (int dirfd, const char *path);

/* Makes every mount of TREE_FD nosuid, nodev unless SB_BIND_DEVICES, and
 * read-only if SB_BIND_READONLY — what bubblewrap applies to each bind
 * and each of its submounts.  Flags already set stay set.  Returns 0, or
 * -1 with errno set. */
int sb_bind_restrict (int tree_fd, SbBindFlags flags);

/* Attaches TREE_FD on TARGET_DIRFD/TARGET_PATH (PATH "" means the fd
 * itself; a final symlink is not followed).  Returns 0, or -1 with errno
 * set. */
int sb_bind_attach (int tree_fd, int target_dirfd, const char *target_path);

/* --remount-ro: makes the one mount whose root TARGET_FD is read-only,
 * nosuid and nodev (bubblewrap's flags), without touching its submounts.
 * Returns 0, or -1 with errno set (EINVAL: not a mount point). */
int sb_bind_remount_ro (int target_fd);
