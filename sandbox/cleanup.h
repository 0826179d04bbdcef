/* sandbox/cleanup.h — scope-bound cleanup for the launcher, which links no
 * GLib: sb_autofree frees a heap pointer, sb_autofd closes a descriptor when
 * the variable leaves scope.  Ownership leaves with sb_steal_pointer /
 * sb_steal_fd. */
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static inline void
sb_cleanup_free (void *p)
{
  free (*(void **) p);
}

static inline void
sb_cleanup_close (int *fd)
{
  if (*fd >= 0)
    {
      int saved = errno;
      (void) close (*fd);
      errno = saved;
    }
}

#define sb_autofree __attribute__ ((cleanup (sb_cleanup_free)))
#define sb_autofd   __attribute__ ((cleanup (sb_cleanup_close)))

static inline void *
sb_steal_pointer_impl (void *pp)
{
  void **p = pp;
  void *v = *p;
  *p = NULL;
  return v;
}
#define sb_steal_pointer(pp) ((__typeof__ (*(pp))) sb_steal_pointer_impl (pp))

static inline int
sb_steal_fd (int *fd)
{
  int v = *fd;
  *fd = -1;
  return v;
}
