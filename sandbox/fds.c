/* sandbox/fds.c — closing inherited descriptors.  Enforces: with
 * --close-fds, the command holds only 0, 1, 2 and the fds the plan names
 * with --keep-fd.  Trusts: nothing about what the caller left open. */
#include "sandbox/fds.h"

#include <linux/close_range.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"

static int
sb_int_cmp (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

static void
sb_close_range (unsigned int first, unsigned int last)
{
  if (first > last)
    return;
  if (syscall (SYS_close_range, first, last, 0) < 0)
    {
      /* Kernels before 5.9: one by one, up to the fd limit. */
      long max = sysconf (_SC_OPEN_MAX);

      for (long fd = first; fd <= (long) last && fd < max; fd++)
        (void) close ((int) fd);
    }
}

void
sb_fds_close_except (const int *keep, size_t n_keep)
{
  sb_autofree int *sorted = sb_xcalloc (n_keep + 1, sizeof *sorted);
  unsigned int next = 3;

  for (size_t i = 0; i < n_keep; i++)
    sorted[i] = keep[i];
  qsort (sorted, n_keep, sizeof *sorted, sb_int_cmp);
  for (size_t i = 0; i < n_keep; i++)
    {
      if (sorted[i] < (int) next)
        continue;
      sb_close_range (next, (unsigned int) sorted[i] - 1);
      next = (unsigned int) sorted[i] + 1;
    }
  sb_close_range (next, ~0U);
}

void
sb_fds_close_unlisted (const SbPlan *plan, int also_keep)
{
  sb_autofree int *keep = NULL;

  if (!plan->close_fds)
    return;
  keep = sb_xcalloc (plan->n_keep_fds + 1, sizeof *keep);
  for (size_t i = 0; i < plan->n_keep_fds; i++)
    keep[i] = plan->keep_fds[i];
  keep[plan->n_keep_fds] = also_keep;
  sb_fds_close_except (keep, plan->n_keep_fds + 1);
}
