/* sandbox/link.h — SbLink, the descriptors that tie the three processes of
 * a sandbox together: the monitor (the launcher as the caller started it,
 * outside every new namespace), pid 1 of the sandbox (the reaper, or the
 * command itself with --as-pid-1 or without a pid namespace) and the
 * command.  Every fd here is O_CLOEXEC; none reaches the command. */
#pragma once

#include <signal.h>

typedef struct
{
  /* Monitor → sandbox: "go on", written once the monitor has published
   * the child's pid and the caller has released --userns-block-fd.
   * -1 when nothing needs to wait for the monitor. */
  int go_read;
  int go_write;
  /* Reaper → monitor: the command's exit code + 1, as an eventfd, written
   * when the command (not the whole sandbox) ends. -1 without a reaper. */
  int exit_event;
  /* Command → monitor, only with --json-status-fd: one byte before exec; the
   * pipe then closes on exec, so "one byte, then EOF" means the command
   * started and its exit code is worth reporting. */
  int setup_read;
  int setup_write;
  /* A pidfd of the monitor, only with --die-with-parent: in a new pid
   * namespace getppid() says 0, so the child polls this instead to see
   * whether the monitor died before PR_SET_PDEATHSIG was in place. */
  int monitor_pidfd;
  /* With --pidns the sandbox's first process is a grandchild of the
   * monitor and reports its pid over this socket pair (SCM_CREDENTIALS);
   * -1 otherwise. */
  int pid_read;
  int pid_write;
  /* The sandbox's first process as the monitor sees it: the monitor's
   * child, or with --pidns that grandchild.  It is what --info-fd
   * reports and what forwarded signals go to. */
  pid_t sandbox_pid;
  /* The host's /proc, in the child until sb_namespaces_finish: the id
   * maps of the nested user namespace are written after the pivot. */
  int proc_fd;
  /* The signal mask the launcher was started with: the monitor blocks
   * the signals it forwards before the clone, and the command gets the
   * original mask back at exec. */
  sigset_t caller_mask;
} SbLink;
