/* sandbox/fds.h — which inherited descriptors reach the command. */
#pragma once

#include <stddef.h>

#include "sandbox/plan.h"

/* With --close-fds, closes every fd but 0, 1, 2, the --keep-fd ones and
 * `also_keep` (the launcher's own, O_CLOEXEC; -1 for none),
 * so that no directory or socket the caller leaked reaches the command
 * (an inherited directory fd reaches the host file system with
 * openat (fd, ".."): CVE-2024-21626 in runc).
 * Without it, inherited fds pass through, as with bubblewrap. */
void sb_fds_close_unlisted (const SbPlan *plan, int also_keep);

/* Closes every fd >= 3 except those in keep[0..n_keep). */
void sb_fds_close_except (const int *keep, size_t n_keep);
