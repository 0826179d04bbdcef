/* tests/store/test-uninstall.c — what uninstall removes and what it keeps. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <ostree.h>

#include "store/installation.h"
#include "store/repo.h"
#include "store/ref.h"
#include "store/remote.h"
#include "store/store-error.h"
#include "store/uninstall.h"
#include "tests/store/fixture.h"

static gboolean
exists (StoreFixture *f,
        const char *relative)
{
  g_autofree char *path = store_fixture_path (f, relative);
  struct stat st;

  return lstat (path, &st) == 0;
}

static gboolean
has_local_ref (StoreFixture *f,
               const char *ref)
{
  g_autoptr(GError) error = NULL;
  OstreeRepo *repo = xa_installation_ensure_repo (f->inst, NULL, &error);
  g_autofree char *refspec = g_strconcat ("test:", ref, NULL);
  g_autofree char *commit = NULL;

  g_assert_no_error (error);
  ostree_repo_resolve_rev (repo, refspec, TRUE, &commit, &error);
  g_assert_no_error (error);
  return commit != NULL;
}

static void
test_uninstall_keeps_data_and_removes_the_rest (StoreFixture *f,
                                                gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  g_autofree char *state = store_fixture_path (f, "app/" TEST_APP_ID "/data/state");
  guint objects_with_runtime = 0;
  guint objects_with_app = 0;
  guint objects_after = 0;

  store_fixture_install (f, TEST_RUNTIME_REF);
  objects_with_runtime = store_fixture_count_objects (f);
  store_fixture_install (f, TEST_APP_REF);
  objects_with_app = store_fixture_count_objects (f);
  g_file_set_contents (state, "kept", -1, &error);
  g_assert_no_error (error);
  g_assert_true (exists (f, "exports/share/applications/" TEST_APP_ID ".desktop"));

  xa_uninstall_apply (f->inst, ref, XA_UNINSTALL_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);

  g_assert_false (exists (f, "app/" TEST_APP_ID "/" TEST_ARCH));
  g_assert_false (exists (f, "exports/share/applications/" TEST_APP_ID ".desktop"));
  g_assert_false (has_local_ref (f, TEST_APP_REF));
  g_assert_true (g_file_test (state, G_FILE_TEST_IS_REGULAR));
  /* The app's objects are pruned; the runtime's stay. */
  objects_after = store_fixture_count_objects (f);
  g_test_message ("objects: runtime %u, runtime+app %u, after %u",
                  objects_with_runtime, objects_with_app, objects_after);
  g_assert_cmpuint (objects_with_app, >, objects_with_runtime);
  g_assert_cmpuint (objects_after, ==, objects_with_runtime);
  g_assert_true (exists (f, "runtime/org.test.Platform/" TEST_ARCH "/stable/active"));

  xa_uninstall_apply (f->inst, ref, XA_UNINSTALL_FLAGS_NONE, NULL, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED);
  g_assert_cmpstr (error->message, ==, "'" TEST_APP_ID "' is not installed");
  g_clear_error (&error);

  /* The data can still be removed on its own, and a reinstall works. */
  xa_uninstall_apply (f->inst, ref, XA_UNINSTALL_FLAGS_DELETE_DATA, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (exists (f, "app/" TEST_APP_ID));
  store_fixture_install (f, TEST_APP_REF);
}

static void
test_uninstall_deletes_data_when_asked (StoreFixture *f,
                                        gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  g_autofree char *cache = store_fixture_path (f, "app/" TEST_APP_ID "/data/cache");
  g_autofree char *outside = g_build_filename (f->tmp, "outside", NULL);
  g_autofree char *outside_file = g_build_filename (outside, "precious", NULL);
  g_autofree char *link = g_build_filename (cache, "escape", NULL);

  store_fixture_install (f, TEST_APP_REF);
  /* The app planted a symlink out of its data: removal must not follow it. */
  g_assert_cmpint (g_mkdir_with_parents (cache, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (outside, 0700), ==, 0);
  g_file_set_contents (outside_file, "keep me", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (symlink (outside, link), ==, 0);

  xa_uninstall_apply (f->inst, ref, XA_UNINSTALL_FLAGS_DELETE_DATA, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (exists (f, "app/" TEST_APP_ID));
  g_assert_true (g_file_test (outside_file, G_FILE_TEST_IS_REGULAR));
}

static void
test_runtime_an_app_needs_is_kept (StoreFixture *f,
                                   gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) runtime = xa_ref_parse (TEST_RUNTIME_REF, NULL);

  store_fixture_install (f, TEST_RUNTIME_REF);
  store_fixture_install (f, TEST_APP_REF);

  xa_uninstall_apply (f->inst, runtime, XA_UNINSTALL_FLAGS_NONE, NULL, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_RUNTIME_IN_USE);
  g_assert_cmpstr (error->message, ==,
                   "runtime 'org.test.Platform/" TEST_ARCH "/stable' is used by '"
                   TEST_APP_ID "'; uninstall them first or use --force");
  g_assert_true (exists (f, "runtime/org.test.Platform/" TEST_ARCH "/stable/active"));
  g_clear_error (&error);

  xa_uninstall_apply (f->inst, runtime, XA_UNINSTALL_FLAGS_FORCE, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (exists (f, "runtime/org.test.Platform"));
  g_assert_true (exists (f, "app/" TEST_APP_ID "/" TEST_ARCH "/stable/active"));
}

static void
test_remote_of_installed_refs_is_kept (StoreFixture *f,
                                       gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);

  store_fixture_install (f, TEST_APP_REF);
  xa_remote_delete (f->inst, "test", FALSE, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_IN_USE);
  g_assert_cmpstr (error->message, ==,
                   "remote 'test' is the origin of '" TEST_APP_ID "'; "
                   "uninstall them first or use --force");
  g_clear_error (&error);

  xa_uninstall_apply (f->inst, ref, XA_UNINSTALL_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  xa_remote_delete (f->inst, "test", FALSE, &error);
  g_assert_no_error (error);
}

/* kill -9 right after `active` went: the next uninstall finishes. */
static void
test_interrupted_uninstall_is_finished_later (StoreFixture *f,
                                              gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  g_autofree char *active = store_fixture_path (f, "app/" TEST_APP_ID "/" TEST_ARCH
                                                   "/stable/active");

  store_fixture_install (f, TEST_APP_REF);
  g_assert_cmpint (unlink (active), ==, 0);

  xa_uninstall_apply (f->inst, ref, XA_UNINSTALL_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (exists (f, "app/" TEST_APP_ID "/" TEST_ARCH));
  g_assert_false (has_local_ref (f, TEST_APP_REF));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/store/uninstall/" path, StoreFixture, NULL, store_fixture_setup, func, \
              store_fixture_teardown)
  ADD ("keeps-data-and-removes-the-rest", test_uninstall_keeps_data_and_removes_the_rest);
  ADD ("deletes-data-when-asked", test_uninstall_deletes_data_when_asked);
  ADD ("runtime-an-app-needs-is-kept", test_runtime_an_app_needs_is_kept);
  ADD ("remote-of-installed-refs-is-kept", test_remote_of_installed_refs_is_kept);
  ADD ("interrupted-uninstall-is-finished-later", test_interrupted_uninstall_is_finished_later);
#undef ADD

  return g_test_run ();
}
