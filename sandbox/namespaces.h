/* sandbox/namespaces.h — entering the sandbox's namespaces. */
#pragma once

#include <sys/types.h>

#include "sandbox/link.h"
#include "sandbox/plan.h"

/* Creates the sandbox's first process in new namespaces (clone) and
 * prepares the link descriptors.  Returns the child's pid in the caller
 * (which then becomes the monitor) and 0 in the child, which has by then
 * written its uid/gid maps, brought up `lo` in a new network namespace and
 * set the hostname.  Dies on failure. */
pid_t sb_namespaces_enter (SbPlan *plan, SbLink *link);

/* In the child, after sb_mounts_apply: the steps that need the new root
 * in place — the nested user namespace (the final uid/gid mapping, and
 * --disable-userns), --userns2, --assert-userns-disabled.  Dies on
 * failure. */
void sb_namespaces_finish (const SbPlan *plan, SbLink *link);
