/* tests/policy/test-override.c — override files in an installation's
 * overrides/ directory: Flatpak's layout (overrides/ID, overrides/global),
 * absent means empty, saving is atomic and keeps what it does not own. */
#include <string.h>
#include <sys/stat.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "policy/context.h"
#include "policy/override.h"
#include "policy/policy-error.h"

#define APP_ID "org.example.Notes"

/* A fresh installation directory; its overrides/ does not exist yet. */
static char *
overrides_dir (void)
{
  g_autofree char *base = g_build_filename (g_get_user_data_dir (), "xdg-app", NULL);

  g_assert_cmpint (g_mkdir_with_parents (base, 0700), ==, 0);
  return g_build_filename (base, "overrides", NULL);
}

static void
write_override (const char *dir,
                const char *name,
                const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

static char *
read_override (const char *dir,
               const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static XaOverride *
load_ok (const char *dir,
         const char *app_id)
{
  g_autoptr(GError) error = NULL;
  XaOverride *override = xa_override_load (dir, app_id, &error);

  g_assert_no_error (error);
  g_assert_nonnull (override);
  return override;
}

static void
save_ok (XaOverride *override)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_override_save (override, &error));
  g_assert_no_error (error);
}

static void
option_ok (XaOverride *override,
           const char *option,
           const char *value)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_context_parse_option (xa_override_get_context (override), option, value,
                                          &error));
  g_assert_no_error (error);
}

static void
test_missing_file_is_empty_override (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = load_ok (dir, APP_ID);
  g_autofree char *text = xa_context_to_text (xa_override_get_context (override));

  g_assert_cmpstr (text, ==, "");
  g_assert_cmpstr (xa_override_get_app_id (override), ==, APP_ID);
  g_assert_true (g_str_has_suffix (xa_override_get_path (override), "/overrides/" APP_ID));
}

static void
test_global_override_is_named_global (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = load_ok (dir, NULL);

  g_assert_null (xa_override_get_app_id (override));
  g_assert_true (g_str_has_suffix (xa_override_get_path (override), "/overrides/global"));
}

static void
test_save_creates_overrides_directory (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = load_ok (dir, APP_ID);
  g_autofree char *contents = NULL;

  option_ok (override, "--nosocket", "pulseaudio");
  save_ok (override);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  contents = read_override (dir, APP_ID);
  g_assert_cmpstr (contents, ==, "[Context]\nsockets=!pulseaudio;\n");
}

static void
test_saved_override_loads_back (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) first = load_ok (dir, APP_ID);
  g_autoptr(XaOverride) second = NULL;
  g_autofree char *text_first = NULL;
  g_autofree char *text_second = NULL;

  option_ok (first, "--filesystem", "xdg-download:ro");
  option_ok (first, "--talk-name", "org.example.Sync");
  option_ok (first, "--env", "NOTES_DEBUG=1");
  save_ok (first);
  second = load_ok (dir, APP_ID);
  text_first = xa_context_to_text (xa_override_get_context (first));
  text_second = xa_context_to_text (xa_override_get_context (second));
  g_assert_cmpstr (text_first, ==, text_second);
}

static void
test_edits_add_to_existing_override (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = NULL;
  g_autoptr(XaOverride) again = NULL;
  XaContext *context;

  write_override (dir, APP_ID, "[Context]\nsockets=!pulseaudio;\n");
  override = load_ok (dir, APP_ID);
  option_ok (override, "--device", "dri");
  save_ok (override);

  again = load_ok (dir, APP_ID);
  context = xa_override_get_context (again);
  g_assert_true (xa_context_has_device (context, XA_DEVICE_DRI));
  g_assert_false (xa_context_has_socket (context, XA_SOCKET_PULSEAUDIO));
}

static void
test_save_keeps_foreign_groups_and_comments (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = NULL;
  g_autofree char *contents = NULL;

  write_override (dir, APP_ID,
                  "# set by the admin\n"
                  "[Context]\nsockets=wayland;\n"
                  "[Policy org.example.thing]\nkey=value;\n");
  override = load_ok (dir, APP_ID);
  option_ok (override, "--share", "network");
  save_ok (override);
  contents = read_override (dir, APP_ID);
  g_assert_nonnull (strstr (contents, "# set by the admin\n"));
  g_assert_nonnull (strstr (contents, "[Policy org.example.thing]\nkey=value;\n"));
  g_assert_nonnull (strstr (contents, "shared=network;\n"));
}

static void
test_save_leaves_no_temporary_file (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = load_ok (dir, APP_ID);
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint n = 0;

  option_ok (override, "--socket", "wayland");
  save_ok (override);
  save_ok (override);
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_assert_cmpstr (name, ==, APP_ID);
      n++;
    }
  g_assert_cmpuint (n, ==, 1);
}

static void
test_saved_file_is_world_readable (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = load_ok (dir, APP_ID);
  g_autofree char *path = g_build_filename (dir, APP_ID, NULL);
  struct stat st;

  save_ok (override);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0644);
}

static void
test_save_without_installation_fails (void)
{
  g_autofree char *missing = g_build_filename (g_get_user_data_dir (), "absent", "overrides", NULL);
  g_autoptr(XaOverride) override = load_ok (missing, APP_ID);
  g_autoptr(GError) error = NULL;

  g_assert_false (xa_override_save (override, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

static void
test_app_override_comes_after_global (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaContext) merged = NULL;
  g_autoptr(GError) error = NULL;

  write_override (dir, "global", "[Context]\nshared=network;\nfilesystems=home;\n");
  write_override (dir, APP_ID, "[Context]\nshared=!network;\n");
  merged = xa_override_load_merged (dir, APP_ID, &error);
  g_assert_no_error (error);
  g_assert_false (xa_context_has_share (merged, XA_SHARE_NETWORK));
  g_assert_cmpint (xa_context_get_filesystem_mode (merged, "home"), ==,
                   XA_FILESYSTEM_MODE_READ_WRITE);
}

static void
test_merged_overrides_apply_over_metadata (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaContext) metadata = xa_context_new ();
  g_autoptr(XaContext) overrides = NULL;

  write_override (dir, APP_ID, "[Context]\nsockets=!pulseaudio;\n");
  xa_context_allow_socket (metadata, XA_SOCKET_PULSEAUDIO);
  overrides = xa_override_load_merged (dir, APP_ID, NULL);
  xa_context_merge (metadata, overrides);
  g_assert_false (xa_context_has_socket (metadata, XA_SOCKET_PULSEAUDIO));
}

/* As `flatpak override --user --nosocket=x11 --nofilesystem=home
 * --talk-name=org.example.Sync --env=FOO=bar APP` writes it (1.14). */
static void
test_flatpak_written_override_loads (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(XaOverride) override = NULL;
  XaContext *context;

  write_override (dir, APP_ID,
                  "[Context]\n"
                  "sockets=!x11;\n"
                  "filesystems=!home;\n"
                  "\n"
                  "[Session Bus Policy]\n"
                  "org.example.Sync=talk\n"
                  "\n"
                  "[Environment]\n"
                  "FOO=bar\n");
  override = load_ok (dir, APP_ID);
  context = xa_override_get_context (override);
  g_assert_cmpuint (g_strv_length ((char **) xa_context_get_warnings (context)), ==, 0);
  g_assert_cmpstr (g_hash_table_lookup (xa_context_get_env (context), "FOO"), ==, "bar");
}

static void
test_bad_content_names_the_file (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(XaOverride) override = NULL;

  write_override (dir, APP_ID, "[Context]\ndevices=gpu;\n");
  override = xa_override_load (dir, APP_ID, &error);
  g_assert_null (override);
  g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION);
  expected = g_strdup_printf ("override file '%s/%s', [Context]: unknown device 'gpu'", dir, APP_ID);
  g_assert_nonnull (strstr (error->message, expected));
}

static void
test_broken_keyfile_is_refused (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(XaOverride) override = NULL;

  write_override (dir, APP_ID, "[Context\n");
  override = xa_override_load (dir, APP_ID, &error);
  g_assert_null (override);
  g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "override file '"));
}

static void
test_invalid_app_id_is_refused (void)
{
  const char *const bad[] = { "../../etc/passwd", "global", "org.example", "", NULL };
  g_autofree char *dir = overrides_dir ();
  gsize i;

  for (i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XaOverride) override = xa_override_load (dir, bad[i], &error);

      g_assert_null (override);
      g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_NAME);
    }
}

static void
test_remove_deletes_the_file (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autofree char *path = g_build_filename (dir, APP_ID, NULL);
  g_autoptr(GError) error = NULL;

  write_override (dir, APP_ID, "[Context]\nsockets=!wayland;\n");
  g_assert_true (xa_override_remove (dir, APP_ID, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_remove_of_missing_file_succeeds (void)
{
  g_autofree char *dir = overrides_dir ();
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_override_remove (dir, APP_ID, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/policy/override/missing-file-is-empty-override",
                   test_missing_file_is_empty_override);
  g_test_add_func ("/policy/override/global-override-is-named-global",
                   test_global_override_is_named_global);
  g_test_add_func ("/policy/override/save-creates-overrides-directory",
                   test_save_creates_overrides_directory);
  g_test_add_func ("/policy/override/saved-override-loads-back", test_saved_override_loads_back);
  g_test_add_func ("/policy/override/edits-add-to-existing-override",
                   test_edits_add_to_existing_override);
  g_test_add_func ("/policy/override/save-keeps-foreign-groups-and-comments",
                   test_save_keeps_foreign_groups_and_comments);
  g_test_add_func ("/policy/override/save-leaves-no-temporary-file",
                   test_save_leaves_no_temporary_file);
  g_test_add_func ("/policy/override/saved-file-is-world-readable",
                   test_saved_file_is_world_readable);
  g_test_add_func ("/policy/override/save-without-installation-fails",
                   test_save_without_installation_fails);
  g_test_add_func ("/policy/override/app-override-comes-after-global",
                   test_app_override_comes_after_global);
  g_test_add_func ("/policy/override/merged-overrides-apply-over-metadata",
                   test_merged_overrides_apply_over_metadata);
  g_test_add_func ("/policy/override/flatpak-written-override-loads",
                   test_flatpak_written_override_loads);
  g_test_add_func ("/policy/override/bad-content-names-the-file", test_bad_content_names_the_file);
  g_test_add_func ("/policy/override/broken-keyfile-is-refused", test_broken_keyfile_is_refused);
  g_test_add_func ("/policy/override/invalid-app-id-is-refused", test_invalid_app_id_is_refused);
  g_test_add_func ("/policy/override/remove-deletes-the-file", test_remove_deletes_the_file);
  g_test_add_func ("/policy/override/remove-of-missing-file-succeeds",
                   test_remove_of_missing_file_succeeds);

  return g_test_run ();
}
