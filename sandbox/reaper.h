/* sandbox/reaper.h — pid 1 of the sandbox, when the command is not. */
#pragma once

#include <stddef.h>

#include "sandbox/link.h"
#include "sandbox/plan.h"

/* If the sandbox needs a pid 1 of its own (a new pid namespace without
 * --as-pid-1, or lock files or a --sync-fd to hold), forks: the child
 * returns and goes on to exec the command; the parent becomes the reaper
 * and never returns.  `lock_fds` are held by the reaper and closed in the
 * command. */
void sb_reaper_start (const SbPlan *plan, SbLink *link,
                      const int *lock_fds, size_t n_lock_fds);
