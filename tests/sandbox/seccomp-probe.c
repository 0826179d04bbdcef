/* tests/sandbox/seccomp-probe.c — tries, from inside a sandbox, each thing
 * `--seccomp-profile PROFILE` must refuse and a few things it must allow,
 * and prints one TAP line per check.
 *
 *   xdg-app-sandbox … --seccomp-profile default -- seccomp-probe default
 *
 * The expectations here are written down independently of the rule table
 * in sandbox/seccomp-profile.c, from the issue, so a wrong row fails.
 *
 * How a check tells "the profile refused it" from "the kernel refused it":
 * each call runs in a child that first adds a guard filter returning
 * SECCOMP_RET_TRACE for that one system call.  Without a tracer, TRACE
 * fails the call with ENOSYS *without running it*; ERRNO takes precedence
 * over TRACE, so a refusal by the profile still shows its own errno.  So
 * every call either gets the profile's errno or ENOSYS, never reaches the
 * kernel, and probing reboot() or kexec_load() is safe even as root.  The
 * few calls the profile itself answers with ENOSYS run without a guard,
 * with arguments that an unfiltered kernel rejects with another errno.
 *
 * Needs only libc: it runs in whatever runtime the sandbox has. */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define ALLOWED (-1)  /* the profile lets the call through */
#define HI_BIT  (UINT64_C (1) << 32)

typedef struct
{
  const char *what;
  long        nr;
  uint64_t    args[6];
  int         expect_default; /* errno, or ALLOWED */
  int         expect_devel;
} ProbeCase;

#if defined(__s390__) || defined(__s390x__)
#define CLONE_CASE(what, flags, d, v) { what, SYS_clone, { 0, (flags) }, d, v }
#else
#define CLONE_CASE(what, flags, d, v) { what, SYS_clone, { (flags) }, d, v }
#endif

#ifndef SYS_open_tree_attr
#if defined(__x86_64__) || defined(__aarch64__)
#define SYS_open_tree_attr 467
#endif
#endif

static const ProbeCase probe_cases[] = {
  /* Terminal injection (CVE-2017-5226, CVE-2023-28100), also with high
   * bits set in the request (CVE-2019-10063). */
  { "ioctl(TIOCSTI)", SYS_ioctl, { -1, TIOCSTI }, EPERM, EPERM },
  { "ioctl(TIOCSTI | 1 << 32)", SYS_ioctl, { -1, TIOCSTI | HI_BIT },
    EPERM, EPERM },
  { "ioctl(TIOCLINUX)", SYS_ioctl, { -1, TIOCLINUX }, EPERM, EPERM },
  { "ioctl(TIOCLINUX | 1 << 32)", SYS_ioctl, { -1, TIOCLINUX | HI_BIT },
    EPERM, EPERM },
  { "ioctl(FIONREAD)", SYS_ioctl, { -1, FIONREAD }, ALLOWED, ALLOWED },

  /* The mount family. */
  { "mount()", SYS_mount, { 0 }, EPERM, EPERM },
#ifdef SYS_umount
  { "umount()", SYS_umount, { 0 }, EPERM, EPERM },
#endif
  { "umount2()", SYS_umount2, { 0 }, EPERM, EPERM },
  { "pivot_root()", SYS_pivot_root, { 0 }, EPERM, EPERM },
  { "chroot()", SYS_chroot, { 0 }, EPERM, EPERM },

  /* Namespaces. */
  { "unshare(CLONE_NEWUSER)", SYS_unshare, { CLONE_NEWUSER }, EPERM, EPERM },
  { "unshare(CLONE_NEWNS)", SYS_unshare, { CLONE_NEWNS }, EPERM, EPERM },
  { "unshare(CLONE_NEWNET)", SYS_unshare, { CLONE_NEWNET }, EPERM, EPERM },
  { "setns()", SYS_setns, { -1, 0 }, EPERM, EPERM },
  CLONE_CASE ("clone(CLONE_NEWUSER)", CLONE_NEWUSER | SIGCHLD, EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWNS)", CLONE_NEWNS | SIGCHLD, EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWPID)", CLONE_NEWPID | SIGCHLD, EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWNET)", CLONE_NEWNET | SIGCHLD, EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWIPC)", CLONE_NEWIPC | SIGCHLD, EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWUTS)", CLONE_NEWUTS | SIGCHLD, EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWCGROUP)", CLONE_NEWCGROUP | SIGCHLD,
              EPERM, EPERM),
  CLONE_CASE ("clone(CLONE_NEWUSER | 1 << 32)",
              CLONE_NEWUSER | SIGCHLD | HI_BIT, EPERM, EPERM),
  CLONE_CASE ("clone(SIGCHLD)", SIGCHLD, ALLOWED, ALLOWED),

  /* Debugging: devel allows it. */
  { "ptrace(PTRACE_TRACEME)", SYS_ptrace, { 0 }, EPERM, ALLOWED },
  { "process_vm_readv()", SYS_process_vm_readv, { 0 }, EPERM, ALLOWED },
  { "process_vm_writev()", SYS_process_vm_writev, { 0 }, EPERM, ALLOWED },
  { "perf_event_open()", SYS_perf_event_open, { 0 }, EPERM, ALLOWED },
  { "personality(PER_BSD)", SYS_personality, { PER_BSD }, EPERM, ALLOWED },
  { "personality(ADDR_NO_RANDOMIZE)", SYS_personality,
    { ADDR_NO_RANDOMIZE }, EPERM, ALLOWED },
  { "personality(READ_IMPLIES_EXEC)", SYS_personality,
    { READ_IMPLIES_EXEC }, EPERM, ALLOWED },
  { "personality(PER_LINUX | 1 << 32)", SYS_personality,
    { PER_LINUX | HI_BIT }, EPERM, ALLOWED },
  { "personality(PER_LINUX)", SYS_personality, { PER_LINUX },
    ALLOWED, ALLOWED },
  { "personality(PER_LINUX32)", SYS_personality, { PER_LINUX32 },
    ALLOWED, ALLOWED },
  { "personality(0xffffffff)", SYS_personality, { 0xffffffff },
    ALLOWED, ALLOWED },

  /* Kernel keyring, attack surface, whole-machine operations. */
  { "add_key()", SYS_add_key, { 0 }, EPERM, EPERM },
  { "keyctl()", SYS_keyctl, { 0 }, EPERM, EPERM },
  { "request_key()", SYS_request_key, { 0 }, EPERM, EPERM },
  { "userfaultfd()", SYS_userfaultfd, { 0 }, EPERM, EPERM },
  { "bpf()", SYS_bpf, { 0 }, EPERM, EPERM },
  { "syslog()", SYS_syslog, { 0 }, EPERM, EPERM },
  { "quotactl()", SYS_quotactl, { 0 }, EPERM, EPERM },
  { "acct()", SYS_acct, { 0 }, EPERM, EPERM },
#ifdef SYS_uselib
  { "uselib()", SYS_uselib, { 0 }, EPERM, EPERM },
#endif
#ifdef SYS_modify_ldt
  { "modify_ldt()", SYS_modify_ldt, { 0 }, EPERM, EPERM },
#endif
  { "swapon()", SYS_swapon, { 0 }, EPERM, EPERM },
  { "swapoff()", SYS_swapoff, { 0 }, EPERM, EPERM },
  { "kexec_load()", SYS_kexec_load, { 0 }, EPERM, EPERM },
#ifdef SYS_kexec_file_load
  { "kexec_file_load()", SYS_kexec_file_load, { 0 }, EPERM, EPERM },
#endif
  { "reboot()", SYS_reboot, { 0 }, EPERM, EPERM },
  { "init_module()", SYS_init_module, { 0 }, EPERM, EPERM },
  { "finit_module()", SYS_finit_module, { 0 }, EPERM, EPERM },
  { "delete_module()", SYS_delete_module, { 0 }, EPERM, EPERM },
  { "move_pages()", SYS_move_pages, { 0 }, EPERM, EPERM },
  { "migrate_pages()", SYS_migrate_pages, { 0 }, EPERM, EPERM },
  { "mbind()", SYS_mbind, { 0 }, EPERM, EPERM },
  { "get_mempolicy()", SYS_get_mempolicy, { 0 }, EPERM, EPERM },
  { "set_mempolicy()", SYS_set_mempolicy, { 0 }, EPERM, EPERM },
  { "open_by_handle_at()", SYS_open_by_handle_at, { 0 }, EPERM, EPERM },

  /* Socket families: unix, inet, inet6, netlink only. */
  { "socket(AF_AX25 3)", SYS_socket, { 3 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_X25 9)", SYS_socket, { 9 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_KEY 15)", SYS_socket, { 15 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_PACKET 17)", SYS_socket, { 17 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_CAN 29)", SYS_socket, { 29 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_BLUETOOTH 31)", SYS_socket, { 31 },
    EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_ALG 38)", SYS_socket, { 38 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_VSOCK 40)", SYS_socket, { 40 }, EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_UNIX | 1 << 32)", SYS_socket, { AF_UNIX | HI_BIT },
    EAFNOSUPPORT, EAFNOSUPPORT },
  { "socket(AF_UNSPEC)", SYS_socket, { AF_UNSPEC }, ALLOWED, ALLOWED },
  { "socket(AF_UNIX)", SYS_socket, { AF_UNIX }, ALLOWED, ALLOWED },
  { "socket(AF_INET)", SYS_socket, { AF_INET }, ALLOWED, ALLOWED },
  { "socket(AF_INET6)", SYS_socket, { AF_INET6 }, ALLOWED, ALLOWED },
  { "socket(AF_NETLINK)", SYS_socket, { AF_NETLINK }, ALLOWED, ALLOWED },

  /* Refused with ENOSYS, so these run unguarded; an unfiltered kernel
   * answers each of them with EINVAL, EBADF, EFAULT or EPERM. */
  { "clone3()", SYS_clone3, { 0, 0 }, ENOSYS, ENOSYS },
  { "open_tree()", SYS_open_tree, { -1, 0, 0 }, ENOSYS, ENOSYS },
  { "move_mount()", SYS_move_mount, { -1, 0, -1, 0, 0 }, ENOSYS, ENOSYS },
  { "fsopen()", SYS_fsopen, { 0, 0 }, ENOSYS, ENOSYS },
  { "fsconfig()", SYS_fsconfig, { -1, 0, 0, 0, 0 }, ENOSYS, ENOSYS },
  { "fsmount()", SYS_fsmount, { -1, 0, 0 }, ENOSYS, ENOSYS },
  { "fspick()", SYS_fspick, { -1, 0, 0 }, ENOSYS, ENOSYS },
  { "mount_setattr()", SYS_mount_setattr, { -1, 0, 0, 0, 0 },
    ENOSYS, ENOSYS },
#ifdef SYS_open_tree_attr
  { "open_tree_attr()", SYS_open_tree_attr, { -1, 0, 0, 0, 0 },
    ENOSYS, ENOSYS },
#endif
};

#define N_PROBE_CASES (sizeof probe_cases / sizeof probe_cases[0])

static unsigned int probe_n;
static unsigned int probe_failed;

__attribute__ ((format (printf, 2, 3)))
static void
probe_report (bool ok, const char *fmt, ...)
{
  va_list ap;

  printf ("%s %u - ", ok ? "ok" : "not ok", ++probe_n);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
  if (!ok)
    probe_failed++;
}

static const char *
probe_errno_name (int e)
{
  const char *name = strerrorname_np (e);

  return name != NULL ? name : "an unknown errno";
}

/* The guard of the top comment: SECCOMP_RET_TRACE for system call NR. */
static bool
probe_install_guard (long nr)
{
  struct sock_filter insns[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) nr, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRACE),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof insns / sizeof insns[0], insns };

  return prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
         && syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0;
}

/* Exit codes of a probing child besides an errno. */
#define PROBE_EXIT_SUCCEEDED 0
#define PROBE_EXIT_NO_GUARD  254

/* Runs the call in a child; returns its wait status. */
static int
probe_call (const ProbeCase *c,
            bool             guarded)
{
  pid_t pid;
  int status = 0;

  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      exit (2);
    }
  if (pid == 0)
    {
      long r;

      if (guarded && !probe_install_guard (c->nr))
        _exit (PROBE_EXIT_NO_GUARD);
      r = syscall (c->nr, c->args[0], c->args[1], c->args[2], c->args[3],
                   c->args[4], c->args[5]);
      _exit (r < 0 ? errno : PROBE_EXIT_SUCCEEDED);
    }
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        perror ("waitpid");
        exit (2);
      }
  return status;
}

static void
probe_case (const ProbeCase *c,
            bool             devel)
{
  int expect = devel ? c->expect_devel : c->expect_default;
  bool guarded = expect != ENOSYS;
  int want = expect == ALLOWED ? ENOSYS : expect;
  int status = probe_call (c, guarded);
  int got;

  if (WIFSIGNALED (status))
    {
      probe_report (false, "%s: killed by signal %d", c->what,
                    WTERMSIG (status));
      return;
    }
  got = WEXITSTATUS (status);
  if (got == PROBE_EXIT_NO_GUARD)
    {
      probe_report (false, "%s: could not install the guard filter",
                    c->what);
      return;
    }

  if (expect == ALLOWED)
    probe_report (got == want, "%s allowed%s%s", c->what,
                  got == want ? "" : ", but refused with ",
                  got == want ? "" : probe_errno_name (got));
  else if (got == PROBE_EXIT_SUCCEEDED)
    probe_report (false, "%s refused with %s: it succeeded", c->what,
                  probe_errno_name (want));
  else
    probe_report (got == want, "%s refused with %s%s%s", c->what,
                  probe_errno_name (want), got == want ? "" : ", got ",
                  got == want ? "" : probe_errno_name (got));
}

#ifdef __x86_64__
/* A system call through another ABI must kill the process. */
static void
probe_foreign_abi (const char *what,
                   bool        i386)
{
  pid_t pid;
  int status = 0;

  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      exit (2);
    }
  if (pid == 0)
    {
      if (i386)
        {
          long r = 20; /* getpid in the i386 table */

          __asm__ volatile ("int $0x80" : "+a" (r) : : "memory");
        }
      else
        {
          /* getpid (39) with the x32 bit */
          (void) syscall (0x40000000L | 39);
        }
      _exit (0);
    }
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        perror ("waitpid");
        exit (2);
      }
  probe_report (WIFSIGNALED (status) && WTERMSIG (status) == SIGSYS,
                "%s kills the process with SIGSYS", what);
}
#endif

/* In a sanitizer build, LeakSanitizer's exit-time check stops the world
 * with ptrace, which the default profile refuses: turn it off here. */
int __lsan_is_turned_off (void);
int
__lsan_is_turned_off (void)
{
  return 1;
}

static void *
probe_thread (void *data)
{
  return data;
}

/* Ordinary things keep working with the profile on. */
static void
probe_ordinary (void)
{
  struct utsname uts;
  pthread_t thread;
  void *ret = NULL;
  int fds[2];
  char c = 'x';
  int n = -1;
  int fd;
  pid_t pid;
  int status = -1;

  probe_report (getpid () > 0, "getpid() works");
  probe_report (uname (&uts) == 0, "uname() works");

  fd = open ("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  probe_report (fd >= 0, "open(\"/\") works");
  if (fd >= 0)
    close (fd);

  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      probe_report (false, "pipe2() works");
      return;
    }
  probe_report (write (fds[1], &c, 1) == 1
                && ioctl (fds[0], FIONREAD, &n) == 0 && n == 1
                && read (fds[0], &c, 1) == 1,
                "pipe, write, ioctl(FIONREAD) and read work");
  close (fds[0]);
  close (fds[1]);

  fflush (stdout);
  pid = fork ();
  if (pid == 0)
    _exit (7);
  probe_report (pid > 0 && waitpid (pid, &status, 0) == pid
                && WIFEXITED (status) && WEXITSTATUS (status) == 7,
                "fork() and waitpid() work");

  /* glibc tries clone3() first and falls back to clone() on ENOSYS. */
  probe_report (pthread_create (&thread, NULL, probe_thread, &c) == 0
                && pthread_join (thread, &ret) == 0 && ret == &c,
                "pthread_create() works (clone3 falls back to clone)");

  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  probe_report (fd >= 0, "socket(AF_UNIX) works");
  if (fd >= 0)
    close (fd);
  fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  probe_report (fd >= 0, "socket(AF_INET) works");
  if (fd >= 0)
    close (fd);

  probe_report (personality (0xffffffff) != -1,
                "personality(0xffffffff) queries the personality");
}

int
main (int    argc,
      char **argv)
{
  bool devel;
  size_t i;
  unsigned int total = N_PROBE_CASES + 9;

  if (argc != 2
      || (strcmp (argv[1], "default") != 0 && strcmp (argv[1], "devel") != 0))
    {
      fprintf (stderr, "usage: %s default|devel\n", argv[0]);
      return 2;
    }
  devel = strcmp (argv[1], "devel") == 0;

#ifdef __x86_64__
  total += 2;
#endif
  printf ("1..%u\n", total);
  printf ("# seccomp-probe: expecting profile '%s'\n", argv[1]);

  for (i = 0; i < N_PROBE_CASES; i++)
    probe_case (&probe_cases[i], devel);
#ifdef __x86_64__
  probe_foreign_abi ("an i386 system call (int $0x80)", true);
  probe_foreign_abi ("an x32 system call", false);
#endif
  probe_ordinary ();

  if (probe_n != total)
    probe_report (false, "ran %u checks, planned %u", probe_n, total);
  return probe_failed == 0 ? 0 : 1;
}
