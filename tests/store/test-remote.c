/* tests/store/test-remote.c — adding, listing and deleting remotes, and
 * reading what a remote carries (from a local repository: no HTTP). */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "store/installation.h"
#include "store/remote.h"
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

  f->tmp = g_dir_make_tmp ("xa-remote-XXXXXX", &error);
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
test_add_list_delete (Fixture *f,
                      gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) remotes = NULL;
  g_autoptr(GKeyFile) config = g_key_file_new ();
  g_autofree char *config_path = g_build_filename (xa_installation_get_path (f->inst),
                                                   "repo", "config", NULL);
  g_autofree char *url = NULL;
  XaRemote *remote;

  xa_remote_add (f->inst, "flathub-test", "https://example.org/repo", TRUE, NULL,
                 "Example", &error);
  g_assert_no_error (error);
  xa_remote_add (f->inst, "plain", "http://127.0.0.1:1/repo", FALSE, NULL, NULL, &error);
  g_assert_no_error (error);

  remotes = xa_remote_list (f->inst, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (remotes->len, ==, 2);
  remote = remotes->pdata[0];
  g_assert_cmpstr (xa_remote_get_name (remote), ==, "flathub-test");
  g_assert_cmpstr (xa_remote_get_url (remote), ==, "https://example.org/repo");
  g_assert_cmpstr (xa_remote_get_title (remote), ==, "Example");
  g_assert_true (xa_remote_get_gpg_verify (remote));
  remote = remotes->pdata[1];
  g_assert_cmpstr (xa_remote_get_name (remote), ==, "plain");
  g_assert_null (xa_remote_get_title (remote));
  g_assert_false (xa_remote_get_gpg_verify (remote));

  /* Where `ostree remote add` and Flatpak keep it. */
  g_key_file_load_from_file (config, config_path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  url = g_key_file_get_string (config, "remote \"flathub-test\"", "url", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, "https://example.org/repo");
  g_assert_true (g_key_file_get_boolean (config, "remote \"flathub-test\"",
                                         "gpg-verify-summary", NULL));
  g_assert_false (g_key_file_get_boolean (config, "remote \"plain\"", "gpg-verify", NULL));

  xa_remote_add (f->inst, "plain", "http://127.0.0.1:2/repo", FALSE, NULL, NULL, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_EXISTS);
  g_clear_error (&error);

  xa_remote_delete (f->inst, "plain", FALSE, &error);
  g_assert_no_error (error);
  xa_remote_delete (f->inst, "plain", FALSE, &error);
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "remote 'plain' does not exist (remotes: flathub-test)");
}

static const char *const rejected_names[] = {
  "", "-x", ".x", "a b", "a/b", "a:b", "a\"b", "a]b", "a\nb", "ä",
};

static void
test_bad_names_are_refused (Fixture *f,
                            gconstpointer data)
{
  for (gsize i = 0; i < G_N_ELEMENTS (rejected_names); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("'%s'", rejected_names[i]);
      g_assert_false (xa_remote_add (f->inst, rejected_names[i], "https://example.org/",
                                     FALSE, NULL, NULL, &error));
      g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE);
    }
  g_assert_true (xa_remote_validate_name ("a-b_c.9", NULL));
}

static const char *const rejected_urls[] = {
  "", "example.org/repo", "ftp://example.org/repo", "https://exa mple.org/", "javascript:x",
};

static void
test_bad_urls_are_refused (Fixture *f,
                           gconstpointer data)
{
  for (gsize i = 0; i < G_N_ELEMENTS (rejected_urls); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("'%s'", rejected_urls[i]);
      g_assert_false (xa_remote_add (f->inst, "r", rejected_urls[i], FALSE, NULL, NULL, &error));
      g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE);
    }
}

static void
test_keyring_without_keys_adds_nothing (Fixture *f,
                                        gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) remotes = NULL;
  g_autofree char *keyring = g_build_filename (f->tmp, "empty.gpg", NULL);

  g_file_set_contents (keyring, "not a key\n", -1, &error);
  g_assert_no_error (error);
  g_assert_false (xa_remote_add (f->inst, "signed", "https://example.org/", TRUE, keyring,
                                 NULL, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  remotes = xa_remote_list (f->inst, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (remotes->len, ==, 0);
}

static void
test_branches_are_listed_and_resolved (Fixture *f,
                                       gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (f->tmp, "published", NULL);
  g_autofree char *tree = g_build_filename (f->tmp, "tree", NULL);
  g_autoptr(ServedRepo) repo = NULL;
  g_autofree char *url = NULL;
  g_auto(GStrv) branches = NULL;
  g_autofree char *branch = NULL;
  g_autofree char *c1 = NULL;
  g_autofree char *c2 = NULL;
  g_autofree char *c3 = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  repo = served_repo_new (dir);
  test_tree_make_app (tree, 1);
  c1 = served_repo_commit (repo, "app/org.test.App/" TEST_ARCH "/stable", tree, NULL);
  c2 = served_repo_commit (repo, "app/org.test.App/" TEST_ARCH "/beta", tree, NULL);
  c3 = served_repo_commit (repo, "app/org.test.Other/" TEST_ARCH "/stable", tree, NULL);
  url = g_strconcat ("file://", served_repo_get_path (repo), NULL);
  xa_remote_add (f->inst, "local", url, FALSE, NULL, NULL, &error);
  g_assert_no_error (error);

  branches = xa_remote_list_branches (f->inst, "local", XA_METADATA_APP, "org.test.App",
                                      TEST_ARCH, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (branches), ==, 2);
  g_assert_cmpstr (branches[0], ==, "beta");
  g_assert_cmpstr (branches[1], ==, "stable");

  branch = xa_remote_resolve_branch (f->inst, "local", XA_METADATA_APP, "org.test.Other",
                                     TEST_ARCH, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (branch, ==, "stable");

  g_assert_null (xa_remote_resolve_branch (f->inst, "local", XA_METADATA_APP, "org.test.App",
                                           TEST_ARCH, NULL, &error));
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS);
  g_assert_cmpstr (error->message, ==,
                   "'org.test.App' has several branches in remote 'local' (beta, stable); "
                   "name one");
  g_clear_error (&error);

  g_assert_null (xa_remote_resolve_branch (f->inst, "local", XA_METADATA_RUNTIME,
                                           "org.test.App", TEST_ARCH, NULL, &error));
  g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REF_NOT_FOUND);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/store/remote/" path, Fixture, NULL, setup, func, teardown)
  ADD ("add-list-delete", test_add_list_delete);
  ADD ("bad-names-are-refused", test_bad_names_are_refused);
  ADD ("bad-urls-are-refused", test_bad_urls_are_refused);
  ADD ("keyring-without-keys-adds-nothing", test_keyring_without_keys_adds_nothing);
  ADD ("branches-are-listed-and-resolved", test_branches_are_listed_and_resolved);
#undef ADD

  return g_test_run ();
}
