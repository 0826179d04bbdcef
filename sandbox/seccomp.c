/* sandbox/seccomp.c — the seccomp step: installs the plan's profile
 * (`--seccomp-profile NAME`, see sandbox/seccomp-profile.c for what it
 * refuses and why) and the caller's own filters (`--seccomp FD`,
 * `--add-seccomp-fd FD`), as the last step before exec.
 *
 * Enforces: every filter the plan names is installed, or the launcher dies
 * before exec; the command never runs with fewer filters than asked for.
 * Seccomp filters only add restrictions, so a caller's filter cannot undo
 * the profile.
 *
 * Trusts: the caller for the content of its filters (bubblewrap's contract:
 * a classic BPF program, the whole of the fd, 8 bytes per instruction); the
 * kernel to validate them when they are installed; the build, for the
 * profiles (compiled from sandbox/seccomp-profile.c's table by
 * sandbox/seccomp-gen, checked against the kernel by the tests).  No
 * libseccomp here: the apply step only hands finished programs to
 * seccomp(2). */
#include "sandbox/seccomp.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/seccomp-compiled.h"

/* One program to install. */
typedef struct
{
  const struct sock_filter *insns;
  size_t                    len;   /* instructions */
  char                     *what;  /* for messages: "profile 'default'" */
} SbSeccompProgram;

/* What sb_seccomp_prepare leaves in the plan: the programs, in the order
 * they are installed (the profile first, then the caller's, in plan order,
 * so that a caller's filter that forbids seccomp(2) cannot keep ours out). */
struct SbSeccompPrepared
{
  SbSeccompProgram *programs;
  size_t            n_programs;
};

/* The kernel refuses longer programs (BPF_MAXINSNS). */
#define SB_SECCOMP_MAX_BYTES (BPF_MAXINSNS * sizeof (struct sock_filter))

static const SbSeccompCompiled *
sb_seccomp_compiled_lookup (const char *name)
{
  for (const SbSeccompCompiled *c = sb_seccomp_compiled; c->name != NULL; c++)
    if (strcmp (c->name, name) == 0)
      return c;
  return NULL;
}

bool
sb_seccomp_profile_exists (const char *name)
{
  return sb_seccomp_compiled_lookup (name) != NULL;
}

const char *
sb_seccomp_profile_names (void)
{
  static char names[128];

  if (names[0] == '\0')
    for (const SbSeccompCompiled *c = sb_seccomp_compiled; c->name != NULL; c++)
      {
        if (c != sb_seccomp_compiled)
          strncat (names, ", ", sizeof names - strlen (names) - 1);
        strncat (names, c->name, sizeof names - strlen (names) - 1);
      }
  return names;
}

/* Reads the whole of FD, as bubblewrap does, and checks that it is a
 * plausible BPF program: 1 to BPF_MAXINSNS whole instructions. */
static struct sock_filter *
sb_seccomp_read_fd (int     fd,
                    size_t *out_len)
{
  /* One byte more than allowed, to tell "too long" from "just fits". */
  sb_autofree char *buf = sb_xmalloc (SB_SECCOMP_MAX_BYTES + 1);
  size_t done = 0;

  while (done <= SB_SECCOMP_MAX_BYTES)
    {
      ssize_t n = read (fd, buf + done, SB_SECCOMP_MAX_BYTES + 1 - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        sb_die_errno ("read seccomp filter from fd %d", fd);
      if (n == 0)
        break;
      done += n;
    }

  if (done > SB_SECCOMP_MAX_BYTES)
    sb_die ("seccomp filter from fd %d: longer than %d instructions",
            fd, BPF_MAXINSNS);
  if (done == 0)
    sb_die ("seccomp filter from fd %d: empty", fd);
  if (done % sizeof (struct sock_filter) != 0)
    sb_die ("seccomp filter from fd %d: %zu bytes is not a whole number "
            "of %zu-byte instructions", fd, done,
            sizeof (struct sock_filter));

  *out_len = done / sizeof (struct sock_filter);
  return (struct sock_filter *) sb_steal_pointer (&buf);
}

void
sb_seccomp_prepare (SbPlan *plan)
{
  struct SbSeccompPrepared *prep;
  size_t n_max = plan->n_seccomp_fds + (plan->seccomp_profile != NULL);
  size_t i;

  if (plan->seccomp_prepared != NULL)
    sb_die ("seccomp: filters prepared twice");

  prep = sb_xcalloc (1, sizeof *prep);
  prep->programs = sb_xcalloc (n_max, sizeof *prep->programs);

  if (plan->seccomp_profile != NULL)
    {
      const SbSeccompCompiled *profile = sb_seccomp_compiled_lookup (plan->seccomp_profile);
      SbSeccompProgram *prog = &prep->programs[prep->n_programs++];

      if (profile == NULL)
        sb_die ("unknown seccomp profile '%s' (valid: %s)",
                plan->seccomp_profile, sb_seccomp_profile_names ());
      prog->insns = profile->insns;
      prog->len = profile->len;
      prog->what = sb_xasprintf ("profile '%s'", plan->seccomp_profile);
    }

  for (i = 0; i < plan->n_seccomp_fds; i++)
    {
      SbSeccompProgram *prog = &prep->programs[prep->n_programs++];
      int fd = plan->seccomp_fds[i];

      prog->insns = sb_seccomp_read_fd (fd, &prog->len);
      prog->what = sb_xasprintf ("filter from fd %d", fd);
      /* Consumed: later steps must neither use nor pass it on. */
      (void) close (fd);
      plan->seccomp_fds[i] = -1;
    }

  plan->seccomp_prepared = prep;
}

static void
sb_seccomp_install (const SbSeccompProgram *prog)
{
  struct sock_fprog fprog = {
    .len = (unsigned short) prog->len,
    /* The kernel only reads the program; sock_fprog predates const. */
    .filter = (struct sock_filter *) prog->insns,
  };

  if (syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0)
    return;
  /* Kernels before 3.17 have only the prctl. */
  if (errno == ENOSYS
      && prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) == 0)
    return;
  sb_die_errno ("install seccomp %s", prog->what);
}

void
sb_seccomp_apply (const SbPlan *plan)
{
  const struct SbSeccompPrepared *prep = plan->seccomp_prepared;
  size_t i;

  if (prep == NULL)
    {
      if (plan->seccomp_profile != NULL || plan->n_seccomp_fds > 0)
        sb_die ("seccomp: filters were not prepared before apply");
      return;
    }

  for (i = 0; i < prep->n_programs; i++)
    sb_seccomp_install (&prep->programs[i]);
}
