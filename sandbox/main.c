/* sandbox/main.c — xdg-app-sandbox: builds a sandbox from a complete plan
 * given on the command line (bubblewrap's options) and runs a command in it.
 *
 * Enforces: it never runs with privileges it was given by exec (setuid,
 * setgid or file capabilities are refused, not dropped); the plan is read
 * and checked in full before the first namespace is made; then fixed
 * steps run in a fixed order, each in a file of its own, and each either
 * succeeds or ends the launcher with one line naming the step.  Trusts:
 * the kernel.  Decides nothing: what the sandbox may do is in the plan. */
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "sandbox/caps.h"
#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/exec.h"
#include "sandbox/fds.h"
#include "sandbox/landlock.h"
#include "sandbox/link.h"
#include "sandbox/monitor.h"
#include "sandbox/mounts.h"
#include "sandbox/namespaces.h"
#include "sandbox/plan.h"
#include "sandbox/reaper.h"
#include "sandbox/seccomp.h"

/* A setuid launcher turns every option into a way to attack root
 * (CVE-2017-5226 and bubblewrap's long list of setuid-mode fixes); this
 * one needs no privilege, so it accepts none. */
static void
sb_refuse_setuid (void)
{
  if (getauxval (AT_SECURE) != 0 || getuid () != geteuid () || getgid () != getegid ())
    sb_die ("refusing to run setuid, setgid or with file capabilities; "
            "it needs none: remove the bit (chmod u-s,g-s) or the capabilities (setcap -r)");
}

int
main (int argc, char **argv)
{
  /* Static: the plan lives as long as the process, and stays reachable
   * for leak checkers when the monitor returns from main. */
  static SbPlan plan;
  SbLink link;
  sb_autofree char *cwd = NULL;
  sb_autofree int *lock_fds = NULL;
  size_t n_lock_fds;
  pid_t child;

  sb_refuse_setuid ();
  sb_plan_parse (&plan, argc, argv);      /* reads and checks everything first */
  sb_landlock_prepare (&plan);            /* the kernel's Landlock ABI is enough */
  sb_seccomp_prepare (&plan);             /* filters compiled before any namespace */
  cwd = getcwd (NULL, 0);

  sb_monitor_block_signals (&link);
  child = sb_namespaces_enter (&plan, &link);
  if (child > 0)
    return sb_monitor_run (&plan, &link, child);

  sb_mounts_apply (&plan);
  sb_namespaces_finish (&plan, &link);           /* nested user namespace, --disable-userns */
  n_lock_fds = sb_mounts_take_locks (&plan, &lock_fds);
  sb_exec_prepare (&plan, cwd);
  if (plan.new_session && setsid () < 0)
    sb_die_errno ("setsid");
  sb_reaper_start (&plan, &link, lock_fds, n_lock_fds);

  sb_fds_close_unlisted (&plan, link.setup_write);
  sb_caps_drop_all (&plan);               /* and sets no_new_privs */
  sb_landlock_apply (&plan);              /* abstract sockets, signals, fs view */
  sb_seccomp_apply (&plan);               /* last: it may forbid setup syscalls */
  sb_exec (&plan, &link);                 /* does not return */
}
