/* tests/policy/test-metadata.c — app and runtime metadata: what is read,
 * a table of what is refused (each with the words the user reads), and
 * Flatpak's rules for ids, arches and branches. */
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "policy/context.h"
#include "policy/metadata.h"
#include "policy/policy-error.h"

#define APP_HEAD "[Application]\nname=org.example.Notes\nruntime=org.example.Platform/x86_64/stable\n"

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("'%s' does not contain '%s'", haystack, needle);
}

static void
assert_no_control_characters (const char *text)
{
  const char *p;

  for (p = text; *p != '\0'; p++)
    g_assert_false (g_ascii_iscntrl (*p));
}

static XaMetadata *
load (const char *text)
{
  g_autoptr(GError) error = NULL;
  XaMetadata *metadata = xa_metadata_load_data (text, strlen (text), "org.example.Notes", &error);

  g_assert_no_error (error);
  g_assert_nonnull (metadata);
  return metadata;
}

static char *
scratch_path (const char *name)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "scratch", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return g_build_filename (dir, name, NULL);
}

/* ---- what is read ------------------------------------------------------ */

static void
test_app_is_read (void)
{
  g_autoptr(XaMetadata) metadata = load (
    "[Application]\n"
    "name=org.example.Notes\n"
    "runtime=org.example.Platform/x86_64/stable\n"
    "sdk=org.example.Sdk/x86_64/stable\n"
    "command=notes\n"
    "[Context]\n"
    "sockets=wayland;\n");

  g_assert_cmpint (xa_metadata_get_kind (metadata), ==, XA_METADATA_APP);
  g_assert_cmpstr (xa_metadata_get_name (metadata), ==, "org.example.Notes");
  g_assert_cmpstr (xa_metadata_get_runtime (metadata), ==, "org.example.Platform/x86_64/stable");
  g_assert_cmpstr (xa_metadata_get_sdk (metadata), ==, "org.example.Sdk/x86_64/stable");
  g_assert_cmpstr (xa_metadata_get_command (metadata), ==, "notes");
  g_assert_true (xa_context_has_socket (xa_metadata_get_context (metadata), XA_SOCKET_WAYLAND));
  g_assert_cmpuint (g_strv_length ((char **) xa_metadata_get_warnings (metadata)), ==, 0);
}

static void
test_runtime_is_read (void)
{
  g_autoptr(XaMetadata) metadata = load (
    "[Runtime]\n"
    "name=org.example.Platform\n"
    "runtime=org.example.Platform/x86_64/stable\n"
    "sdk=org.example.Sdk/x86_64/stable\n"
    "[Environment]\n"
    "GI_TYPELIB_PATH=/app/lib/girepository-1.0\n");

  g_assert_cmpint (xa_metadata_get_kind (metadata), ==, XA_METADATA_RUNTIME);
  g_assert_cmpstr (xa_metadata_get_name (metadata), ==, "org.example.Platform");
  g_assert_null (xa_metadata_get_runtime (metadata));
  g_assert_null (xa_metadata_get_command (metadata));
  g_assert_cmpstr (xa_metadata_get_sdk (metadata), ==, "org.example.Sdk/x86_64/stable");
  g_assert_cmpstr (g_hash_table_lookup (xa_context_get_env (xa_metadata_get_context (metadata)),
                                        "GI_TYPELIB_PATH"), ==, "/app/lib/girepository-1.0");
}

static void
test_command_may_be_absolute_path (void)
{
  g_autoptr(XaMetadata) metadata = load (APP_HEAD "command=/app/bin/notes-wrapper\n");

  g_assert_cmpstr (xa_metadata_get_command (metadata), ==, "/app/bin/notes-wrapper");
}

static void
test_command_is_optional (void)
{
  g_autoptr(XaMetadata) metadata = load (APP_HEAD);

  g_assert_null (xa_metadata_get_command (metadata));
}

/* Written by flatpak-builder 1.2 for a real app (names changed): extension
 * groups, a [Policy] group and keys this module does not read. */
static void
test_flatpak_metadata_loads (void)
{
  g_autoptr(XaMetadata) metadata = load (
    "[Application]\n"
    "name=org.example.Notes\n"
    "runtime=org.gnome.Platform/x86_64/44\n"
    "sdk=org.gnome.Sdk/x86_64/44\n"
    "command=notes\n"
    "required-flatpak=1.7.1\n"
    "tags=proprietary;\n"
    "\n"
    "[Context]\n"
    "shared=network;ipc;\n"
    "sockets=x11;wayland;pulseaudio;fallback-x11;\n"
    "devices=dri;\n"
    "filesystems=xdg-run/pipewire-0;xdg-documents;~/.local/share/fonts:ro;\n"
    "persistent=.notes;\n"
    "\n"
    "[Session Bus Policy]\n"
    "org.freedesktop.Notifications=talk\n"
    "org.kde.StatusNotifierWatcher=talk\n"
    "\n"
    "[Environment]\n"
    "NOTES_USE_PORTAL=1\n"
    "\n"
    "[Extension org.example.Notes.Locale]\n"
    "directory=share/runtime/locale\n"
    "autodelete=true\n"
    "locale-subset=true\n"
    "\n"
    "[Policy org.example.thing]\n"
    "key=value;\n"
    "\n"
    "[Build]\n"
    "built-extensions=org.example.Notes.Locale;\n");
  const char *const *warnings = xa_metadata_get_warnings (metadata);
  XaContext *context = xa_metadata_get_context (metadata);

  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_DRI));
  g_assert_cmpuint (xa_context_get_filesystems (context)->len, ==, 3);
  g_assert_cmpuint (g_strv_length ((char **) warnings), ==, 2);
  g_assert_cmpstr (warnings[0], ==, "metadata of 'org.example.Notes', [Context]: sockets=x11: "
                                    "X11 is never exposed, ignoring");
  g_assert_true (g_key_file_has_group (xa_metadata_get_keyfile (metadata),
                                       "Extension org.example.Notes.Locale"));
}

static void
test_keyfile_is_kept (void)
{
  g_autoptr(XaMetadata) metadata = load (APP_HEAD "[X-Custom]\nkey=value\n");
  g_autofree char *value = g_key_file_get_string (xa_metadata_get_keyfile (metadata),
                                                  "X-Custom", "key", NULL);

  g_assert_cmpstr (value, ==, "value");
}

/* ---- what is refused --------------------------------------------------- */

typedef struct
{
  const char *name;
  const char *data;
  gsize       len;       /* 0: strlen (data) */
  int         code;
  const char *message;   /* a substring of the error message */
} Rejected;

/* Each row: one way a metadata file is refused.  The origin is always
 * "org.example.Notes", so every message starts with "metadata of
 * 'org.example.Notes'". */
static const Rejected rejected[] = {
  { "no-identity-group", "[Context]\nsockets=wayland;\n", 0, XA_POLICY_ERROR_INVALID_METADATA,
    "metadata of 'org.example.Notes': has neither [Application] nor [Runtime]" },
  { "empty-file", "", 0, XA_POLICY_ERROR_INVALID_METADATA,
    "has neither [Application] nor [Runtime]" },
  { "both-groups", APP_HEAD "[Runtime]\nname=org.example.Notes\n", 0, XA_POLICY_ERROR_INVALID_METADATA,
    "has both [Application] and [Runtime]" },
  { "missing-name", "[Application]\nruntime=org.example.Platform/x86_64/stable\n", 0,
    XA_POLICY_ERROR_INVALID_METADATA, "metadata of 'org.example.Notes', [Application]: name is missing" },
  { "runtime-missing-name", "[Runtime]\nsdk=org.example.Sdk/x86_64/1\n", 0,
    XA_POLICY_ERROR_INVALID_METADATA, "[Runtime]: name is missing" },
  { "id-two-elements", "[Application]\nname=org.example\nruntime=org.example.Platform/x86_64/1\n", 0,
    XA_POLICY_ERROR_INVALID_NAME,
    "[Application]: name: 'org.example' is not a valid id: it needs at least three elements" },
  { "id-element-starts-with-digit", "[Runtime]\nname=org.1example.Platform\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "'org.1example.Platform' is not a valid id: an element starts with a digit" },
  { "id-dash-before-last-element", "[Runtime]\nname=org.ex-ample.Platform\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "only the last element may contain '-'" },
  { "id-empty-element", "[Runtime]\nname=org..Platform\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "it has an empty element" },
  { "id-trailing-dot", "[Runtime]\nname=org.example.Platform.\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "it ends with '.'" },
  { "id-slash", "[Runtime]\nname=org.example/../Platform\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "only letters, digits, '_' and '-'" },
  { "id-control-character", "[Runtime]\nname=org.example.Pla\\ttform\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "'org.example.Pla\\x09tform' is not a valid id" },
  { "missing-runtime", "[Application]\nname=org.example.Notes\n", 0,
    XA_POLICY_ERROR_INVALID_METADATA, "[Application]: runtime is missing" },
  { "runtime-two-parts", "[Application]\nname=org.example.Notes\nruntime=org.example.Platform/stable\n", 0,
    XA_POLICY_ERROR_INVALID_NAME,
    "[Application]: runtime: 'org.example.Platform/stable' is not a valid runtime reference: expected ID/ARCH/BRANCH" },
  { "runtime-four-parts", "[Application]\nname=org.example.Notes\nruntime=runtime/org.example.Platform/x86_64/1\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "is not a valid runtime reference" },
  { "runtime-bad-id", "[Application]\nname=org.example.Notes\nruntime=platform/x86_64/stable\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "[Application]: runtime: 'platform' is not a valid id" },
  { "runtime-bad-arch", "[Application]\nname=org.example.Notes\nruntime=org.example.Platform/x86-64/stable\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "'x86-64' is not a valid arch" },
  { "runtime-dotdot-branch", "[Application]\nname=org.example.Notes\nruntime=org.example.Platform/x86_64/..\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "'..' is not a valid branch: it starts with '.'" },
  { "runtime-empty-branch", "[Application]\nname=org.example.Notes\nruntime=org.example.Platform/x86_64/\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "is not a valid branch: it is empty" },
  { "sdk-bad", APP_HEAD "sdk=gcc\n", 0,
    XA_POLICY_ERROR_INVALID_NAME, "[Application]: sdk: 'gcc' is not a valid runtime reference" },
  { "command-relative-path", APP_HEAD "command=bin/notes\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "[Application]: invalid command 'bin/notes': it must be a program name or an absolute path" },
  { "command-empty", APP_HEAD "command=\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "invalid command '': it is empty" },
  { "command-dotdot", APP_HEAD "command=/app/../usr/bin/sh\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "it contains \"..\"" },
  { "command-option", APP_HEAD "command=--help\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "it starts with '-'" },
  { "command-control-character", APP_HEAD "command=no\\ttes\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "invalid command 'no\\x09tes': it contains a control or invisible character" },
  { "command-escape-sequence", APP_HEAD "command=\033[2Jnotes\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "invalid command '\\x1B[2Jnotes'" },
  { "not-utf8", "[Application]\nname=org.example.Notes\xff\n", 0, XA_POLICY_ERROR_INVALID_METADATA,
    "metadata of 'org.example.Notes': not valid UTF-8 at offset 36" },
  { "nul-byte", APP_HEAD "\0[Context]\n", sizeof (APP_HEAD "\0[Context]\n") - 1,
    XA_POLICY_ERROR_INVALID_METADATA, "contains a NUL byte at offset 80" },
  { "keyfile-syntax", "[Application\nname=org.example.Notes\n", 0, XA_POLICY_ERROR_INVALID_METADATA,
    "metadata of 'org.example.Notes': " },
  { "key-outside-group", "name=org.example.Notes\n" APP_HEAD, 0, XA_POLICY_ERROR_INVALID_METADATA,
    "metadata of 'org.example.Notes': " },
  { "unknown-socket", APP_HEAD "[Context]\nsockets=x12;\n", 0, XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "metadata of 'org.example.Notes', [Context]: unknown socket 'x12' (valid: wayland, pulseaudio, "
    "session-bus, system-bus, ssh-auth, pcsc, cups, gpg-agent)" },
  { "unknown-device", APP_HEAD "[Context]\ndevices=gpu;\n", 0, XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "[Context]: unknown device 'gpu'" },
  { "unknown-filesystem", APP_HEAD "[Context]\nfilesystems=everything;\n", 0,
    XA_POLICY_ERROR_UNKNOWN_PERMISSION, "[Context]: unknown filesystem 'everything'" },
  { "filesystem-escape", APP_HEAD "[Context]\nfilesystems=~/../..;\n", 0,
    XA_POLICY_ERROR_INVALID_VALUE, "contains \"..\"" },
  { "persistent-absolute", APP_HEAD "[Context]\npersistent=/root;\n", 0,
    XA_POLICY_ERROR_INVALID_VALUE, "must be relative" },
  { "bus-name", APP_HEAD "[Session Bus Policy]\norg=own\n", 0, XA_POLICY_ERROR_INVALID_VALUE,
    "metadata of 'org.example.Notes', [Session Bus Policy]: invalid D-Bus name 'org'" },
  { "bus-policy", APP_HEAD "[System Bus Policy]\norg.freedesktop.login1=admin\n", 0,
    XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown policy 'admin' for 'org.freedesktop.login1'" },
};

static void
test_rejected (gconstpointer data)
{
  const Rejected *row = data;
  gsize len = row->len != 0 ? row->len : strlen (row->data);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = xa_metadata_load_data (row->data, len, "org.example.Notes",
                                                          &error);

  g_assert_null (metadata);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, XA_POLICY_ERROR, row->code);
  assert_contains (error->message, row->message);
  assert_no_control_characters (error->message);
}

static void
test_oversize_data_is_refused (void)
{
  gsize len = XA_METADATA_MAX_SIZE + 1;
  g_autofree char *data = g_malloc (len);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = NULL;

  memset (data, '#', len);
  memcpy (data, APP_HEAD, strlen (APP_HEAD));
  metadata = xa_metadata_load_data (data, len, "org.example.Notes", &error);
  g_assert_null (metadata);
  g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA);
  assert_contains (error->message, "metadata of 'org.example.Notes': larger than 1048576 bytes");
}

static void
test_origin_escapes_control_characters (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = xa_metadata_load_data ("", 0, "org.\033[2Jx", &error);

  g_assert_null (metadata);
  assert_contains (error->message, "metadata of 'org.\\x1B[2Jx'");
}

/* ---- files ------------------------------------------------------------- */

static void
test_file_is_read (void)
{
  g_autofree char *path = scratch_path ("metadata");
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = NULL;

  g_assert_true (g_file_set_contents (path, APP_HEAD, -1, NULL));
  metadata = xa_metadata_load_file (path, "app/org.example.Notes/x86_64/stable", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xa_metadata_get_name (metadata), ==, "org.example.Notes");
}

static void
test_file_without_origin_is_named_by_path (void)
{
  g_autofree char *path = scratch_path ("metadata");
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = NULL;

  g_assert_true (g_file_set_contents (path, APP_HEAD "[Context]\nsockets=x12;\n", -1, NULL));
  metadata = xa_metadata_load_file (path, NULL, &error);
  g_assert_null (metadata);
  expected = g_strdup_printf ("metadata '%s', [Context]: unknown socket 'x12'", path);
  assert_contains (error->message, expected);
}

static void
test_missing_file_is_noent (void)
{
  g_autofree char *path = scratch_path ("absent");
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = xa_metadata_load_file (path, "org.example.Notes", &error);

  g_assert_null (metadata);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  assert_contains (error->message, "metadata of 'org.example.Notes': ");
}

static void
test_symlinked_file_is_refused (void)
{
  g_autofree char *target = scratch_path ("elsewhere");
  g_autofree char *path = scratch_path ("metadata");
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = NULL;

  g_assert_true (g_file_set_contents (target, APP_HEAD, -1, NULL));
  g_assert_cmpint (symlink (target, path), ==, 0);
  metadata = xa_metadata_load_file (path, "org.example.Notes", &error);
  g_assert_null (metadata);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP);
}

static void
test_oversize_file_is_refused (void)
{
  g_autofree char *path = scratch_path ("metadata");
  g_autofree char *data = g_malloc (XA_METADATA_MAX_SIZE + 10);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaMetadata) metadata = NULL;

  memset (data, '#', XA_METADATA_MAX_SIZE + 10);
  g_assert_true (g_file_set_contents (path, data, XA_METADATA_MAX_SIZE + 10, NULL));
  metadata = xa_metadata_load_file (path, "org.example.Notes", &error);
  g_assert_null (metadata);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
  assert_contains (error->message, "larger than 1048576 bytes");
}

/* ---- ids, arches, branches --------------------------------------------- */

typedef struct
{
  const char *value;
  gboolean    valid;
} NameCase;

/* Flatpak's flatpak_is_valid_name() rules, one per row. */
static const NameCase ids[] = {
  { "org.example.Notes", TRUE },
  { "org.example.Notes.Locale", TRUE },
  { "org.example.my_app", TRUE },
  { "org.example.notes-beta", TRUE },      /* '-' in the last element */
  { "com.example._1", TRUE },
  { "org.example", FALSE },                /* two elements */
  { "org", FALSE },
  { "", FALSE },
  { ".org.example.Notes", FALSE },
  { "org.example.Notes.", FALSE },
  { "org..example.Notes", FALSE },
  { "org.example.1Notes", FALSE },         /* element starting with a digit */
  { "1org.example.Notes", FALSE },
  { "org.my-example.Notes", FALSE },       /* '-' before the last element */
  { "org.example.Notes/x", FALSE },
  { "org.example.Nötes", FALSE },
  { "org.example.No tes", FALSE },
};

static const NameCase arches[] = {
  { "x86_64", TRUE },
  { "aarch64", TRUE },
  { "i386", TRUE },
  { "", FALSE },
  { "x86-64", FALSE },
  { "x86_64/..", FALSE },
  { "arm.v7", FALSE },
};

static const NameCase branches[] = {
  { "stable", TRUE },
  { "44", TRUE },
  { "23.08", TRUE },
  { "master-beta_1", TRUE },
  { "-rc", TRUE },
  { "", FALSE },
  { ".", FALSE },
  { "..", FALSE },
  { ".hidden", FALSE },
  { "a/b", FALSE },
  { "a b", FALSE },
};

static void
check_names (const NameCase *cases,
             gsize           n,
             gboolean      (*validate) (const char *, GError **))
{
  gsize i;

  for (i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean valid = validate (cases[i].value, &error);

      if (valid != cases[i].valid)
        g_error ("'%s': expected %s", cases[i].value, cases[i].valid ? "valid" : "invalid");
      if (!valid)
        g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_NAME);
      else
        g_assert_no_error (error);
    }
}

static void
test_ids_follow_flatpak_rules (void)
{
  check_names (ids, G_N_ELEMENTS (ids), xa_metadata_validate_id);
}

static void
test_id_longer_than_255_is_refused (void)
{
  g_autofree char *tail = g_strnfill (255 - strlen ("org.example."), 'a');
  g_autofree char *longest = g_strconcat ("org.example.", tail, NULL);
  g_autofree char *too_long = g_strconcat (longest, "a", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_metadata_validate_id (longest, NULL));
  g_assert_false (xa_metadata_validate_id (too_long, &error));
  assert_contains (error->message, "longer than 255 characters");
}

static void
test_arches_follow_flatpak_rules (void)
{
  check_names (arches, G_N_ELEMENTS (arches), xa_metadata_validate_arch);
}

static void
test_branches_follow_flatpak_rules (void)
{
  check_names (branches, G_N_ELEMENTS (branches), xa_metadata_validate_branch);
}

int
main (int    argc,
      char **argv)
{
  gsize i;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/policy/metadata/app-is-read", test_app_is_read);
  g_test_add_func ("/policy/metadata/runtime-is-read", test_runtime_is_read);
  g_test_add_func ("/policy/metadata/command-may-be-absolute-path",
                   test_command_may_be_absolute_path);
  g_test_add_func ("/policy/metadata/command-is-optional", test_command_is_optional);
  g_test_add_func ("/policy/metadata/flatpak-metadata-loads", test_flatpak_metadata_loads);
  g_test_add_func ("/policy/metadata/keyfile-is-kept", test_keyfile_is_kept);

  for (i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_autofree char *path = g_strdup_printf ("/policy/metadata/refuses/%s", rejected[i].name);

      g_test_add_data_func (path, &rejected[i], test_rejected);
    }
  g_test_add_func ("/policy/metadata/refuses/oversize-data", test_oversize_data_is_refused);
  g_test_add_func ("/policy/metadata/origin-escapes-control-characters",
                   test_origin_escapes_control_characters);

  g_test_add_func ("/policy/metadata/file-is-read", test_file_is_read);
  g_test_add_func ("/policy/metadata/file-without-origin-is-named-by-path",
                   test_file_without_origin_is_named_by_path);
  g_test_add_func ("/policy/metadata/missing-file-is-noent", test_missing_file_is_noent);
  g_test_add_func ("/policy/metadata/symlinked-file-is-refused", test_symlinked_file_is_refused);
  g_test_add_func ("/policy/metadata/oversize-file-is-refused", test_oversize_file_is_refused);

  g_test_add_func ("/policy/metadata/ids-follow-flatpak-rules", test_ids_follow_flatpak_rules);
  g_test_add_func ("/policy/metadata/id-longer-than-255-is-refused",
                   test_id_longer_than_255_is_refused);
  g_test_add_func ("/policy/metadata/arches-follow-flatpak-rules", test_arches_follow_flatpak_rules);
  g_test_add_func ("/policy/metadata/branches-follow-flatpak-rules",
                   test_branches_follow_flatpak_rules);

  return g_test_run ();
}
