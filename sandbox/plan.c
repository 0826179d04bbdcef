/* sandbox/plan.c — reads the launcher's command line into an SbPlan.
 *
 * The options and their order-dependent meaning are bubblewrap's, so that
 * the launcher can stand in for bwrap (Flatpak passes most of its plan
 * through `--args FD`).  Everything is read and checked here, before any
 * namespace exists: a plan that cannot work fails with one line and no
 * side effect.  Trusts: nothing in argv or in the --args data; the fds it
 * names are the caller's to give. */
#include "sandbox/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/caps.h"
#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/seccomp.h"

/* Bound on arguments, --args included, as in bubblewrap: the data comes
 * from the caller, but a runaway generator should fail, not exhaust memory. */
#define SB_MAX_ARGS 9000
/* Bound on one --args blob. */
#define SB_MAX_ARGS_BYTES (16 * 1024 * 1024)
/* tmpfs --size limit: what fits in a size_t page count, as bubblewrap. */
#define SB_MAX_TMPFS_BYTES ((size_t) (SIZE_MAX >> 1))

typedef struct
{
  SbPlan *plan;
  int     total_args;
  int     next_perms;   /* -1: none pending */
  size_t  next_size;    /* 0: none pending */
  /* Every --args blob stays alive for the life of the process, since ops
   * point into it. */
} SbParser;

static const char usage_text[] =
  "usage: xdg-app-sandbox [OPTIONS...] [--] COMMAND [ARGS...]\n"
  "\n"
  "Runs COMMAND in a new sandbox.  The options are bubblewrap's; setup\n"
  "operations run in the order given.\n"
  "\n"
  "    --help                       Print this help\n"
  "    --version                    Print version\n"
  "    --args FD                    Parse NUL-separated args from FD\n"
  "    --argv0 VALUE                Set argv[0] to VALUE before running the command\n"
  "    --level-prefix               Accepted for compatibility; no effect\n"
  "    --unshare-all                Unshare every namespace we support by default\n"
  "    --share-net                  Retain the network namespace (after --unshare-all)\n"
  "    --unshare-user               Create new user namespace\n"
  "    --unshare-user-try           Create new user namespace if possible\n"
  "    --unshare-ipc                Create new ipc namespace\n"
  "    --unshare-pid                Create new pid namespace\n"
  "    --unshare-net                Create new network namespace (only lo, up)\n"
  "    --unshare-uts                Create new uts namespace\n"
  "    --unshare-cgroup             Create new cgroup namespace\n"
  "    --unshare-cgroup-try         Create new cgroup namespace if possible\n"
  "    --userns FD                  Use this user namespace (not with --unshare-user)\n"
  "    --userns2 FD                 After setup switch to this user namespace\n"
  "    --disable-userns             Forbid new user namespaces inside the sandbox\n"
  "    --assert-userns-disabled     Fail unless new user namespaces are forbidden\n"
  "    --pidns FD                   Use this pid namespace (as parent with --unshare-pid)\n"
  "    --uid UID                    Custom uid in the sandbox (needs a user namespace)\n"
  "    --gid GID                    Custom gid in the sandbox (needs a user namespace)\n"
  "    --hostname NAME              Custom hostname in the sandbox (needs --unshare-uts)\n"
  "    --chdir DIR                  Change directory to DIR\n"
  "    --clearenv                   Unset all environment variables\n"
  "    --setenv VAR VALUE           Set an environment variable\n"
  "    --unsetenv VAR               Unset an environment variable\n"
  "    --lock-file DEST             Take a lock on DEST while the sandbox runs\n"
  "    --sync-fd FD                 Keep this fd open while the sandbox runs\n"
  "    --bind SRC DEST              Bind mount the host path SRC on DEST\n"
  "    --bind-try SRC DEST          Like --bind, but skip a missing SRC\n"
  "    --dev-bind SRC DEST          Bind mount SRC on DEST, allowing device access\n"
  "    --dev-bind-try SRC DEST      Like --dev-bind, but skip a missing SRC\n"
  "    --ro-bind SRC DEST           Bind mount SRC read-only on DEST\n"
  "    --ro-bind-try SRC DEST       Like --ro-bind, but skip a missing SRC\n"
  "    --bind-fd FD DEST            Bind the open directory or path fd on DEST\n"
  "    --ro-bind-fd FD DEST         Bind the open directory or path fd read-only on DEST\n"
  "    --remount-ro DEST            Remount DEST read-only (not recursively)\n"
  "    --exec-label LABEL           SELinux exec label (only where SELinux is on)\n"
  "    --file-label LABEL           SELinux file label (only where SELinux is on)\n"
  "    --proc DEST                  Mount a new procfs on DEST\n"
  "    --dev DEST                   Mount a new minimal /dev on DEST\n"
  "    --tmpfs DEST                 Mount a new tmpfs on DEST\n"
  "    --mqueue DEST                Mount a new mqueue on DEST\n"
  "    --dir DEST                   Create a directory at DEST\n"
  "    --file FD DEST               Copy from FD to a new file DEST\n"
  "    --bind-data FD DEST          Copy from FD to a file bind-mounted on DEST\n"
  "    --ro-bind-data FD DEST       Copy from FD to a file bind-mounted read-only on DEST\n"
  "    --symlink SRC DEST           Create a symlink at DEST with target SRC\n"
  "    --seccomp FD                 Load a compiled seccomp filter from FD (not repeatable)\n"
  "    --add-seccomp-fd FD          Load a compiled seccomp filter from FD (repeatable)\n"
  "    --seccomp-profile NAME       Install the project's filter NAME (default, devel)\n"
  "    --block-fd FD                Block on FD until some data is readable\n"
  "    --userns-block-fd FD         Block on FD until the user namespace is ready\n"
  "    --info-fd FD                 Write information about the sandbox to FD\n"
  "    --json-status-fd FD          Write sandbox status to FD as JSON documents\n"
  "    --new-session                Create a new terminal session\n"
  "    --die-with-parent            Kill the command when the launcher's parent dies\n"
  "    --as-pid-1                   Run the command as pid 1 (no reaper)\n"
  "    --cap-add CAP                Keep capability CAP (or ALL) for the command\n"
  "    --cap-drop CAP               Do not keep capability CAP (or ALL)\n"
  "    --perms OCTAL                Mode of the next --file, --dir, --tmpfs, --bind-data…\n"
  "    --size BYTES                 Size of the next --tmpfs\n"
  "    --chmod OCTAL PATH           Change the mode of PATH (must exist)\n"
  "    --close-fds                  Close every inherited fd but 0-2 and --keep-fd ones\n"
  "    --keep-fd FD                 With --close-fds: pass FD on to the command\n"
  "    --scope-abstract-unix-sockets\n"
  "                                 Forbid connecting to abstract unix sockets made\n"
  "                                 outside the sandbox, such as X11's (Landlock ABI 6)\n"
  "    --scope-signals              Forbid signalling processes outside the sandbox\n"
  "                                 (Landlock ABI 6)\n"
  "    --landlock-fs                Allow file access only in the sandbox's view, with\n"
  "                                 the access its mounts give, even through fds from\n"
  "                                 outside (Landlock ABI 3)\n"
  "    --landlock-best-effort       On an older kernel, apply what its Landlock ABI\n"
  "                                 offers instead of failing; --info-fd names the rest\n"
  "    --landlock-abi-max N         For testing: act as if the kernel's Landlock ABI\n"
  "                                 were at most N\n"
  "\n"
  "Unlike bubblewrap, the command never keeps a capability it was not given\n"
  "with --cap-add, even when the launcher runs as root.\n"
  "\n"
  "The Landlock options are applied after the mounts, before any seccomp\n"
  "filter.  Without --landlock-best-effort, a kernel whose Landlock ABI is\n"
  "older than an option needs is an error, reported before anything is set\n"
  "up.  When one is used, --info-fd and --json-status-fd also report\n"
  "\"landlock-abi\" (the ABI in use, 0 for none), \"landlock-applied\" and\n"
  "\"landlock-skipped\" (lists of: scope-abstract-unix-sockets,\n"
  "scope-signals, fs, fs-truncate).\n";

static void
sb_plan_print_usage (int status)
{
  fputs (usage_text, status == 0 ? stdout : stderr);
  exit (status);
}

static int
sb_parse_fd (const char *opt, const char *value)
{
  char *end = NULL;
  long v;

  errno = 0;
  v = strtol (value, &end, 10);
  if (value[0] == '\0' || *end != '\0' || errno != 0 || v < 0 || v > INT_MAX)
    sb_die ("%s: invalid fd '%s'", opt, value);
  return (int) v;
}

static int
sb_parse_octal (const char *opt, const char *value)
{
  char *end = NULL;
  unsigned long v;

  errno = 0;
  v = strtoul (value, &end, 8);
  if (value[0] == '\0' || *end != '\0' || errno != 0 || v > 07777)
    sb_die ("%s takes an octal mode <= 07777, not '%s'", opt, value);
  return (int) v;
}

static unsigned long
sb_parse_id (const char *opt, const char *value)
{
  char *end = NULL;
  unsigned long v;

  errno = 0;
  v = strtoul (value, &end, 10);
  /* (uid_t) -1 is "unchanged" to the kernel: refuse it. */
  if (value[0] < '0' || value[0] > '9' || *end != '\0' || errno != 0
      || v >= 0xffffffffUL)
    sb_die ("%s: invalid id '%s'", opt, value);
  return v;
}

/* A destination inside the sandbox: absolute, or made so, as bubblewrap
 * treats relative destinations as relative to the new root. */
static const char *
sb_parse_dest (const char *opt, const char *value)
{
  if (value[0] == '\0')
    sb_die ("%s: empty destination", opt);
  if (strlen (value) >= PATH_MAX)
    sb_die ("%s: destination too long", opt);
  if (value[0] == '/')
    return value;
  return sb_xasprintf ("/%s", value);
}

static SbOp *
sb_parser_add_op (SbParser *p, SbOpKind kind)
{
  SbPlan *plan = p->plan;
  SbOp *op;

  if ((plan->n_ops & (plan->n_ops - 1)) == 0)
    plan->ops = sb_xrealloc (plan->ops,
                             (plan->n_ops ? plan->n_ops * 2 : 16) * sizeof *op);
  op = &plan->ops[plan->n_ops++];
  memset (op, 0, sizeof *op);
  op->kind = kind;
  op->fd = -1;
  op->perms = p->next_perms;
  op->size = p->next_size;
  p->next_perms = -1;
  p->next_size = 0;
  return op;
}

static void
sb_parser_add_env (SbParser *p, SbEnvKind kind, const char *name, const char *value)
{
  SbPlan *plan = p->plan;

  if (name != NULL && (name[0] == '\0' || strchr (name, '=') != NULL))
    sb_die ("invalid environment variable name '%s'", name);
  if ((plan->n_env_ops & (plan->n_env_ops - 1)) == 0)
    plan->env_ops = sb_xrealloc (plan->env_ops,
                                 (plan->n_env_ops ? plan->n_env_ops * 2 : 16)
                                 * sizeof *plan->env_ops);
  plan->env_ops[plan->n_env_ops++] = (SbEnvOp) { kind, name, value };
}

static void
sb_fd_list_add (int **list, size_t *n, int fd)
{
  if ((*n & (*n - 1)) == 0)
    *list = sb_xrealloc (*list, (*n ? *n * 2 : 8) * sizeof **list);
  (*list)[(*n)++] = fd;
}

/* Reads all of fd; the result is NUL-terminated and its length stored. */
static char *
sb_read_all (int fd, size_t max, size_t *out_len)
{
  size_t len = 0, alloc = 4096;
  char *buf = sb_xmalloc (alloc);

  for (;;)
    {
      ssize_t n;

      if (alloc - len < 2)
        {
          if (alloc >= max)
            {
              free (buf);
              errno = EFBIG;
              return NULL;
            }
          alloc *= 2;
          buf = sb_xrealloc (buf, alloc);
        }
      n = read (fd, buf + len, alloc - len - 1);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          free (buf);
          return NULL;
        }
      if (n == 0)
        break;
      len += (size_t) n;
    }
  buf[len] = '\0';
  *out_len = len;
  return buf;
}

static void sb_parse_args (SbParser *p, int *argcp, char ***argvp, bool in_file);

static void
sb_parse_args_fd (SbParser *p, const char *value)
{
  int fd = sb_parse_fd ("--args", value);
  size_t len = 0, n = 0, i;
  char *data = sb_read_all (fd, SB_MAX_ARGS_BYTES, &len);
  char **argv;
  int argc;

  if (data == NULL)
    sb_die_errno ("--args: reading fd %d", fd);
  (void) close (fd);

  for (i = 0; i < len; i += strlen (data + i) + 1)
    n++;
  p->total_args += (int) n;
  if (p->total_args > SB_MAX_ARGS)
    sb_die ("more than %d arguments", SB_MAX_ARGS);

  /* `data` is kept for the life of the process: ops point into it. */
  argv = sb_xcalloc (n + 1, sizeof *argv);
  n = 0;
  for (i = 0; i < len; i += strlen (data + i) + 1)
    argv[n++] = data + i;
  argc = (int) n;
  {
    char **rest = argv;

    sb_parse_args (p, &argc, &rest, true);
  }
  if (argc != 0)
    sb_die ("--args: the command must come after the options, not in fd %d", fd);
  /* The ops point into `data`, never into this array. */
  free (argv);
}

/* Options that take exactly N following arguments: checked in one place. */
static void
sb_need (int argc, const char *opt, int n)
{
  if (argc <= n)
    sb_die ("%s takes %d argument%s", opt, n, n == 1 ? "" : "s");
}

static bool
sb_parse_bind (SbParser *p, const char *arg, char **argv, int argc)
{
  static const struct
  {
    const char *name;
    bool readonly, devices, try_;
  } binds[] = {
    { "--bind", false, false, false },
    { "--bind-try", false, false, true },
    { "--ro-bind", true, false, false },
    { "--ro-bind-try", true, false, true },
    { "--dev-bind", false, true, false },
    { "--dev-bind-try", false, true, true },
  };

  for (size_t i = 0; i < sizeof binds / sizeof binds[0]; i++)
    {
      SbOp *op;

      if (strcmp (arg, binds[i].name) != 0)
        continue;
      sb_need (argc, arg, 2);
      if (argv[1][0] == '\0')
        sb_die ("%s: empty source", arg);
      op = sb_parser_add_op (p, SB_OP_BIND);
      op->source = argv[1];
      op->dest = sb_parse_dest (arg, argv[2]);
      op->readonly = binds[i].readonly;
      op->devices = binds[i].devices;
      op->try_ = binds[i].try_;
      return true;
    }
  return false;
}

/* Options of the form "--opt FD DEST". */
static bool
sb_parse_fd_dest (SbParser *p, const char *arg, char **argv, int argc)
{
  static const struct
  {
    const char *name;
    SbOpKind kind;
    bool readonly;
  } ops[] = {
    { "--file", SB_OP_FILE, false },
    { "--bind-data", SB_OP_BIND_DATA, false },
    { "--ro-bind-data", SB_OP_BIND_DATA, true },
    { "--bind-fd", SB_OP_BIND_FD, false },
    { "--ro-bind-fd", SB_OP_BIND_FD, true },
  };

  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      SbOp *op;

      if (strcmp (arg, ops[i].name) != 0)
        continue;
      sb_need (argc, arg, 2);
      op = sb_parser_add_op (p, ops[i].kind);
      op->fd = sb_parse_fd (arg, argv[1]);
      op->dest = sb_parse_dest (arg, argv[2]);
      op->readonly = ops[i].readonly;
      if (fcntl (op->fd, F_GETFD) < 0)
        sb_die_errno ("%s: fd %d", arg, op->fd);
      return true;
    }
  return false;
}

/* Options of the form "--opt DEST". */
static bool
sb_parse_dest_only (SbParser *p, const char *arg, char **argv, int argc)
{
  static const struct
  {
    const char *name;
    SbOpKind kind;
  } ops[] = {
    { "--remount-ro", SB_OP_REMOUNT_RO },
    { "--proc", SB_OP_PROC },
    { "--dev", SB_OP_DEV },
    { "--tmpfs", SB_OP_TMPFS },
    { "--mqueue", SB_OP_MQUEUE },
    { "--dir", SB_OP_DIR },
    { "--lock-file", SB_OP_LOCK_FILE },
  };

  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      SbOp *op;

      if (strcmp (arg, ops[i].name) != 0)
        continue;
      sb_need (argc, arg, 1);
      op = sb_parser_add_op (p, ops[i].kind);
      op->dest = sb_parse_dest (arg, argv[1]);
      return true;
    }
  return false;
}

/* Options of the form "--opt FD" that set one of the plan's fd fields. */
static bool
sb_parse_status_fd (SbParser *p, const char *arg, char **argv, int argc)
{
  SbPlan *plan = p->plan;
  const struct
  {
    const char *name;
    int *field;
  } fds[] = {
    { "--sync-fd", &plan->sync_fd },
    { "--block-fd", &plan->block_fd },
    { "--userns-block-fd", &plan->userns_block_fd },
    { "--info-fd", &plan->info_fd },
    { "--json-status-fd", &plan->json_status_fd },
    { "--userns", &plan->userns_fd },
    { "--userns2", &plan->userns2_fd },
    { "--pidns", &plan->pidns_fd },
  };

  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    {
      int fd;

      if (strcmp (arg, fds[i].name) != 0)
        continue;
      sb_need (argc, arg, 1);
      fd = sb_parse_fd (arg, argv[1]);
      if (fcntl (fd, F_GETFD) < 0)
        sb_die_errno ("%s: fd %d", arg, fd);
      *fds[i].field = fd;
      return true;
    }
  return false;
}

/* Flags without arguments. */
static bool
sb_parse_flag (SbParser *p, const char *arg)
{
  SbPlan *plan = p->plan;
  const struct
  {
    const char *name;
    bool *field;
  } flags[] = {
    { "--unshare-user", &plan->unshare_user },
    { "--unshare-user-try", &plan->unshare_user_try },
    { "--unshare-ipc", &plan->unshare_ipc },
    { "--unshare-pid", &plan->unshare_pid },
    { "--unshare-net", &plan->unshare_net },
    { "--unshare-uts", &plan->unshare_uts },
    { "--unshare-cgroup", &plan->unshare_cgroup },
    { "--unshare-cgroup-try", &plan->unshare_cgroup_try },
    { "--disable-userns", &plan->disable_userns },
    { "--assert-userns-disabled", &plan->assert_userns_disabled },
    { "--new-session", &plan->new_session },
    { "--die-with-parent", &plan->die_with_parent },
    { "--as-pid-1", &plan->as_pid_1 },
    { "--close-fds", &plan->close_fds },
  };

  /* Landlock: --landlock-fs wants truncate(2) covered too (ABI 3), so
   * that no write to a file outside the view gets past it. */
  const struct
  {
    const char  *name;
    unsigned int features;
  } landlock[] = {
    { "--scope-abstract-unix-sockets", SB_LANDLOCK_SCOPE_ABSTRACT },
    { "--scope-signals", SB_LANDLOCK_SCOPE_SIGNALS },
    { "--landlock-fs", SB_LANDLOCK_FS | SB_LANDLOCK_FS_TRUNCATE },
  };

  for (size_t i = 0; i < sizeof landlock / sizeof landlock[0]; i++)
    if (strcmp (arg, landlock[i].name) == 0)
      {
        plan->landlock_wanted |= landlock[i].features;
        return true;
      }
  if (strcmp (arg, "--landlock-best-effort") == 0)
    {
      plan->landlock_best_effort = true;
      return true;
    }
  if (strcmp (arg, "--unshare-all") == 0)
    {
      /* The -try forms for user and cgroup, as bubblewrap. */
      plan->unshare_user_try = plan->unshare_ipc = plan->unshare_pid = true;
      plan->unshare_uts = plan->unshare_cgroup_try = plan->unshare_net = true;
      return true;
    }
  if (strcmp (arg, "--share-net") == 0)
    {
      plan->unshare_net = false;
      return true;
    }
  if (strcmp (arg, "--level-prefix") == 0)
    return true;
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (strcmp (arg, flags[i].name) == 0)
      {
        *flags[i].field = true;
        return true;
      }
  return false;
}

/* One option with its arguments; returns how many argv slots it used. */
static int
sb_parse_one (SbParser *p, char **argv, int argc, bool in_file)
{
  SbPlan *plan = p->plan;
  const char *arg = argv[0];

  if (strcmp (arg, "--help") == 0)
    sb_plan_print_usage (EXIT_SUCCESS);
  if (strcmp (arg, "--version") == 0)
    {
      printf ("xdg-app-sandbox %s (bubblewrap 0.8 compatible)\n", SB_VERSION);
      exit (EXIT_SUCCESS);
    }
  if (sb_parse_flag (p, arg))
    return 1;
  if (sb_parse_bind (p, arg, argv, argc) || sb_parse_fd_dest (p, arg, argv, argc))
    return 3;
  if (sb_parse_dest_only (p, arg, argv, argc) || sb_parse_status_fd (p, arg, argv, argc))
    return 2;

  if (strcmp (arg, "--args") == 0)
    {
      sb_need (argc, arg, 1);
      if (in_file)
        sb_die ("--args is not allowed inside --args data");
      sb_parse_args_fd (p, argv[1]);
      return 2;
    }
  if (strcmp (arg, "--symlink") == 0)
    {
      SbOp *op;

      sb_need (argc, arg, 2);
      op = sb_parser_add_op (p, SB_OP_SYMLINK);
      op->source = argv[1];
      op->dest = sb_parse_dest (arg, argv[2]);
      return 3;
    }
  if (strcmp (arg, "--chmod") == 0)
    {
      SbOp *op;
      int mode;

      sb_need (argc, arg, 2);
      mode = sb_parse_octal (arg, argv[1]);
      op = sb_parser_add_op (p, SB_OP_CHMOD);
      op->perms = mode;
      op->dest = sb_parse_dest (arg, argv[2]);
      return 3;
    }
  if (strcmp (arg, "--perms") == 0)
    {
      sb_need (argc, arg, 1);
      if (p->next_perms != -1)
        sb_die ("--perms given twice for the same operation");
      p->next_perms = sb_parse_octal (arg, argv[1]);
      return 2;
    }
  if (strcmp (arg, "--size") == 0)
    {
      char *end = NULL;
      unsigned long long v;

      sb_need (argc, arg, 1);
      if (p->next_size != 0)
        sb_die ("--size given twice for the same operation");
      errno = 0;
      v = strtoull (argv[1], &end, 0);
      if (argv[1][0] < '0' || argv[1][0] > '9' || *end != '\0' || errno != 0 || v == 0)
        sb_die ("--size takes a non-zero number of bytes, not '%s'", argv[1]);
      if (v > SB_MAX_TMPFS_BYTES)
        sb_die ("--size: %s is more than a tmpfs can have", argv[1]);
      p->next_size = (size_t) v;
      return 2;
    }
  if (strcmp (arg, "--setenv") == 0)
    {
      sb_need (argc, arg, 2);
      sb_parser_add_env (p, SB_ENV_SET, argv[1], argv[2]);
      return 3;
    }
  if (strcmp (arg, "--unsetenv") == 0)
    {
      sb_need (argc, arg, 1);
      sb_parser_add_env (p, SB_ENV_UNSET, argv[1], NULL);
      return 2;
    }
  if (strcmp (arg, "--clearenv") == 0)
    {
      sb_parser_add_env (p, SB_ENV_CLEAR, NULL, NULL);
      return 1;
    }
  if (strcmp (arg, "--chdir") == 0 || strcmp (arg, "--hostname") == 0
      || strcmp (arg, "--exec-label") == 0 || strcmp (arg, "--file-label") == 0
      || strcmp (arg, "--argv0") == 0 || strcmp (arg, "--seccomp-profile") == 0)
    {
      const char **field =
        arg[2] == 'c' ? &plan->chdir_path :
        arg[2] == 'h' ? &plan->hostname :
        arg[2] == 'e' ? &plan->exec_label :
        arg[2] == 'f' ? &plan->file_label :
        arg[2] == 'a' ? &plan->argv0 : &plan->seccomp_profile;

      sb_need (argc, arg, 1);
      *field = argv[1];
      return 2;
    }
  if (strcmp (arg, "--uid") == 0 || strcmp (arg, "--gid") == 0)
    {
      sb_need (argc, arg, 1);
      if (arg[2] == 'u')
        {
          plan->sandbox_uid = (uid_t) sb_parse_id (arg, argv[1]);
          plan->has_uid = true;
        }
      else
        {
          plan->sandbox_gid = (gid_t) sb_parse_id (arg, argv[1]);
          plan->has_gid = true;
        }
      return 2;
    }
  if (strcmp (arg, "--cap-add") == 0 || strcmp (arg, "--cap-drop") == 0)
    {
      bool add = arg[6] == 'a';
      int cap;

      sb_need (argc, arg, 1);
      cap = sb_caps_parse (argv[1]);
      if (cap < 0)
        sb_die ("%s: unknown capability '%s'", arg, argv[1]);
      if (cap == SB_CAP_ALL)
        {
          plan->caps_add = add ? ~(SbCapSet) 0 : 0;
        }
      else if (add)
        plan->caps_add |= (SbCapSet) 1 << cap;
      else
        plan->caps_add &= ~((SbCapSet) 1 << cap);
      return 2;
    }
  if (strcmp (arg, "--seccomp") == 0 || strcmp (arg, "--add-seccomp-fd") == 0)
    {
      bool legacy = arg[2] == 's';
      int fd;

      sb_need (argc, arg, 1);
      fd = sb_parse_fd (arg, argv[1]);
      if (legacy && plan->n_seccomp_fds > 0 && !plan->has_seccomp_legacy)
        sb_die ("--seccomp cannot be combined with --add-seccomp-fd");
      if (!legacy && plan->has_seccomp_legacy)
        sb_die ("--add-seccomp-fd cannot be combined with --seccomp");
      if (legacy && plan->has_seccomp_legacy)
        plan->n_seccomp_fds = 0;   /* only the last --seccomp counts */
      plan->has_seccomp_legacy = legacy;
      sb_fd_list_add (&plan->seccomp_fds, &plan->n_seccomp_fds, fd);
      return 2;
    }
  if (strcmp (arg, "--landlock-abi-max") == 0)
    {
      char *end = NULL;
      long v;

      sb_need (argc, arg, 1);
      errno = 0;
      v = strtol (argv[1], &end, 10);
      if (argv[1][0] < '0' || argv[1][0] > '9' || *end != '\0' || errno != 0
          || v > 1000)
        sb_die ("--landlock-abi-max takes a Landlock ABI version (0 for none), not '%s'",
                argv[1]);
      plan->landlock_abi_max = (int) v;
      return 2;
    }
  if (strcmp (arg, "--keep-fd") == 0)
    {
      sb_need (argc, arg, 1);
      sb_fd_list_add (&plan->keep_fds, &plan->n_keep_fds, sb_parse_fd (arg, argv[1]));
      return 2;
    }
  if (strncmp (arg, "--overlay", 9) == 0 || strcmp (arg, "--tmp-overlay") == 0
      || strcmp (arg, "--ro-overlay") == 0)
    sb_die ("%s is not supported", arg);
  sb_die ("unknown option '%s' (see --help)", arg);
}

static void
sb_parse_args (SbParser *p, int *argcp, char ***argvp, bool in_file)
{
  int argc = *argcp;
  char **argv = *argvp;

  while (argc > 0)
    {
      const char *arg = argv[0];
      bool modifier;
      int used;

      if (strcmp (arg, "--") == 0)
        {
          argv++;
          argc--;
          break;
        }
      if (arg[0] != '-')
        break;

      modifier = strcmp (arg, "--perms") == 0 || strcmp (arg, "--size") == 0;
      used = sb_parse_one (p, argv, argc, in_file);
      /* A pending modifier must be consumed by the very next option. */
      if (!modifier && p->next_perms != -1)
        sb_die ("--perms must be followed by an option that creates a file, not '%s'", arg);
      if (!modifier && p->next_size != 0)
        sb_die ("--size must be followed by --tmpfs, not '%s'", arg);
      argv += used;
      argc -= used;
    }

  *argcp = argc;
  *argvp = argv;
}

/* --perms applies to --file, --bind-data, --ro-bind-data, --dir, --tmpfs;
 * --size to --tmpfs only.  An op that got one it cannot use is an error. */
static void
sb_plan_check_modifiers (const SbPlan *plan)
{
  for (size_t i = 0; i < plan->n_ops; i++)
    {
      const SbOp *op = &plan->ops[i];
      bool takes_perms = op->kind == SB_OP_FILE || op->kind == SB_OP_BIND_DATA
                         || op->kind == SB_OP_DIR || op->kind == SB_OP_TMPFS
                         || op->kind == SB_OP_CHMOD;

      if (op->perms != -1 && !takes_perms)
        sb_die ("--perms must be followed by an option that creates a file ('%s')", op->dest);
      if (op->size != 0 && op->kind != SB_OP_TMPFS)
        sb_die ("--size must be followed by --tmpfs ('%s')", op->dest);
    }
}

static void
sb_plan_check (SbPlan *plan)
{
  struct stat st;

  if (plan->argc == 0)
    sb_die ("no command given (see --help)");

  if (plan->userns_block_fd != -1 && !plan->unshare_user)
    sb_die ("--userns-block-fd requires --unshare-user");
  if (plan->userns_block_fd != -1 && plan->info_fd == -1)
    sb_die ("--userns-block-fd requires --info-fd");
  if (plan->userns_fd != -1 && (plan->unshare_user || plan->unshare_user_try))
    sb_die ("--userns cannot be combined with --unshare-user");
  if (plan->disable_userns && plan->userns_block_fd != -1)
    sb_die ("--disable-userns cannot be combined with --userns-block-fd");

  /* An unprivileged caller can only sandbox itself in a user namespace. */
  if (plan->real_uid != 0 && plan->userns_fd == -1)
    plan->unshare_user = true;
  if (plan->unshare_user_try && plan->userns_fd == -1
      && stat ("/proc/self/ns/user", &st) == 0)
    plan->unshare_user = true;
  if (plan->disable_userns && !plan->unshare_user)
    sb_die ("--disable-userns requires --unshare-user");

  if (!plan->has_uid)
    plan->sandbox_uid = plan->real_uid;
  if (!plan->has_gid)
    plan->sandbox_gid = plan->real_gid;
  if (!plan->unshare_user && plan->userns_fd == -1 && plan->sandbox_uid != plan->real_uid)
    sb_die ("--uid requires --unshare-user or --userns");
  if (!plan->unshare_user && plan->userns_fd == -1 && plan->sandbox_gid != plan->real_gid)
    sb_die ("--gid requires --unshare-user or --userns");
  if (plan->hostname != NULL && !plan->unshare_uts)
    sb_die ("--hostname requires --unshare-uts");
  if (plan->as_pid_1 && !plan->unshare_pid)
    sb_die ("--as-pid-1 requires --unshare-pid");
  for (size_t i = 0; i < plan->n_ops; i++)
    if (plan->as_pid_1 && plan->ops[i].kind == SB_OP_LOCK_FILE)
      sb_die ("--as-pid-1 cannot be combined with --lock-file");

  if (plan->unshare_cgroup_try && stat ("/proc/self/ns/cgroup", &st) == 0)
    plan->unshare_cgroup = true;

  if (plan->seccomp_profile != NULL && !sb_seccomp_profile_exists (plan->seccomp_profile))
    sb_die ("--seccomp-profile: unknown profile '%s' (valid: %s)",
            plan->seccomp_profile, sb_seccomp_profile_names ());

  sb_plan_check_modifiers (plan);
}

void
sb_plan_parse (SbPlan *plan, int argc, char **argv)
{
  SbParser p = { .plan = plan, .total_args = argc, .next_perms = -1 };

  memset (plan, 0, sizeof *plan);
  plan->userns_fd = plan->userns2_fd = plan->pidns_fd = -1;
  plan->sync_fd = plan->block_fd = plan->userns_block_fd = -1;
  plan->info_fd = plan->json_status_fd = -1;
  plan->landlock_abi_max = -1;
  plan->real_uid = getuid ();
  plan->real_gid = getgid ();

  if (argc > SB_MAX_ARGS)
    sb_die ("more than %d arguments", SB_MAX_ARGS);

  argc--;
  argv++;
  if (argc <= 0)
    sb_plan_print_usage (EXIT_FAILURE);

  sb_parse_args (&p, &argc, &argv, false);
  if (p.next_perms != -1)
    sb_die ("--perms must be followed by an option that creates a file");
  if (p.next_size != 0)
    sb_die ("--size must be followed by --tmpfs");

  plan->argc = argc;
  plan->argv = argv;
  sb_plan_check (plan);
}

bool
sb_plan_lists_fd (const SbPlan *plan, int fd)
{
  const int singles[] = {
    plan->userns_fd, plan->userns2_fd, plan->pidns_fd, plan->sync_fd,
    plan->block_fd, plan->userns_block_fd, plan->info_fd, plan->json_status_fd,
  };

  if (fd <= 2)
    return true;
  for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++)
    if (singles[i] == fd)
      return true;
  for (size_t i = 0; i < plan->n_ops; i++)
    if (plan->ops[i].fd == fd)
      return true;
  for (size_t i = 0; i < plan->n_seccomp_fds; i++)
    if (plan->seccomp_fds[i] == fd)
      return true;
  for (size_t i = 0; i < plan->n_keep_fds; i++)
    if (plan->keep_fds[i] == fd)
      return true;
  return false;
}
