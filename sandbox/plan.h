/* sandbox/plan.h — SbPlan, the complete description of one sandbox.
 *
 * The command line is bubblewrap's (same option names, same order-dependent
 * meaning: `--perms` and `--size` apply to the next operation, `--setenv`
 * and `--clearenv` apply in order, setup operations run in the order given),
 * plus a few options of our own (`--seccomp-profile`, `--close-fds`,
 * `--keep-fd`, and the Landlock options `--scope-abstract-unix-sockets`,
 * `--scope-signals`, `--landlock-fs`, `--landlock-best-effort`,
 * `--landlock-abi-max`).  sb_plan_parse() reads and checks all of it —
 * including the contents of `--args FD` — before the first namespace is
 * created, so that a bad plan fails with nothing done. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SB_VERSION "0.1.0"

/* One setup operation, run in the new mount namespace in plan order.
 * Paths in `dest` are inside the sandbox; `source` is on the host. */
typedef enum
{
  SB_OP_BIND,           /* --bind / --ro-bind / --dev-bind (+ -try) */
  SB_OP_BIND_FD,        /* --bind-fd / --ro-bind-fd FD DEST */
  SB_OP_REMOUNT_RO,     /* --remount-ro DEST */
  SB_OP_PROC,           /* --proc DEST */
  SB_OP_DEV,            /* --dev DEST */
  SB_OP_TMPFS,          /* --tmpfs DEST (honours --perms, --size) */
  SB_OP_MQUEUE,         /* --mqueue DEST */
  SB_OP_DIR,            /* --dir DEST (honours --perms) */
  SB_OP_SYMLINK,        /* --symlink TARGET DEST */
  SB_OP_FILE,           /* --file FD DEST (honours --perms) */
  SB_OP_BIND_DATA,      /* --bind-data / --ro-bind-data FD DEST */
  SB_OP_CHMOD,          /* --chmod OCTAL DEST */
  SB_OP_LOCK_FILE,      /* --lock-file DEST: locked after setup, held by pid 1 */
} SbOpKind;

typedef struct
{
  SbOpKind    kind;
  const char *source;   /* BIND: host path; SYMLINK: link target */
  const char *dest;     /* always absolute inside the sandbox */
  int         fd;       /* BIND_FD, FILE, BIND_DATA: the data or path fd */
  int         perms;    /* -1: the operation's default mode */
  size_t      size;     /* TMPFS: 0 = the kernel default */
  bool        readonly; /* BIND, BIND_FD, BIND_DATA */
  bool        devices;  /* BIND: --dev-bind keeps device nodes usable */
  bool        try_;     /* BIND: a missing source is skipped */
} SbOp;

/* --setenv / --unsetenv / --clearenv, applied in order to the environment
 * the launcher was started with. */
typedef enum
{
  SB_ENV_SET,
  SB_ENV_UNSET,
  SB_ENV_CLEAR,
} SbEnvKind;

typedef struct
{
  SbEnvKind   kind;
  const char *name;
  const char *value;
} SbEnvOp;

/* What Landlock can be asked to enforce, as bits (sandbox/landlock.c says
 * how, and which Landlock ABI each one needs). */
typedef enum
{
  SB_LANDLOCK_SCOPE_ABSTRACT = 1 << 0, /* --scope-abstract-unix-sockets */
  SB_LANDLOCK_SCOPE_SIGNALS  = 1 << 1, /* --scope-signals */
  SB_LANDLOCK_FS             = 1 << 2, /* --landlock-fs: the view only */
  SB_LANDLOCK_FS_TRUNCATE    = 1 << 3, /* --landlock-fs: truncate(2) too */
} SbLandlockFeature;

/* Capabilities are a 64-bit mask indexed by CAP_* numbers. */
typedef uint64_t SbCapSet;

typedef struct
{
  /* Namespaces. */
  bool unshare_user;
  bool unshare_user_try;
  bool unshare_ipc;
  bool unshare_pid;
  bool unshare_net;
  bool unshare_uts;
  bool unshare_cgroup;
  bool unshare_cgroup_try;
  int  userns_fd;        /* --userns FD, -1 if none */
  int  userns2_fd;       /* --userns2 FD */
  int  pidns_fd;         /* --pidns FD */
  bool disable_userns;
  bool assert_userns_disabled;

  /* Identity inside. */
  uid_t       sandbox_uid; /* --uid, defaults to the caller's uid */
  gid_t       sandbox_gid; /* --gid */
  bool        has_uid;
  bool        has_gid;
  const char *hostname;

  /* Setup operations, in order. */
  SbOp  *ops;
  size_t n_ops;

  /* Environment edits, in order. */
  SbEnvOp *env_ops;
  size_t   n_env_ops;

  const char *chdir_path;

  /* Process behaviour. */
  bool new_session;
  bool die_with_parent;
  bool as_pid_1;

  /* Capabilities the command keeps: --cap-add and --cap-drop applied in
   * order ("ALL" sets or clears every bit).  By default none: bubblewrap
   * gives an unprivileged caller none and root in a user namespace none,
   * and, unlike bubblewrap, root outside one gets none either. */
  SbCapSet caps_add;

  /* Seccomp. */
  int        *seccomp_fds;   /* --seccomp / --add-seccomp-fd, in order */
  size_t      n_seccomp_fds;
  bool        has_seccomp_legacy; /* --seccomp was used (not repeatable) */
  const char *seccomp_profile;    /* --seccomp-profile NAME (ours) */
  /* Filled by sb_seccomp_prepare (NULL until then): the BPF programs to
   * install, read and compiled before the first namespace. */
  struct SbSeccompPrepared *seccomp_prepared;

  /* Landlock (ours).  What the options ask for (SbLandlockFeature bits),
   * whether a kernel without some of it is acceptable, and the test-only
   * cap on the ABI the launcher believes the kernel has (-1: none). */
  unsigned int landlock_wanted;
  bool         landlock_best_effort;
  int          landlock_abi_max;
  /* Filled by sb_landlock_prepare, before the first namespace: the ABI
   * in use (0: no Landlock) and the part of landlock_wanted that
   * sb_landlock_apply will enforce. */
  int          landlock_abi;
  unsigned int landlock_applied;

  /* Descriptors that talk to the caller. */
  int sync_fd;
  int block_fd;
  int userns_block_fd;
  int info_fd;
  int json_status_fd;

  /* Ours: close every inherited fd but 0, 1, 2 and --keep-fd ones. */
  bool   close_fds;
  int   *keep_fds;
  size_t n_keep_fds;

  /* SELinux labels, accepted for compatibility. */
  const char *exec_label;
  const char *file_label;

  /* The command; argv0 replaces argv[0] at exec (--argv0). */
  const char *argv0;
  char **argv;
  int    argc;

  /* Filled by sb_plan_parse from the caller's identity. */
  uid_t real_uid;
  gid_t real_gid;
} SbPlan;

/* Reads argv (and every --args FD it names), checks the whole plan and
 * fills `plan`.  Exits with one line on stderr on any error; handles
 * --help and --version itself. */
void sb_plan_parse (SbPlan *plan, int argc, char **argv);

/* True if `fd` is one the plan uses (data fds, status fds, --keep-fd…),
 * i.e. it must survive sb_fds_close_unlisted until its step consumes it. */
bool sb_plan_lists_fd (const SbPlan *plan, int fd);

