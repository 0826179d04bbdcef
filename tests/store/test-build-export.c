/* tests/store/test-build-export.c — build-init, build-finish and
 * build-export against Flatpak 1.14's own tools, both ways:
 *
 *   - an app and a runtime that we build and export, Flatpak installs
 *   - a runtime that `flatpak build-export --runtime --files=files`
 *     exports, our pull and deploy install, and a repository that both
 *     tools wrote to still lists both for Flatpak
 *   - a commit and summary we sign with a key made here verify, with
 *     libostree and with a Flatpak remote that checks signatures
 *
 * Everything is in one temporary directory: HOME, the XDG dirs,
 * FLATPAK_USER_DIR/SYSTEM_DIR/CONFIG_DIR, GNUPGHOME, the repositories and
 * our installation.  Never the real ones. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <ostree.h>

#include "policy/context.h"
#include "store/build-export.h"
#include "store/build-finish.h"
#include "store/build-init.h"
#include "store/deploy.h"
#include "store/deployment.h"
#include "store/exports.h"
#include "store/installation.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/remote.h"

static char *tmp_root;     /* the test's one directory */
static GStrv child_env;    /* the environment of flatpak, gpg, ostree */

static char *
in_tmp (const char *relpath)
{
  return g_build_filename (tmp_root, relpath, NULL);
}

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  g_assert_cmpint (chmod (path, mode), ==, 0);
}

/* Runs @argv (bounded in time) in the test's environment; stdout is
 * returned, stderr goes to the log on failure. */
static gboolean
run (const char * const  *argv,
     char               **out_stdout)
{
  g_autoptr(GPtrArray) full = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  g_ptr_array_add (full, (char *) "timeout");
  g_ptr_array_add (full, (char *) "-k5");
  g_ptr_array_add (full, (char *) "240");
  for (gsize i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, (char *) argv[i]);
  g_ptr_array_add (full, NULL);

  if (!g_spawn_sync (tmp_root, (char **) full->pdata, child_env, G_SPAWN_SEARCH_PATH,
                     NULL, NULL, &out, &err, &status, &error))
    {
      g_test_message ("%s: %s", argv[0], error->message);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, &error))
    {
      g_autofree char *cmd = g_strjoinv (" ", (char **) argv);
      g_test_message ("'%s' failed: %s\n%s%s", cmd, error->message, out, err);
      return FALSE;
    }
  if (out_stdout != NULL)
    *out_stdout = g_steal_pointer (&out);
  return TRUE;
}

#define RUN(...) run ((const char * const []) { __VA_ARGS__, NULL }, NULL)

static gboolean
have (const char *program)
{
  g_autofree char *path = g_find_program_in_path (program);
  return path != NULL;
}

static XaContext *
context_from (const char *context_group)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_key_file_load_from_data (keyfile, context_group, -1, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (xa_context_load_keyfile (context, keyfile, "test", &error));
  g_assert_no_error (error);
  return g_steal_pointer (&context);
}

/* build-init + a program + build-finish, for the app @id. */
static char *
build_app (const char *id,
           const char *name)
{
  g_autofree char *dir = in_tmp (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=wayland;\nshared=network;\n");
  g_autofree char *desktop = NULL;
  g_autofree char *icon = NULL;
  g_autofree char *stray = NULL;
  g_autofree char *program = NULL;
  XaBuildInitOptions init = {
    .dir = dir, .id = id, .sdk = "org.test.Sdk", .runtime = "org.test.Platform",
  };
  XaBuildFinishOptions finish = { .dir = dir, .context = context };

  g_assert_true (xa_build_init (&init, &error));
  g_assert_no_error (error);

  program = g_build_filename (dir, "files/bin/hello", NULL);
  write_file (program, "#!/bin/sh\necho hello\n", 0755);
  desktop = g_strdup_printf ("%s/files/share/applications/%s.desktop", dir, id);
  write_file (desktop, "[Desktop Entry]\nType=Application\nName=Hello\nExec=hello %U\n"
              "Icon=org.test.Hello\n", 0644);
  icon = g_strdup_printf ("%s/files/share/icons/hicolor/64x64/apps/%s.png", dir, id);
  write_file (icon, "not really a PNG", 0644);
  stray = g_build_filename (dir, "files/share/applications/org.gnome.Shell.desktop", NULL);
  write_file (stray, "[Desktop Entry]\nType=Application\nExec=evil\n", 0644);

  g_assert_true (xa_build_finish (&finish, &messages, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&dir);
}

static char *
build_runtime (const char *id,
               const char *name)
{
  g_autofree char *dir = in_tmp (name);
  g_autofree char *tool = NULL;
  g_autoptr(GError) error = NULL;
  XaBuildInitOptions init = {
    .dir = dir, .id = id, .sdk = "org.test.Sdk", .runtime = id, .is_runtime = TRUE,
  };

  g_assert_true (xa_build_init (&init, &error));
  g_assert_no_error (error);
  tool = g_build_filename (dir, "files/bin/tool", NULL);
  write_file (tool, "#!/bin/sh\nexit 0\n", 0755);
  return g_steal_pointer (&dir);
}

static char *
export (const char          *repo,
        const char          *dir,
        gboolean             runtime,
        const char * const  *keys,
        const char          *homedir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *commit = NULL;
  XaBuildExportOptions opts = {
    .repo = repo, .dir = dir, .runtime = runtime,
    .gpg_key_ids = keys, .gpg_homedir = homedir,
  };

  g_assert_true (xa_build_export (&opts, NULL, &commit, &error));
  g_assert_no_error (error);
  g_assert_true (ostree_validate_checksum_string (commit, NULL));
  return g_steal_pointer (&commit);
}

/* ------------------------------------------------------------------ */

static void
test_build_dir_layout (void)
{
  g_autofree char *dir = build_app ("org.test.Layout", "layout");
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *runtime = NULL;
  g_autofree char *command = NULL;
  g_autofree char *sockets = NULL;
  g_autofree char *exported = g_build_filename (dir, "export/share/applications/org.test.Layout.desktop", NULL);
  g_autofree char *icon = g_build_filename (dir, "export/share/icons/hicolor/64x64/apps/org.test.Layout.png", NULL);
  g_autofree char *stray = g_build_filename (dir, "export/share/applications/org.gnome.Shell.desktop", NULL);
  g_autofree char *var_run = g_build_filename (dir, "var/run", NULL);
  g_autofree char *expected = g_strdup_printf ("org.test.Platform/%s/master", xa_ref_get_default_arch ());
  g_autoptr(GError) error = NULL;
  XaBuildInitOptions again = { .dir = dir, .id = "org.test.Layout", .sdk = "org.test.Sdk",
                               .runtime = "org.test.Platform" };
  XaBuildFinishOptions finish_again = { .dir = dir };

  g_assert_true (g_key_file_load_from_file (keyfile, metadata, G_KEY_FILE_NONE, NULL));
  runtime = g_key_file_get_string (keyfile, "Application", "runtime", NULL);
  g_assert_cmpstr (runtime, ==, expected);
  command = g_key_file_get_string (keyfile, "Application", "command", NULL);
  g_assert_cmpstr (command, ==, "hello");
  sockets = g_key_file_get_string (keyfile, "Context", "sockets", NULL);
  g_assert_nonnull (strstr (sockets, "wayland"));
  g_assert_true (g_file_test (exported, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (icon, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (stray, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (var_run, G_FILE_TEST_IS_SYMLINK));

  /* Neither step runs twice over a directory. */
  g_assert_false (xa_build_init (&again, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
  g_clear_error (&error);
  g_assert_false (xa_build_finish (&finish_again, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
}

static void
test_commit_has_flatpak_layout (void)
{
  g_autofree char *dir = build_app ("org.test.Meta", "meta");
  g_autofree char *repo_path = in_tmp ("repo-meta");
  g_autofree char *commit = export (repo_path, dir, FALSE, NULL, NULL);
  g_autoptr(GFile) repo_file = g_file_new_for_path (repo_path);
  g_autoptr(OstreeRepo) repo = ostree_repo_new (repo_file);
  g_autoptr(GVariant) commit_v = NULL;
  g_autoptr(GVariant) meta = NULL;
  g_autoptr(GVariant) summary = NULL;
  g_autoptr(GVariant) summary_meta = NULL;
  g_autoptr(GVariant) cache = NULL;
  g_autoptr(GBytes) summary_bytes = NULL;
  g_autoptr(GFile) root = NULL;
  g_autoptr(GFile) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *metadata_file = g_build_filename (dir, "metadata", NULL);
  g_autofree char *metadata_contents = NULL;
  g_autofree char *ref = g_strdup_printf ("app/org.test.Meta/%s/master", xa_ref_get_default_arch ());
  g_autofree char *summary_path = g_build_filename (repo_path, "summary", NULL);
  const char *xa_metadata = NULL;
  const char **bindings = NULL;
  guint64 installed = 0;
  char *data = NULL;
  gsize len;

  g_assert_true (ostree_repo_open (repo, NULL, &error));
  g_assert_cmpint (ostree_repo_get_mode (repo), ==, OSTREE_REPO_MODE_ARCHIVE_Z2);
  g_assert_true (ostree_repo_load_variant (repo, OSTREE_OBJECT_TYPE_COMMIT, commit, &commit_v, &error));
  meta = g_variant_get_child_value (commit_v, 0);
  g_assert_true (g_file_get_contents (metadata_file, &metadata_contents, NULL, NULL));
  g_assert_true (g_variant_lookup (meta, "xa.metadata", "&s", &xa_metadata));
  g_assert_cmpstr (xa_metadata, ==, metadata_contents);
  g_assert_true (g_variant_lookup (meta, "xa.installed-size", "t", &installed));
  g_assert_cmpuint (GUINT64_FROM_BE (installed), >, 0);
  g_assert_true (g_variant_lookup (meta, "xa.download-size", "t", &installed));
  g_assert_true (g_variant_lookup (meta, "ostree.ref-binding", "^a&s", &bindings));
  g_assert_cmpstr (bindings[0], ==, ref);
  g_assert_null (bindings[1]);
  g_free (bindings);

  /* The root: metadata, files/, export/. */
  g_assert_true (ostree_repo_read_commit (repo, commit, &root, NULL, NULL, &error));
  child = g_file_resolve_relative_path (root, "files/bin/hello");
  g_assert_true (g_file_query_exists (child, NULL));
  g_clear_object (&child);
  child = g_file_resolve_relative_path (root, "export/share/applications/org.test.Meta.desktop");
  g_assert_true (g_file_query_exists (child, NULL));
  g_clear_object (&child);
  child = g_file_get_child (root, "metadata");
  g_assert_true (g_file_load_contents (child, NULL, &data, &len, NULL, &error));
  g_assert_cmpstr (data, ==, metadata_contents);
  g_free (data);

  /* The summary carries Flatpak's cache for the ref. */
  g_assert_true (g_file_get_contents (summary_path, &data, &len, &error));
  summary_bytes = g_bytes_new_take (data, len);
  summary = g_variant_ref_sink (g_variant_new_from_bytes (OSTREE_SUMMARY_GVARIANT_FORMAT,
                                                          summary_bytes, FALSE));
  summary_meta = g_variant_get_child_value (summary, 1);
  cache = g_variant_lookup_value (summary_meta, "xa.cache", G_VARIANT_TYPE_VARIANT);
  g_assert_nonnull (cache);
  {
    g_autoptr(GVariant) inner = g_variant_get_variant (cache);
    g_autoptr(GVariant) entry = g_variant_lookup_value (inner, ref, G_VARIANT_TYPE ("(tts)"));
    const char *cached = NULL;
    g_assert_nonnull (entry);
    g_variant_get_child (entry, 2, "&s", &cached);
    g_assert_cmpstr (cached, ==, metadata_contents);
  }
}

/* Flatpak's environment: everything below the test's directory. */
static gboolean
flatpak_available (void)
{
  if (!have ("flatpak"))
    {
      g_test_skip ("flatpak is not installed");
      return FALSE;
    }
  return TRUE;
}

static void
test_flatpak_installs_our_app (void)
{
  g_autofree char *app = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *repo = in_tmp ("repo-fp");
  g_autofree char *url = NULL;
  g_autofree char *deployed = NULL;
  g_autofree char *exported = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *app_ref = NULL;
  g_autofree char *runtime_ref = NULL;
  g_autofree char *fp_user = in_tmp ("flatpak-user");

  if (!flatpak_available ())
    return;

  app = build_app ("org.test.Hello", "hello");
  runtime = build_runtime ("org.test.Platform", "platform");
  g_free (export (repo, runtime, TRUE, NULL, NULL));
  g_free (export (repo, app, FALSE, NULL, NULL));

  url = g_strconcat ("file://", repo, NULL);
  app_ref = g_strdup_printf ("app/org.test.Hello/%s/master", xa_ref_get_default_arch ());
  runtime_ref = g_strdup_printf ("runtime/org.test.Platform/%s/master", xa_ref_get_default_arch ());
  g_assert_true (RUN ("flatpak", "--user", "remote-add", "--no-gpg-verify", "ours", url));
  g_assert_true (RUN ("flatpak", "--user", "install", "-y", "--noninteractive", "ours", runtime_ref));
  g_assert_true (RUN ("flatpak", "--user", "install", "-y", "--noninteractive", "ours", app_ref));
  g_assert_true (RUN ("flatpak", "--user", "info", "org.test.Hello"));

  deployed = g_strdup_printf ("%s/app/org.test.Hello/%s/master/active/files/bin/hello",
                              fp_user, xa_ref_get_default_arch ());
  g_assert_true (g_file_test (deployed, G_FILE_TEST_IS_EXECUTABLE));
  exported = g_build_filename (fp_user, "exports/share/applications/org.test.Hello.desktop", NULL);
  g_assert_true (g_file_get_contents (exported, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "--command=hello"));
}

static void
test_flatpak_runtime_installs_here (void)
{
  g_autofree char *dir = in_tmp ("fp-runtime");
  g_autofree char *repo = in_tmp ("repo-mixed");
  g_autofree char *url = NULL;
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *tool = g_build_filename (dir, "files/bin/tool", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *ref_str = g_strdup_printf ("runtime/org.test.FpPlatform/%s/master",
                                              xa_ref_get_default_arch ());
  g_autofree char *inst_path = in_tmp ("xa-installation");
  g_autofree char *commit = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *our_app = NULL;
  g_autofree char *deployed_tool = NULL;
  g_autoptr(XaInstallation) inst = NULL;
  g_autoptr(XaDeployment) deployment = NULL;
  g_autoptr(XaRef) ref = NULL;
  g_autoptr(GError) error = NULL;

  if (!flatpak_available ())
    return;

  contents = g_strdup_printf ("[Runtime]\nname=org.test.FpPlatform\n"
                              "runtime=org.test.FpPlatform/%s/master\n"
                              "sdk=org.test.FpPlatform/%s/master\n",
                              xa_ref_get_default_arch (), xa_ref_get_default_arch ());
  write_file (metadata, contents, 0644);
  write_file (tool, "#!/bin/sh\nexit 0\n", 0755);
  g_assert_true (RUN ("flatpak", "build-export", "--runtime", "--files=files", repo, dir, "master"));

  /* Our pull and deploy read Flatpak's commit. */
  url = g_strconcat ("file://", repo, NULL);
  inst = xa_installation_new (inst_path, XA_INSTALLATION_USER);
  g_assert_true (xa_remote_add (inst, "fp", url, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (xa_pull_ref (inst, "fp", ref_str, NULL, NULL, &commit, &error));
  g_assert_no_error (error);
  ref = xa_ref_parse (ref_str, &error);
  g_assert_no_error (error);
  g_assert_true (xa_deploy_install (inst, ref, "fp", commit, NULL, &error));
  g_assert_no_error (error);
  deployment = xa_deployment_open_ref (inst, ref, &error);
  g_assert_no_error (error);
  deployed_tool = g_build_filename (xa_deployment_get_files_dir (deployment), "bin/tool", NULL);
  g_assert_true (g_file_test (deployed_tool, G_FILE_TEST_IS_EXECUTABLE));

  /* build-init -v: the installed runtime's files become var/. */
  {
    g_autofree char *var_dir = in_tmp ("with-var");
    g_autofree char *var_tool = g_build_filename (var_dir, "var/bin/tool", NULL);
    g_autofree char *var_tmp = g_build_filename (var_dir, "var/tmp", NULL);
    XaBuildInitOptions init = {
      .dir = var_dir, .id = "org.test.WithVar", .sdk = "org.test.FpPlatform",
      .runtime = "org.test.FpPlatform", .var = "org.test.FpPlatform", .installation = inst,
    };

    g_assert_true (xa_build_init (&init, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_test (var_tool, G_FILE_TEST_IS_EXECUTABLE));
    g_assert_true (g_file_test (var_tmp, G_FILE_TEST_IS_DIR));
  }

  /* Our export into Flatpak's repository: Flatpak still sees both refs
   * (its summary index would be stale, so it is gone). */
  our_app = build_app ("org.test.Mixed", "mixed");
  g_free (export (repo, our_app, FALSE, NULL, NULL));
  g_assert_true (RUN ("flatpak", "--user", "remote-add", "--no-gpg-verify", "mixed", url));
  g_assert_true (run ((const char * const []) { "flatpak", "--user", "remote-ls", "--all",
                                                "--columns=ref", "mixed", NULL }, &listed));
  g_assert_nonnull (strstr (listed, "org.test.Mixed"));
  g_assert_nonnull (strstr (listed, "org.test.FpPlatform"));

  /* And our own install of our app exports its desktop file confined. */
  {
    g_autofree char *app_ref_str = g_strdup_printf ("app/org.test.Mixed/%s/master",
                                                    xa_ref_get_default_arch ());
    g_autofree char *app_commit = NULL;
    g_autofree char *share = xa_exports_dir (inst);
    g_autofree char *desktop = g_build_filename (share, "applications/org.test.Mixed.desktop", NULL);
    g_autofree char *desktop_data = NULL;
    g_autoptr(XaRef) app_ref = xa_ref_parse (app_ref_str, &error);

    g_assert_no_error (error);
    g_assert_true (xa_pull_ref (inst, "fp", app_ref_str, NULL, NULL, &app_commit, &error));
    g_assert_no_error (error);
    g_assert_true (xa_deploy_install (inst, app_ref, "fp", app_commit, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (desktop, &desktop_data, NULL, &error));
    g_assert_nonnull (strstr (desktop_data,
                              "Exec=xdg-app run --command=hello -- org.test.Mixed %U"));
  }
}

static char *
make_gpg_key (const char *homedir)
{
  g_autofree char *listing = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *home_arg = g_strconcat ("--homedir=", homedir, NULL);

  g_assert_cmpint (g_mkdir_with_parents (homedir, 0700), ==, 0);
  g_assert_true (RUN ("gpg", "--batch", home_arg, "--passphrase", "", "--quick-gen-key",
                      "xdg-app test <test@example.invalid>", "default", "default", "never"));
  g_assert_true (run ((const char * const []) { "gpg", "--batch", home_arg, "--with-colons",
                                                "--list-secret-keys", NULL }, &listing));
  lines = g_strsplit (listing, "\n", -1);
  for (gsize i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "fpr:"))
      {
        g_auto(GStrv) fields = g_strsplit (lines[i], ":", -1);
        return g_strdup (fields[9]);
      }
  g_assert_not_reached ();
  return NULL;
}

static void
test_signed_export_verifies (void)
{
  g_autofree char *gnupg = in_tmp ("gnupg");
  g_autofree char *keyring = in_tmp ("key.gpg");
  g_autofree char *repo_path = in_tmp ("repo-signed");
  g_autofree char *fingerprint = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *commit = NULL;
  g_autofree char *home_arg = g_strconcat ("--homedir=", gnupg, NULL);
  g_autofree char *output_arg = g_strconcat ("--output=", keyring, NULL);
  g_autofree char *summary_sig = g_build_filename (repo_path, "summary.sig", NULL);
  g_autofree char *url = NULL;
  g_autofree char *import_arg = NULL;
  g_autoptr(GFile) repo_file = g_file_new_for_path (repo_path);
  g_autoptr(GFile) keyring_file = g_file_new_for_path (keyring);
  g_autoptr(OstreeRepo) repo = ostree_repo_new (repo_file);
  g_autoptr(OstreeGpgVerifyResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *keys[2] = { NULL, NULL };

  if (!have ("gpg"))
    {
      g_test_skip ("gpg is not installed");
      return;
    }

  fingerprint = make_gpg_key (gnupg);
  g_assert_true (RUN ("gpg", "--batch", home_arg, output_arg, "--export", fingerprint));
  keys[0] = fingerprint;

  dir = build_app ("org.test.Signed", "signed");
  commit = export (repo_path, dir, FALSE, keys, gnupg);
  g_assert_true (g_file_test (summary_sig, G_FILE_TEST_IS_REGULAR));

  /* libostree checks the commit's signature against the exported key. */
  g_assert_true (ostree_repo_open (repo, NULL, &error));
  result = ostree_repo_verify_commit_ext (repo, commit, NULL, keyring_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ostree_gpg_verify_result_count_valid (result), ==, 1);

  /* Flatpak checks both the summary's and the commit's signatures. */
  if (!flatpak_available ())
    return;
  url = g_strconcat ("file://", repo_path, NULL);
  import_arg = g_strconcat ("--gpg-import=", keyring, NULL);
  g_assert_true (RUN ("flatpak", "--user", "remote-add", import_arg, "signed", url));
  g_assert_true (RUN ("flatpak", "--user", "remote-ls", "signed"));
  g_assert_true (RUN ("flatpak", "--user", "install", "-y", "--noninteractive", "--no-deps",
                      "signed", "org.test.Signed"));

  /* An export without the key leaves an unsigned summary, which that
   * remote then refuses rather than trusting a stale signature. */
  {
    g_autofree char *unsigned_dir = build_app ("org.test.Unsigned", "unsigned");
    g_free (export (repo_path, unsigned_dir, FALSE, NULL, NULL));
    g_assert_false (g_file_test (summary_sig, G_FILE_TEST_EXISTS));
    g_assert_false (RUN ("flatpak", "--user", "install", "-y", "--noninteractive", "--no-deps",
                         "signed", "org.test.Unsigned"));
  }
}

static void
setup_environment (void)
{
  const struct { const char *var; const char *relpath; } dirs[] = {
    { "HOME", "home" },
    { "XDG_DATA_HOME", "home/.local/share" },
    { "XDG_CONFIG_HOME", "home/.config" },
    { "XDG_CACHE_HOME", "home/.cache" },
    { "XDG_STATE_HOME", "home/.local/state" },
    { "XDG_RUNTIME_DIR", "run" },
    { "FLATPAK_USER_DIR", "flatpak-user" },
    { "FLATPAK_SYSTEM_DIR", "flatpak-system" },
    { "FLATPAK_CONFIG_DIR", "flatpak-etc" },
    { "GNUPGHOME", "gnupg" },
  };
  g_autofree char *no_bus = NULL;

  child_env = g_get_environ ();
  for (gsize i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = in_tmp (dirs[i].relpath);

      g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
      child_env = g_environ_setenv (child_env, dirs[i].var, path, TRUE);
    }
  /* A bus address that nothing listens on: nothing may reach the host's. */
  no_bus = g_strconcat ("unix:path=", tmp_root, "/no-bus", NULL);
  child_env = g_environ_setenv (child_env, "DBUS_SYSTEM_BUS_ADDRESS", no_bus, TRUE);
  child_env = g_environ_unsetenv (child_env, "DBUS_SESSION_BUS_ADDRESS");
  child_env = g_environ_unsetenv (child_env, "XDG_DATA_DIRS");
  child_env = g_environ_setenv (child_env, "LC_ALL", "C.UTF-8", TRUE);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        (void) g_unlink (child);
    }
  (void) g_rmdir (path);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmp_root = g_dir_make_tmp ("xa-build-export-XXXXXX", &error);
  g_assert_no_error (error);
  setup_environment ();

  g_test_add_func ("/store/build/init-and-finish-lay-out-the-directory", test_build_dir_layout);
  g_test_add_func ("/store/build-export/commit-has-flatpak-layout", test_commit_has_flatpak_layout);
  g_test_add_func ("/store/build-export/flatpak-installs-our-app", test_flatpak_installs_our_app);
  g_test_add_func ("/store/build-export/flatpak-runtime-installs-here",
                   test_flatpak_runtime_installs_here);
  g_test_add_func ("/store/build-export/signed-export-verifies", test_signed_export_verifies);

  status = g_test_run ();

  /* gpg-agent outlives gpg; it is ours to stop. */
  if (have ("gpgconf"))
    {
      g_autofree char *gnupg = in_tmp ("gnupg");
      g_autofree char *home_arg = g_strconcat ("--homedir=", gnupg, NULL);
      (void) RUN ("gpgconf", home_arg, "--kill", "all");
    }
  remove_tree (tmp_root);
  g_strfreev (child_env);
  g_free (tmp_root);
  return status;
}
