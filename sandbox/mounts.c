/* sandbox/mounts.c — the mounts step: builds the sandbox's file system
 * view from the plan's setup operations, with bubblewrap 0.8's semantics
 * for each of them, then pivots into it.
 *
 * Enforces: nothing propagates to the host (every host mount becomes a
 * slave first); the sandbox sees only what the operations put in the new
 * root (the host's mounts are detached after the pivot); a read-only or
 * nodev bind is so on every one of its submounts before it is visible;
 * /proc/sys, /proc/sysrq-trigger, /proc/irq and /proc/bus are read-only
 * in every --proc, whoever runs us (bubblewrap skips this when a probe
 * says "not writable", which is how it leaves /proc/sys writable to root).
 * Destinations never resolve outside the new root (sandbox/newroot.c).
 * Trusts: the plan (checked by sb_plan_parse) for what to mount; the host
 * for its source paths, which are opened as the caller sees them.
 *
 * Order: every bind source is cloned (sandbox/bind.c) before the new
 * root's tmpfs is stacked on the host's "/"; after that a host path that
 * climbed back to "/" with ".." would land on the tmpfs.  The few host
 * paths read later (/dev nodes, /proc, the terminal) have no "..". */
#include "sandbox/mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "sandbox/bind.h"
#include "sandbox/cleanup.h"
#include "sandbox/dev.h"
#include "sandbox/die.h"
#include "sandbox/mount-api.h"
#include "sandbox/newroot.h"

#ifndef SELINUX_MAGIC
#define SELINUX_MAGIC 0xf97cff8c
#endif

typedef struct
{
  const SbPlan *plan;
  SbNewRoot     root;
  int          *trees;       /* per op: the cloned bind source, or -1 */
  char         *label_opts;  /* ",context=\"…\"" for new tmpfs, or "" */
} SbMounts;

/* Proc entries made read-only in every --proc: they reach the host's
 * kernel, not the sandbox's namespaces. */
static const char *const proc_read_only[] = {
  "sys",            /* sysctls; many are global (kernel.*, vm.*) */
  "sysrq-trigger",  /* writing 'b' reboots the machine */
  "irq",            /* IRQ affinity of the host's devices */
  "bus",            /* PCI/USB config space */
};

/* ---- Wording ---- */

static char *
mounts_describe_op (const SbOp *op)
{
  switch (op->kind)
    {
    case SB_OP_BIND:
      return sb_xasprintf ("%sbind '%s' on '%s'",
                           op->readonly ? "read-only "
                           : op->devices ? "device " : "",
                           op->source, op->dest);
    case SB_OP_BIND_FD:
      return sb_xasprintf ("%sbind fd %d on '%s'",
                           op->readonly ? "read-only " : "",
                           op->fd, op->dest);
    case SB_OP_REMOUNT_RO:
      return sb_xasprintf ("remount '%s' read-only", op->dest);
    case SB_OP_PROC:
      return sb_xasprintf ("mount proc on '%s'", op->dest);
    case SB_OP_DEV:
      return sb_xasprintf ("mount dev on '%s'", op->dest);
    case SB_OP_TMPFS:
      return sb_xasprintf ("mount tmpfs on '%s'", op->dest);
    case SB_OP_MQUEUE:
      return sb_xasprintf ("mount mqueue on '%s'", op->dest);
    case SB_OP_DIR:
      return sb_xasprintf ("create directory '%s'", op->dest);
    case SB_OP_SYMLINK:
      return sb_xasprintf ("create symlink '%s' to '%s'",
                           op->dest, op->source);
    case SB_OP_FILE:
      return sb_xasprintf ("create file '%s' from fd %d", op->dest, op->fd);
    case SB_OP_BIND_DATA:
      return sb_xasprintf ("%sbind data from fd %d on '%s'",
                           op->readonly ? "read-only " : "",
                           op->fd, op->dest);
    case SB_OP_CHMOD:
      return sb_xasprintf ("chmod %04o '%s'", (unsigned) op->perms, op->dest);
    case SB_OP_LOCK_FILE:
      return sb_xasprintf ("lock '%s'", op->dest);
    default:
      return sb_xasprintf ("operation %d on '%s'", (int) op->kind, op->dest);
    }
}

/* What failed inside the operation, or NULL when the errno says it all
 * because the failing path is the operation's own destination or source
 * ("bind '/srv/x' on '/self': No such file or directory"). */
static char *
mounts_describe_failure (const SbOp      *op,
                         const SbFailure *f)
{
  bool own = op != NULL
             && ((op->dest != NULL && strcmp (f->path, op->dest) == 0)
                 || (op->source != NULL && strcmp (f->path, op->source) == 0));

  switch (f->kind)
    {
    case SB_FAIL_SOURCE:
      return own ? NULL : sb_xasprintf ("cannot open '%s'", f->path);
    case SB_FAIL_RESOLVE:
      return own ? NULL : sb_xasprintf ("cannot resolve '%s'", f->path);
    case SB_FAIL_MKDIR:
      return own ? NULL : sb_xasprintf ("cannot create directory '%s'", f->path);
    case SB_FAIL_CREATE:
      return own ? NULL : sb_xasprintf ("cannot create '%s'", f->path);
    case SB_FAIL_MOUNT:
      return own ? NULL : sb_xasprintf ("cannot mount on '%s'", f->path);
    case SB_FAIL_ATTACH:
      return own ? NULL : sb_xasprintf ("cannot bind on '%s'", f->path);
    case SB_FAIL_CHMOD:
      return own ? NULL : sb_xasprintf ("cannot chmod '%s'", f->path);
    case SB_FAIL_RESTRICT:
      return sb_xasprintf ("cannot restrict the mount flags of '%s'", f->path);
    case SB_FAIL_NOT_MOUNT:
      return sb_xasprintf ("'%s' is not a mount point", f->path);
    case SB_FAIL_LINK_DIFFERS:
      return sb_xasprintf ("it exists and points to '%s'", f->path);
    case SB_FAIL_CHANGED:
      return sb_xasprintf ("'%s' was replaced while binding it", f->path);
    case SB_FAIL_COPY:
      return sb_xasprintf ("cannot copy the data to '%s'", f->path);
    case SB_FAIL_PIVOT:
      return sb_xstrdup ("cannot pivot into the new root");
    case SB_FAIL_BASE:
      return sb_xasprintf ("cannot make the new root's tmpfs on '%s'", f->path);
    case SB_FAIL_NONE:
    default:
      return NULL;
    }
}

/* The one place that turns a failure into the launcher's last line:
 * "OP: [WHAT: ]ERRNO". */
__attribute__ ((noreturn))
static void
mounts_die (const SbOp      *op,
            const SbFailure *f)
{
  sb_autofree char *what = op != NULL ? mounts_describe_op (op)
                                      : sb_xstrdup ("set up the new root");
  sb_autofree char *detail = mounts_describe_failure (op, f);

  errno = f->errsv;
  if (detail != NULL && f->errsv != 0)
    sb_die_errno ("%s: %s", what, detail);
  if (detail != NULL)
    sb_die ("%s: %s", what, detail);
  if (f->errsv != 0)
    sb_die_errno ("%s", what);
  sb_die ("%s", what);
}

/* ---- Modes ---- */

/* The mode an operation creates DEST with; bubblewrap's defaults. */
static mode_t
mounts_op_perms (const SbOp *op)
{
  switch (op->kind)
    {
    case SB_OP_TMPFS:
    case SB_OP_DIR:
      return op->perms >= 0 ? (mode_t) op->perms : 0755;
    case SB_OP_FILE:
      return op->perms >= 0 ? (mode_t) op->perms : 0666;
    case SB_OP_BIND_DATA:
      return op->perms >= 0 ? (mode_t) op->perms : 0600;
    case SB_OP_CHMOD:
      return (mode_t) op->perms;
    case SB_OP_BIND:
    case SB_OP_BIND_FD:
    case SB_OP_REMOUNT_RO:
    case SB_OP_PROC:
    case SB_OP_DEV:
    case SB_OP_MQUEUE:
    case SB_OP_SYMLINK:
    case SB_OP_LOCK_FILE:
    default:
      /* bubblewrap leaves these operations' mode at 0 (their SetupOp is
       * zero-filled), which the rule below turns into parents of 0700. */
      return 0;
    }
}

/* Missing parents lose group/other access where DEST itself has none
 * (bubblewrap's "least astonishment" rule; with the mode 0 above it
 * makes 0700 parents for binds, --proc, --dev, --symlink…, as 0.8 does). */
static mode_t
mounts_parent_mode (const SbOp *op)
{
  mode_t perms = mounts_op_perms (op);
  mode_t mode = 0755;

  if ((perms & 0070) == 0)
    mode &= ~0050U;
  if ((perms & 0007) == 0)
    mode &= ~0005U;
  return mode;
}

/* A data or path fd of the plan is closed once its operation has used
 * it, as bubblewrap does, so the command does not inherit it — except 0,
 * 1 and 2, which would otherwise be reused by the next open(). */
static void
mounts_consume_fd (int fd)
{
  if (fd > STDERR_FILENO)
    (void) close (fd);
}

/* ---- Host side, before the new root exists ---- */

/* --bind-fd: the fd's path, as bubblewrap takes it (a mount in another
 * mount namespace cannot be cloned directly), checked afterwards to be
 * the very file the caller opened. */
static int
mounts_clone_fd (int        fd,
                 SbFailure *f)
{
  char link[40];
  char path[PATH_MAX];
  struct stat fd_st, tree_st;
  ssize_t n;
  sb_autofd int tree_fd = -1;

  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink (link, path, sizeof path - 1);
  if (n < 0)
    return sb_fail (f, SB_FAIL_SOURCE, link);
  path[n] = '\0';
  tree_fd = sb_bind_clone (AT_FDCWD, path);
  if (tree_fd < 0)
    return sb_fail (f, SB_FAIL_SOURCE, path);
  if (fstat (fd, &fd_st) != 0 || fstat (tree_fd, &tree_st) != 0)
    return sb_fail (f, SB_FAIL_SOURCE, path);
  if (fd_st.st_dev != tree_st.st_dev || fd_st.st_ino != tree_st.st_ino)
    {
      errno = 0;
      return sb_fail (f, SB_FAIL_CHANGED, path);
    }
  return sb_steal_fd (&tree_fd);
}

static void
mounts_clone_sources (SbMounts *self)
{
  const SbPlan *plan = self->plan;

  for (size_t i = 0; i < plan->n_ops; i++)
    {
      const SbOp *op = &plan->ops[i];
      SbFailure f;

      self->trees[i] = -1;
      if (op->kind == SB_OP_BIND)
        {
          self->trees[i] = sb_bind_clone (AT_FDCWD, op->source);
          if (self->trees[i] < 0 && !(op->try_ && errno == ENOENT))
            {
              sb_fail (&f, SB_FAIL_SOURCE, op->source);
              mounts_die (op, &f);
            }
        }
      else if (op->kind == SB_OP_BIND_FD)
        {
          self->trees[i] = mounts_clone_fd (op->fd, &f);
          if (self->trees[i] < 0)
            mounts_die (op, &f);
          mounts_consume_fd (op->fd);
        }
    }
}

/* --file-label: without SELinux there is nothing to label and the label
 * is ignored (bubblewrap would refuse it; we accept it for plans written
 * for SELinux hosts).  With SELinux enabled we do what bubblewrap does
 * without linking libselinux: new tmpfs get context="LABEL" and the files
 * we create get LABEL through /proc/thread-self/attr/fscreate. */
static void
mounts_apply_label (SbMounts *self)
{
  const char *label = self->plan->file_label;
  struct statfs sfs;
  sb_autofd int fd = -1;

  self->label_opts = sb_xstrdup ("");
  if (label == NULL
      || statfs ("/sys/fs/selinux", &sfs) != 0
      || (unsigned long) sfs.f_type != SELINUX_MAGIC)
    return;

  free (self->label_opts);
  self->label_opts = sb_xasprintf (",context=\"%s\"", label);
  fd = open ("/proc/thread-self/attr/fscreate", O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, label, strlen (label) + 1) < 0)
    sb_die_errno ("set file label '%s'", label);
}

/* ---- Operations ---- */

static int
mounts_copy_data (int         from_fd,
                  int         to_fd,
                  const char *dest,
                  SbFailure  *f)
{
  char buf[65536];

  for (;;)
    {
      ssize_t n = read (from_fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return sb_fail (f, SB_FAIL_COPY, dest);
      if (n == 0)
        return 0;
      for (ssize_t done = 0; done < n;)
        {
          ssize_t w = write (to_fd, buf + done, (size_t) (n - done));

          if (w < 0 && errno == EINTR)
            continue;
          if (w < 0)
            return sb_fail (f, SB_FAIL_COPY, dest);
          done += w;
        }
    }
}

/* Restricts TREE_FD and attaches it on DEST, creating DEST as a directory
 * or an empty file to match the tree's root. */
static int
mounts_bind_tree (SbMounts    *self,
                  const SbOp  *op,
                  int          tree_fd,
                  SbBindFlags  flags,
                  SbFailure   *f)
{
  struct stat st;
  bool is_root = false;
  sb_autofd int target_fd = -1;

  if (fstat (tree_fd, &st) != 0)
    return sb_fail (f, SB_FAIL_SOURCE, op->source);
  if (S_ISDIR (st.st_mode))
    target_fd = sb_newroot_ensure_dir (&self->root, op->dest,
                                       mounts_parent_mode (op), 0755,
                                       &is_root, f);
  else
    target_fd = sb_newroot_ensure_file (&self->root, op->dest,
                                        mounts_parent_mode (op), f);
  if (target_fd < 0)
    return -1;

  if (sb_bind_restrict (tree_fd, flags) != 0)
    return sb_fail (f, SB_FAIL_RESTRICT, op->dest);
  if (sb_bind_attach (tree_fd, target_fd, "") != 0)
    return sb_fail (f, SB_FAIL_ATTACH, op->dest);
  return is_root ? sb_newroot_refresh (&self->root, f) : 0;
}

/* Mounts a new FSTYPE on the directory DEST.  Returns an O_PATH fd of the
 * new mount if OUT_FD is given. */
static int
mounts_fresh (SbMounts      *self,
              const SbOp    *op,
              const char    *fstype,
              unsigned long  flags,
              const char    *data,
              int           *out_fd,
              SbFailure     *f)
{
  bool is_root = false;
  sb_autofd int target_fd = sb_newroot_ensure_dir (&self->root, op->dest,
                                                   mounts_parent_mode (op),
                                                   0755, &is_root, f);

  if (target_fd < 0)
    return -1;
  if (sb_mount_on_fd (fstype, target_fd, flags, data) != 0)
    return sb_fail (f, SB_FAIL_MOUNT, op->dest);
  if (is_root && sb_newroot_refresh (&self->root, f) != 0)
    return -1;
  if (out_fd != NULL)
    {
      /* Looking DEST up again crosses onto the new mount. */
      *out_fd = sb_newroot_lookup (&self->root, op->dest, O_DIRECTORY, f);
      if (*out_fd < 0)
        return -1;
    }
  return 0;
}

static int
mounts_apply_proc (SbMounts   *self,
                   const SbOp *op,
                   SbFailure  *f)
{
  const SbPlan *plan = self->plan;
  sb_autofd int proc_fd = -1;

  if (plan->unshare_pid || plan->pidns_fd >= 0)
    {
      if (mounts_fresh (self, op, "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV,
                        NULL, &proc_fd, f) != 0)
        return -1;
    }
  else
    {
      /* Same pid namespace as the host: a new procfs would need
       * privileges over it, so bind the host's, as bubblewrap does. */
      sb_autofd int tree_fd = sb_bind_clone (AT_FDCWD, "/proc");

      if (tree_fd < 0)
        return sb_fail (f, SB_FAIL_SOURCE, "/proc");
      if (mounts_bind_tree (self, op, tree_fd, 0, f) != 0)
        return -1;
      proc_fd = sb_newroot_lookup (&self->root, op->dest, O_DIRECTORY, f);
      if (proc_fd < 0)
        return -1;
    }

  for (size_t i = 0; i < sizeof proc_read_only / sizeof proc_read_only[0]; i++)
    {
      const char *name = proc_read_only[i];
      sb_autofd int tree_fd = sb_bind_clone (proc_fd, name);
      char path[PATH_MAX];

      snprintf (path, sizeof path, "%s/%s", op->dest, name);
      if (tree_fd < 0 && errno == ENOENT)
        continue;  /* not in this kernel's configuration */
      if (tree_fd < 0)
        return sb_fail (f, SB_FAIL_SOURCE, path);
      if (sb_bind_restrict (tree_fd, SB_BIND_READONLY) != 0)
        return sb_fail (f, SB_FAIL_RESTRICT, path);
      if (sb_bind_attach (tree_fd, proc_fd, name) != 0)
        return sb_fail (f, SB_FAIL_ATTACH, path);
    }
  return 0;
}

static int
mounts_apply_remount_ro (SbMounts   *self,
                         const SbOp *op,
                         SbFailure  *f)
{
  sb_autofd int fd = -1;
  struct statx stx;

  if (sb_newroot_ensure_parents (&self->root, op->dest,
                                 mounts_parent_mode (op), f) != 0)
    return -1;
  fd = sb_newroot_lookup (&self->root, op->dest, 0, f);
  if (fd < 0)
    return -1;
  if (sb_bind_remount_ro (fd) == 0)
    return 0;
  if (errno == EINVAL
      && statx (fd, "", AT_EMPTY_PATH, 0, &stx) == 0
      && (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
      && !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
    {
      errno = 0;
      return sb_fail (f, SB_FAIL_NOT_MOUNT, op->dest);
    }
  return sb_fail (f, SB_FAIL_RESTRICT, op->dest);
}

static int
mounts_apply_bind_data (SbMounts   *self,
                        const SbOp *op,
                        SbFailure  *f)
{
  sb_autofree char *name = NULL;
  sb_autofd int data_fd = sb_newroot_data_file (&self->root,
                                                mounts_op_perms (op),
                                                &name, f);
  sb_autofd int tree_fd = -1;
  int ret;

  if (data_fd < 0)
    return -1;
  ret = mounts_copy_data (op->fd, data_fd, op->dest, f);
  mounts_consume_fd (op->fd);
  if (ret == 0)
    {
      tree_fd = sb_bind_clone (self->root.base_fd, name);
      if (tree_fd < 0)
        ret = sb_fail (f, SB_FAIL_SOURCE, op->dest);
    }
  if (ret == 0)
    ret = mounts_bind_tree (self, op, tree_fd,
                            op->readonly ? SB_BIND_READONLY : 0, f);
  /* The bind keeps the file; its name must not outlive this step.  (The
   * kernel refuses to attach a tree whose root is already unlinked.) */
  (void) unlinkat (self->root.base_fd, name, 0);
  return ret;
}

static int
mounts_apply_op (SbMounts  *self,
                 size_t     i,
                 SbFailure *f)
{
  const SbOp *op = &self->plan->ops[i];

  switch (op->kind)
    {
    case SB_OP_BIND:
    case SB_OP_BIND_FD:
      {
        sb_autofd int tree_fd = self->trees[i];

        self->trees[i] = -1;
        if (tree_fd < 0)
          return 0;   /* --*-bind-try with a missing source */
        return mounts_bind_tree (self, op, tree_fd,
                                 (op->readonly ? SB_BIND_READONLY : 0)
                                 | (op->devices ? SB_BIND_DEVICES : 0), f);
      }

    case SB_OP_REMOUNT_RO:
      return mounts_apply_remount_ro (self, op, f);

    case SB_OP_PROC:
      return mounts_apply_proc (self, op, f);

    case SB_OP_DEV:
      {
        sb_autofree char *opts = sb_xasprintf ("mode=0755%s",
                                               self->label_opts);
        sb_autofd int dev_fd = -1;

        if (mounts_fresh (self, op, "tmpfs", MS_NOSUID | MS_NODEV, opts,
                          &dev_fd, f) != 0)
          return -1;
        return sb_dev_populate (dev_fd, op->dest, f);
      }

    case SB_OP_TMPFS:
      {
        sb_autofree char *size = op->size > 0
                                 ? sb_xasprintf (",size=%zu", op->size)
                                 : sb_xstrdup ("");
        sb_autofree char *opts = sb_xasprintf ("mode=%#o%s%s",
                                               (unsigned) mounts_op_perms (op),
                                               size, self->label_opts);

        return mounts_fresh (self, op, "tmpfs", MS_NOSUID | MS_NODEV, opts,
                             NULL, f);
      }

    case SB_OP_MQUEUE:
      return mounts_fresh (self, op, "mqueue", 0, NULL, NULL, f);

    case SB_OP_DIR:
      {
        bool is_root;
        sb_autofd int fd = sb_newroot_ensure_dir (&self->root, op->dest,
                                                  mounts_parent_mode (op),
                                                  mounts_op_perms (op),
                                                  &is_root, f);

        return fd >= 0 ? 0 : -1;
      }

    case SB_OP_SYMLINK:
      return sb_newroot_symlink (&self->root, op->source, op->dest,
                                 mounts_parent_mode (op), f);

    case SB_OP_FILE:
      {
        sb_autofd int fd = sb_newroot_create_file (&self->root, op->dest,
                                                   mounts_parent_mode (op),
                                                   mounts_op_perms (op), f);
        int ret = fd >= 0 ? mounts_copy_data (op->fd, fd, op->dest, f) : -1;

        mounts_consume_fd (op->fd);
        return ret;
      }

    case SB_OP_BIND_DATA:
      return mounts_apply_bind_data (self, op, f);

    case SB_OP_CHMOD:
      return sb_newroot_chmod (&self->root, op->dest, mounts_op_perms (op), f);

    case SB_OP_LOCK_FILE:
      return 0;   /* taken after the pivot: sb_mounts_take_locks */

    default:
      errno = EINVAL;
      return sb_fail (f, SB_FAIL_NONE, op->dest);
    }
}

/* Every bind source stays open as a detached tree until its operation
 * runs; make room for them if the soft limit is low.  Returns the limit
 * to restore, or rlim_cur == RLIM_INFINITY if nothing changed. */
static struct rlimit
mounts_raise_fd_limit (const SbPlan *plan)
{
  struct rlimit old = { RLIM_INFINITY, RLIM_INFINITY };
  struct rlimit lim;
  rlim_t want = 64;

  for (size_t i = 0; i < plan->n_ops; i++)
    if (plan->ops[i].kind == SB_OP_BIND || plan->ops[i].kind == SB_OP_BIND_FD)
      want++;
  if (want < 256 || getrlimit (RLIMIT_NOFILE, &lim) != 0
      || lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= want + 64)
    return old;
  old = lim;
  lim.rlim_cur = (lim.rlim_max == RLIM_INFINITY || lim.rlim_max > want + 1024)
                 ? want + 1024 : lim.rlim_max;
  (void) setrlimit (RLIMIT_NOFILE, &lim);
  return old;
}

void
sb_mounts_apply (const SbPlan *plan)
{
  SbMounts self = { .plan = plan };
  sb_autofree int *trees = sb_xcalloc (plan->n_ops, sizeof (int));
  sb_autofree char *label_opts = NULL;
  struct rlimit old_limit = mounts_raise_fd_limit (plan);
  mode_t old_umask = umask (0);   /* modes are the plan's, exactly */
  SbFailure f = { 0 };

  /* Receive the host's mount events but never send ours back. */
  if (mount (NULL, "/", NULL, MS_SLAVE | MS_REC | MS_SILENT, NULL) != 0)
    sb_die_errno ("make '/' a slave mount");

  mounts_apply_label (&self);
  label_opts = self.label_opts;
  self.trees = trees;
  if (sb_newroot_create (&self.root, &f) != 0)
    mounts_die (NULL, &f);
  mounts_clone_sources (&self);
  if (sb_newroot_attach (&self.root, &f) != 0)
    mounts_die (NULL, &f);

  for (size_t i = 0; i < plan->n_ops; i++)
    if (mounts_apply_op (&self, i, &f) != 0)
      mounts_die (&plan->ops[i], &f);

  if (sb_newroot_enter (&self.root, &f) != 0)
    mounts_die (NULL, &f);

  umask (old_umask);
  if (old_limit.rlim_cur != RLIM_INFINITY)
    (void) setrlimit (RLIMIT_NOFILE, &old_limit);
}

size_t
sb_mounts_take_locks (const SbPlan  *plan,
                      int          **out_fds)
{
  int *fds = NULL;
  size_t n = 0;

  for (size_t i = 0; i < plan->n_ops; i++)
    {
      const SbOp *op = &plan->ops[i];
      struct flock lock = {
        .l_type = F_RDLCK,
        .l_whence = SEEK_SET,
      };
      int fd;

      if (op->kind != SB_OP_LOCK_FILE)
        continue;
      fd = open (op->dest, O_RDONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0)
        sb_die_errno ("open lock file '%s'", op->dest);
      if (fcntl (fd, F_SETLK, &lock) != 0)
        sb_die_errno ("lock '%s'", op->dest);
      fds = sb_xrealloc (fds, (n + 1) * sizeof *fds);
      fds[n++] = fd;
    }
  *out_fds = fds;
  return n;
}
