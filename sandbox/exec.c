/* sandbox/exec.c — runs the command.  Trusts: the plan; the command's
 * environment is the caller's, edited as the plan says. */
#include "sandbox/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sandbox/die.h"

static void
sb_env_apply (const SbPlan *plan)
{
  for (size_t i = 0; i < plan->n_env_ops; i++)
    {
      const SbEnvOp *e = &plan->env_ops[i];

      switch (e->kind)
        {
        case SB_ENV_SET:
          if (setenv (e->name, e->value, 1) < 0)
            sb_die_errno ("setenv '%s'", e->name);
          break;
        case SB_ENV_UNSET:
          if (unsetenv (e->name) < 0)
            sb_die_errno ("unsetenv '%s'", e->name);
          break;
        case SB_ENV_CLEAR:
          if (clearenv () != 0)
            sb_die ("clearenv failed");
          break;
        default:
          sb_die ("unknown environment operation %d", (int) e->kind);
        }
    }
}

void
sb_exec_prepare (const SbPlan *plan, const char *caller_cwd)
{
  const char *cwd = "/";
  const char *home;

  if (plan->block_fd != -1)
    {
      char c;
      ssize_t n;

      do
        n = read (plan->block_fd, &c, 1);
      while (n < 0 && errno == EINTR);
      (void) close (plan->block_fd);
    }

  sb_env_apply (plan);

  home = getenv ("HOME");
  if (plan->chdir_path != NULL)
    {
      if (chdir (plan->chdir_path) < 0)
        sb_die_errno ("chdir '%s'", plan->chdir_path);
      cwd = plan->chdir_path;
    }
  else if (caller_cwd != NULL && chdir (caller_cwd) == 0)
    cwd = caller_cwd;
  else if (home != NULL && chdir (home) == 0)
    cwd = home;
  else if (chdir ("/") < 0)
    sb_die_errno ("chdir '/'");
  if (setenv ("PWD", cwd, 1) < 0)
    sb_die_errno ("setenv 'PWD'");
}

/* --exec-label: the kernel interface libselinux's setexeccon() uses.
 * Without SELinux there is nothing to label, and bubblewrap ignores it
 * too. */
static void
sb_exec_label (const char *label)
{
  int fd;
  size_t len;

  if (label == NULL || access ("/sys/fs/selinux/enforce", F_OK) != 0)
    return;
  fd = open ("/proc/thread-self/attr/exec", O_WRONLY | O_CLOEXEC);
  len = strlen (label);
  if (fd < 0 || write (fd, label, len) != (ssize_t) len)
    sb_die_errno ("set exec label '%s'", label);
  (void) close (fd);
}

void
sb_exec (const SbPlan *plan, SbLink *link)
{
  const char *path = plan->argv[0];

  if (plan->die_with_parent && prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
    sb_die_errno ("prctl (PR_SET_PDEATHSIG)");
  if (sigprocmask (SIG_SETMASK, &link->caller_mask, NULL) < 0)
    sb_die_errno ("restore the signal mask");

  sb_exec_label (plan->exec_label);
  if (link->setup_write != -1)
    (void) write (link->setup_write, "", 1);

  if (plan->argv0 != NULL)
    plan->argv[0] = (char *) plan->argv0;
  execvp (path, plan->argv);

  /* A second byte tells the monitor the command never started. */
  if (link->setup_write != -1)
    {
      int errsv = errno;

      (void) write (link->setup_write, "", 1);
      errno = errsv;
    }
  sb_die_errno ("execvp '%s'", path);
}
