/* sandbox/monitor.c — the launcher's process outside the sandbox.
 *
 * It publishes the child's pid (--info-fd, --json-status-fd), lets the
 * child go on, forwards the signals it is sent to the sandbox and exits
 * with the command's status.  Enforces: it holds no descriptor the caller
 * gave the sandbox (so a pipe to the command sees EOF when the command
 * ends), and, with --die-with-parent, it does not outlive its parent.
 * Trusts: the kernel's pid and signal information. */
#include "sandbox/monitor.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/fds.h"
#include "sandbox/status.h"

void
sb_monitor_forwarded_signals (sigset_t *set)
{
  sigemptyset (set);
  sigaddset (set, SIGHUP);
  sigaddset (set, SIGINT);
  sigaddset (set, SIGQUIT);
  sigaddset (set, SIGTERM);
  sigaddset (set, SIGUSR1);
  sigaddset (set, SIGUSR2);
}

void
sb_monitor_block_signals (SbLink *link)
{
  sigset_t set;
  struct sigaction dfl = { .sa_handler = SIG_DFL };

  /* A caller that ignores SIGCHLD would make waitpid useless. */
  (void) sigaction (SIGCHLD, &dfl, NULL);
  sb_monitor_forwarded_signals (&set);
  sigaddset (&set, SIGCHLD);
  if (sigprocmask (SIG_BLOCK, &set, &link->caller_mask) < 0)
    sb_die_errno ("block signals");
}

int
sb_monitor_exit_code (int wait_status)
{
  if (WIFEXITED (wait_status))
    return WEXITSTATUS (wait_status);
  if (WIFSIGNALED (wait_status))
    return 128 + WTERMSIG (wait_status);
  return 255;
}

/* A signal is passed on when someone sent it to the launcher with kill();
 * one the terminal sent to the whole foreground process group reached the
 * command already, unless --new-session took it out of that group. */
static bool
sb_monitor_should_forward (const SbPlan *plan, const struct signalfd_siginfo *si)
{
  if (si->ssi_signo == SIGCHLD)
    return false;
  return plan->new_session || (int32_t) si->ssi_code <= 0;
}

/* With --json-status-fd the exit code is reported only if the command
 * really started: the setup pipe carried one byte and then closed on exec. */
static void
sb_monitor_report_exit (SbPlan *plan, SbLink *link, int exit_code)
{
  char data[2];
  ssize_t n;

  if (link->setup_read == -1)
    return;
  do
    n = read (link->setup_read, data, sizeof data);
  while (n < 0 && errno == EINTR);
  if (n == 1)
    sb_status_report_exit (plan, exit_code);
}

static void
sb_monitor_release_child (SbPlan *plan, SbLink *link)
{
  sb_status_report_start (plan, link->sandbox_pid);

  if (plan->userns_block_fd != -1)
    {
      char c;
      ssize_t n;

      do
        n = read (plan->userns_block_fd, &c, 1);
      while (n < 0 && errno == EINTR);
      (void) close (plan->userns_block_fd);
      plan->userns_block_fd = -1;
    }
  if (link->go_write != -1)
    {
      /* The child may already be gone; its status tells then. */
      (void) write (link->go_write, "g", 1);
      (void) close (link->go_write);
      link->go_write = -1;
    }
}

int
sb_monitor_run (SbPlan *plan, SbLink *link, pid_t child)
{
  const int keep[] = { link->exit_event, link->setup_read, plan->json_status_fd };
  sigset_t set;
  sb_autofd int sfd = -1;
  struct pollfd pfd[2];
  pid_t parent = getppid ();

  if (plan->die_with_parent)
    {
      if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        sb_die_errno ("prctl (PR_SET_PDEATHSIG)");
      if (getppid () != parent)
        _exit (SB_EXIT_SETUP_FAILED);
    }

  sb_monitor_release_child (plan, link);
  sb_fds_close_except (keep, sizeof keep / sizeof keep[0]);

  sb_monitor_forwarded_signals (&set);
  sigaddset (&set, SIGCHLD);
  sfd = signalfd (-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0)
    sb_die_errno ("signalfd");

  pfd[0] = (struct pollfd) { .fd = sfd, .events = POLLIN };
  pfd[1] = (struct pollfd) { .fd = link->exit_event, .events = POLLIN };

  for (;;)
    {
      struct signalfd_siginfo si;
      uint64_t val;
      int status;

      if (poll (pfd, link->exit_event != -1 ? 2 : 1, -1) < 0 && errno != EINTR)
        sb_die_errno ("poll");

      /* The command's own exit first: when it ends, pid 1 usually ends
       * right after, and its status is not the one to report. */
      if (link->exit_event != -1 && read (link->exit_event, &val, sizeof val) == sizeof val)
        {
          int code = (int) val - 1;

          sb_monitor_report_exit (plan, link, code);
          return code;
        }

      while (read (sfd, &si, sizeof si) == sizeof si)
        if (sb_monitor_should_forward (plan, &si))
          (void) kill (link->sandbox_pid, (int) si.ssi_signo);

      while (waitpid (child, &status, WNOHANG) == child)
        {
          int code;

          /* pid 1 may have written the command's status just before it
           * exited: that one wins. */
          if (link->exit_event != -1 && read (link->exit_event, &val, sizeof val) == sizeof val)
            code = (int) val - 1;
          else
            code = sb_monitor_exit_code (status);
          sb_monitor_report_exit (plan, link, code);
          return code;
        }
    }
}
