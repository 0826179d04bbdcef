/* sandbox/status.h — what the launcher tells its caller about a running
 * sandbox: the --info-fd document and the --json-status-fd stream, in
 * bubblewrap's format. */
#pragma once

#include <sys/types.h>

#include "sandbox/plan.h"

/* {"child-pid": N, "<ns>-namespace": INODE…} on --info-fd (then closed)
 * and on --json-status-fd, plus, when any Landlock option is used,
 * "landlock-abi": N, "landlock-applied": [NAME…] and "landlock-skipped":
 * [NAME…] (names from sb_landlock_feature_name).  Dies if --info-fd
 * cannot be written. */
void sb_status_report_start (SbPlan *plan, pid_t child);

/* {"exit-code": N} on --json-status-fd, then closes it. */
void sb_status_report_exit (SbPlan *plan, int exit_code);
