/* tests/store/test-installation.c — where installations live and what
 * counts as installed. */
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "store/installation.h"
#include "store/repo.h"
#include "store/ref.h"
#include "store/store-error.h"
#include "tests/store/served-repo.h"

typedef struct
{
  char *tmp;
  XaInstallation *inst;
} Fixture;

static void
setup (Fixture *f,
       gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->tmp = g_dir_make_tmp ("xa-inst-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->tmp, "inst", NULL);
  f->inst = xa_installation_new (path, XA_INSTALLATION_USER);
}

static void
teardown (Fixture *f,
          gconstpointer data)
{
  g_clear_pointer (&f->inst, xa_installation_unref);
  test_remove_tree (f->tmp);
  g_free (f->tmp);
}

static void
write_file (Fixture *f,
            const char *relative,
            const char *contents)
{
  test_tree_write (xa_installation_get_path (f->inst), relative, contents);
}

static void
make_link (Fixture *f,
           const char *relative,
           const char *target)
{
  g_autofree char *path = g_build_filename (xa_installation_get_path (f->inst), relative, NULL);

  g_assert_cmpint (symlink (target, path), ==, 0);
}

static void
test_user_installation_follows_xdg_data_home (Fixture *f,
                                              gconstpointer data)
{
  g_autoptr(XaInstallation) user = xa_installation_new_user ();
  g_autoptr(XaInstallation) system = xa_installation_new_system ();
  g_autofree char *expected = g_build_filename (g_get_user_data_dir (), "xdg-app", NULL);

  /* G_TEST_OPTION_ISOLATE_DIRS points XDG_DATA_HOME into the test's dir. */
  g_assert_cmpstr (xa_installation_get_path (user), ==, expected);
  g_assert_cmpint (xa_installation_get_scope (user), ==, XA_INSTALLATION_USER);
  g_assert_cmpstr (xa_installation_get_path (system), ==, "/var/lib/xdg-app");
  g_assert_cmpint (xa_installation_get_scope (system), ==, XA_INSTALLATION_SYSTEM);
}

static void
test_ensure_repo_creates_the_layout (Fixture *f,
                                     gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  const char *dirs[] = { "repo/objects", "app", "runtime", "exports", "overrides" };

  g_assert_false (xa_installation_has_repo (f->inst));
  g_assert_nonnull (xa_installation_ensure_repo (f->inst, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (xa_installation_has_repo (f->inst));
  for (gsize i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (xa_installation_get_path (f->inst), dirs[i], NULL);

      g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
    }
}

#define C1 "1111111111111111111111111111111111111111111111111111111111111111"
#define C2 "2222222222222222222222222222222222222222222222222222222222222222"

static void
test_only_active_refs_are_listed (Fixture *f,
                                  gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse ("app/org.test.App/x86_64/stable", NULL);
  g_autofree char *active = NULL;

  /* Installed. */
  write_file (f, "app/org.test.App/x86_64/stable/" C1 "/metadata", "");
  make_link (f, "app/org.test.App/x86_64/stable/active", C1);
  /* A deploy that never flipped `active`. */
  write_file (f, "app/org.test.Half/x86_64/stable/" C2 "/metadata", "");
  /* `active` pointing nowhere, or out of the directory. */
  write_file (f, "app/org.test.Gone/x86_64/stable/.keep", "");
  make_link (f, "app/org.test.Gone/x86_64/stable/active", C2);
  write_file (f, "app/org.test.Out/x86_64/stable/.keep", "");
  make_link (f, "app/org.test.Out/x86_64/stable/active", "../../../org.test.App/x86_64/stable/" C1);
  /* The app's own data, whatever it holds. */
  write_file (f, "app/org.test.App/data/cache/" C1 "/metadata", "");
  make_link (f, "app/org.test.App/data/cache/active", C1);
  /* Names that are no ref. */
  write_file (f, "app/not-an-id/x86_64/stable/" C1 "/metadata", "");
  make_link (f, "app/not-an-id/x86_64/stable/active", C1);

  apps = xa_installation_list_refs (f->inst, XA_METADATA_APP, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (apps->len, ==, 1);
  g_assert_cmpstr (xa_ref_get_string (apps->pdata[0]), ==, "app/org.test.App/x86_64/stable");
  active = xa_installation_lookup_active (f->inst, ref);
  g_assert_cmpstr (active, ==, C1);
}

static void
test_remove_tree_does_not_follow_symlinks (Fixture *f,
                                           gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *outside = g_build_filename (f->tmp, "outside", NULL);
  g_autofree char *precious = g_build_filename (outside, "precious", NULL);
  g_autofree char *doomed = NULL;

  test_tree_write (outside, "precious", "keep");
  write_file (f, "app/org.test.App/data/a/b/c", "x");
  make_link (f, "app/org.test.App/data/a/escape", outside);
  make_link (f, "app/org.test.App/data/a/b/file-escape", precious);
  doomed = g_build_filename (xa_installation_get_path (f->inst), "app/org.test.App/data", NULL);
  g_assert_cmpint (g_chmod (doomed, 0500), ==, 0);

  xa_installation_remove_tree (f->inst, doomed, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (doomed, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (precious, G_FILE_TEST_IS_REGULAR));

  /* Missing is no error. */
  xa_installation_remove_tree (f->inst, doomed, &error);
  g_assert_no_error (error);
}

/* No fixture: the subprocess aborts, and would leave its temp dir. */
static void
test_remove_tree_refuses_paths_outside (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(XaInstallation) inst = xa_installation_new ("/nonexistent/xa-inst",
                                                            XA_INSTALLATION_USER);

      xa_installation_remove_tree (inst, "/nonexistent/elsewhere", NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*xa_installation_remove_tree*");
}

static void
test_system_installation_needs_root (Fixture *f,
                                     gconstpointer data)
{
  g_autoptr(XaInstallation) system = xa_installation_new_system ();
  g_autoptr(GError) error = NULL;

  if (geteuid () == 0)
    {
      g_assert_true (xa_installation_check_writable (system, &error));
      g_test_skip ("root may change the system installation");
      return;
    }
  g_assert_false (xa_installation_check_writable (system, &error));
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_PERMISSION_DENIED);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/store/installation/" path, Fixture, NULL, setup, func, teardown)
  ADD ("user-installation-follows-xdg-data-home", test_user_installation_follows_xdg_data_home);
  ADD ("ensure-repo-creates-the-layout", test_ensure_repo_creates_the_layout);
  ADD ("only-active-refs-are-listed", test_only_active_refs_are_listed);
  ADD ("remove-tree-does-not-follow-symlinks", test_remove_tree_does_not_follow_symlinks);
  ADD ("system-installation-needs-root", test_system_installation_needs_root);
#undef ADD
  g_test_add_func ("/store/installation/remove-tree-refuses-paths-outside",
                   test_remove_tree_refuses_paths_outside);

  return g_test_run ();
}
