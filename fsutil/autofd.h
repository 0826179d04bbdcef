/* fsutil/autofd.h — a file descriptor that closes itself when its variable
 * leaves scope.  GLib 2.74 (Debian 12) has no g_autofd: it arrived in 2.76.
 *
 *   xa_autofd int fd = openat (dfd, name, O_RDONLY | O_CLOEXEC);
 *   g_auto(XaAutoFd) fd = open (path, O_RDONLY | O_CLOEXEC);
 *
 * Ownership leaves only through g_steal_fd (GLib 2.70).  Closing keeps
 * errno, so an error path can still report the errno that sent it there. */
#pragma once

#include <errno.h>
#include <unistd.h>

#include <glib.h>

G_BEGIN_DECLS

typedef int XaAutoFd;

static inline void
xa_autofd_close (int fd)
{
  int saved = errno;

  (void) close (fd);
  errno = saved;
}

static inline void
xa_autofd_cleanup (int *fd)
{
  if (*fd >= 0)
    xa_autofd_close (*fd);
}

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (XaAutoFd, xa_autofd_close, -1)

#define xa_autofd __attribute__ ((cleanup (xa_autofd_cleanup)))

G_END_DECLS
