/* sandbox/landlock.c — the Landlock step (see landlock.h).
 *
 * Namespaces leave holes that only Landlock closes.  Abstract unix sockets
 * belong to the network namespace: a sandbox that shares the host's
 * network reaches @/tmp/.X11-unix/X0 — the X server that Xorg, Xwayland
 * and Xvfb listen on — and every other abstract socket of the host, even
 * with /tmp/.X11-unix out of its view.  A sandbox that shares the host's
 * pid namespace can signal the user's other processes.  And a directory fd
 * that reaches the sandbox from outside (inherited, --keep-fd, passed over
 * a socket by a host service) opens the whole host with openat(fd, "..").
 *
 * Enforces, each only when the plan asks for it, on the command and every
 * process it starts (one Landlock domain, made just before seccomp and
 * exec, after no_new_privs):
 *
 * --scope-abstract-unix-sockets (ABI 6): no connect() or sendto() to an
 *   abstract unix socket bound outside the domain.  Sockets the sandbox
 *   binds itself, and path sockets in its view, work as before.
 * --scope-signals (ABI 6): no signal (kill, tgkill, F_SETOWN's SIGIO) to a
 *   process outside the domain.  The monitor and pid 1 (the reaper) are
 *   outside it: they signal the command, the command cannot signal them.
 * Any of them: the kernel keeps a process in a domain from ptracing a
 *   process outside it, or reaching its memory, environment, fds or root
 *   through /proc/PID — pid 1's, and the host's when the pid namespace is
 *   shared.
 * --landlock-fs (ABI 1; truncate(2) from ABI 3): files are opened, run,
 *   created, removed, renamed or truncated only beneath what the plan put
 *   in the view, with the access the plan gave it:
 *
 *     /  (the skeleton: symlinks, parents of mount points)  read, run
 *     --ro-bind*, --ro-bind-fd                              read, run
 *     --bind*, --bind-fd, --tmpfs, --dir, --mqueue          read, run, write
 *     --dev-bind*, --dev                                    also device ioctls
 *     --file, --bind-data / --ro-bind-data                  that file: rw / r
 *     --proc                                  read, write (thread names,
 *                                             oom_score_adj); no run, create
 *     the command's stdin, stdout, stderr   that file, with its open mode,
 *       if it is a regular file or a device (never a directory), so that
 *       /dev/stdin and /dev/stderr can be reopened as before
 *
 *   and never more than the mount there allows: a rule on a read-only
 *   mount grants no write, whatever the op (--remount-ro, a --dir on an
 *   existing directory of a read-only bind).  Landlock attaches rules to
 *   inodes and checks a file's real path, walking up across mounts to the
 *   real root; so a host path reaches a rule only where it passes through
 *   an inode that the view also shows, with the access the view gives it,
 *   and /proc/self/fd/N or /proc/PID/root lead nowhere else.
 *
 * What Landlock leaves open, or in the way:
 * - rules only add up along a path: a read-only mount below a writable one
 *   (--bind /a /a --ro-bind /a/b /a/b; /proc/sys under --proc) is
 *   read-only in the view, but an outside fd that walks to it gets the
 *   writable parent's rights;
 * - lookups are not checked: stat(2), readlink(2) and the existence of
 *   files outside the view stay visible through an outside fd, their
 *   contents do not;
 * - an fd opened outside the domain keeps its access: what the command
 *   was handed open stays usable as an fd, only reopening by path fails;
 * - POSIX message queues (mq_open) need --mqueue in the plan: the kernel
 *   reaches them through the IPC namespace's own mqueue mount, which has
 *   a rule only where the plan mounts it;
 * - below ABI 2 renaming or linking across directories is always refused
 *   (EXDEV); below ABI 3 truncate(2) is not checked (hence the ABI that
 *   --landlock-fs asks for); below ABI 5 ioctls on devices in the view
 *   are not checked (opening them is).
 *
 * A kernel without the ABI an option needs is an error before the first
 * namespace, or with --landlock-best-effort a feature left out and named
 * in "landlock-skipped" (sandbox/status.c): never applied half-way
 * silently.  --landlock-abi-max caps the ABI believed, for tests.
 *
 * Trusts: the kernel; the plan (checked by sb_plan_parse) for what the
 * view is; the mounts step for having built it — the rules are computed
 * from the plan's ops as the mounts stand after the pivot, looked up with
 * the command's own credentials (a path it cannot reach needs no rule).
 * Raw system calls: Debian 12's headers predate ABI 3. */
#include "sandbox/landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/mount-api.h"

/* The kernel's documented values, where the headers predate them.  The
 * system calls have one number on every architecture (Linux 5.13). */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)      /* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)   /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)  /* ABI 5 */
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */
#endif

/* statfs(2)'s f_flags are valid (Linux 2.6.36): the kernel's value,
 * which no uapi header exports. */
#ifndef ST_VALID
#define ST_VALID 0x0020
#endif

/* struct landlock_ruleset_attr as of ABI 6; Debian 12's has only the first
 * field.  Older kernels accept the longer struct while the fields they do
 * not know are zero, and this step never sets one the ABI lacks. */
typedef struct
{
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  /* ABI 4; never used here */
  uint64_t scoped;              /* ABI 6 */
} SbLandlockRulesetAttr;

/* Access rights, grouped as the table at the top uses them. */
#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_RUN LANDLOCK_ACCESS_FS_EXECUTE
#define LL_WRITE (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE \
                  | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE \
                  | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR \
                  | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK \
                  | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK \
                  | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER)
#define LL_DEVICES LANDLOCK_ACCESS_FS_IOCTL_DEV
/* The rights a rule on a file (not a directory) may carry. */
#define LL_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE \
                 | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE \
                 | LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* One row per feature: its name in --info-fd, the option that asks for
 * it, and the first ABI that has it. */
static const struct
{
  unsigned int feature;
  const char  *name;
  const char  *option;
  int          abi;
  const char  *why;     /* said when it is missing, or "" */
} landlock_features[] = {
  { SB_LANDLOCK_SCOPE_ABSTRACT, "scope-abstract-unix-sockets",
    "--scope-abstract-unix-sockets", 6, "" },
  { SB_LANDLOCK_SCOPE_SIGNALS, "scope-signals", "--scope-signals", 6, "" },
  { SB_LANDLOCK_FS, "fs", "--landlock-fs", 1, "" },
  { SB_LANDLOCK_FS_TRUNCATE, "fs-truncate", "--landlock-fs", 3,
    " (to cover truncate(2))" },
};

#define N_FEATURES (sizeof landlock_features / sizeof landlock_features[0])

const char *
sb_landlock_feature_name (unsigned int feature)
{
  for (size_t i = 0; i < N_FEATURES; i++)
    if (landlock_features[i].feature == feature)
      return landlock_features[i].name;
  return NULL;
}

/* The highest ABI the kernel offers; 0 when Landlock is not built in
 * (ENOSYS) or not enabled at boot (EOPNOTSUPP). */
static int
landlock_kernel_abi (void)
{
  long abi = syscall (SYS_landlock_create_ruleset, NULL, 0,
                      LANDLOCK_CREATE_RULESET_VERSION);

  return abi > 0 ? (int) abi : 0;
}

void
sb_landlock_prepare (SbPlan *plan)
{
  int kernel_abi;
  int abi;

  plan->landlock_abi = 0;
  plan->landlock_applied = 0;
  if (plan->landlock_wanted == 0)
    return;

  kernel_abi = landlock_kernel_abi ();
  abi = kernel_abi;
  if (plan->landlock_abi_max >= 0 && abi > plan->landlock_abi_max)
    abi = plan->landlock_abi_max;

  for (size_t i = 0; i < N_FEATURES; i++)
    {
      unsigned int feature = landlock_features[i].feature;

      if ((plan->landlock_wanted & feature) == 0)
        continue;
      if (abi >= landlock_features[i].abi)
        plan->landlock_applied |= feature;
      else if (!plan->landlock_best_effort)
        sb_die ("%s needs Landlock ABI %d%s, found %d%s; "
                "add --landlock-best-effort to run without it",
                landlock_features[i].option, landlock_features[i].abi,
                landlock_features[i].why, abi,
                abi < kernel_abi ? " (capped by --landlock-abi-max)"
                : kernel_abi == 0 ? " (Landlock is not enabled in this kernel)"
                : "");
    }
  /* Truncation is checked by the file system ruleset or not at all. */
  if ((plan->landlock_applied & SB_LANDLOCK_FS) == 0)
    plan->landlock_applied &= ~(unsigned int) SB_LANDLOCK_FS_TRUNCATE;
  plan->landlock_abi = abi;
}

/* The file system rights an ABI knows: the ruleset handles (denies unless
 * a rule allows) every one of them. */
static uint64_t
landlock_fs_handled (int abi)
{
  uint64_t handled = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  /* ABI 1 */

  if (abi >= 2)
    handled |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3)
    handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
  if (abi >= 5)
    handled |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return handled;
}

/* ---- The file system view ---- */

typedef struct
{
  int      ruleset_fd;
  uint64_t handled;
} SbLandlockRules;

/* Allows ACCESS beneath FD (or on it, for a file), as far as the ruleset
 * handles it.  Returns -1 with errno on failure. */
static int
landlock_allow_fd (SbLandlockRules *self,
                   int              fd,
                   uint64_t         access)
{
  struct landlock_path_beneath_attr rule = {
    .allowed_access = access & self->handled,
    .parent_fd = fd,
  };

  if (rule.allowed_access == 0)
    return 0;   /* nothing to allow: the default, deny, holds */
  return (int) syscall (SYS_landlock_add_rule, self->ruleset_fd,
                        LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
}

/* Allows ACCESS beneath the view's PATH, as far as its mount allows.
 * With MUST_BE_MOUNT, PATH counts only if something is mounted there (a
 * --bind-try whose source was missing mounted nothing). */
static void
landlock_allow_path (SbLandlockRules *self,
                     const char      *path,
                     uint64_t         access,
                     bool             must_be_mount)
{
  sb_autofd int fd = sb_openat2 (AT_FDCWD, path, O_PATH | O_CLOEXEC, 0,
                                 RESOLVE_NO_MAGICLINKS);
  struct statx stx;
  struct statfs sfs;

  /* Missing (a --*-try op) or out of the command's reach: nothing the
   * command could open there, so nothing to allow. */
  if (fd < 0 && (errno == ENOENT || errno == EACCES))
    return;
  if (fd < 0)
    sb_die_errno ("landlock: look up '%s'", path);
  if (statx (fd, "", AT_EMPTY_PATH, STATX_TYPE, &stx) != 0
      || fstatfs (fd, &sfs) != 0)
    sb_die_errno ("landlock: inspect '%s'", path);

  if (must_be_mount && (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
      && !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
    return;
  /* Never more than the mount gives (see the top of the file). */
  if ((sfs.f_flags & ST_VALID) && (sfs.f_flags & ST_RDONLY))
    access &= ~(uint64_t) LL_WRITE;
  if (!S_ISDIR (stx.stx_mode))
    access &= LL_FILE;
  if (landlock_allow_fd (self, fd, access) != 0)
    sb_die_errno ("landlock: allow access beneath '%s'", path);
}

/* What the plan gave at an op's destination (the table at the top). */
static uint64_t
landlock_op_access (const SbOp *op)
{
  switch (op->kind)
    {
    case SB_OP_BIND:
    case SB_OP_BIND_FD:
      if (op->readonly)
        return LL_READ | LL_RUN;
      return LL_READ | LL_RUN | LL_WRITE | (op->devices ? LL_DEVICES : 0);
    case SB_OP_BIND_DATA:
      return op->readonly ? LL_READ : LL_READ | LL_RUN | LL_WRITE;
    case SB_OP_FILE:
    case SB_OP_DIR:
    case SB_OP_TMPFS:
    case SB_OP_MQUEUE:
      return LL_READ | LL_RUN | LL_WRITE;
    case SB_OP_DEV:
      return LL_READ | LL_RUN | LL_WRITE | LL_DEVICES;
    case SB_OP_PROC:
      return LL_READ | LANDLOCK_ACCESS_FS_WRITE_FILE
             | LANDLOCK_ACCESS_FS_TRUNCATE;
    case SB_OP_REMOUNT_RO:  /* limits a mount: seen through its flags */
    case SB_OP_SYMLINK:     /* resolved at each access, to a ruled path */
    case SB_OP_CHMOD:
    case SB_OP_LOCK_FILE:   /* held by pid 1, outside the domain */
    default:
      return 0;
    }
}

/* The command's stdin, stdout and stderr, when they are files: reopening
 * them by path (/dev/stderr is /proc/self/fd/2) keeps working, with the
 * access they were opened with.  A directory never gets a rule here: that
 * is exactly the fd this step is about. */
static void
landlock_allow_stdio (SbLandlockRules *self)
{
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
    {
      int flags = fcntl (fd, F_GETFL);
      uint64_t access = 0;
      struct stat st;

      if (flags < 0 || (flags & O_PATH) || fstat (fd, &st) != 0
          || !(S_ISREG (st.st_mode) || S_ISCHR (st.st_mode)))
        continue;
      if ((flags & O_ACCMODE) != O_WRONLY)
        access |= LANDLOCK_ACCESS_FS_READ_FILE;
      if ((flags & O_ACCMODE) != O_RDONLY)
        access |= LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE;
      if (S_ISCHR (st.st_mode))
        access |= LL_DEVICES;
      /* EBADFD: a file of an internal file system, which Landlock does
       * not check anyway. */
      if (landlock_allow_fd (self, fd, access) != 0 && errno != EBADFD)
        sb_die_errno ("landlock: allow reopening fd %d", fd);
    }
}

static void
landlock_allow_view (const SbPlan    *plan,
                     SbLandlockRules *self)
{
  landlock_allow_path (self, "/", LL_READ | LL_RUN, false);
  for (size_t i = 0; i < plan->n_ops; i++)
    {
      const SbOp *op = &plan->ops[i];
      uint64_t access = landlock_op_access (op);

      if (access != 0)
        landlock_allow_path (self, op->dest, access,
                             op->kind == SB_OP_BIND && op->try_);
    }
  landlock_allow_stdio (self);
}

/* ---- The step ---- */

void
sb_landlock_apply (const SbPlan *plan)
{
  unsigned int applied = plan->landlock_applied;
  SbLandlockRulesetAttr attr = { 0 };
  SbLandlockRules rules = { .ruleset_fd = -1 };
  sb_autofd int ruleset_fd = -1;

  if (applied == 0)
    return;

  if (applied & SB_LANDLOCK_SCOPE_ABSTRACT)
    attr.scoped |= LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
  if (applied & SB_LANDLOCK_SCOPE_SIGNALS)
    attr.scoped |= LANDLOCK_SCOPE_SIGNAL;
  if (applied & SB_LANDLOCK_FS)
    attr.handled_access_fs = landlock_fs_handled (plan->landlock_abi);

  ruleset_fd = (int) syscall (SYS_landlock_create_ruleset, &attr,
                              sizeof attr, 0);
  if (ruleset_fd < 0)
    sb_die_errno ("landlock: create a ruleset for ABI %d", plan->landlock_abi);

  if (applied & SB_LANDLOCK_FS)
    {
      rules.ruleset_fd = ruleset_fd;
      rules.handled = attr.handled_access_fs;
      landlock_allow_view (plan, &rules);
    }

  /* Needs no_new_privs, which sb_caps_drop_all has set. */
  if (syscall (SYS_landlock_restrict_self, ruleset_fd, 0) != 0)
    sb_die_errno ("landlock: enforce the ruleset");
}
