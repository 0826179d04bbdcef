/* sandbox/monitor.h — the launcher's process outside the sandbox. */
#pragma once

#include <sys/types.h>

#include "sandbox/link.h"
#include "sandbox/plan.h"

/* Blocks the signals the monitor forwards, saving the caller's mask in
 * link->caller_mask.  Called before the clone, so that no signal is lost
 * between the clone and the monitor's loop. */
void sb_monitor_block_signals (SbLink *link);

/* The monitor: reports the child's pid, releases it, forwards signals to
 * it and waits.  Returns the command's exit status as bubblewrap does: its
 * exit code, or 128 + the signal that killed it. */
int  sb_monitor_run (SbPlan *plan, SbLink *link, pid_t child);

/* The signals the monitor and the reaper pass on to the command. */
void sb_monitor_forwarded_signals (sigset_t *set);

/* WIFEXITED → code, WIFSIGNALED → 128 + signal, as a shell reports it. */
int  sb_monitor_exit_code (int wait_status);
