/* tests/fsutil/test-bounded-file.c — xa_bounded_file_read(): regular files
 * up to a limit, and nothing else. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "fsutil/bounded-file.h"

static char *
scratch_path (const char *name)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "scratch", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return g_build_filename (dir, name, NULL);
}

static void
write_plain (const char *path,
             const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

static void
test_reads_whole_file (void)
{
  g_autofree char *path = scratch_path ("file");
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  write_plain (path, "[Application]\n");
  data = xa_bounded_file_read (path, 1024, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (data, ==, "[Application]\n");
  g_assert_cmpuint (len, ==, 14);
}

static void
test_accepts_file_of_exactly_the_limit (void)
{
  g_autofree char *path = scratch_path ("file");
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  write_plain (path, "12345678");
  data = xa_bounded_file_read (path, 8, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, ==, 8);
}

static void
test_refuses_file_over_the_limit (void)
{
  g_autofree char *path = scratch_path ("file");
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  write_plain (path, "123456789");
  data = xa_bounded_file_read (path, 8, &len, &error);
  g_assert_null (data);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "larger than 8 bytes"));
}

static void
test_missing_file_is_noent (void)
{
  g_autofree char *path = scratch_path ("missing");
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  g_assert_null (xa_bounded_file_read (path, 8, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_refuses_symlink (void)
{
  g_autofree char *target = scratch_path ("target");
  g_autofree char *link = scratch_path ("link");
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  write_plain (target, "secret");
  g_assert_cmpint (symlink (target, link), ==, 0);
  g_assert_null (xa_bounded_file_read (link, 1024, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP);
}

static void
test_refuses_fifo_without_blocking (void)
{
  g_autofree char *path = scratch_path ("fifo");
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  g_assert_null (xa_bounded_file_read (path, 1024, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
}

static void
test_refuses_directory (void)
{
  g_autofree char *path = scratch_path ("dir");
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  g_assert_null (xa_bounded_file_read (path, 1024, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fsutil/bounded-file/reads-whole-file", test_reads_whole_file);
  g_test_add_func ("/fsutil/bounded-file/accepts-file-of-exactly-the-limit",
                   test_accepts_file_of_exactly_the_limit);
  g_test_add_func ("/fsutil/bounded-file/refuses-file-over-the-limit",
                   test_refuses_file_over_the_limit);
  g_test_add_func ("/fsutil/bounded-file/missing-file-is-noent", test_missing_file_is_noent);
  g_test_add_func ("/fsutil/bounded-file/refuses-symlink", test_refuses_symlink);
  g_test_add_func ("/fsutil/bounded-file/refuses-fifo-without-blocking",
                   test_refuses_fifo_without_blocking);
  g_test_add_func ("/fsutil/bounded-file/refuses-directory", test_refuses_directory);

  return g_test_run ();
}
