/* tests/store/fixture.c — see fixture.h. */
#include <string.h>

#include <gio/gio.h>

#include "store/deploy.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/remote.h"
#include "tests/store/fixture.h"

void
store_fixture_setup (StoreFixture *f,
                     gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *inst_path = NULL;

  f->tmp = g_dir_make_tmp ("xa-store-XXXXXX", &error);
  g_assert_no_error (error);
  f->repo = served_repo_new (f->tmp);
  f->runtime_tree = g_build_filename (f->tmp, "runtime-tree", NULL);
  f->app_tree = g_build_filename (f->tmp, "app-tree", NULL);
  test_tree_make_runtime (f->runtime_tree);
  test_tree_make_app (f->app_tree, 40);
  f->runtime_v1 = served_repo_commit (f->repo, TEST_RUNTIME_REF, f->runtime_tree, NULL);
  f->app_v1 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  served_repo_start (f->repo);

  inst_path = g_build_filename (f->tmp, "inst", NULL);
  f->inst = xa_installation_new (inst_path, XA_INSTALLATION_USER);
  xa_remote_add (f->inst, "test", served_repo_get_url (f->repo), FALSE, NULL,
                 "Test repository", &error);
  g_assert_no_error (error);
}

void
store_fixture_teardown (StoreFixture *f,
                        gconstpointer data)
{
  g_clear_pointer (&f->repo, served_repo_free);
  g_clear_pointer (&f->inst, xa_installation_unref);
  test_remove_tree (f->tmp);
  g_free (f->tmp);
  g_free (f->runtime_tree);
  g_free (f->app_tree);
  g_free (f->runtime_v1);
  g_free (f->app_v1);
}

static void
keep_last (const XaPullStatus *status,
           gpointer user_data)
{
  XaPullStatus *last = user_data;

  /* Progress only grows within one pull. */
  g_assert_cmpuint (status->bytes_transferred, >=, last->bytes_transferred);
  *last = *status;
}

char *
store_fixture_pull (StoreFixture *f,
                    const char *ref,
                    XaPullStatus *out_last,
                    GError **error)
{
  XaPullStatus last = { 0, };
  XaPullProgress progress = { keep_last, &last };
  g_autofree char *commit = NULL;
  gboolean ok;

  ok = xa_pull_ref (f->inst, "test", ref, &progress, NULL, &commit, error);
  if (out_last != NULL)
    *out_last = last;
  return ok ? g_steal_pointer (&commit) : NULL;
}

void
store_fixture_install (StoreFixture *f,
                       const char *ref)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) parsed = xa_ref_parse (ref, &error);
  g_autofree char *commit = NULL;

  g_assert_no_error (error);
  commit = store_fixture_pull (f, ref, NULL, &error);
  g_assert_no_error (error);
  xa_deploy_install (f->inst, parsed, "test", NULL, NULL, &error);
  g_assert_no_error (error);
}

/* Pull and deploy, as `xdg-app update-app` does. */
gboolean
store_fixture_update (StoreFixture *f,
                      const char *ref,
                      gboolean *out_changed,
                      GError **error)
{
  g_autoptr(XaRef) parsed = xa_ref_parse (ref, error);
  g_autofree char *commit = NULL;

  g_assert_nonnull (parsed);
  commit = store_fixture_pull (f, ref, NULL, error);
  if (commit == NULL)
    return FALSE;
  return xa_deploy_update (f->inst, parsed, NULL, NULL, out_changed, error);
}

/* The commit the ref's `active` link names, or NULL. */
char *
store_fixture_active (StoreFixture *f,
                      const char *ref)
{
  g_autoptr(XaRef) parsed = xa_ref_parse (ref, NULL);

  g_assert_nonnull (parsed);
  return xa_installation_lookup_active (f->inst, parsed);
}

char *
store_fixture_path (StoreFixture *f,
                    const char *relative)
{
  return g_build_filename (xa_installation_get_path (f->inst), relative, NULL);
}

/* Objects in the installation's repository. */
guint
store_fixture_count_objects (StoreFixture *f)
{
  g_autofree char *objects = store_fixture_path (f, "repo/objects");
  g_autoptr(GDir) dir = g_dir_open (objects, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sub = g_build_filename (objects, name, NULL);
      g_autoptr(GDir) subdir = g_dir_open (sub, 0, NULL);

      while (subdir != NULL && g_dir_read_name (subdir) != NULL)
        n++;
    }
  return n;
}
