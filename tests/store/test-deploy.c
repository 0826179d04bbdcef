/* tests/store/test-deploy.c — install, update and their failures, against
 * a real repository served over HTTP. */
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <ostree.h>

#include "store/deploy.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/repo.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/store-error.h"
#include "tests/store/fixture.h"

#define APP_BASE "app/" TEST_APP_ID "/" TEST_ARCH "/stable"

static char *
read_link (StoreFixture *f,
           const char *relative)
{
  g_autofree char *path = store_fixture_path (f, relative);

  return g_file_read_link (path, NULL);
}

static gboolean
exists (StoreFixture *f,
        const char *relative)
{
  g_autofree char *path = store_fixture_path (f, relative);
  struct stat st;

  return lstat (path, &st) == 0;
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Names in the app's BASE/app/ID/ARCH/BRANCH, sorted, joined by ' '. */
static char *
list_app_base (StoreFixture *f)
{
  g_autofree char *base = store_fixture_path (f, APP_BASE);
  g_autoptr(GDir) dir = g_dir_open (base, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, (char *) name);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* What list_app_base() shows when @commit is the only deployment. */
static char *
only_deployment (const char *commit)
{
  return strcmp (commit, "active") < 0 ? g_strdup_printf ("%s active", commit)
                                       : g_strdup_printf ("active %s", commit);
}

static char *
local_ref (StoreFixture *f,
           const char *ref)
{
  g_autoptr(GError) error = NULL;
  OstreeRepo *repo = xa_installation_ensure_repo (f->inst, NULL, &error);
  g_autofree char *refspec = g_strconcat ("test:", ref, NULL);
  g_autofree char *commit = NULL;

  g_assert_no_error (error);
  ostree_repo_resolve_rev (repo, refspec, TRUE, &commit, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&commit);
}

static void
test_install_lays_out_the_installation (StoreFixture *f,
                                        gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaDeployment) app = NULL;
  g_autoptr(XaDeployment) runtime = NULL;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GKeyFile) config = g_key_file_new ();
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  g_autofree char *config_path = store_fixture_path (f, "repo/config");
  g_autofree char *mode = NULL;
  g_autofree char *link = NULL;
  g_autofree char *files = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *remote_ref = NULL;
  XaInstallation *search[] = { f->inst, NULL };

  store_fixture_install (f, TEST_RUNTIME_REF);
  store_fixture_install (f, TEST_APP_REF);

  g_key_file_load_from_file (config, config_path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  mode = g_key_file_get_string (config, "core", "mode", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mode, ==, "bare-user-only");

  link = read_link (f, APP_BASE "/active");
  g_assert_cmpstr (link, ==, f->app_v1);
  listing = list_app_base (f);
  expected = only_deployment (f->app_v1);
  g_assert_cmpstr (listing, ==, expected);
  g_assert_true (exists (f, "app/" TEST_APP_ID "/data"));
  g_assert_true (exists (f, "exports"));
  g_assert_true (exists (f, "overrides"));
  g_assert_true (exists (f, "exports/share/applications/" TEST_APP_ID ".desktop"));

  app = xa_deployment_open (f->inst, XA_METADATA_APP, TEST_APP_ID, TEST_ARCH, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xa_deployment_get_commit (app), ==, f->app_v1);
  g_assert_cmpstr (xa_deployment_get_origin (app), ==, "test");
  g_assert_cmpstr (xa_deployment_get_branch (app), ==, "stable");
  g_assert_cmpstr (xa_metadata_get_command (xa_deployment_get_metadata (app)), ==, "hello");
  files = g_build_filename (xa_deployment_get_files_dir (app), "bin", "hello", NULL);
  g_assert_true (g_file_test (files, G_FILE_TEST_IS_EXECUTABLE));

  runtime = xa_deployment_find_runtime (search,
                                        xa_metadata_get_runtime (xa_deployment_get_metadata (app)),
                                        &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xa_deployment_get_commit (runtime), ==, f->runtime_v1);
  g_assert_true (exists (f, "runtime/org.test.Platform/" TEST_ARCH "/stable/active"));

  apps = xa_deployment_list (f->inst, XA_METADATA_APP, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (apps->len, ==, 1);

  /* Kept as Flatpak keeps it: a collection-less remote ref. */
  remote_ref = local_ref (f, TEST_APP_REF);
  g_assert_cmpstr (remote_ref, ==, f->app_v1);

  xa_deploy_install (f->inst, ref, "test", NULL, NULL, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_ALREADY_INSTALLED);
}

static void
test_update_fetches_only_changed_objects (StoreFixture *f,
                                          gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  XaPullStatus first = { 0, };
  XaPullStatus second = { 0, };
  g_autofree char *commit = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *active = NULL;
  g_autofree char *state = store_fixture_path (f, "app/" TEST_APP_ID "/data/state");
  g_autofree char *old_dir = NULL;
  g_autofree char *changed_file = NULL;
  g_autofree char *changed_path = NULL;
  g_autofree char *contents = NULL;
  gboolean changed = FALSE;

  commit = store_fixture_pull (f, TEST_APP_REF, &first, &error);
  g_assert_no_error (error);
  xa_deploy_install (f->inst, ref, "test", commit, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (state, "kept", -1, &error);
  g_assert_no_error (error);

  test_tree_write (f->app_tree, "files/share/data/file-3.txt", "changed\n");
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  g_clear_pointer (&commit, g_free);
  commit = store_fixture_pull (f, TEST_APP_REF, &second, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (commit, ==, v2);

  /* The commit and its detached metadata, one dirtree per directory on
   * the changed file's path (/, files, share, data), the file: about 8;
   * the other 40-odd objects are already here. */
  g_test_message ("first pull: %u objects, %" G_GUINT64_FORMAT " bytes; "
                  "update: %u objects, %" G_GUINT64_FORMAT " bytes",
                  first.fetched, first.bytes_transferred,
                  second.fetched, second.bytes_transferred);
  g_assert_cmpuint (first.fetched, >=, 45);
  g_assert_cmpuint (second.fetched, >, 0);
  g_assert_cmpuint (second.fetched, <=, 9);
  g_assert_cmpuint (second.fetched * 5, <, first.fetched);
  g_assert_cmpuint (second.bytes_transferred, <, first.bytes_transferred);

  xa_deploy_update (f->inst, ref, NULL, NULL, &changed, &error);
  g_assert_no_error (error);
  g_assert_true (changed);
  active = store_fixture_active (f, TEST_APP_REF);
  g_assert_cmpstr (active, ==, v2);
  old_dir = g_strconcat (APP_BASE "/", f->app_v1, NULL);
  g_assert_false (exists (f, old_dir));
  changed_file = g_strconcat (APP_BASE "/", v2, "/files/share/data/file-3.txt", NULL);
  changed_path = store_fixture_path (f, changed_file);
  g_file_get_contents (changed_path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, "changed\n");
  g_assert_true (g_file_test (state, G_FILE_TEST_IS_REGULAR));
}

static void
test_update_to_the_same_commit_changes_nothing (StoreFixture *f,
                                                gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *active = NULL;
  gboolean changed = TRUE;

  store_fixture_install (f, TEST_APP_REF);
  store_fixture_update (f, TEST_APP_REF, &changed, &error);
  g_assert_no_error (error);
  g_assert_false (changed);
  active = store_fixture_active (f, TEST_APP_REF);
  g_assert_cmpstr (active, ==, f->app_v1);
}

/* What a refused update must leave: v1 active, alone, and the local ref
 * back on v1. */
static void
assert_still_v1 (StoreFixture *f)
{
  g_autofree char *active = store_fixture_active (f, TEST_APP_REF);
  g_autofree char *listing = list_app_base (f);
  g_autofree char *expected = only_deployment (f->app_v1);
  g_autofree char *remote_ref = local_ref (f, TEST_APP_REF);

  g_assert_cmpstr (active, ==, f->app_v1);
  g_assert_cmpstr (listing, ==, expected);
  g_assert_cmpstr (remote_ref, ==, f->app_v1);
}

static const struct
{
  const char *what;
  const char *metadata;
} bad_metadata[] = {
  { "another app's name",
    "[Application]\nname=org.other.App\nruntime=org.test.Platform/" TEST_ARCH "/stable\n" },
  { "a runtime's metadata", "[Runtime]\nname=" TEST_APP_ID "\n" },
  { "not a keyfile", "this is not [ a keyfile\n" },
  { "no runtime", "[Application]\nname=" TEST_APP_ID "\n" },
};

static void
test_bad_metadata_is_refused (StoreFixture *f,
                              gconstpointer data)
{
  store_fixture_install (f, TEST_APP_REF);

  for (gsize i = 0; i < G_N_ELEMENTS (bad_metadata); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *bad = NULL;
      gboolean changed = FALSE;

      g_test_message ("metadata with %s", bad_metadata[i].what);
      test_tree_write (f->app_tree, "metadata", bad_metadata[i].metadata);
      bad = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
      g_assert_false (store_fixture_update (f, TEST_APP_REF, &changed, &error));
      g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT);
      g_test_message ("refused: %s", error->message);
      g_assert_nonnull (strstr (error->message, TEST_APP_REF));
      g_assert_null (strchr (error->message, '\n'));
      assert_still_v1 (f);
    }

  /* Publisher fixes it: the next update goes through. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *good = NULL;
    g_autofree char *active = NULL;
    gboolean changed = FALSE;

    test_tree_write (f->app_tree, "metadata", test_app_metadata ());
    test_tree_write (f->app_tree, "files/share/data/file-1.txt", "fixed\n");
    good = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
    store_fixture_update (f, TEST_APP_REF, &changed, &error);
    g_assert_no_error (error);
    g_assert_true (changed);
    active = store_fixture_active (f, TEST_APP_REF);
    g_assert_cmpstr (active, ==, good);
  }
}

static void
test_xa_metadata_mismatch_is_refused (StoreFixture *f,
                                      gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *v2 = NULL;
  gboolean changed = FALSE;

  store_fixture_install (f, TEST_APP_REF);
  test_tree_write (f->app_tree, "files/share/data/file-1.txt", "v2\n");
  /* A client deciding from xa.metadata would see other permissions than
   * the app gets from its metadata file. */
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree,
                           "[Application]\nname=" TEST_APP_ID "\n"
                           "runtime=org.test.Platform/" TEST_ARCH "/stable\n"
                           "[Context]\nshared=network\n");
  g_assert_false (store_fixture_update (f, TEST_APP_REF, &changed, &error));
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT);
  g_assert_nonnull (strstr (error->message, "xa.metadata"));
  assert_still_v1 (f);
}

static void
test_commit_without_xa_metadata_is_accepted (StoreFixture *f,
                                             gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *active = NULL;
  gboolean changed = FALSE;

  store_fixture_install (f, TEST_APP_REF);
  test_tree_write (f->app_tree, "files/share/data/file-1.txt", "v2\n");
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, "");
  store_fixture_update (f, TEST_APP_REF, &changed, &error);
  g_assert_no_error (error);
  active = store_fixture_active (f, TEST_APP_REF);
  g_assert_cmpstr (active, ==, v2);
}

static void
test_leftovers_are_removed_by_the_next_deploy (StoreFixture *f,
                                               gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *leftover = NULL;
  g_autofree char *active_tmp = store_fixture_path (f, APP_BASE "/active.tmp");
  g_autofree char *listing = NULL;
  g_autofree char *expected = NULL;
  gboolean changed = FALSE;

  store_fixture_install (f, TEST_APP_REF);
  test_tree_write (f->app_tree, "files/share/data/file-1.txt", "v2\n");
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);

  /* What a deploy killed half-way leaves. */
  leftover = g_strdup_printf (APP_BASE "/.%s.tmp-0a1b2c/files/half-written", v2);
  test_tree_write (xa_installation_get_path (f->inst), leftover, "x");
  g_assert_cmpint (symlink ("nowhere", active_tmp), ==, 0);

  store_fixture_update (f, TEST_APP_REF, &changed, &error);
  g_assert_no_error (error);
  listing = list_app_base (f);
  expected = only_deployment (v2);
  g_assert_cmpstr (listing, ==, expected);
}

static gboolean
has_warning (GPtrArray *warnings,
             const char *needle)
{
  for (guint i = 0; i < warnings->len; i++)
    if (strstr (warnings->pdata[i], needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_ignored_values_are_reported (StoreFixture *f,
                                  gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  g_auto(XaDeployResult) result = { FALSE, NULL };
  g_autofree char *commit = NULL;
  g_autofree char *published = NULL;
  g_autofree char *metadata = g_strconcat (test_app_metadata (),
                                           "[Context]\nsockets=x11;wayland;\n", NULL);

  test_tree_write (f->app_tree, "metadata", metadata);
  test_tree_write (f->app_tree, "export/share/applications/org.evil.Other.desktop",
                   "[Desktop Entry]\nType=Application\nName=Evil\nExec=evil\n");
  published = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  commit = store_fixture_pull (f, TEST_APP_REF, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (commit, ==, published);

  xa_deploy_install_full (f->inst, ref, "test", NULL, NULL, &result, &error);
  g_assert_no_error (error);
  g_assert_true (result.changed);
  for (guint i = 0; i < result.warnings->len; i++)
    g_test_message ("warning: %s", (const char *) result.warnings->pdata[i]);
  g_assert_true (has_warning (result.warnings, "x11"));
  g_assert_true (has_warning (result.warnings, "exports of '" TEST_APP_ID "'"));
  g_assert_false (exists (f, "exports/share/applications/org.evil.Other.desktop"));
}

/* Flatpak 1.14's own `flatpak build-export` makes the commit (xa.metadata,
 * xa.ref, ref bindings, its summary); it installs here like ours. */
static void
test_flatpak_exported_app_installs (StoreFixture *f,
                                    gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *flatpak = g_find_program_in_path ("flatpak");
  g_autofree char *tree = g_build_filename (f->tmp, "flatpak-app", NULL);
  g_autoptr(XaRef) ref = xa_ref_parse ("app/org.test.FromFlatpak/" TEST_ARCH "/stable", NULL);
  g_autoptr(XaDeployment) app = NULL;
  g_autofree char *commit = NULL;

  if (flatpak == NULL)
    {
      g_test_skip ("flatpak is not installed");
      return;
    }
  test_tree_write (tree, "metadata",
                   "[Application]\nname=org.test.FromFlatpak\n"
                   "runtime=org.test.Platform/" TEST_ARCH "/stable\ncommand=hello\n");
  test_tree_write (tree, "files/bin/hello", "#!/bin/sh\necho hello\n");
  /* What `flatpak build-finish` leaves, without which build-export refuses. */
  test_tree_write (tree, "export/share/applications/org.test.FromFlatpak.desktop",
                   "[Desktop Entry]\nType=Application\nName=From Flatpak\nExec=hello\n");
  {
    const char *argv[] = { "flatpak", "build-export", "--arch=" TEST_ARCH,
                           served_repo_get_path (f->repo), tree, "stable", NULL };
    g_free (test_run (argv));
  }

  commit = store_fixture_pull (f, xa_ref_get_string (ref), NULL, &error);
  g_assert_no_error (error);
  xa_deploy_install (f->inst, ref, "test", NULL, NULL, &error);
  g_assert_no_error (error);
  app = xa_deployment_open_ref (f->inst, ref, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xa_deployment_get_commit (app), ==, commit);
  g_assert_cmpstr (xa_metadata_get_command (xa_deployment_get_metadata (app)), ==, "hello");
  g_assert_true (exists (f, "exports/share/applications/org.test.FromFlatpak.desktop"));
}

/* kill -9 of a deploy, at many different moments: the ref always has a
 * complete active deployment, and the next deploy always succeeds. */
static void
test_killed_deploy_keeps_a_working_version (StoreFixture *f,
                                            gconstpointer data)
{
  const char *helper = g_getenv ("STORE_DEPLOY_HELPER");
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse (TEST_APP_REF, NULL);
  g_autofree char *v2 = NULL;
  g_autofree char *pulled = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *expected = NULL;
  guint completed = 0;
  gboolean changed = FALSE;

  g_assert_nonnull (helper);
  store_fixture_install (f, TEST_APP_REF);
  /* Big enough that a checkout takes a while. */
  for (guint i = 0; i < 1500; i++)
    {
      g_autofree char *name = g_strdup_printf ("files/share/more/file-%u.txt", i);
      g_autofree char *text = g_strdup_printf ("v2 file %u\n", i);

      test_tree_write (f->app_tree, name, text);
    }
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  pulled = store_fixture_pull (f, TEST_APP_REF, NULL, &error);
  g_assert_no_error (error);
  /* A deploy prunes what no ref or deployment reaches: a ref keeps v1,
   * so that it can be deployed again without a pull. */
  ostree_repo_set_ref_immediate (xa_installation_ensure_repo (f->inst, NULL, NULL), NULL,
                                 "test/keep-v1", f->app_v1, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 24; i++)
    {
      const char *target = i % 2 == 0 ? v2 : f->app_v1;
      const char *argv[] = { helper, xa_installation_get_path (f->inst), TEST_APP_REF,
                             target, NULL };
      g_autoptr(GSubprocess) proc = NULL;
      g_autofree char *active = NULL;
      g_autofree char *metadata = NULL;
      g_autofree char *hello = NULL;

      proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_NONE, &error);
      g_assert_no_error (error);
      g_usleep ((i * 5 + g_random_int_range (0, 5)) * 1000);
      g_subprocess_send_signal (proc, SIGKILL);
      g_subprocess_wait (proc, NULL, &error);
      g_assert_no_error (error);
      if (g_subprocess_get_if_exited (proc))
        {
          g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
          completed++;
        }

      active = store_fixture_active (f, TEST_APP_REF);
      g_assert_true (g_strcmp0 (active, v2) == 0 || g_strcmp0 (active, f->app_v1) == 0);
      metadata = g_strconcat (APP_BASE "/active/metadata", NULL);
      hello = g_strconcat (APP_BASE "/active/files/bin/hello", NULL);
      g_assert_true (exists (f, metadata));
      g_assert_true (exists (f, hello));
    }
  g_test_message ("%u of 24 deploys finished before the kill", completed);

  xa_deploy_update (f->inst, ref, v2, NULL, &changed, &error);
  g_assert_no_error (error);
  listing = list_app_base (f);
  expected = only_deployment (v2);
  g_assert_cmpstr (listing, ==, expected);
}

/* An update drops the objects only the old commit had; the new commit's
 * stay. */
static void
test_update_prunes_the_old_commit (StoreFixture *f,
                                   gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  OstreeRepo *repo = NULL;
  g_autoptr(GVariant) old_commit = NULL;
  g_autoptr(GVariant) new_commit = NULL;
  g_autofree char *v2 = NULL;
  gboolean changed = FALSE;

  store_fixture_install (f, TEST_APP_REF);
  test_tree_write (f->app_tree, "files/share/data/file-3.txt", "changed\n");
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  g_assert_true (store_fixture_update (f, TEST_APP_REF, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);

  repo = xa_installation_ensure_repo (f->inst, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (ostree_repo_load_variant (repo, OSTREE_OBJECT_TYPE_COMMIT, f->app_v1,
                                            &old_commit, NULL));
  ostree_repo_load_variant (repo, OSTREE_OBJECT_TYPE_COMMIT, v2, &new_commit, &error);
  g_assert_no_error (error);
}

/* A process of this test's own holds a read lock on the deployment's
 * .ref, as a sandbox's reaper does; NULL when python3 is missing. */
static GSubprocess *
hold_deployment (StoreFixture *f,
                 const char *commit)
{
  g_autofree char *relative = g_strconcat (APP_BASE "/", commit, "/files/.ref", NULL);
  g_autofree char *path = store_fixture_path (f, relative);
  const char *argv[] = {
    "/usr/bin/python3", "-c",
    "import fcntl, sys, time\n"
    "f = open(sys.argv[1])\n"
    "fcntl.lockf(f, fcntl.LOCK_SH)\n"
    "print('locked', flush=True)\n"
    "time.sleep(120)\n",
    path, NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    return NULL;
  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "locked");
  return g_steal_pointer (&proc);
}

/* A deployment a sandbox still runs from survives an update, with its
 * objects, and goes with the next update once nothing holds it. */
static void
test_deployment_in_use_is_kept (StoreFixture *f,
                                gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) holder = NULL;
  g_autofree char *old_dir = g_strconcat (APP_BASE "/", f->app_v1, NULL);
  g_autofree char *old_hello = g_strconcat (old_dir, "/files/bin/hello", NULL);
  g_autofree char *v2 = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *expected = NULL;
  gboolean changed = FALSE;

  store_fixture_install (f, TEST_APP_REF);
  holder = hold_deployment (f, f->app_v1);
  if (holder == NULL)
    {
      g_test_skip ("/usr/bin/python3 is not installed");
      return;
    }
  test_tree_write (f->app_tree, "files/share/data/file-3.txt", "changed\n");
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  g_assert_true (store_fixture_update (f, TEST_APP_REF, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_true (exists (f, old_hello));

  g_subprocess_force_exit (holder);
  g_subprocess_wait (holder, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (store_fixture_update (f, TEST_APP_REF, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  listing = list_app_base (f);
  expected = only_deployment (v2);
  g_assert_cmpstr (listing, ==, expected);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/store/deploy/" path, StoreFixture, NULL, store_fixture_setup, func, \
              store_fixture_teardown)
  ADD ("install-lays-out-the-installation", test_install_lays_out_the_installation);
  ADD ("update-fetches-only-changed-objects", test_update_fetches_only_changed_objects);
  ADD ("update-prunes-the-old-commit", test_update_prunes_the_old_commit);
  ADD ("deployment-in-use-is-kept", test_deployment_in_use_is_kept);
  ADD ("update-to-the-same-commit-changes-nothing",
       test_update_to_the_same_commit_changes_nothing);
  ADD ("bad-metadata-is-refused", test_bad_metadata_is_refused);
  ADD ("xa-metadata-mismatch-is-refused", test_xa_metadata_mismatch_is_refused);
  ADD ("commit-without-xa-metadata-is-accepted", test_commit_without_xa_metadata_is_accepted);
  ADD ("leftovers-are-removed-by-the-next-deploy", test_leftovers_are_removed_by_the_next_deploy);
  ADD ("ignored-values-are-reported", test_ignored_values_are_reported);
  ADD ("flatpak-exported-app-installs", test_flatpak_exported_app_installs);
  ADD ("killed-deploy-keeps-a-working-version", test_killed_deploy_keeps_a_working_version);
#undef ADD

  return g_test_run ();
}
