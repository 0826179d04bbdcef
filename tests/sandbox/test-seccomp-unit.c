/* tests/sandbox/test-seccomp-unit.c — unit test of the launcher's
 * capability and seccomp steps (sandbox/caps.c, sandbox/seccomp.c,
 * sandbox/seccomp-profile.c).  Speaks TAP.
 *
 *   test-seccomp-unit [PATH-TO-seccomp-probe]
 *
 * Each check runs in a forked child that does what the launcher does last
 * (sb_caps_drop_all, then sb_seccomp_apply) and then makes one system call.
 * Every row of the rule table is tried for both profiles, with arguments
 * that the row should and should not match; the expected answer comes from
 * a plain reading of the table (test_table_answer), so the libseccomp
 * translation is what is under test.  As in tests/sandbox/seccomp-probe.c,
 * a guard filter returning SECCOMP_RET_TRACE makes an allowed call fail
 * with ENOSYS without running it, so nothing dangerous ever reaches the
 * kernel; the profile's own ENOSYS refusals run unguarded, with arguments
 * that an unfiltered kernel rejects otherwise (checked as a baseline).
 *
 * Then seccomp-probe (its own expectations, written from the issue) runs
 * under each profile.  Run it as root, as an unprivileged user, and in a
 * user namespace: checks that need a given identity say why they skip. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/caps.h"
#include "sandbox/plan.h"
#include "sandbox/seccomp-compiled.h"
#include "sandbox/seccomp-profile.h"
#include "sandbox/seccomp.h"

/* ---- TAP ---------------------------------------------------------------- */

static unsigned int tap_n;
static unsigned int tap_failed;

__attribute__ ((format (printf, 2, 3)))
static bool
tap_ok (bool        ok,
        const char *fmt,
        ...)
{
  va_list ap;

  printf ("%s %u - ", ok ? "ok" : "not ok", ++tap_n);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
  if (!ok)
    tap_failed++;
  return ok;
}

__attribute__ ((format (printf, 1, 2)))
static void
tap_skip (const char *fmt,
          ...)
{
  va_list ap;

  printf ("ok %u # SKIP ", ++tap_n);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
}

/* Prints TEXT as TAP comments, one "# " per line. */
static void
tap_diag_text (const char *text)
{
  const char *line = text;

  while (*line != '\0')
    {
      const char *end = strchr (line, '\n');
      int len = end != NULL ? (int) (end - line) : (int) strlen (line);

      printf ("#   %.*s\n", len, line);
      line += len + (end != NULL);
    }
  fflush (stdout);
}

static const char *
test_errno_name (int e)
{
  const char *name = e == 0 ? "success" : strerrorname_np (e);

  return name != NULL ? name : "an unknown errno";
}

/* ---- children ----------------------------------------------------------- */

typedef void (*TestChildFunc) (const void *data);

typedef struct
{
  int  status;      /* as from waitpid */
  char out[16384];  /* the child's stdout and stderr */
} TestChild;

/* Runs FN (DATA) in a child whose stdout and stderr are captured; FN ends
 * with _exit or exec, else the child exits 0. */
static void
test_child_run (TestChildFunc  fn,
                const void    *data,
                TestChild     *res)
{
  int fds[2];
  size_t done = 0;
  pid_t pid;

  fflush (stdout);
  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      perror ("pipe2");
      exit (2);
    }
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      exit (2);
    }
  if (pid == 0)
    {
      dup2 (fds[1], STDOUT_FILENO);
      dup2 (fds[1], STDERR_FILENO);
      fn (data);
      _exit (0);
    }
  close (fds[1]);
  for (;;)
    {
      ssize_t n = read (fds[0], res->out + done, sizeof res->out - 1 - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += n;
      if (done == sizeof res->out - 1)
        {
          char sink[512];

          while (read (fds[0], sink, sizeof sink) > 0)
            ;
          break;
        }
    }
  res->out[done] = '\0';
  close (fds[0]);
  while (waitpid (pid, &res->status, 0) < 0)
    if (errno != EINTR)
      {
        perror ("waitpid");
        exit (2);
      }
}

static bool
test_child_exited (const TestChild *res,
                   int              code)
{
  return WIFEXITED (res->status) && WEXITSTATUS (res->status) == code;
}

/* ---- /proc/self/status -------------------------------------------------- */

static char test_self_exe[PATH_MAX];

/* The value of FIELD ("CapEff") in a /proc/PID/status text, or -1. */
static long long
test_status_field (const char *text,
                   const char *field,
                   int         base)
{
  size_t len = strlen (field);
  const char *line = text;

  while (line != NULL && *line != '\0')
    {
      if (strncmp (line, field, len) == 0 && line[len] == ':')
        return strtoll (line + len + 1, NULL, base);
      line = strchr (line, '\n');
      if (line != NULL)
        line++;
    }
  return -1;
}

static void
test_print_own_status (void)
{
  char buf[8192];
  ssize_t n;
  int fd = open ("/proc/self/status", O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    _exit (90);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    if (write (STDOUT_FILENO, buf, n) != n)
      _exit (91);
  close (fd);
}

static long long
test_own_status_field (const char *field,
                       int         base)
{
  TestChild res;

  test_child_run ((TestChildFunc) test_print_own_status, NULL, &res);
  return test_status_field (res.out, field, base);
}

/* ---- capabilities ------------------------------------------------------- */

#define CAP_BIT(cap) (UINT64_C (1) << (cap))

static void
test_caps_names (void)
{
  int cap;
  bool round_trip = true;

  tap_ok (sb_caps_parse ("CAP_NET_RAW") == 13, "caps: parse CAP_NET_RAW");
  tap_ok (sb_caps_parse ("cap_net_raw") == 13, "caps: parse cap_net_raw");
  tap_ok (sb_caps_parse ("Cap_Sys_Admin") == 21, "caps: parse Cap_Sys_Admin");
  tap_ok (sb_caps_parse ("ALL") == SB_CAP_ALL
          && sb_caps_parse ("all") == SB_CAP_ALL, "caps: parse ALL, all");
  tap_ok (sb_caps_parse ("12") == 12, "caps: parse a number, as libcap");
  tap_ok (sb_caps_parse ("CAP_NOPE") == -1 && sb_caps_parse ("NET_RAW") == -1
          && sb_caps_parse ("") == -1 && sb_caps_parse ("64") == -1
          && sb_caps_parse ("-1") == -1 && sb_caps_parse ("1x") == -1,
          "caps: reject unknown names and numbers");
  tap_ok (sb_caps_name (21) != NULL
          && strcmp (sb_caps_name (21), "CAP_SYS_ADMIN") == 0
          && sb_caps_name (-1) == NULL && sb_caps_name (63) == NULL,
          "caps: name of 21 is CAP_SYS_ADMIN; none for -1 and 63");
  for (cap = 0; cap <= 40; cap++)
    if (sb_caps_name (cap) == NULL
        || sb_caps_parse (sb_caps_name (cap)) != cap)
      round_trip = false;
  tap_ok (round_trip, "caps: every name up to CAP_CHECKPOINT_RESTORE (40) "
          "parses back to its number");
}

static uint64_t
test_caps_known (void)
{
  FILE *f = fopen ("/proc/sys/kernel/cap_last_cap", "re");
  int last = -1;

  if (f == NULL || fscanf (f, "%d", &last) != 1 || last < 0 || last > 63)
    last = 40;
  if (f != NULL)
    fclose (f);
  return last == 63 ? UINT64_MAX : (CAP_BIT (last + 1) - 1);
}

static void
test_caps_kept (void)
{
  SbPlan plan = { 0 };
  uint64_t known = test_caps_known ();

  tap_ok (sb_caps_kept (&plan) == 0, "caps: nothing kept by default");
  plan.caps_add = CAP_BIT (13);
  tap_ok (sb_caps_kept (&plan) == CAP_BIT (13), "caps: --cap-add keeps one");
  plan.caps_add |= CAP_BIT (63);
  tap_ok (sb_caps_kept (&plan) == CAP_BIT (13),
          "caps: a capability the kernel lacks is not kept");
  plan.caps_add = ~(uint64_t) 0 & ~CAP_BIT (21);
  tap_ok (sb_caps_kept (&plan) == (known & ~CAP_BIT (21)),
          "caps: ALL minus --cap-drop CAP_SYS_ADMIN");
}

/* What a child of the caps checks does. */
typedef struct
{
  SbPlan plan;
  bool   everything;      /* sb_caps_drop_everything instead */
  bool   become_nobody;   /* switch to uid/gid 65534 first, keeping caps */
  bool   exec;            /* report after exec instead of before */
} TestCapsChild;

#define TEST_EXIT_NO_NOBODY 77
#define TEST_EXIT_NO_EXEC   78

static void
test_caps_child (const void *data)
{
  const TestCapsChild *c = data;

  if (c->become_nobody)
    {
      if (prctl (PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0
          || setresgid (65534, 65534, 65534) != 0
          || setresuid (65534, 65534, 65534) != 0)
        _exit (TEST_EXIT_NO_NOBODY);
    }
  if (c->everything)
    sb_caps_drop_everything ();
  else
    sb_caps_drop_all (&c->plan);
  if (c->exec)
    {
      execl (test_self_exe, test_self_exe, "--report-status", (char *) NULL);
      _exit (TEST_EXIT_NO_EXEC);
    }
  test_print_own_status ();
}

static void
test_caps_expect (const char     *what,
                  const TestChild *res,
                  uint64_t        want,
                  bool            check_bounding)
{
  const char *sets[] = { "CapInh", "CapPrm", "CapEff", "CapAmb" };
  size_t i;
  bool ok = test_child_exited (res, 0);

  for (i = 0; ok && i < sizeof sets / sizeof sets[0]; i++)
    ok = test_status_field (res->out, sets[i], 16) == (long long) want;
  ok = ok && test_status_field (res->out, "NoNewPrivs", 10) == 1;
  if (!tap_ok (ok, "caps: %s: inheritable, permitted, effective and "
               "ambient are %#llx, no_new_privs is set", what,
               (unsigned long long) want))
    tap_diag_text (res->out);

  if (!check_bounding)
    tap_skip ("caps: %s: bounding set: the launcher has no CAP_SETPCAP "
              "to shrink it (no_new_privs covers it)", what);
  else if (!tap_ok (test_status_field (res->out, "CapBnd", 16)
                    == (long long) want,
                    "caps: %s: bounding set is %#llx", what,
                    (unsigned long long) want))
    tap_diag_text (res->out);
}

static void
test_caps_drop (void)
{
  long long own_prm = test_own_status_field ("CapPrm", 16);
  bool has_setpcap = own_prm >= 0 && (own_prm & CAP_BIT (8));
  uint64_t keep = CAP_BIT (10); /* CAP_NET_BIND_SERVICE */
  TestCapsChild c = { .exec = true };
  TestChild res;
  uint64_t missing;
  int cap;

  test_child_run (test_caps_child, &c, &res);
  test_caps_expect ("nothing kept, after exec", &res, 0, has_setpcap);

  c = (TestCapsChild) { .everything = true };
  test_child_run (test_caps_child, &c, &res);
  test_caps_expect ("drop everything (reaper)", &res, 0, has_setpcap);

  if (!has_setpcap || !(own_prm & keep))
    {
      tap_skip ("caps: keep CAP_NET_BIND_SERVICE: the launcher lacks it");
      tap_skip ("caps: keep CAP_NET_BIND_SERVICE: the launcher lacks it");
    }
  else
    {
      c = (TestCapsChild) { .plan.caps_add = keep, .exec = true };
      test_child_run (test_caps_child, &c, &res);
      test_caps_expect ("--cap-add CAP_NET_BIND_SERVICE, after exec",
                        &res, keep, true);
    }

  /* Ambient capabilities are what carries a kept capability across exec
   * for a uid other than 0. */
  c = (TestCapsChild) { .plan.caps_add = keep, .become_nobody = true,
                        .exec = true };
  if (getuid () != 0 || !has_setpcap || !(own_prm & keep)
      || !(own_prm & CAP_BIT (6)) || !(own_prm & CAP_BIT (7)))
    tap_skip ("caps: kept capability survives exec as uid 65534: needs "
              "root with CAP_SETUID, CAP_SETGID, CAP_SETPCAP");
  else
    {
      test_child_run (test_caps_child, &c, &res);
      if (test_child_exited (&res, TEST_EXIT_NO_NOBODY))
        tap_skip ("caps: kept capability survives exec as uid 65534: "
                  "uid 65534 is not mapped here");
      else if (test_child_exited (&res, TEST_EXIT_NO_EXEC))
        tap_skip ("caps: kept capability survives exec as uid 65534: this "
                  "binary is not executable by uid 65534");
      else if (!tap_ok (test_child_exited (&res, 0)
                        && test_status_field (res.out, "CapEff", 16)
                           == (long long) keep
                        && test_status_field (res.out, "CapAmb", 16)
                           == (long long) keep
                        && strstr (res.out, "\nUid:\t65534\t") != NULL,
                        "caps: kept capability survives exec as uid 65534 "
                        "(ambient)"))
        tap_diag_text (res.out);
    }

  /* A capability the launcher does not hold cannot be kept. */
  missing = 0;
  for (cap = 0; cap < 64; cap++)
    if ((test_caps_known () & CAP_BIT (cap)) && !(own_prm & CAP_BIT (cap)))
      {
        missing = CAP_BIT (cap);
        break;
      }
  if (missing == 0)
    tap_skip ("caps: keeping a capability the launcher lacks: it has all");
  else
    {
      c = (TestCapsChild) { .plan.caps_add = missing, .exec = true };
      test_child_run (test_caps_child, &c, &res);
      if (!tap_ok (test_child_exited (&res, 1)
                   && strstr (res.out, "xdg-app-sandbox: keep capability '")
                      != NULL,
                   "caps: keeping %s, which the launcher lacks, fails with "
                   "one line", sb_caps_name (cap)))
        tap_diag_text (res.out);
    }
}

/* ---- the rule table ----------------------------------------------------- */

static const struct
{
  unsigned int bit;
  const char  *name;
} test_profiles[] = {
  { SB_SECCOMP_PROFILE_DEFAULT, "default" },
  { SB_SECCOMP_PROFILE_DEVEL, "devel" },
};

/* What the table says about a call: 0 if allowed, else the errno.  A
 * literal reading of SbSeccompRule, independent of libseccomp. */
static int
test_table_answer (unsigned int    profile,
                   long            nr,
                   const uint64_t  args[6])
{
  size_t n, i, j;
  const SbSeccompRule *rules = sb_seccomp_profile_rules (&n);

  for (i = 0; i < n; i++)
    {
      const SbSeccompRule *r = &rules[i];
      bool match = false;

      if (r->nr != nr || !(r->profiles & profile))
        continue;
      switch (r->match)
        {
        case SB_SECCOMP_MATCH_ANY:
          match = true;
          break;
        case SB_SECCOMP_MATCH_MASKED_EQ:
          match = (args[r->arg] & r->mask) == r->value;
          break;
        case SB_SECCOMP_MATCH_NOT_IN:
          match = true;
          for (j = 0; j < r->n_allowed; j++)
            if (args[r->arg] == r->allowed[j])
              match = false;
          break;
        default:
          match = false;
        }
      if (match)
        return r->errnum;
    }
  return 0;
}

static void
test_table_shape (void)
{
  static const char *const flatpak_1_14[] = {
    "syslog", "uselib", "acct", "modify_ldt", "quotactl", "add_key",
    "keyctl", "request_key", "move_pages", "mbind", "get_mempolicy",
    "set_mempolicy", "migrate_pages", "unshare", "setns", "mount", "umount",
    "umount2", "pivot_root", "chroot", "clone", "ioctl", "clone3",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
    "mount_setattr", "perf_event_open", "personality", "ptrace", "socket",
  };
  size_t n, i, j;
  const SbSeccompRule *rules = sb_seccomp_profile_rules (&n);
  bool shape = true;
  bool covered = true;

  for (i = 0; i < n; i++)
    {
      const SbSeccompRule *r = &rules[i];
      bool sorted = true;

      for (j = 1; j < r->n_allowed; j++)
        sorted = sorted && r->allowed[j - 1] < r->allowed[j];
      if (r->reason == NULL || r->reason[0] == '\0'
          || (r->errnum != EPERM && r->errnum != ENOSYS
              && r->errnum != EAFNOSUPPORT)
          || !(r->profiles & SB_SECCOMP_PROFILE_DEFAULT)
          || r->arg > 5 || !sorted
          || (r->n_allowed > 0 && r->allowed[r->n_allowed - 1] > UINT32_MAX))
        {
          printf ("# bad row %zu: %s\n", i, r->syscall);
          shape = false;
        }
    }
  tap_ok (shape, "table: %zu rows, each with a reason, a known errno, "
          "refused by default, devel a subset", n);

  for (i = 0; i < sizeof flatpak_1_14 / sizeof flatpak_1_14[0]; i++)
    {
      bool found = false;

      for (j = 0; j < n; j++)
        if (strcmp (rules[j].syscall, flatpak_1_14[i]) == 0
            && (rules[j].profiles & SB_SECCOMP_PROFILE_DEFAULT))
          found = true;
      if (!found)
        {
          printf ("# missing: %s\n", flatpak_1_14[i]);
          covered = false;
        }
    }
  tap_ok (covered, "table: default refuses every system call Flatpak "
          "1.14's filter refuses");

  tap_ok (sb_seccomp_profile_exists ("default")
          && sb_seccomp_profile_exists ("devel")
          && !sb_seccomp_profile_exists ("Default")
          && !sb_seccomp_profile_exists ("")
          && strcmp (sb_seccomp_profile_names (), "default, devel") == 0,
          "profiles: exactly 'default' and 'devel'");

  for (i = 0; i < sizeof test_profiles / sizeof test_profiles[0]; i++)
    {
      size_t len = 0;
      struct sock_filter *insns
        = sb_seccomp_profile_compile (test_profiles[i].bit, &len);

      const SbSeccompCompiled *built = NULL;

      tap_ok (insns != NULL && len > 0 && len <= BPF_MAXINSNS,
              "profile '%s' compiles to %zu BPF instructions",
              test_profiles[i].name, len);
      /* The launcher installs what the build compiled: the same program. */
      for (const SbSeccompCompiled *c = sb_seccomp_compiled; c->name != NULL; c++)
        if (strcmp (c->name, test_profiles[i].name) == 0)
          built = c;
      tap_ok (built != NULL && built->len == len
              && memcmp (built->insns, insns, len * sizeof *insns) == 0,
              "profile '%s': the build's program is what libseccomp compiles now",
              test_profiles[i].name);
      free (insns);
    }
}

/* ---- one system call under a profile ------------------------------------ */

typedef struct
{
  const SbPlan *plan;     /* NULL: no filter at all (baseline) */
  long          nr;
  uint64_t      args[6];
  bool          guarded;
} TestCall;

#define TEST_EXIT_NO_GUARD 254

static bool
test_install_guard (long nr)
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

static void
test_call_child (const void *data)
{
  const TestCall *c = data;
  long r;

  if (c->plan != NULL)
    {
      sb_caps_drop_all (c->plan);
      sb_seccomp_apply (c->plan);
    }
  if (c->guarded && !test_install_guard (c->nr))
    _exit (TEST_EXIT_NO_GUARD);
  r = syscall (c->nr, c->args[0], c->args[1], c->args[2], c->args[3],
               c->args[4], c->args[5]);
  _exit (r < 0 ? errno : 0);
}

/* The errno the call ends with; -1 if the child died. */
static int
test_call (const TestCall *c,
           TestChild      *res)
{
  test_child_run (test_call_child, c, res);
  if (!WIFEXITED (res->status))
    return -1;
  return WEXITSTATUS (res->status);
}

static void
test_rule_call (const SbPlan        *plan,
                unsigned int         profile,
                const char          *profile_name,
                const SbSeccompRule *rule,
                const uint64_t       args[6])
{
  TestCall c = { .plan = plan, .nr = rule->nr };
  int want = test_table_answer (profile, rule->nr, args);
  TestChild res;
  int got;

  memcpy (c.args, args, sizeof c.args);
  /* Allowed calls are stopped by the guard, which answers ENOSYS. */
  c.guarded = want != ENOSYS;
  got = test_call (&c, &res);

  if (want == 0)
    tap_ok (got == ENOSYS, "%s: %s (%#llx) allowed%s%s", profile_name,
            rule->syscall, (unsigned long long) args[rule->arg],
            got == ENOSYS ? "" : ", got ",
            got == ENOSYS ? "" : test_errno_name (got));
  else
    tap_ok (got == want, "%s: %s (%#llx) refused with %s%s%s",
            profile_name, rule->syscall,
            (unsigned long long) args[rule->arg], test_errno_name (want),
            got == want ? "" : ", got ",
            got == want ? "" : got < 0 ? "killed" : test_errno_name (got));

  /* A refusal with ENOSYS means something only if the kernel itself
   * would have answered otherwise. */
  if (want == ENOSYS && profile == SB_SECCOMP_PROFILE_DEFAULT)
    {
      c.plan = NULL;
      got = test_call (&c, &res);
      tap_ok (got != ENOSYS && got != 0, "baseline: without a filter, "
              "%s fails with %s, not ENOSYS", rule->syscall,
              test_errno_name (got));
    }
}

/* Values for a NOT_IN argument: the allowed ones, their neighbours, the
 * edges of 32 bits, high bits, and some spread-out values. */
static size_t
test_not_in_values (const SbSeccompRule *rule,
                    uint64_t            *out,
                    size_t               max)
{
  static const uint64_t edges[] = {
    0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, UINT64_C (1) << 32,
    UINT64_MAX, 0x12345678, 0x00400000, 0x00040000, 0x0dead000,
  };
  uint64_t seed = 0x9e3779b97f4a7c15;
  size_t n = 0, i;

  for (i = 0; i < rule->n_allowed && n + 4 <= max; i++)
    {
      out[n++] = rule->allowed[i];
      out[n++] = rule->allowed[i] + 1;
      out[n++] = rule->allowed[i] - 1;
      out[n++] = rule->allowed[i] | (UINT64_C (1) << 32);
    }
  for (i = 0; i < sizeof edges / sizeof edges[0] && n < max; i++)
    out[n++] = edges[i];
  for (i = 0; i < 6 && n < max; i++)
    {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      out[n++] = i < 3 ? (seed >> 32) : seed;
    }
  return n;
}

static void
test_rules_under (unsigned int  profile,
                  const char   *profile_name)
{
  /* Static: prepared filters are never freed (the launcher execs), and
   * must stay reachable for LeakSanitizer. */
  static SbPlan plans[2];
  SbPlan *plan = &plans[profile == SB_SECCOMP_PROFILE_DEVEL];
  size_t n, i, k;
  const SbSeccompRule *rules = sb_seccomp_profile_rules (&n);

  plan->seccomp_profile = profile_name;
  sb_seccomp_prepare (plan);

  for (i = 0; i < n; i++)
    {
      const SbSeccompRule *r = &rules[i];
      uint64_t args[6] = { 0 };
      uint64_t values[32];
      size_t n_values;

      if (r->nr < 0)
        {
          tap_skip ("%s: %s does not exist on this architecture",
                    profile_name, r->syscall);
          continue;
        }
      switch (r->match)
        {
        case SB_SECCOMP_MATCH_ANY:
          test_rule_call (plan, profile, profile_name, r, args);
          break;
        case SB_SECCOMP_MATCH_MASKED_EQ:
          args[r->arg] = r->value;
          test_rule_call (plan, profile, profile_name, r, args);
          /* High bits outside the mask must not hide a match
           * (CVE-2019-10063). */
          args[r->arg] = r->value | (~r->mask & ~UINT64_C (0xffffffff));
          test_rule_call (plan, profile, profile_name, r, args);
          args[r->arg] = r->value & ~r->mask;
          test_rule_call (plan, profile, profile_name, r, args);
          break;
        case SB_SECCOMP_MATCH_NOT_IN:
          n_values = test_not_in_values (r, values, 32);
          for (k = 0; k < n_values; k++)
            {
              args[r->arg] = values[k];
              test_rule_call (plan, profile, profile_name, r, args);
            }
          break;
        default:
          tap_ok (false, "%s: %s: unknown match kind", profile_name,
                  r->syscall);
        }
    }
}

/* ---- the probe, under each profile -------------------------------------- */

typedef struct
{
  const SbPlan *plan;
  const char   *probe;
  const char   *profile;
} TestProbe;

static void
test_probe_child (const void *data)
{
  const TestProbe *p = data;

  sb_caps_drop_all (p->plan);
  sb_seccomp_apply (p->plan);
  execl (p->probe, p->probe, p->profile, (char *) NULL);
  _exit (127);
}

static void
test_probe (const char *probe)
{
  size_t i;

  for (i = 0; i < sizeof test_profiles / sizeof test_profiles[0]; i++)
    {
      static SbPlan plans[2]; /* see test_rules_under */
      SbPlan *plan = &plans[i];
      TestProbe p = { plan, probe, test_profiles[i].name };
      TestChild res;
      const char *line;
      unsigned int passed = 0, failed = 0;

      if (probe == NULL || access (probe, X_OK) != 0)
        {
          tap_skip ("seccomp-probe under '%s': no probe binary (pass its "
                    "path as the first argument)", test_profiles[i].name);
          continue;
        }
      plan->seccomp_profile = test_profiles[i].name;
      sb_seccomp_prepare (plan);
      test_child_run (test_probe_child, &p, &res);
      for (line = res.out; line != NULL && *line != '\0';)
        {
          if (strncmp (line, "ok ", 3) == 0)
            passed++;
          else if (strncmp (line, "not ok ", 7) == 0)
            failed++;
          line = strchr (line, '\n');
          if (line != NULL)
            line++;
        }
      if (!tap_ok (test_child_exited (&res, 0) && failed == 0 && passed > 0,
                   "seccomp-probe under '%s': %u checks passed, %u failed",
                   test_profiles[i].name, passed, failed))
        tap_diag_text (res.out);
    }
}

/* ---- filters from the caller (--seccomp FD, --add-seccomp-fd FD) -------- */

/* A pipe holding LEN instructions that refuse system call NR with ERR; the
 * rest of a longer program is padding that allows everything. */
static int
test_filter_fd (long   nr,
                int    err,
                size_t len,
                size_t extra_bytes)
{
  struct sock_filter *insns = calloc (len, sizeof *insns);
  size_t i;
  int fds[2];

  if (insns == NULL || len < 4 || pipe2 (fds, O_CLOEXEC) != 0)
    {
      perror ("test_filter_fd");
      exit (2);
    }
  for (i = 0; i + 4 < len; i++)
    insns[i] = (struct sock_filter) BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                                              offsetof (struct seccomp_data,
                                                        nr));
  insns[len - 4] = (struct sock_filter)
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr));
  insns[len - 3] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) nr, 0, 1);
  insns[len - 2] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (uint32_t) err);
  insns[len - 1] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  if (write (fds[1], insns, len * sizeof *insns - extra_bytes)
      != (ssize_t) (len * sizeof *insns - extra_bytes))
    {
      perror ("write filter");
      exit (2);
    }
  close (fds[1]);
  free (insns);
  return fds[0];
}

typedef struct
{
  SbPlan *plan;
  bool    prepare;   /* call sb_seccomp_prepare in the child */
  long    nr[3];     /* calls to make, reported as "nr=errno;" */
} TestFdChild;

static void
test_fd_child (const void *data)
{
  const TestFdChild *c = data;
  size_t i;

  if (c->prepare)
    sb_seccomp_prepare (c->plan);
  sb_caps_drop_all (c->plan);
  sb_seccomp_apply (c->plan);
  for (i = 0; i < 3 && c->nr[i] != 0; i++)
    {
      long r = syscall (c->nr[i]);

      printf ("%ld=%d;", c->nr[i], r < 0 ? errno : 0);
    }
  fflush (stdout);
  _exit (0);
}

static void
test_caller_filters (void)
{
  static int fds[3];
  static SbPlan plan; /* see test_rules_under */
  TestFdChild c = { &plan, false, { SYS_getppid, SYS_getpgrp, SYS_getpid } };
  TestChild res;
  char want[128];

  /* Two filters, as --add-seccomp-fd twice, plus the default profile. */
  fds[0] = test_filter_fd (SYS_getppid, EXDEV, 4, 0);
  fds[1] = test_filter_fd (SYS_getpgrp, ETXTBSY, BPF_MAXINSNS, 0);
  plan.seccomp_fds = fds;
  plan.n_seccomp_fds = 2;
  plan.seccomp_profile = "default";
  sb_seccomp_prepare (&plan);
  tap_ok (plan.seccomp_fds[0] == -1 && plan.seccomp_fds[1] == -1,
          "--add-seccomp-fd: prepare consumes the fds");

  test_child_run (test_fd_child, &c, &res);
  snprintf (want, sizeof want, "%d=%d;%d=%d;%d=0;", SYS_getppid, EXDEV,
            SYS_getpgrp, ETXTBSY, SYS_getpid);
  if (!tap_ok (test_child_exited (&res, 0) && strcmp (res.out, want) == 0,
               "--add-seccomp-fd twice: both filters installed, with the "
               "profile; other calls work"))
    tap_diag_text (res.out);

  /* What the caller hands in must be whole instructions. */
  {
    static const struct
    {
      size_t      len;
      size_t      cut;
      const char *message;
      const char *what;
    } bad[] = {
      { 4, 1, "is not a whole number of 8-byte instructions",
        "a length that is not a multiple of 8" },
      { 4, 32, "empty", "an empty fd" },
      { BPF_MAXINSNS + 1, 0, "longer than 4096 instructions",
        "more than BPF_MAXINSNS instructions" },
    };
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
      {
        SbPlan bad_plan = { 0 };
        TestFdChild bc = { &bad_plan, true, { 0 } };

        fds[0] = test_filter_fd (SYS_getppid, EXDEV, bad[i].len, bad[i].cut);
        bad_plan.seccomp_fds = fds;
        bad_plan.n_seccomp_fds = 1;
        bad_plan.has_seccomp_legacy = true;
        test_child_run (test_fd_child, &bc, &res);
        if (!tap_ok (test_child_exited (&res, 1)
                     && strncmp (res.out, "xdg-app-sandbox: seccomp filter "
                                 "from fd ", 32) == 0
                     && strstr (res.out, bad[i].message) != NULL
                     && strchr (res.out, '\n')
                        == res.out + strlen (res.out) - 1,
                     "--seccomp FD: %s fails in prepare with one line",
                     bad[i].what))
          tap_diag_text (res.out);
        close (fds[0]);
      }
  }

  /* A program the kernel rejects fails at apply, naming it. */
  {
    SbPlan bad_plan = { 0 };
    TestFdChild bc = { &bad_plan, true, { 0 } };
    struct sock_filter nonsense = { 0xffff, 0, 0, 0 };
    int p[2];

    if (pipe2 (p, O_CLOEXEC) != 0
        || write (p[1], &nonsense, sizeof nonsense) != sizeof nonsense)
      exit (2);
    close (p[1]);
    bad_plan.seccomp_fds = p;
    bad_plan.n_seccomp_fds = 1;
    test_child_run (test_fd_child, &bc, &res);
    if (!tap_ok (test_child_exited (&res, 1)
                 && strstr (res.out, "xdg-app-sandbox: install seccomp filter "
                            "from fd ") == res.out
                 && strstr (res.out, "Invalid argument") != NULL,
                 "--seccomp FD: invalid BPF fails at apply with one line"))
      tap_diag_text (res.out);
    close (p[0]);
  }

  /* Unknown profile, and apply without prepare. */
  {
    SbPlan bad_plan = { 0 };
    TestFdChild bc = { &bad_plan, true, { 0 } };

    bad_plan.seccomp_profile = "nope";
    test_child_run (test_fd_child, &bc, &res);
    if (!tap_ok (test_child_exited (&res, 1)
                 && strcmp (res.out, "xdg-app-sandbox: unknown seccomp "
                            "profile 'nope' (valid: default, devel)\n") == 0,
                 "--seccomp-profile nope fails with the valid names"))
      tap_diag_text (res.out);

    bc.prepare = false;
    bad_plan.seccomp_profile = "default";
    test_child_run (test_fd_child, &bc, &res);
    if (!tap_ok (test_child_exited (&res, 1)
                 && strstr (res.out, "not prepared") != NULL,
                 "apply without prepare fails rather than run unfiltered"))
      tap_diag_text (res.out);
  }
}

int
main (int    argc,
      char **argv)
{
  const char *probe = argc > 1 ? argv[1] : NULL;
  char probe_buf[PATH_MAX];
  ssize_t len;
  size_t i;

  if (argc == 2 && strcmp (argv[1], "--report-status") == 0)
    {
      test_print_own_status ();
      return 0;
    }

  len = readlink ("/proc/self/exe", test_self_exe, sizeof test_self_exe - 1);
  if (len <= 0)
    {
      perror ("readlink /proc/self/exe");
      return 2;
    }
  test_self_exe[len] = '\0';
  /* By default, the probe lives beside this test in the build tree. */
  if (probe == NULL)
    {
      char *slash = strrchr (test_self_exe, '/');

      snprintf (probe_buf, sizeof probe_buf, "%.*s/seccomp-probe",
                (int) (slash - test_self_exe), test_self_exe);
      probe = probe_buf;
    }

  printf ("# uid %u, euid %u\n", (unsigned) getuid (), (unsigned) geteuid ());
  test_caps_names ();
  test_caps_kept ();
  test_caps_drop ();
  test_table_shape ();
  for (i = 0; i < sizeof test_profiles / sizeof test_profiles[0]; i++)
    test_rules_under (test_profiles[i].bit, test_profiles[i].name);
  test_caller_filters ();
  test_probe (probe);

  printf ("1..%u\n", tap_n);
  return tap_failed == 0 ? 0 : 1;
}
