/* tests/fsutil/test-autofd.c — xa_autofd and g_auto(XaAutoFd) close their
 * descriptor at the end of the scope, and g_steal_fd() takes it out. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>

#include "fsutil/autofd.h"

static gboolean
is_open (int fd)
{
  return fcntl (fd, F_GETFD) >= 0;
}

static void
test_closes_at_end_of_scope (void)
{
  int seen;

  {
    xa_autofd int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

    g_assert_cmpint (fd, >=, 0);
    seen = fd;
    g_assert_true (is_open (seen));
  }
  g_assert_false (is_open (seen));
}

static void
test_g_auto_closes_at_end_of_scope (void)
{
  int seen;

  {
    g_auto(XaAutoFd) fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

    g_assert_cmpint (fd, >=, 0);
    seen = fd;
  }
  g_assert_false (is_open (seen));
}

static void
test_stolen_fd_stays_open (void)
{
  int kept;

  {
    xa_autofd int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

    kept = g_steal_fd (&fd);
    g_assert_cmpint (fd, ==, -1);
  }
  g_assert_true (is_open (kept));
  g_assert_cmpint (close (kept), ==, 0);
}

static void
test_close_keeps_errno (void)
{
  {
    xa_autofd int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

    g_assert_cmpint (fd, >=, 0);
    errno = ENOENT;
  }
  g_assert_cmpint (errno, ==, ENOENT);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fsutil/autofd/closes-at-end-of-scope", test_closes_at_end_of_scope);
  g_test_add_func ("/fsutil/autofd/g-auto-closes-at-end-of-scope",
                   test_g_auto_closes_at_end_of_scope);
  g_test_add_func ("/fsutil/autofd/stolen-fd-stays-open", test_stolen_fd_stays_open);
  g_test_add_func ("/fsutil/autofd/close-keeps-errno", test_close_keeps_errno);

  return g_test_run ();
}
