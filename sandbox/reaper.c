/* sandbox/reaper.c — pid 1 of the sandbox.
 *
 * Reaps every process the command leaves behind (nothing else would in a
 * new pid namespace), tells the monitor the command's exit status as soon
 * as the command ends, passes on the signals the monitor forwards, and
 * exits when the last process of the sandbox is gone.  It holds the
 * --lock-file locks and the --sync-fd for the sandbox's lifetime.
 * Enforces: it keeps no capability and runs under the same seccomp
 * filters as the command, so a process in the sandbox that gets hold of
 * it gains nothing.  Trusts: nothing from inside the sandbox. */
#include "sandbox/reaper.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/caps.h"
#include "sandbox/die.h"
#include "sandbox/fds.h"
#include "sandbox/monitor.h"
#include "sandbox/seccomp.h"

static bool
sb_reaper_needed (const SbPlan *plan, size_t n_lock_fds)
{
  if (plan->as_pid_1)
    return false;
  return plan->unshare_pid || n_lock_fds > 0 || plan->sync_fd != -1;
}

static void
sb_reaper_notify (const SbLink *link, int code)
{
  uint64_t val = (uint64_t) code + 1;

  /* The monitor may be gone; nothing to do about it then. */
  if (link->exit_event != -1)
    (void) write (link->exit_event, &val, sizeof val);
}

__attribute__ ((noreturn)) static void
sb_reaper_loop (const SbLink *link, pid_t command)
{
  sigset_t set;
  int sfd;
  int code = SB_EXIT_SETUP_FAILED;

  sb_monitor_forwarded_signals (&set);
  sigaddset (&set, SIGCHLD);
  sfd = signalfd (-1, &set, SFD_CLOEXEC);
  if (sfd < 0)
    sb_die_errno ("reaper: signalfd");

  for (;;)
    {
      struct signalfd_siginfo si;
      ssize_t n = read (sfd, &si, sizeof si);
      pid_t pid;
      int status;

      if (n < 0 && errno == EINTR)
        continue;
      if (n != sizeof si)
        sb_die_errno ("reaper: read signalfd");

      /* Only what the monitor sent with kill(): a process inside the
       * sandbox signalling pid 1 is passed on too, which gives it nothing
       * it could not do to the command directly. */
      if (si.ssi_signo != SIGCHLD)
        {
          if ((int32_t) si.ssi_code <= 0 && command > 0)
            (void) kill (command, (int) si.ssi_signo);
          continue;
        }

      while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
        if (pid == command)
          {
            code = sb_monitor_exit_code (status);
            sb_reaper_notify (link, code);
            command = 0;
          }
      if (pid < 0 && errno == ECHILD)
        _exit (code);
    }
}

void
sb_reaper_start (const SbPlan *plan, SbLink *link,
                 const int *lock_fds, size_t n_lock_fds)
{
  pid_t command;

  if (!sb_reaper_needed (plan, n_lock_fds))
    return;

  command = fork ();
  if (command < 0)
    sb_die_errno ("fork the command");
  if (command == 0)
    {
      if (plan->sync_fd != -1)
        (void) close (plan->sync_fd);
      for (size_t i = 0; i < n_lock_fds; i++)
        (void) close (lock_fds[i]);
      return;
    }

  /* The reaper keeps its locks, the sync fd and the link to the monitor,
   * nothing else: the command's fds are the command's. */
  {
    int *keep = sb_xcalloc (n_lock_fds + 2, sizeof *keep);

    for (size_t i = 0; i < n_lock_fds; i++)
      keep[i] = lock_fds[i];
    keep[n_lock_fds] = plan->sync_fd;
    keep[n_lock_fds + 1] = link->exit_event;
    sb_fds_close_except (keep, n_lock_fds + 2);
    free (keep);
  }

  if (plan->die_with_parent && prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
    sb_die_errno ("reaper: prctl (PR_SET_PDEATHSIG)");
  sb_caps_drop_everything ();
  sb_seccomp_apply (plan);
  sb_reaper_loop (link, command);
}
