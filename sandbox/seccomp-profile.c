/* sandbox/seccomp-profile.c — the system calls that `--seccomp-profile`
 * refuses, one row each with its reason, and their compilation to BPF.
 *
 * Enforces: every row below, for the native architecture only; a system
 * call made through any other ABI (i386 `int $0x80` or x32 on x86_64, arm
 * on aarch64) kills the whole process, so no rule can be sidestepped by
 * switching ABI.  Everything not in the table is allowed: this is a
 * blocklist of kernel attack surface and sandbox escapes, layered under the
 * namespaces, the dropped capabilities and Landlock.
 *
 * Covers at least what Flatpak 1.14's filter refuses (common/flatpak-run.c,
 * setup_seccomp), with the same errnos; additions are marked "(ours)".
 * `devel` is `default` minus the debugging and profiling rows, as Flatpak's
 * devel mode, for running gdb, strace and perf against the app in an SDK.
 *
 * Trusts: libseccomp to translate the table faithfully (tests/sandbox/
 * test-seccomp-unit.c checks each row against the kernel), and the caller of
 * sb_seccomp_profile_compile to install the result after no_new_privs. */
#include "sandbox/seccomp-profile.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"

/* open_tree_attr(2), Linux 6.15, is newer than Debian 12's headers and
 * libseccomp 2.5.4; new system calls share one number on these arches. */
#if !defined(__NR_open_tree_attr) \
  && (defined(__x86_64__) || defined(__aarch64__))
#define __NR_open_tree_attr 467
#endif

/* Architectures built with CONFIG_CLONE_BACKWARDS2 take clone()'s flags as
 * the second argument. */
#if defined(__s390__) || defined(__s390x__) || defined(__CRIS__)
#define SB_CLONE_FLAGS_ARG 1
#else
#define SB_CLONE_FLAGS_ARG 0
#endif

#define D SB_SECCOMP_PROFILE_DEFAULT
#define ALL SB_SECCOMP_PROFILE_ALL

/* A whole system call. */
#define SB_ANY(name, err, prof, why) \
  { .syscall = #name, .nr = SCMP_SYS (name), .errnum = (err), \
    .profiles = (prof), .match = SB_SECCOMP_MATCH_ANY, .reason = (why) }

/* Calls whose argument ARG has all the bits of VALUE under MASK. */
#define SB_MASKED(name, a, m, v, err, prof, why) \
  { .syscall = #name, .nr = SCMP_SYS (name), .errnum = (err), \
    .profiles = (prof), .match = SB_SECCOMP_MATCH_MASKED_EQ, .arg = (a), \
    .mask = (m), .value = (v), .reason = (why) }

/* A clone() flag, checked in the low 32 bits only: the kernel ignores the
 * rest, so a caller cannot hide the flag behind high bits. */
#define SB_CLONE_FLAG(flag, why) \
  SB_MASKED (clone, SB_CLONE_FLAGS_ARG, (flag), (flag), EPERM, ALL, (why))

/* An ioctl request, compared on its low 32 bits only: the kernel truncates
 * the request to an unsigned int, so a filter comparing all 64 bits lets
 * TIOCSTI | (1 << 32) through (CVE-2019-10063). */
#define SB_IOCTL(req, why) \
  SB_MASKED (ioctl, 1, 0xffffffffu, (req), EPERM, ALL, (why))

static const SbSeccompRule sb_seccomp_rules[] = {
  /* Terminal input injection.  The app may share the caller's terminal. */
  SB_IOCTL (TIOCSTI, "pushes characters into the terminal's input, which "
            "the shell outside reads after the app exits (CVE-2017-5226, "
            "CVE-2019-10063)"),
  SB_IOCTL (TIOCLINUX, "on a virtual console, copy/paste has the same "
            "effect as TIOCSTI (CVE-2023-28100)"),

  /* The file system view is built by the launcher; nothing inside may
   * change it or look past it. */
  SB_ANY (mount, EPERM, ALL, "no sub-mounts: the view is the plan's"),
  SB_ANY (umount, EPERM, ALL, "could uncover what a mount hides"),
  SB_ANY (umount2, EPERM, ALL, "could uncover what a mount hides"),
  SB_ANY (pivot_root, EPERM, ALL, "no new roots inside the sandbox"),
  SB_ANY (chroot, EPERM, ALL, "no new roots inside the sandbox; with a "
          "kept CAP_SYS_CHROOT it is a classic escape"),
  /* The new mount API.  ENOSYS, as Flatpak 1.14, so that libmount and
   * systemd fall back to mount(2), which answers EPERM above. */
  SB_ANY (open_tree, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
  SB_ANY (move_mount, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
  SB_ANY (fsopen, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
  SB_ANY (fsconfig, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
  SB_ANY (fsmount, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
  SB_ANY (fspick, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
  SB_ANY (mount_setattr, ENOSYS, ALL, "new mount API (CVE-2021-41133)"),
#ifdef __NR_open_tree_attr
  { .syscall = "open_tree_attr", .nr = __NR_open_tree_attr,
    .errnum = ENOSYS, .profiles = ALL, .match = SB_SECCOMP_MATCH_ANY,
    .reason = "new mount API, Linux 6.15: open_tree + mount_setattr "
              "(as CVE-2021-41133) (ours)" },
#endif

  /* Namespaces.  A new user namespace gives a full set of capabilities
   * over new namespaces, which is how most unprivileged kernel exploits
   * reach netfilter, fsconfig and friends (e.g. CVE-2022-0185). */
  SB_ANY (unshare, EPERM, ALL, "no new namespaces of any kind"),
  SB_ANY (setns, EPERM, ALL, "no joining namespaces, the host's included"),
  SB_CLONE_FLAG (CLONE_NEWUSER, "new user namespace: see above"),
  SB_CLONE_FLAG (CLONE_NEWNS, "new mount namespace (ours)"),
  SB_CLONE_FLAG (CLONE_NEWPID, "new pid namespace (ours)"),
  SB_CLONE_FLAG (CLONE_NEWNET, "new network namespace (ours)"),
  SB_CLONE_FLAG (CLONE_NEWIPC, "new IPC namespace (ours)"),
  SB_CLONE_FLAG (CLONE_NEWUTS, "new UTS namespace (ours)"),
  SB_CLONE_FLAG (CLONE_NEWCGROUP, "new cgroup namespace (ours)"),
  /* CLONE_NEWTIME (0x80) lies in clone()'s exit-signal byte: only
   * unshare() and clone3() can ask for it, and both are refused. */
  SB_ANY (clone3, ENOSYS, ALL, "its flags live in memory, where seccomp "
          "cannot look; ENOSYS makes glibc fall back to clone(), whose "
          "flags are checked above (CVE-2021-41133)"),

  /* Debugging and profiling: allowed by `devel` only. */
  SB_ANY (ptrace, EPERM, D, "reads and rewrites other processes of the "
          "app; before Linux 4.8 it also bypassed seccomp"),
  SB_ANY (process_vm_readv, EPERM, D, "ptrace's memory access without "
          "ptrace (ours)"),
  SB_ANY (process_vm_writev, EPERM, D, "ptrace's memory access without "
          "ptrace (ours)"),
  SB_ANY (perf_event_open, EPERM, D, "a long line of kernel bugs "
          "(CVE-2013-2094, CVE-2023-2235); profile from outside"),
  { .syscall = "personality", .nr = SCMP_SYS (personality), .errnum = EPERM,
    .profiles = D, .match = SB_SECCOMP_MATCH_NOT_IN, .arg = 0,
    .allowed = { PER_LINUX, PER_LINUX32, 0xffffffffu }, .n_allowed = 3,
    .reason = "flags such as ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC and "
              "MMAP_PAGE_ZERO (CVE-2009-1895) weaken exploit mitigations "
              "and survive exec; Linux, linux32 and the 0xffffffff query "
              "stay (Flatpak allows only the one it set; gdb needs the "
              "rest, hence devel)" },

  /* The kernel keyring is not namespaced: keys of the user's session. */
  SB_ANY (add_key, EPERM, ALL, "kernel keyring (CVE-2016-0728)"),
  SB_ANY (keyctl, EPERM, ALL, "kernel keyring (CVE-2016-0728)"),
  SB_ANY (request_key, EPERM, ALL, "kernel keyring (CVE-2016-0728)"),

  /* Kernel attack surface with no use in a desktop app. */
  SB_ANY (userfaultfd, EPERM, ALL, "stalls kernel copies at will, which "
          "makes race bugs reliably exploitable (ours)"),
  SB_ANY (bpf, EPERM, ALL, "the verifier has had many holes "
          "(CVE-2021-3490, CVE-2020-8835) (ours)"),
  SB_ANY (syslog, EPERM, ALL, "dmesg leaks kernel addresses (KASLR)"),
  SB_ANY (uselib, EPERM, ALL, "obsolete a.out loader (CVE-2004-1235)"),
  SB_ANY (modify_ldt, EPERM, ALL, "16-bit segments: a history of leaks "
          "and races (CVE-2015-3290, CVE-2017-17053)"),
  SB_ANY (quotactl, EPERM, ALL, "reads other users' quota use"),
  SB_ANY (acct, EPERM, ALL, "switches process accounting"),
  SB_ANY (move_pages, EPERM, ALL, "NUMA page moves; leaked kernel memory "
          "(CVE-2010-0415)"),
  SB_ANY (migrate_pages, EPERM, ALL, "NUMA: moves other processes' pages"),
  SB_ANY (mbind, EPERM, ALL, "NUMA policy: rare, intricate kernel code"),
  SB_ANY (get_mempolicy, EPERM, ALL, "NUMA policy: rare, intricate kernel "
          "code"),
  SB_ANY (set_mempolicy, EPERM, ALL, "NUMA policy: rare, intricate kernel "
          "code"),
  SB_ANY (open_by_handle_at, EPERM, ALL, "opens files outside the mount "
          "view with a kept CAP_DAC_READ_SEARCH ('shocker') (ours)"),

  /* Whole-machine operations.  They need capabilities the command does
   * not have, unless the plan keeps some with --cap-add (ours). */
  SB_ANY (swapon, EPERM, ALL, "machine-wide swap (ours)"),
  SB_ANY (swapoff, EPERM, ALL, "machine-wide swap (ours)"),
  SB_ANY (kexec_load, EPERM, ALL, "replaces the running kernel (ours)"),
  SB_ANY (kexec_file_load, EPERM, ALL, "replaces the running kernel "
          "(ours)"),
  SB_ANY (reboot, EPERM, ALL, "reboots the machine (ours)"),
  SB_ANY (init_module, EPERM, ALL, "loads kernel code (ours)"),
  SB_ANY (finit_module, EPERM, ALL, "loads kernel code (ours)"),
  SB_ANY (delete_module, EPERM, ALL, "unloads kernel code (ours)"),

  /* Socket families: AF_UNSPEC 0, AF_UNIX 1, AF_INET 2, AF_INET6 10 and
   * AF_NETLINK 16 only, as Flatpak 1.14.  Refuses e.g. AF_KEY 15, AF_PACKET
   * 17, AF_CAN 29, AF_BLUETOOTH 31 (Flatpak gives those two on request;
   * no profile does yet), AF_ALG 38, AF_VSOCK 40: rarely used families are
   * where kernel bugs hide (CVE-2017-7308 in AF_PACKET, CVE-2021-26708 in
   * AF_VSOCK).  EAFNOSUPPORT, as for a family the kernel lacks. */
  { .syscall = "socket", .nr = SCMP_SYS (socket), .errnum = EAFNOSUPPORT,
    .profiles = ALL, .match = SB_SECCOMP_MATCH_NOT_IN, .arg = 0,
    .allowed = { AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK },
    .n_allowed = 5,
    .reason = "socket families other than unix, inet, inet6 and netlink" },
};

#undef D
#undef ALL

const SbSeccompRule *
sb_seccomp_profile_rules (size_t *out_n)
{
  *out_n = sizeof sb_seccomp_rules / sizeof sb_seccomp_rules[0];
  return sb_seccomp_rules;
}

static const SbSeccompProfileName sb_seccomp_profile_names_table[] = {
  { "default", SB_SECCOMP_PROFILE_DEFAULT },
  { "devel", SB_SECCOMP_PROFILE_DEVEL },
};

const SbSeccompProfileName *
sb_seccomp_profile_list (size_t *out_n)
{
  *out_n = sizeof sb_seccomp_profile_names_table / sizeof sb_seccomp_profile_names_table[0];
  return sb_seccomp_profile_names_table;
}

unsigned int
sb_seccomp_profile_lookup (const char *name)
{
  size_t n;
  const SbSeccompProfileName *list = sb_seccomp_profile_list (&n);

  for (size_t i = 0; i < n; i++)
    if (strcmp (name, list[i].name) == 0)
      return list[i].bit;
  return 0;
}

/* libseccomp returns negative errnos, some of them with meanings of its
 * own (see seccomp_rule_add(3)). */
static const char *
sb_seccomp_profile_strerror (int negative_errno)
{
  switch (negative_errno)
    {
    case -EDOM:
      return "not supported on this architecture";
    case -EFAULT:
      return "internal libseccomp failure (unknown system call?)";
    case -ECANCELED:
      return "system failure beyond libseccomp's control";
    default:
      return strerror (-negative_errno);
    }
}

static void
sb_seccomp_profile_release (scmp_filter_ctx *ctx)
{
  if (*ctx != NULL)
    seccomp_release (*ctx);
}

static void
sb_seccomp_profile_add (scmp_filter_ctx             ctx,
                        const SbSeccompRule        *rule,
                        unsigned int                n_cmp,
                        const struct scmp_arg_cmp  *cmp)
{
  int r;

  /* _exact: never let libseccomp rewrite a rule into something else
   * (such as a socketcall() rule on multiplexing ABIs). */
  r = seccomp_rule_add_exact_array (ctx, SCMP_ACT_ERRNO (rule->errnum),
                                    rule->nr, n_cmp, cmp);
  if (r < 0)
    sb_die ("seccomp profile: refuse '%s': %s", rule->syscall,
            sb_seccomp_profile_strerror (r));
}

/* libseccomp 2.5 takes one comparison per argument in a rule, so "none of
 * these values" becomes one rule for any high bit plus one rule per aligned
 * power-of-two block of each gap between the allowed values: every value
 * not allowed falls in exactly one block. */
static void
sb_seccomp_profile_add_not_in (scmp_filter_ctx      ctx,
                               const SbSeccompRule *rule)
{
  const uint64_t top = UINT64_C (1) << 32;
  struct scmp_arg_cmp cmp = { rule->arg, SCMP_CMP_GT, top - 1, 0 };
  uint64_t lo = 0;
  size_t i;

  sb_seccomp_profile_add (ctx, rule, 1, &cmp);
  for (i = 0; i <= rule->n_allowed; i++)
    {
      uint64_t end = i < rule->n_allowed ? rule->allowed[i] : top;

      if (end < lo || end > top)
        sb_die ("seccomp profile: '%s': allowed values out of order",
                rule->syscall);
      while (lo < end)
        {
          uint64_t size = lo == 0 ? top : (lo & -lo);

          while (lo + size > end)
            size >>= 1;
          cmp = (struct scmp_arg_cmp) { rule->arg, SCMP_CMP_MASKED_EQ,
                                        ~(size - 1), lo };
          sb_seccomp_profile_add (ctx, rule, 1, &cmp);
          lo += size;
        }
      lo = end + 1;
    }
}

static void
sb_seccomp_profile_add_rule (scmp_filter_ctx      ctx,
                             const SbSeccompRule *rule)
{
  struct scmp_arg_cmp cmp;

  switch (rule->match)
    {
    case SB_SECCOMP_MATCH_ANY:
      sb_seccomp_profile_add (ctx, rule, 0, NULL);
      break;
    case SB_SECCOMP_MATCH_MASKED_EQ:
      cmp = (struct scmp_arg_cmp) { rule->arg, SCMP_CMP_MASKED_EQ,
                                    rule->mask, rule->value };
      sb_seccomp_profile_add (ctx, rule, 1, &cmp);
      break;
    case SB_SECCOMP_MATCH_NOT_IN:
      sb_seccomp_profile_add_not_in (ctx, rule);
      break;
    default:
      sb_die ("seccomp profile: '%s': unknown match %d", rule->syscall,
              (int) rule->match);
    }
}

/* libseccomp writes BPF only to a file descriptor: let it write to a
 * memfd and read the program back. */
static struct sock_filter *
sb_seccomp_profile_export (scmp_filter_ctx ctx,
                           size_t         *out_len)
{
  sb_autofd int fd = memfd_create ("xdg-app-sandbox-seccomp", MFD_CLOEXEC);
  sb_autofree struct sock_filter *insns = NULL;
  struct stat st;
  size_t done = 0;
  int r;

  if (fd < 0)
    sb_die_errno ("seccomp profile: create memfd");
  r = seccomp_export_bpf (ctx, fd);
  if (r < 0)
    sb_die ("seccomp profile: export BPF: %s",
            sb_seccomp_profile_strerror (r));
  if (fstat (fd, &st) != 0)
    sb_die_errno ("seccomp profile: stat exported BPF");
  if (st.st_size <= 0 || st.st_size % sizeof (struct sock_filter) != 0
      || st.st_size > (off_t) (BPF_MAXINSNS * sizeof (struct sock_filter)))
    sb_die ("seccomp profile: exported BPF has a bad size (%lld bytes)",
            (long long) st.st_size);

  insns = sb_xmalloc (st.st_size);
  while (done < (size_t) st.st_size)
    {
      ssize_t n = pread (fd, (char *) insns + done, st.st_size - done, done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        sb_die_errno ("seccomp profile: read exported BPF");
      if (n == 0)
        sb_die ("seccomp profile: read exported BPF: unexpected end");
      done += n;
    }

  *out_len = st.st_size / sizeof (struct sock_filter);
  return sb_steal_pointer (&insns);
}

struct sock_filter *
sb_seccomp_profile_compile (unsigned int profile,
                            size_t      *out_len)
{
  __attribute__ ((cleanup (sb_seccomp_profile_release)))
    scmp_filter_ctx ctx = NULL;
  size_t i;
  int r;

  /* Only the native architecture is added: a system call from any other
   * ABI is "bad arch" and kills the process, since the table's numbers
   * and argument layouts would not apply to it. */
  ctx = seccomp_init (SCMP_ACT_ALLOW);
  if (ctx == NULL)
    sb_die ("seccomp profile: initialise libseccomp");
  r = seccomp_attr_set (ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (r < 0)
    sb_die ("seccomp profile: kill foreign architectures: %s",
            sb_seccomp_profile_strerror (r));
  /* A binary tree of system call numbers: fewer comparisons per call. */
  r = seccomp_attr_set (ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
  if (r < 0)
    sb_die ("seccomp profile: optimise filter: %s",
            sb_seccomp_profile_strerror (r));

  for (i = 0; i < sizeof sb_seccomp_rules / sizeof sb_seccomp_rules[0]; i++)
    {
      const SbSeccompRule *rule = &sb_seccomp_rules[i];

      /* A negative number: the call does not exist on this architecture
       * (umount on x86_64), so there is nothing to refuse. */
      if ((rule->profiles & profile) == 0 || rule->nr < 0)
        continue;
      sb_seccomp_profile_add_rule (ctx, rule);
    }

  return sb_seccomp_profile_export (ctx, out_len);
}
