/* sandbox/seccomp.h — the seccomp step: the project's profiles (one table,
 * a reason per row) and filters handed in by the caller (--seccomp FD,
 * --add-seccomp-fd FD, compiled BPF as bubblewrap takes it). */
#pragma once

#include <stdbool.h>

#include "sandbox/plan.h"

/* True if NAME is a known --seccomp-profile. */
bool        sb_seccomp_profile_exists (const char *name);
/* "default, devel": for the error that lists the valid names. */
const char *sb_seccomp_profile_names (void);

/* Reads every caller filter fd and, if a profile is named, finds it, all
 * before the first namespace is made, so a bad filter fails early.  The
 * fds are closed.  Dies on failure. */
void        sb_seccomp_prepare (SbPlan *plan);

/* Installs the prepared filters.  Last step before exec: no_new_privs is
 * already set.  Dies on failure. */
void        sb_seccomp_apply (const SbPlan *plan);
