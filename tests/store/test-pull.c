/* tests/store/test-pull.c — pulling over HTTP when things go wrong: the
 * server dies half-way, an object is corrupt, a ref or remote is missing,
 * signatures are missing or foreign; and Flatpak's indexed summary. */
#include <string.h>

#include <gio/gio.h>
#include <ostree.h>

#include "store/deploy.h"
#include "store/installation.h"
#include "store/repo.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/remote.h"
#include "store/store-error.h"
#include "tests/store/fixture.h"

static char *
local_ref (StoreFixture *f,
           const char *remote,
           const char *ref)
{
  g_autoptr(GError) error = NULL;
  OstreeRepo *repo = xa_installation_ensure_repo (f->inst, NULL, &error);
  g_autofree char *refspec = g_strconcat (remote, ":", ref, NULL);
  g_autofree char *commit = NULL;

  g_assert_no_error (error);
  ostree_repo_resolve_rev (repo, refspec, TRUE, &commit, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&commit);
}

static void
assert_still_v1 (StoreFixture *f)
{
  g_autofree char *active = store_fixture_active (f, TEST_APP_REF);
  g_autofree char *remote_ref = local_ref (f, "test", TEST_APP_REF);

  g_assert_cmpstr (active, ==, f->app_v1);
  g_assert_cmpstr (remote_ref, ==, f->app_v1);
}

static char *
publish_v2 (StoreFixture *f,
            guint n_new_files)
{
  for (guint i = 0; i < n_new_files; i++)
    {
      g_autofree char *name = g_strdup_printf ("files/share/v2/file-%u.txt", i);
      g_autofree char *text = g_strdup_printf ("new in v2: %u\n", i);

      test_tree_write (f->app_tree, name, text);
    }
  return served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
}

static void
test_interrupted_pull_keeps_the_old_version (StoreFixture *f,
                                             gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *commit = NULL;
  g_autofree char *active = NULL;
  XaPullStatus last = { 0, };
  gboolean changed = FALSE;

  store_fixture_install (f, TEST_APP_REF);
  v2 = publish_v2 (f, 60);

  /* Dies after a few requests: the summary and the first objects. */
  served_repo_stop (f->repo);
  served_repo_start_stopping_after (f->repo, 8);
  commit = store_fixture_pull (f, TEST_APP_REF, &last, &error);
  g_assert_null (commit);
  g_assert_nonnull (error);
  g_test_message ("interrupted: %s", error->message);
  g_assert_null (strchr (error->message, '\n'));
  /* It died in the middle of the pull (fetching objects), not before. */
  g_assert_true (last.done);
  g_assert_nonnull (strstr (error->message, "/objects/"));
  assert_still_v1 (f);
  g_clear_error (&error);

  served_repo_stop (f->repo);
  served_repo_start (f->repo);
  store_fixture_update (f, TEST_APP_REF, &changed, &error);
  g_assert_no_error (error);
  g_assert_true (changed);
  active = store_fixture_active (f, TEST_APP_REF);
  g_assert_cmpstr (active, ==, v2);
}

static void
test_corrupted_object_is_refused (StoreFixture *f,
                                  gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *commit = NULL;

  store_fixture_install (f, TEST_APP_REF);
  v2 = publish_v2 (f, 1);
  served_repo_corrupt (f->repo, TEST_APP_REF, "/files/share/v2/file-0.txt");

  commit = store_fixture_pull (f, TEST_APP_REF, NULL, &error);
  g_assert_null (commit);
  g_assert_nonnull (error);
  g_test_message ("corrupt: %s", error->message);
  g_assert_nonnull (strstr (error->message, TEST_APP_REF));
  assert_still_v1 (f);
}

static void
test_missing_ref_is_reported (StoreFixture *f,
                              gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *commit = NULL;

  commit = store_fixture_pull (f, "app/org.test.Missing/" TEST_ARCH "/stable", NULL, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REF_NOT_FOUND);
  g_assert_cmpstr (error->message, ==,
                   "'app/org.test.Missing/" TEST_ARCH "/stable' is not in remote 'test'");
}

static void
test_unknown_remote_is_reported (StoreFixture *f,
                                 gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *commit = NULL;

  g_assert_false (xa_pull_ref (f->inst, "nope", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "remote 'nope' does not exist (remotes: test)");
}

static void
test_static_delta_is_used (StoreFixture *f,
                           gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *commit = NULL;
  g_autofree char *repo_arg = g_strconcat ("--repo=", served_repo_get_path (f->repo), NULL);
  XaPullStatus last = { 0, };

  store_fixture_install (f, TEST_APP_REF);
  v2 = publish_v2 (f, 20);
  {
    const char *argv[] = { "ostree", repo_arg, "static-delta", "generate", TEST_APP_REF, NULL };
    g_free (test_run (argv));
  }
  served_repo_sign_summary (f->repo, NULL, NULL);

  commit = store_fixture_pull (f, TEST_APP_REF, &last, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (commit, ==, v2);
  g_test_message ("delta parts %u of %u, %u loose objects",
                  last.fetched_delta_parts, last.total_delta_parts, last.fetched);
  g_assert_cmpuint (last.total_delta_parts, >, 0);
  g_assert_cmpuint (last.fetched_delta_parts, ==, last.total_delta_parts);
}

/* A throw-away GnuPG home @name with one signing key; NULL when gpg is
 * absent. */
static char *
make_signing_key (StoreFixture *f,
                  const char *name,
                  char **out_fingerprint)
{
  g_autofree char *home = g_build_filename (f->tmp, name, NULL);
  g_autofree char *colons = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *gpg = g_find_program_in_path ("gpg");

  if (gpg == NULL)
    return NULL;
  g_assert_cmpint (g_mkdir_with_parents (home, 0700), ==, 0);
  {
    const char *argv[] = { "gpg", "--homedir", home, "--batch", "--pinentry-mode", "loopback",
                           "--passphrase", "", "--quick-gen-key",
                           "xdg-app test <test@example.org>", "ed25519", "sign", "never", NULL };
    g_free (test_run (argv));
  }
  {
    const char *argv[] = { "gpg", "--homedir", home, "--batch", "--with-colons",
                           "--list-secret-keys", NULL };
    colons = test_run (argv);
  }
  lines = g_strsplit (colons, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "fpr:"))
      {
        g_auto(GStrv) fields = g_strsplit (lines[i], ":", -1);

        *out_fingerprint = g_strdup (fields[9]);
        break;
      }
  g_assert_nonnull (*out_fingerprint);
  return g_steal_pointer (&home);
}

static void
stop_gpg_agent (const char *home)
{
  const char *argv[] = { "gpgconf", "--homedir", home, "--kill", "gpg-agent", NULL };
  g_free (test_run (argv));
}

/* The public key of @home, in a file. */
static char *
export_key (StoreFixture *f,
            const char *home)
{
  g_autofree char *keyring = g_strconcat (home, ".pub.gpg", NULL);
  const char *argv[] = { "gpg", "--homedir", home, "--batch", "--export", "--output",
                         keyring, NULL };
  g_free (test_run (argv));

  return g_steal_pointer (&keyring);
}

static void
test_gpg_signatures_are_checked (StoreFixture *f,
                                 gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *home = make_signing_key (f, "gnupg", &fingerprint);
  g_autofree char *keyring = NULL;
  g_autofree char *commit = NULL;
  g_autofree char *v2 = NULL;

  if (home == NULL)
    {
      g_test_skip ("gpg is not installed");
      return;
    }
  keyring = export_key (f, home);
  served_repo_sign (f->repo, TEST_APP_REF, home, fingerprint);
  stop_gpg_agent (home);

  /* With the publisher's key: verified and pulled. */
  xa_remote_add (f->inst, "signed", served_repo_get_url (f->repo), TRUE, keyring, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (xa_pull_ref (f->inst, "signed", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (commit, ==, f->app_v1);
  g_clear_pointer (&commit, g_free);

  /* Without it: refused. */
  xa_remote_add (f->inst, "nokey", served_repo_get_url (f->repo), TRUE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (xa_pull_ref (f->inst, "nokey", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_nonnull (error);
  g_test_message ("no key: %s", error->message);
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);

  /* An unsigned commit behind a signed summary: refused as well. */
  test_tree_write (f->app_tree, "files/share/data/file-2.txt", "unsigned\n");
  v2 = served_repo_commit (f->repo, TEST_APP_REF, f->app_tree, NULL);
  served_repo_sign_summary (f->repo, home, fingerprint);
  stop_gpg_agent (home);
  g_assert_false (xa_pull_ref (f->inst, "signed", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_nonnull (error);
  g_test_message ("unsigned commit: %s", error->message);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_nonnull (strstr (error->message, v2));
}

/* A remote that verifies signatures takes neither an unsigned summary
 * nor one signed by a key it does not know, and names the problem. */
static void
test_summary_signature_is_checked (StoreFixture *f,
                                   gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *good_fpr = NULL;
  g_autofree char *bad_fpr = NULL;
  g_autofree char *good = make_signing_key (f, "gnupg-good", &good_fpr);
  g_autofree char *bad = good != NULL ? make_signing_key (f, "gnupg-bad", &bad_fpr) : NULL;
  g_autofree char *keyring = NULL;
  g_autofree char *commit = NULL;

  if (good == NULL)
    {
      g_test_skip ("gpg is not installed");
      return;
    }
  keyring = export_key (f, good);
  served_repo_sign (f->repo, TEST_APP_REF, good, good_fpr);
  xa_remote_add (f->inst, "signed", served_repo_get_url (f->repo), TRUE, keyring, NULL, &error);
  g_assert_no_error (error);

  served_repo_sign_summary (f->repo, bad, bad_fpr);
  g_assert_false (xa_pull_ref (f->inst, "signed", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_nonnull (error);
  g_test_message ("foreign key: %s", error->message);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_nonnull (strstr (error->message, "remote 'signed'"));
  g_clear_error (&error);

  served_repo_sign_summary (f->repo, NULL, NULL);
  g_assert_false (xa_pull_ref (f->inst, "signed", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE);
  g_test_message ("unsigned: %s", error->message);
  g_clear_error (&error);

  served_repo_sign_summary (f->repo, good, good_fpr);
  stop_gpg_agent (good);
  stop_gpg_agent (bad);
  g_assert_true (xa_pull_ref (f->inst, "signed", TEST_APP_REF, NULL, NULL, &commit, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (commit, ==, f->app_v1);
}

/* The repository's summary.idx, written by Flatpak's build-update-repo;
 * FALSE when flatpak is not installed. */
static gboolean
write_summary_index (StoreFixture *f)
{
  g_autofree char *flatpak = g_find_program_in_path ("flatpak");

  if (flatpak == NULL)
    return FALSE;
  {
    const char *argv[] = { "flatpak", "build-update-repo", served_repo_get_path (f->repo), NULL };
    g_free (test_run (argv));
  }
  return TRUE;
}

/* The one subset file of the index, summaries/HEX.gz. */
static char *
find_subset_file (StoreFixture *f)
{
  g_autofree char *dir = g_build_filename (served_repo_get_path (f->repo), "summaries", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".gz"))
      return g_build_filename (dir, name, NULL);
  g_assert_not_reached ();
}

/* With Flatpak's indexed summary, only the subset for this arch travels:
 * the pull works when the whole summary is garbage, and a subset that is
 * not the one the index names is refused. */
static void
test_indexed_summary_is_used (StoreFixture *f,
                              gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *subset = NULL;
  g_autofree char *commit = NULL;
  g_autofree char *v2 = NULL;

  if (!write_summary_index (f))
    {
      g_test_skip ("flatpak is not installed: no tool writes summary.idx");
      return;
    }
  summary = g_build_filename (served_repo_get_path (f->repo), "summary", NULL);
  g_assert_true (g_file_set_contents (summary, "not a summary", -1, NULL));
  commit = store_fixture_pull (f, TEST_APP_REF, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (commit, ==, f->app_v1);
  g_clear_pointer (&commit, g_free);

  /* A subset swapped for another valid one: refused by its digest. */
  v2 = publish_v2 (f, 1);
  subset = find_subset_file (f);
  {
    g_autofree char *gz = g_strconcat (f->tmp, "/other.gz", NULL);
    g_autofree char *shell = g_strdup_printf ("gzip -c '%s' > '%s' && mv '%s' '%s'",
                                              summary, gz, gz, subset);
    const char *argv[] = { "sh", "-c", shell, NULL };
    g_free (test_run (argv));
  }
  commit = store_fixture_pull (f, TEST_APP_REF, NULL, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE);
  g_test_message ("swapped subset: %s", error->message);
  g_assert_nonnull (strstr (error->message, "does not match its digest"));
  g_assert_null (commit);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/store/pull/" path, StoreFixture, NULL, store_fixture_setup, func, \
              store_fixture_teardown)
  ADD ("interrupted-pull-keeps-the-old-version", test_interrupted_pull_keeps_the_old_version);
  ADD ("corrupted-object-is-refused", test_corrupted_object_is_refused);
  ADD ("missing-ref-is-reported", test_missing_ref_is_reported);
  ADD ("unknown-remote-is-reported", test_unknown_remote_is_reported);
  ADD ("static-delta-is-used", test_static_delta_is_used);
  ADD ("gpg-signatures-are-checked", test_gpg_signatures_are_checked);
  ADD ("summary-signature-is-checked", test_summary_signature_is_checked);
  ADD ("indexed-summary-is-used", test_indexed_summary_is_used);
#undef ADD

  return g_test_run ();
}
