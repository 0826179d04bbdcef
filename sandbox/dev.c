/* sandbox/dev.c — the --dev tree (see dev.h).
 *
 * Enforces: the sandbox's /dev holds only the nodes listed here; none of
 * them is created with mknod (impossible in a user namespace anyway) —
 * each is a bind of the host's node, so it grants exactly the access the
 * host's node grants.  The tmpfs itself is nodev; only those binds keep
 * device access.  The pseudo-terminals are a new devpts instance, so the
 * host's terminals are not reachable through /dev/pts.
 * Trusts: the host's /dev for the six nodes and ttyname(3) for the
 * terminal on stdout (the caller already holds that terminal open).
 * Note: mounting devpts in a user namespace needs uid and gid 0 mapped
 * there (the kernel's mknod_ptmx check), as bubblewrap arranges. */
#include "sandbox/dev.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/bind.h"
#include "sandbox/cleanup.h"
#include "sandbox/mount-api.h"

/* The host nodes bound in: bubblewrap's list. */
static const char *const dev_nodes[] = {
  "null", "zero", "full", "random", "urandom", "tty",
};

/* Symlinks: name -> target. */
static const char *const dev_links[][2] = {
  { "stdin", "/proc/self/fd/0" },
  { "stdout", "/proc/self/fd/1" },
  { "stderr", "/proc/self/fd/2" },
  { "fd", "/proc/self/fd" },      /* legacy, as nspawn and docker do */
  { "core", "/proc/kcore" },      /* legacy, likewise */
  { "ptmx", "pts/ptmx" },         /* the devpts instance below */
};

static int
dev_fail (SbFailure  *f,
          SbFailKind  kind,
          const char *dest,
          const char *name)
{
  char path[PATH_MAX];

  snprintf (path, sizeof path, "%s/%s", dest, name);
  return sb_fail (f, kind, path);
}

/* Binds the host node HOST_PATH on the new empty file DEV_FD/NAME. */
static int
dev_bind_node (int         dev_fd,
               const char *dest,
               const char *name,
               const char *host_path,
               SbFailure  *f)
{
  sb_autofd int tree_fd = -1;

  if (mknodat (dev_fd, name, S_IFREG | 0444, 0) != 0)
    return dev_fail (f, SB_FAIL_CREATE, dest, name);
  tree_fd = sb_bind_clone (AT_FDCWD, host_path);
  if (tree_fd < 0)
    return sb_fail (f, SB_FAIL_SOURCE, host_path);
  if (sb_bind_restrict (tree_fd, SB_BIND_DEVICES) != 0)
    return dev_fail (f, SB_FAIL_RESTRICT, dest, name);
  if (sb_bind_attach (tree_fd, dev_fd, name) != 0)
    return dev_fail (f, SB_FAIL_ATTACH, dest, name);
  return 0;
}

int
sb_dev_populate (int         dev_fd,
                 const char *dest,
                 SbFailure  *f)
{
  char host_path[PATH_MAX];
  char pts_path[40];

  for (size_t i = 0; i < sizeof dev_nodes / sizeof dev_nodes[0]; i++)
    {
      snprintf (host_path, sizeof host_path, "/dev/%s", dev_nodes[i]);
      if (dev_bind_node (dev_fd, dest, dev_nodes[i], host_path, f) != 0)
        return -1;
    }

  for (size_t i = 0; i < sizeof dev_links / sizeof dev_links[0]; i++)
    if (symlinkat (dev_links[i][1], dev_fd, dev_links[i][0]) != 0)
      return dev_fail (f, SB_FAIL_CREATE, dest, dev_links[i][0]);

  if (mkdirat (dev_fd, "shm", 0755) != 0)
    return dev_fail (f, SB_FAIL_MKDIR, dest, "shm");
  if (mkdirat (dev_fd, "pts", 0755) != 0)
    return dev_fail (f, SB_FAIL_MKDIR, dest, "pts");
  snprintf (pts_path, sizeof pts_path, "/proc/self/fd/%d/pts", dev_fd);
  if (mount ("devpts", pts_path, "devpts", MS_NOSUID | MS_NOEXEC,
             "newinstance,ptmxmode=0666,mode=620") != 0)
    return dev_fail (f, SB_FAIL_MOUNT, dest, "pts");

  /* If stdout is a terminal the sandbox can already write to it; naming
   * it /dev/console grants nothing more and makes ttyname() work inside
   * (bubblewrap looks at stdout only). */
  if (ttyname_r (STDOUT_FILENO, host_path, sizeof host_path) == 0
      && dev_bind_node (dev_fd, dest, "console", host_path, f) != 0)
    return -1;

  return 0;
}
