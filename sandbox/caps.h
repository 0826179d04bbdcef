/* sandbox/caps.h — capabilities and no_new_privs. */
#pragma once

#include "sandbox/plan.h"

/* Parses "CAP_NET_RAW", "cap_net_raw" or "ALL".  Returns the capability
 * number, SB_CAP_ALL for "ALL", or -1 if the name is unknown. */
#define SB_CAP_ALL 64
int         sb_caps_parse (const char *name);
/* "CAP_SYS_ADMIN" for 21; NULL if unknown. */
const char *sb_caps_name  (int cap);

/* The capabilities the sandboxed command keeps: plan->caps_add (all if
 * caps_add_all) minus plan->caps_drop, limited to what the kernel knows. */
SbCapSet    sb_caps_kept  (const SbPlan *plan);

/* Run in the process that will exec the command, after the mounts: shrinks
 * the bounding, inheritable, permitted, effective and ambient sets to
 * sb_caps_kept(), and sets PR_SET_NO_NEW_PRIVS.  Dies on failure. */
void        sb_caps_drop_all (const SbPlan *plan);

/* Drops every capability (bounding set included) for a helper process
 * that never execs, such as the pid-1 reaper. */
void        sb_caps_drop_everything (void);
