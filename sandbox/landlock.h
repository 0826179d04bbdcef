/* sandbox/landlock.h — the Landlock step: scopes the command away from the
 * host's abstract unix sockets and processes, and keeps its file access to
 * the sandbox's view (`--scope-abstract-unix-sockets`, `--scope-signals`,
 * `--landlock-fs`).  sandbox/landlock.c says what each one enforces. */
#pragma once

#include "sandbox/plan.h"

/* Before the first namespace: finds the kernel's Landlock ABI (capped by
 * --landlock-abi-max), and decides what of plan->landlock_wanted can be
 * enforced: fills plan->landlock_abi and plan->landlock_applied.  Dies with
 * one line naming the ABI needed and the one found when something asked
 * for is missing, unless --landlock-best-effort. */
void sb_landlock_prepare (SbPlan *plan);

/* After the mounts and sb_caps_drop_all (which sets no_new_privs), before
 * seccomp: puts the calling process in a new Landlock domain enforcing
 * plan->landlock_applied.  Does nothing if that is empty.  Dies on
 * failure: the command never runs with less than was decided. */
void sb_landlock_apply (const SbPlan *plan);

/* The name of one SbLandlockFeature bit, as --info-fd reports it
 * ("scope-abstract-unix-sockets", "fs"…), or NULL for an unknown bit. */
const char *sb_landlock_feature_name (unsigned int feature);
