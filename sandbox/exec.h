/* sandbox/exec.h — the last step: the command's environment, working
 * directory and session, then execvp. */
#pragma once

#include "sandbox/link.h"
#include "sandbox/plan.h"

/* Before the capabilities go: waits for --block-fd, applies the
 * environment edits, changes directory (--chdir, else the caller's
 * directory if the sandbox has it, else $HOME, else /) and sets PWD. */
void sb_exec_prepare (const SbPlan *plan, const char *caller_cwd);

/* Restores the caller's signal mask, tells the monitor setup is done
 * (--json-status-fd) and execs the command.  Does not return. */
__attribute__ ((noreturn))
void sb_exec (const SbPlan *plan, SbLink *link);
