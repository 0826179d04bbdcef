/* tests/fsutil/test-atomic-file.c — xa_atomic_file_write(): the new
 * content or the old one, never a mix, and never a temporary file left
 * behind, whether the write succeeds or fails at any step. */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "fsutil/atomic-file.h"

/* A scratch directory inside the test's own isolated XDG dirs. */
static char *
scratch_dir (void)
{
  char *dir = g_build_filename (g_get_user_data_dir (), "scratch", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

static void
write_plain (const char *path,
             const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

/* Names in @dir other than @expected (NULL-terminated). */
static guint
count_strangers (const char         *dir,
                 const char *const  *expected)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (!g_strv_contains (expected, name))
      {
        g_test_message ("unexpected entry: %s", name);
        n++;
      }
  return n;
}

static void
test_creates_file_with_content (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "state", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_atomic_file_write (path, "hello\n", 6, 0644, &error));
  g_assert_no_error (error);
  contents = read_file (path);
  g_assert_cmpstr (contents, ==, "hello\n");
}

static void
test_replaces_existing_content (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "state", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  write_plain (path, "a much longer old content\n");
  g_assert_true (xa_atomic_file_write (path, "new\n", 4, 0644, &error));
  g_assert_no_error (error);
  contents = read_file (path);
  g_assert_cmpstr (contents, ==, "new\n");
}

static void
test_writes_empty_file (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "state", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  write_plain (path, "old\n");
  g_assert_true (xa_atomic_file_write (path, NULL, 0, 0644, &error));
  g_assert_no_error (error);
  contents = read_file (path);
  g_assert_cmpstr (contents, ==, "");
}

static void
test_applies_mode_despite_umask (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *shared = g_build_filename (dir, "shared", NULL);
  g_autofree char *secret = g_build_filename (dir, "secret", NULL);
  g_autoptr(GError) error = NULL;
  mode_t old_umask = umask (077);
  struct stat st;

  g_assert_true (xa_atomic_file_write (shared, "x", 1, 0644, &error));
  g_assert_no_error (error);
  g_assert_true (xa_atomic_file_write (secret, "x", 1, 0600, &error));
  g_assert_no_error (error);
  umask (old_umask);

  g_assert_cmpint (g_stat (shared, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0644);
  g_assert_cmpint (g_stat (secret, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
}

static void
test_leaves_no_temporary_file (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "state", NULL);
  const char *const expected[] = { "state", NULL };
  g_autoptr(GError) error = NULL;
  int i;

  for (i = 0; i < 5; i++)
    {
      g_assert_true (xa_atomic_file_write (path, "content", 7, 0644, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (count_strangers (dir, expected), ==, 0);
}

static void
test_replaces_symlink_without_following_it (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *target = g_build_filename (dir, "target", NULL);
  g_autofree char *link = g_build_filename (dir, "link", NULL);
  g_autofree char *target_contents = NULL;
  g_autofree char *link_contents = NULL;
  g_autoptr(GError) error = NULL;
  struct stat st;

  write_plain (target, "victim\n");
  g_assert_cmpint (symlink ("target", link), ==, 0);
  g_assert_true (xa_atomic_file_write (link, "new\n", 4, 0644, &error));
  g_assert_no_error (error);

  target_contents = read_file (target);
  g_assert_cmpstr (target_contents, ==, "victim\n");
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  link_contents = read_file (link);
  g_assert_cmpstr (link_contents, ==, "new\n");
}

static void
test_missing_parent_fails_and_creates_nothing (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "missing", "state", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (xa_atomic_file_write (path, "x", 1, 0644, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

static void
test_failed_rename_keeps_old_content (void)
{
  g_autofree char *dir = scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "state", NULL);
  g_autofree char *inside = g_build_filename (path, "keep", NULL);
  g_autofree char *contents = NULL;
  const char *const expected[] = { "state", NULL };
  g_autoptr(GError) error = NULL;

  /* A non-empty directory cannot be replaced by a file: rename fails
   * after the temporary file was written and synced. */
  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  write_plain (inside, "old\n");

  g_assert_false (xa_atomic_file_write (path, "new\n", 4, 0644, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "rename"));
  contents = read_file (inside);
  g_assert_cmpstr (contents, ==, "old\n");
  g_assert_cmpuint (count_strangers (dir, expected), ==, 0);
}

/* The write itself fails half-way: RLIMIT_FSIZE makes write() return
 * EFBIG once the temporary file reaches the limit.  Runs in a subprocess
 * so the limit stays there. */
static void
test_failed_write_keeps_old_content (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  const char *const expected[] = { "state", NULL };

  if (g_test_subprocess ())
    {
      struct rlimit limit = { 1024, 1024 };
      g_autofree char *big = g_malloc0 (64 * 1024);
      g_autoptr(GError) error = NULL;

      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
      g_assert_false (xa_atomic_file_write (g_getenv ("XA_TEST_PATH"), big, 64 * 1024,
                                            0644, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "write"));
      return;
    }

  /* Outside the isolated dirs: the subprocess removes those on exit. */
  dir = g_dir_make_tmp ("xa-atomic-XXXXXX", NULL);
  g_assert_nonnull (dir);
  path = g_build_filename (dir, "state", NULL);
  write_plain (path, "old\n");
  g_setenv ("XA_TEST_PATH", path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  contents = read_file (path);
  g_assert_cmpstr (contents, ==, "old\n");
  g_assert_cmpuint (count_strangers (dir, expected), ==, 0);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A directory the writer may not write to: as root that needs another
 * identity, so the write runs in a subprocess that becomes "nobody". */
static void
test_read_only_directory_keeps_old_content (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  const char *const expected[] = { "state", NULL };

  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;

      path = g_build_filename (g_getenv ("XA_TEST_DIR"), "state", NULL);
      if (getuid () == 0)
        {
          struct passwd *nobody = getpwnam ("nobody");

          g_assert_nonnull (nobody);
          g_assert_cmpint (setgid (nobody->pw_gid), ==, 0);
          g_assert_cmpint (setuid (nobody->pw_uid), ==, 0);
        }
      g_assert_false (xa_atomic_file_write (path, "new\n", 4, 0644, &error));
      g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ACCES);
      return;
    }

  /* Outside the isolated dirs, which "nobody" could not traverse and
   * which the subprocess removes on exit. */
  dir = g_dir_make_tmp ("xa-atomic-XXXXXX", NULL);
  g_assert_nonnull (dir);
  path = g_build_filename (dir, "state", NULL);
  write_plain (path, "old\n");
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  g_setenv ("XA_TEST_DIR", dir, TRUE);

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  contents = read_file (path);
  g_assert_cmpstr (contents, ==, "old\n");
  g_assert_cmpuint (count_strangers (dir, expected), ==, 0);

  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fsutil/atomic-file/creates-file-with-content",
                   test_creates_file_with_content);
  g_test_add_func ("/fsutil/atomic-file/replaces-existing-content",
                   test_replaces_existing_content);
  g_test_add_func ("/fsutil/atomic-file/writes-empty-file",
                   test_writes_empty_file);
  g_test_add_func ("/fsutil/atomic-file/applies-mode-despite-umask",
                   test_applies_mode_despite_umask);
  g_test_add_func ("/fsutil/atomic-file/leaves-no-temporary-file",
                   test_leaves_no_temporary_file);
  g_test_add_func ("/fsutil/atomic-file/replaces-symlink-without-following-it",
                   test_replaces_symlink_without_following_it);
  g_test_add_func ("/fsutil/atomic-file/missing-parent-fails-and-creates-nothing",
                   test_missing_parent_fails_and_creates_nothing);
  g_test_add_func ("/fsutil/atomic-file/failed-rename-keeps-old-content",
                   test_failed_rename_keeps_old_content);
  g_test_add_func ("/fsutil/atomic-file/failed-write-keeps-old-content",
                   test_failed_write_keeps_old_content);
  g_test_add_func ("/fsutil/atomic-file/read-only-directory-keeps-old-content",
                   test_read_only_directory_keeps_old_content);

  return g_test_run ();
}
