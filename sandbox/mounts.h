/* sandbox/mounts.h — builds the sandbox's file system view.
 *
 * Runs in the new mount namespace with the capabilities of the (possibly
 * new) user namespace.  Makes the host's mounts slaves so nothing
 * propagates back to the host, builds the new root on a tmpfs, runs the
 * plan's setup operations in order with sources resolved on the host and
 * destinations inside the new root, then pivots into it and detaches every
 * host mount.  Dies with one line naming the operation, the path and the
 * errno text. */
#pragma once

#include "sandbox/plan.h"

void sb_mounts_apply (const SbPlan *plan);

/* After sb_mounts_apply: opens and read-locks every --lock-file DEST.
 * Returns the number of descriptors stored in out_fds (allocated), which
 * the pid-1 reaper keeps for the life of the sandbox. */
size_t sb_mounts_take_locks (const SbPlan *plan, int **out_fds);
