/* tests/policy/test-context.c — the permission context: reading Flatpak's
 * keys, layering (metadata, then overrides, then run flags), writing back,
 * command-line flags, and what `info --show-permissions` prints. */
#include <string.h>

#include <glib.h>

#include "policy/context.h"
#include "policy/policy-error.h"

/* ---- helpers ----------------------------------------------------------- */

static GKeyFile *
keyfile_from (const char *text)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_key_file_load_from_data (keyfile, text, -1, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&keyfile);
}

static XaContext *
context_from (const char *text)
{
  g_autoptr(GKeyFile) keyfile = keyfile_from (text);
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_context_load_keyfile (context, keyfile, "test", &error));
  g_assert_no_error (error);
  return g_steal_pointer (&context);
}

static GError *
load_error (const char *text)
{
  g_autoptr(GKeyFile) keyfile = keyfile_from (text);
  g_autoptr(XaContext) context = xa_context_new ();
  GError *error = NULL;

  g_assert_false (xa_context_load_keyfile (context, keyfile, "metadata of 'org.example.Notes'",
                                           &error));
  g_assert_nonnull (error);
  return error;
}

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
    if (*p != '\n')
      g_assert_false (g_ascii_iscntrl (*p));
}

static void
parse_options (XaContext         *context,
               const char *const *pairs)
{
  gsize i;

  for (i = 0; pairs[i] != NULL; i += 2)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (xa_context_parse_option (context, pairs[i], pairs[i + 1], &error));
      g_assert_no_error (error);
    }
}

static guint
count_strv (const char *const *strv)
{
  guint n = 0;

  while (strv[n] != NULL)
    n++;
  return n;
}

/* ---- defaults and reading ---------------------------------------------- */

static void
test_new_context_grants_nothing (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  g_autofree char *text = xa_context_to_text (context);

  g_assert_false (xa_context_has_share (context, XA_SHARE_NETWORK));
  g_assert_false (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  g_assert_false (xa_context_has_device (context, XA_DEVICE_DRI));
  g_assert_false (xa_context_has_feature (context, XA_FEATURE_DEVEL));
  g_assert_cmpuint (xa_context_get_filesystems (context)->len, ==, 0);
  g_assert_cmpuint (count_strv (xa_context_get_persistent (context)), ==, 0);
  g_assert_cmpuint (g_hash_table_size (xa_context_get_env (context)), ==, 0);
  g_assert_cmpuint (g_hash_table_size (xa_context_get_bus_policy (context, XA_BUS_SESSION)), ==, 0);
  g_assert_cmpuint (count_strv (xa_context_get_warnings (context)), ==, 0);
  g_assert_cmpstr (text, ==, "");
}

static void
test_flatpak_keys_are_read (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\n"
    "shared=network;ipc;\n"
    "sockets=wayland;pulseaudio;ssh-auth;pcsc;cups;gpg-agent;system-bus;\n"
    "devices=dri;input;usb;kvm;shm;\n"
    "features=devel;multiarch;bluetooth;canbus;per-app-dev-shm;\n");

  g_assert_true (xa_context_has_share (context, XA_SHARE_NETWORK));
  g_assert_true (xa_context_has_share (context, XA_SHARE_IPC));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_PULSEAUDIO));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_SSH_AUTH));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_PCSC));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_CUPS));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_GPG_AGENT));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_SYSTEM_BUS));
  g_assert_false (xa_context_has_socket (context, XA_SOCKET_SESSION_BUS));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_DRI));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_INPUT));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_USB));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_KVM));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_SHM));
  g_assert_false (xa_context_has_device (context, XA_DEVICE_ALL));
  g_assert_true (xa_context_has_feature (context, XA_FEATURE_DEVEL));
  g_assert_true (xa_context_has_feature (context, XA_FEATURE_MULTIARCH));
  g_assert_true (xa_context_has_feature (context, XA_FEATURE_BLUETOOTH));
  g_assert_true (xa_context_has_feature (context, XA_FEATURE_CANBUS));
  g_assert_true (xa_context_has_feature (context, XA_FEATURE_PER_APP_DEV_SHM));
}

static void
test_filesystems_are_read_sorted_with_modes (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\n"
    "filesystems=xdg-download:ro;~/Games:create;home;/media/usb:rw;!host;\n");
  const GPtrArray *fs = xa_context_get_filesystems (context);
  const XaFilesystem *f;

  g_assert_cmpuint (fs->len, ==, 4);
  f = g_ptr_array_index ((GPtrArray *) fs, 0);
  g_assert_cmpstr (f->spec, ==, "/media/usb");
  g_assert_cmpint (f->mode, ==, XA_FILESYSTEM_MODE_READ_WRITE);
  f = g_ptr_array_index ((GPtrArray *) fs, 1);
  g_assert_cmpstr (f->spec, ==, "home");
  f = g_ptr_array_index ((GPtrArray *) fs, 2);
  g_assert_cmpstr (f->spec, ==, "xdg-download");
  g_assert_cmpint (f->mode, ==, XA_FILESYSTEM_MODE_READ_ONLY);
  f = g_ptr_array_index ((GPtrArray *) fs, 3);
  g_assert_cmpstr (f->spec, ==, "~/Games");
  g_assert_cmpint (f->mode, ==, XA_FILESYSTEM_MODE_CREATE);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "host"), ==, XA_FILESYSTEM_MODE_NONE);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "xdg-music"), ==,
                   XA_FILESYSTEM_MODE_NONE);
}

static void
test_persistent_paths_are_normalized (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\npersistent=.mozilla;./.config//app/;\n");
  const char *const *paths = xa_context_get_persistent (context);

  g_assert_cmpuint (count_strv (paths), ==, 2);
  g_assert_cmpstr (paths[0], ==, ".config/app");
  g_assert_cmpstr (paths[1], ==, ".mozilla");
}

static void
test_environment_is_read (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Environment]\nLANG=C.UTF-8\nEMPTY=\n");
  GHashTable *env = xa_context_get_env (context);

  g_assert_cmpstr (g_hash_table_lookup (env, "LANG"), ==, "C.UTF-8");
  g_assert_cmpstr (g_hash_table_lookup (env, "EMPTY"), ==, "");
}

static void
test_unset_environment_wins_over_environment (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\nunset-environment=LD_PRELOAD;\n"
    "[Environment]\nLD_PRELOAD=\n");
  GHashTable *env = xa_context_get_env (context);
  gpointer value = (gpointer) "sentinel";

  g_assert_true (g_hash_table_lookup_extended (env, "LD_PRELOAD", NULL, &value));
  g_assert_null (value);
}

static void
test_bus_policies_are_read (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Session Bus Policy]\n"
    "org.freedesktop.Notifications=talk\n"
    "org.example.Notes.*=own\n"
    "org.kde.StatusNotifierWatcher=see\n"
    "org.freedesktop.secrets=none\n"
    "[System Bus Policy]\n"
    "org.freedesktop.NetworkManager=talk\n");
  GHashTable *session = xa_context_get_bus_policy (context, XA_BUS_SESSION);
  GHashTable *system = xa_context_get_bus_policy (context, XA_BUS_SYSTEM);

  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.freedesktop.Notifications")),
                   ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.example.Notes.*")),
                   ==, XA_BUS_POLICY_OWN);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.kde.StatusNotifierWatcher")),
                   ==, XA_BUS_POLICY_SEE);
  g_assert_true (g_hash_table_contains (session, "org.freedesktop.secrets"));
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.freedesktop.secrets")),
                   ==, XA_BUS_POLICY_NONE);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (system, "org.freedesktop.NetworkManager")),
                   ==, XA_BUS_POLICY_TALK);
}

/* xdg-app's own values: a level and xdg-dbus-proxy's call and broadcast
 * rules; a later layer's value replaces the whole value. */
static void
test_bus_rules_are_read_and_replaced (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Session Bus Policy]\n"
    "org.example.Foo=see; call=org.example.Foo.Get@/org/example/*;broadcast=org.example.Foo.*\n"
    "org.example.Bar=call=*@/\n"
    "org.example.Baz=talk\n");
  g_autoptr(XaContext) override = context_from ("[Session Bus Policy]\norg.example.Foo=talk\n");
  GHashTable *session = xa_context_get_bus_policy (context, XA_BUS_SESSION);
  const char *const *foo = xa_context_get_bus_rules (context, XA_BUS_SESSION, "org.example.Foo");
  const char *const *bar = xa_context_get_bus_rules (context, XA_BUS_SESSION, "org.example.Bar");
  g_autofree char *text = xa_context_to_text (context);

  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.example.Foo")), ==, XA_BUS_POLICY_SEE);
  g_assert_nonnull (foo);
  g_assert_cmpstr (foo[0], ==, "call=org.example.Foo.Get@/org/example/*");
  g_assert_cmpstr (foo[1], ==, "broadcast=org.example.Foo.*");
  g_assert_null (foo[2]);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.example.Bar")), ==, XA_BUS_POLICY_NONE);
  g_assert_nonnull (bar);
  g_assert_cmpstr (bar[0], ==, "call=*@/");
  g_assert_null (xa_context_get_bus_rules (context, XA_BUS_SESSION, "org.example.Baz"));
  g_assert_nonnull (strstr (text, "org.example.Foo=see;call=org.example.Foo.Get@/org/example/*;"
                                  "broadcast=org.example.Foo.*\n"));
  g_assert_nonnull (strstr (text, "org.example.Bar=call=*@/\n"));

  xa_context_merge (context, override);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (session, "org.example.Foo")), ==, XA_BUS_POLICY_TALK);
  g_assert_null (xa_context_get_bus_rules (context, XA_BUS_SESSION, "org.example.Foo"));
  g_assert_nonnull (xa_context_get_bus_rules (context, XA_BUS_SESSION, "org.example.Bar"));
}

static void
test_unknown_groups_and_keys_are_ignored (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\nsockets=wayland;\nfuture-key=whatever;\n"
    "[Policy com.example]\nfoo=bar;\n"
    "[Extension org.example.Notes.Locale]\ndirectory=share/runtime/locale\n");

  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
}

static void
test_empty_list_entries_are_skipped (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=;wayland;;\n");

  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
}

/* ---- x11 --------------------------------------------------------------- */

static void
test_x11_is_never_granted (void)
{
  g_autoptr(GKeyFile) keyfile = keyfile_from ("[Context]\nsockets=x11;wayland;\n");
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *const *warnings;

  g_assert_true (xa_context_load_keyfile (context, keyfile, "metadata of 'org.example.Notes'",
                                          &error));
  g_assert_no_error (error);
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  warnings = xa_context_get_warnings (context);
  g_assert_cmpuint (count_strv (warnings), ==, 1);
  g_assert_cmpstr (warnings[0], ==,
                   "metadata of 'org.example.Notes', [Context]: sockets=x11: "
                   "X11 is never exposed, ignoring");
  text = xa_context_to_text (context);
  g_assert_null (strstr (text, "x11"));
}

static void
test_fallback_x11_is_never_granted (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=fallback-x11;\n");
  const char *const *warnings = xa_context_get_warnings (context);
  g_autoptr(GKeyFile) saved = g_key_file_new ();

  g_assert_cmpuint (count_strv (warnings), ==, 1);
  assert_contains (warnings[0], "sockets=fallback-x11: X11 is never exposed, ignoring");
  xa_context_save_keyfile (context, saved);
  g_assert_false (g_key_file_has_key (saved, "Context", "sockets", NULL));
}

static void
test_x11_option_warns_and_grants_nothing (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;
  const char *const *warnings;

  g_assert_true (xa_context_parse_option (context, "--socket", "x11", &error));
  g_assert_no_error (error);
  warnings = xa_context_get_warnings (context);
  g_assert_cmpuint (count_strv (warnings), ==, 1);
  g_assert_cmpstr (warnings[0], ==, "--socket=x11: X11 is never exposed, ignoring");
}

static void
test_negated_x11_is_accepted_silently (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=!x11;!fallback-x11;\n");

  g_assert_cmpuint (count_strv (xa_context_get_warnings (context)), ==, 0);
}

/* ---- refusals ---------------------------------------------------------- */

static void
test_unknown_socket_is_refused_with_valid_values (void)
{
  g_autoptr(GError) error = load_error ("[Context]\nsockets=wayland;x12;\n");

  g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION);
  g_assert_cmpstr (error->message, ==,
                   "metadata of 'org.example.Notes', [Context]: unknown socket 'x12' "
                   "(valid: wayland, pulseaudio, session-bus, system-bus, ssh-auth, pcsc, "
                   "cups, gpg-agent)");
}

typedef struct
{
  const char *name;
  const char *keyfile;
  int         code;
  const char *message;
} RejectedContext;

/* Each row: one way a [Context], bus policy or environment group is
 * refused, and the words the user then reads. */
static const RejectedContext rejected_contexts[] = {
  { "unknown-share", "[Context]\nshared=bluetooth;\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "[Context]: unknown share 'bluetooth' (valid: network, ipc)" },
  { "unknown-device", "[Context]\ndevices=gpu;\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "[Context]: unknown device 'gpu' (valid: dri, input, usb, kvm, shm, all)" },
  { "unknown-feature", "[Context]\nfeatures=root;\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "[Context]: unknown feature 'root' (valid: devel, multiarch, bluetooth, canbus, per-app-dev-shm)" },
  { "negated-unknown-socket", "[Context]\nsockets=!x12;\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "unknown socket 'x12'" },
  { "bare-negation", "[Context]\nsockets=!;\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "unknown socket ''" },
  { "unknown-filesystem", "[Context]\nfilesystems=everything;\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "metadata of 'org.example.Notes', [Context]: unknown filesystem 'everything'" },
  { "filesystem-dotdot", "[Context]\nfilesystems=~/../../etc;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Context]: filesystem '~/../../etc' contains \"..\"" },
  { "filesystem-root", "[Context]\nfilesystems=/;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "filesystem '/' is not available" },
  { "persistent-absolute", "[Context]\npersistent=/etc;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Context]: persistent path '/etc' must be relative to the home directory" },
  { "persistent-dotdot", "[Context]\npersistent=.var/../../.ssh;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "persistent path '.var/../../.ssh' contains \"..\"" },
  { "persistent-dot", "[Context]\npersistent=./;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "persistent path './' names no directory" },
  { "persistent-control", "[Context]\npersistent=a\\tb;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "persistent path 'a\\x09b' contains a control or invisible character" },
  { "bus-name-one-element", "[Session Bus Policy]\norg=talk\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Session Bus Policy]: invalid D-Bus name 'org'" },
  { "bus-name-unique", "[Session Bus Policy]\n:1.42=talk\n", XA_POLICY_ERROR_INVALID_VALUE,
    "invalid D-Bus name ':1.42'" },
  { "bus-name-bad-wildcard", "[Session Bus Policy]\norg.example*=talk\n", XA_POLICY_ERROR_INVALID_VALUE,
    "invalid D-Bus name 'org.example*'" },
  { "bus-policy-unknown", "[Session Bus Policy]\norg.example.Foo=call\n", XA_POLICY_ERROR_UNKNOWN_PERMISSION,
    "[Session Bus Policy]: unknown policy 'call' for 'org.example.Foo' "
    "(valid: none, see, talk, own, call=RULE, broadcast=RULE)" },
  { "bus-rule-bad-path", "[Session Bus Policy]\norg.example.Foo=call=org.example.Foo.Get@org/x\n",
    XA_POLICY_ERROR_INVALID_VALUE,
    "[Session Bus Policy]: org.example.Foo: invalid bus rule 'org.example.Foo.Get@org/x'" },
  { "bus-rule-bad-interface", "[Session Bus Policy]\norg.example.Foo=broadcast=Foo.Get\n",
    XA_POLICY_ERROR_INVALID_VALUE, "invalid bus rule 'Foo.Get'" },
  { "bus-none-and-rules", "[Session Bus Policy]\norg.example.Foo=none;call=*\n",
    XA_POLICY_ERROR_INVALID_VALUE, "'org.example.Foo' is given 'none' and rules at once" },
  { "bus-two-levels", "[Session Bus Policy]\norg.example.Foo=see;talk\n",
    XA_POLICY_ERROR_UNKNOWN_PERMISSION, "a second level 'talk' for 'org.example.Foo'" },
  { "bus-empty-value", "[Session Bus Policy]\norg.example.Foo=\n",
    XA_POLICY_ERROR_UNKNOWN_PERMISSION, "no policy for 'org.example.Foo'" },
  { "system-bus-name", "[System Bus Policy]\norg..x=talk\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[System Bus Policy]: invalid D-Bus name 'org..x'" },
  { "env-name-with-space", "[Environment]\nMY VAR=x\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Environment]: invalid environment variable name 'MY VAR'" },
  { "unset-env-with-equals", "[Context]\nunset-environment=A=B;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "invalid environment variable name 'A=B'" },
  { "escape-in-value", "[Context]\nsockets=\\e[2J;\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Context]: sockets: unknown escape '\\e'" },
  /* GLib 2.74 alone would also print a warning for these two. */
  { "two-bad-escapes", "[Context]\nfilesystems=home;\\!h\\\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Context]: filesystems: unknown escape '\\!'" },
  { "backslash-at-end", "[Context]\nfilesystems=home;h\\\n", XA_POLICY_ERROR_INVALID_VALUE,
    "[Context]: filesystems: a backslash ends the value" },
};

static void
test_rejected_context (gconstpointer data)
{
  const RejectedContext *row = data;
  g_autoptr(GError) error = load_error (row->keyfile);

  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, XA_POLICY_ERROR, row->code);
  assert_contains (error->message, row->message);
  assert_no_control_characters (error->message);
}

static void
test_error_messages_escape_values (void)
{
  /* A keyfile turns "\t" into a real tab; the terminal must not get it,
   * nor the ESC that a hostile value carries. */
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;

  g_key_file_set_string (keyfile, "Context", "sockets", "wayland;\033]0:pwned\007;");
  g_assert_false (xa_context_load_keyfile (context, keyfile, "test", &error));
  g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION);
  assert_contains (error->message, "unknown socket '\\x1B]0:pwned\\x07'");
  assert_no_control_characters (error->message);
}

static void
test_failed_load_changes_nothing (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=wayland;\n");
  g_autoptr(GKeyFile) bad = keyfile_from ("[Context]\nsockets=!wayland;pulseaudio;\ndevices=gpu;\n");
  g_autoptr(GError) error = NULL;

  g_assert_false (xa_context_load_keyfile (context, bad, "test", &error));
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  g_assert_false (xa_context_has_socket (context, XA_SOCKET_PULSEAUDIO));
}

/* ---- layering ---------------------------------------------------------- */

static void
test_override_removes_socket (void)
{
  g_autoptr(XaContext) app = xa_context_new ();
  g_autoptr(XaContext) override = xa_context_new ();

  xa_context_allow_socket (app, XA_SOCKET_PULSEAUDIO);
  xa_context_deny_socket (override, XA_SOCKET_PULSEAUDIO);
  xa_context_merge (app, override);
  g_assert_false (xa_context_has_socket (app, XA_SOCKET_PULSEAUDIO));
}

static void
test_negation_in_keyfile_removes_socket (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=wayland;pulseaudio;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nsockets=!pulseaudio;\n");

  xa_context_merge (context, override);
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  g_assert_false (xa_context_has_socket (context, XA_SOCKET_PULSEAUDIO));
}

static void
test_override_adds_device (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=wayland;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\ndevices=dri;\n");

  xa_context_merge (context, override);
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
  g_assert_true (xa_context_has_device (context, XA_DEVICE_DRI));
}

static void
test_later_layer_wins (void)
{
  g_autoptr(XaContext) metadata = context_from ("[Context]\nshared=network;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nshared=!network;\n");
  g_autoptr(XaContext) flags = xa_context_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_context_parse_option (flags, "--share", "network", &error));
  xa_context_merge (metadata, override);
  g_assert_false (xa_context_has_share (metadata, XA_SHARE_NETWORK));
  xa_context_merge (metadata, flags);
  g_assert_true (xa_context_has_share (metadata, XA_SHARE_NETWORK));
}

static void
test_negated_filesystem_removes_grant (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nfilesystems=home;xdg-music:ro;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nfilesystems=!home;\n");

  xa_context_merge (context, override);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "home"), ==, XA_FILESYSTEM_MODE_NONE);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "xdg-music"), ==,
                   XA_FILESYSTEM_MODE_READ_ONLY);
  g_assert_cmpuint (xa_context_get_filesystems (context)->len, ==, 1);
}

static void
test_override_replaces_filesystem_mode (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nfilesystems=home;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nfilesystems=home:ro;\n");

  xa_context_merge (context, override);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "home"), ==,
                   XA_FILESYSTEM_MODE_READ_ONLY);
}

static void
test_host_reset_drops_lower_filesystems (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nfilesystems=host;home;/srv/data;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nfilesystems=!host:reset;xdg-download;\n");
  const GPtrArray *fs;

  xa_context_merge (context, override);
  fs = xa_context_get_filesystems (context);
  g_assert_cmpuint (fs->len, ==, 1);
  g_assert_cmpstr (((const XaFilesystem *) fs->pdata[0])->spec, ==, "xdg-download");
}

static void
test_plain_negation_of_host_keeps_home (void)
{
  /* Flatpak: !host only withdraws "host"; other entries stay. */
  g_autoptr(XaContext) context = context_from ("[Context]\nfilesystems=host;home;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nfilesystems=!host;\n");

  xa_context_merge (context, override);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "host"), ==, XA_FILESYSTEM_MODE_NONE);
  g_assert_cmpint (xa_context_get_filesystem_mode (context, "home"), ==,
                   XA_FILESYSTEM_MODE_READ_WRITE);
}

static void
test_persistent_paths_add_up (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\npersistent=.mozilla;\n");
  g_autoptr(XaContext) override = context_from ("[Context]\npersistent=.thunderbird;\n");

  xa_context_merge (context, override);
  g_assert_cmpuint (count_strv (xa_context_get_persistent (context)), ==, 2);
}

static void
test_override_unsets_variable (void)
{
  g_autoptr(XaContext) context = context_from ("[Environment]\nGTK_THEME=Adwaita\n");
  g_autoptr(XaContext) override = context_from ("[Context]\nunset-environment=GTK_THEME;\n");
  gpointer value = (gpointer) "sentinel";

  xa_context_merge (context, override);
  g_assert_true (g_hash_table_lookup_extended (xa_context_get_env (context), "GTK_THEME",
                                               NULL, &value));
  g_assert_null (value);
}

static void
test_bus_none_overrides_talk (void)
{
  g_autoptr(XaContext) context = context_from ("[Session Bus Policy]\norg.example.Sync=talk\n");
  g_autoptr(XaContext) flags = xa_context_new ();
  const char *const options[] = { "--no-talk-name", "org.example.Sync", NULL };

  parse_options (flags, options);
  xa_context_merge (context, flags);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (
                     xa_context_get_bus_policy (context, XA_BUS_SESSION), "org.example.Sync")),
                   ==, XA_BUS_POLICY_NONE);
}

static void
test_merge_keeps_warnings (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(XaContext) metadata = context_from ("[Context]\nsockets=x11;\n");

  xa_context_merge (context, metadata);
  xa_context_merge (context, metadata);
  g_assert_cmpuint (count_strv (xa_context_get_warnings (context)), ==, 1);
}

static void
test_dup_copies_everything (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\nshared=network;\nsockets=wayland;!pulseaudio;\nfilesystems=home:ro;!host:reset;\n"
    "persistent=.x;\nunset-environment=A;\n"
    "[Environment]\nB=1\n[Session Bus Policy]\norg.example.A=own\n"
    "[System Bus Policy]\norg.example.B=see\n");
  g_autoptr(XaContext) copy = xa_context_dup (context);
  g_autoptr(GKeyFile) a = g_key_file_new ();
  g_autoptr(GKeyFile) b = g_key_file_new ();
  g_autofree char *data_a = NULL;
  g_autofree char *data_b = NULL;

  xa_context_save_keyfile (context, a);
  xa_context_save_keyfile (copy, b);
  data_a = g_key_file_to_data (a, NULL, NULL);
  data_b = g_key_file_to_data (b, NULL, NULL);
  g_assert_cmpstr (data_a, ==, data_b);
}

/* ---- saving ------------------------------------------------------------ */

static void
test_save_then_load_gives_same_context (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\nshared=network;ipc;\nsockets=wayland;!pulseaudio;\ndevices=dri;\n"
    "features=devel;\nfilesystems=xdg-download:ro;~/My\\sGames:create;/mnt/a\\\\:b;!home;\n"
    "persistent=.mozilla;\nunset-environment=LD_PRELOAD;\n"
    "[Environment]\nMULTI=line1\\nline2\nSEMI=a;b\n"
    "[Session Bus Policy]\norg.example.Notes.*=own\norg.freedesktop.secrets=none\n"
    "org.example.Foo=see;call=org.example.Foo.Get@/org/example/*\norg.example.Bar=broadcast=*\n"
    "[System Bus Policy]\norg.freedesktop.UPower=talk\n");
  g_autoptr(GKeyFile) saved = g_key_file_new ();
  g_autoptr(GKeyFile) again_keyfile = g_key_file_new ();
  g_autoptr(XaContext) again = NULL;
  g_autofree char *data = NULL;
  g_autofree char *data_again = NULL;

  xa_context_save_keyfile (context, saved);
  data = g_key_file_to_data (saved, NULL, NULL);
  again = context_from (data);
  xa_context_save_keyfile (again, again_keyfile);
  data_again = g_key_file_to_data (again_keyfile, NULL, NULL);
  g_assert_cmpstr (data, ==, data_again);
  g_assert_cmpint (xa_context_get_filesystem_mode (again, "/mnt/a:b"), ==,
                   XA_FILESYSTEM_MODE_READ_WRITE);
  g_assert_cmpstr (g_hash_table_lookup (xa_context_get_env (again), "MULTI"), ==, "line1\nline2");
  g_assert_cmpstr (xa_context_get_bus_rules (again, XA_BUS_SESSION, "org.example.Bar")[0], ==, "broadcast=*");
}

static void
test_save_writes_negations (void)
{
  g_autoptr(XaContext) override = context_from (
    "[Context]\nsockets=!pulseaudio;\nfilesystems=!host:reset;!home;\n");
  g_autoptr(GKeyFile) saved = g_key_file_new ();
  g_autofree char *sockets = NULL;
  g_autofree char *filesystems = NULL;

  xa_context_save_keyfile (override, saved);
  sockets = g_key_file_get_value (saved, "Context", "sockets", NULL);
  filesystems = g_key_file_get_value (saved, "Context", "filesystems", NULL);
  g_assert_cmpstr (sockets, ==, "!pulseaudio;");
  g_assert_cmpstr (filesystems, ==, "!host:reset;!home;!host;");
}

static void
test_save_keeps_other_groups_and_keys (void)
{
  g_autoptr(GKeyFile) keyfile = keyfile_from (
    "[Application]\nname=org.example.Notes\n"
    "[Context]\nsockets=pulseaudio;\nfuture-key=1\n"
    "[Environment]\nOLD=1\n");
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=wayland;\n");
  g_autofree char *name = NULL;
  g_autofree char *sockets = NULL;
  g_autofree char *future = NULL;

  xa_context_save_keyfile (context, keyfile);
  name = g_key_file_get_string (keyfile, "Application", "name", NULL);
  sockets = g_key_file_get_value (keyfile, "Context", "sockets", NULL);
  future = g_key_file_get_value (keyfile, "Context", "future-key", NULL);
  g_assert_cmpstr (name, ==, "org.example.Notes");
  g_assert_cmpstr (sockets, ==, "wayland;");
  g_assert_cmpstr (future, ==, "1");
  g_assert_false (g_key_file_has_group (keyfile, "Environment"));
}

static void
test_save_of_empty_context_leaves_no_context_group (void)
{
  g_autoptr(GKeyFile) keyfile = keyfile_from ("[Context]\nsockets=wayland;\n");
  g_autoptr(XaContext) context = xa_context_new ();

  xa_context_save_keyfile (context, keyfile);
  g_assert_false (g_key_file_has_group (keyfile, "Context"));
}

/* ---- command-line flags ------------------------------------------------ */

static void
test_options_match_keyfile (void)
{
  g_autoptr(XaContext) from_options = xa_context_new ();
  g_autoptr(XaContext) from_keyfile = context_from (
    "[Context]\nshared=network;\nsockets=wayland;\ndevices=dri;\nfeatures=devel;\n"
    "filesystems=xdg-download:ro;!home;\npersistent=.mozilla;\nunset-environment=LD_PRELOAD;\n"
    "[Environment]\nLANG=C=D\n"
    "[Session Bus Policy]\norg.example.A=own\norg.example.B=talk\norg.example.C=see\n"
    "org.example.D=none\n"
    "[System Bus Policy]\norg.example.E=own\norg.example.F=talk\norg.example.G=see\n"
    "org.example.H=none\n");
  const char *const options[] = {
    "--share", "network", "--share", "ipc", "--unshare", "ipc",
    "--socket", "wayland", "--socket", "cups", "--nosocket", "cups",
    "--device", "dri", "--device", "kvm", "--nodevice", "kvm",
    "--allow", "devel", "--allow", "canbus", "--disallow", "canbus",
    "--filesystem", "xdg-download:ro", "--nofilesystem", "home",
    "--persist", ".mozilla", "--env", "LANG=C=D", "--unset-env", "LD_PRELOAD",
    "--own-name", "org.example.A", "--talk-name", "org.example.B",
    "--see-name", "org.example.C", "--no-talk-name", "org.example.D",
    "--system-own-name", "org.example.E", "--system-talk-name", "org.example.F",
    "--system-see-name", "org.example.G", "--system-no-talk-name", "org.example.H",
    NULL
  };
  g_autofree char *text_options = NULL;
  g_autofree char *text_keyfile = NULL;

  parse_options (from_options, options);
  text_options = xa_context_to_text (from_options);
  text_keyfile = xa_context_to_text (from_keyfile);
  g_assert_cmpstr (text_options, ==, text_keyfile);
  g_assert_false (xa_context_has_share (from_options, XA_SHARE_IPC));
  g_assert_false (xa_context_has_socket (from_options, XA_SOCKET_CUPS));
}

static void
test_option_names_work_without_dashes (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  const char *const options[] = { "socket", "wayland", NULL };

  parse_options (context, options);
  g_assert_true (xa_context_has_socket (context, XA_SOCKET_WAYLAND));
}

static void
test_every_listed_option_is_parsed (void)
{
  const char *const *names = xa_context_get_option_names ();
  gsize i;

  g_assert_cmpuint (count_strv (names), ==, 21);
  for (i = 0; names[i] != NULL; i++)
    {
      g_autoptr(XaContext) context = xa_context_new ();
      g_autoptr(GError) error = NULL;

      /* A value no option accepts: each must say something about the value,
       * never that it does not know the option. */
      g_assert_false (xa_context_parse_option (context, names[i], "", &error));
      g_assert_false (g_error_matches (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_OPTION));
    }
}

typedef struct
{
  const char *option;
  const char *value;
  int         code;
  const char *message;
} RejectedOption;

static const RejectedOption rejected_options[] = {
  { "--frobnicate", "x", XA_POLICY_ERROR_UNKNOWN_OPTION, "'--frobnicate' is not a permission option" },
  { "--socket", "x12", XA_POLICY_ERROR_UNKNOWN_PERMISSION, "--socket: unknown socket 'x12' (valid: wayland," },
  { "--nodevice", "gpu", XA_POLICY_ERROR_UNKNOWN_PERMISSION, "--nodevice: unknown device 'gpu'" },
  { "--allow", "root", XA_POLICY_ERROR_UNKNOWN_PERMISSION, "--allow: unknown feature 'root'" },
  { "--unshare", "pid", XA_POLICY_ERROR_UNKNOWN_PERMISSION, "--unshare: unknown share 'pid'" },
  { "--filesystem", "/", XA_POLICY_ERROR_INVALID_VALUE, "--filesystem: filesystem '/' is not available" },
  { "--filesystem", "host:reset", XA_POLICY_ERROR_INVALID_VALUE, "--filesystem: filesystem reset is only valid" },
  { "--persist", "/home/me", XA_POLICY_ERROR_INVALID_VALUE, "--persist: persistent path '/home/me' must be relative" },
  { "--env", "NOVALUE", XA_POLICY_ERROR_INVALID_VALUE, "--env: expected VAR=VALUE, got 'NOVALUE'" },
  { "--env", "=x", XA_POLICY_ERROR_INVALID_VALUE, "--env: invalid environment variable name ''" },
  { "--env", "A=\377", XA_POLICY_ERROR_INVALID_VALUE, "--env: the value of 'A' is not UTF-8" },
  { "--unset-env", "A=B", XA_POLICY_ERROR_INVALID_VALUE, "--unset-env: invalid environment variable name 'A=B'" },
  { "--talk-name", ":1.5", XA_POLICY_ERROR_INVALID_VALUE, "--talk-name: invalid D-Bus name ':1.5'" },
  { "--system-own-name", "org", XA_POLICY_ERROR_INVALID_VALUE, "--system-own-name: invalid D-Bus name 'org'" },
  { "--socket", "\033[31mred", XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown socket '\\x1B[31mred'" },
};

static void
test_rejected_option (gconstpointer data)
{
  const RejectedOption *row = data;
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (xa_context_parse_option (context, row->option, row->value, &error));
  g_assert_error (error, XA_POLICY_ERROR, row->code);
  assert_contains (error->message, row->message);
  assert_no_control_characters (error->message);
}

/* ---- text -------------------------------------------------------------- */

static void
test_text_shows_grants_in_keyfile_form (void)
{
  g_autoptr(XaContext) context = context_from (
    "[Context]\nshared=network;\nsockets=wayland;!pulseaudio;\nfilesystems=xdg-download:ro;!home;\n"
    "[Environment]\nLANG=C\n"
    "[Session Bus Policy]\norg.example.A=talk\norg.example.B=none\n");
  g_autofree char *text = xa_context_to_text (context);

  g_assert_cmpstr (text, ==,
                   "[Context]\n"
                   "shared=network;\n"
                   "sockets=wayland;\n"
                   "filesystems=xdg-download:ro;\n"
                   "\n"
                   "[Environment]\n"
                   "LANG=C\n"
                   "\n"
                   "[Session Bus Policy]\n"
                   "org.example.A=talk\n");
}

static void
test_text_escapes_control_characters (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  g_autofree char *text = NULL;
  const char *const options[] = {
    "--env", "PS1=\033]0;owned\007\033[2J",
    "--env", "NL=a\nb",
    "--env", "BIDI=txt\342\200\256exe",
    NULL
  };

  parse_options (context, options);
  text = xa_context_to_text (context);
  assert_no_control_characters (text);
  assert_contains (text, "PS1=\\x1B]0;owned\\x07\\x1B[2J\n");
  assert_contains (text, "NL=a\\x0Ab\n");
  assert_contains (text, "BIDI=txt\\xE2\\x80\\xAEexe\n");
}

static void
test_text_notes_session_bus (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=session-bus;\n");
  g_autofree char *text = xa_context_to_text (context);

  assert_contains (text, "sockets=session-bus;\n");
  assert_contains (text, "\nnote: sockets=session-bus grants the whole session bus: "
                         "this defeats the sandbox\n");
}

static void
test_text_has_no_note_without_session_bus (void)
{
  g_autoptr(XaContext) context = context_from ("[Context]\nsockets=system-bus;\n");
  g_autofree char *text = xa_context_to_text (context);

  g_assert_null (strstr (text, "note:"));
}

int
main (int    argc,
      char **argv)
{
  gsize i;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/policy/context/new-context-grants-nothing", test_new_context_grants_nothing);
  g_test_add_func ("/policy/context/flatpak-keys-are-read", test_flatpak_keys_are_read);
  g_test_add_func ("/policy/context/filesystems-are-read-sorted-with-modes",
                   test_filesystems_are_read_sorted_with_modes);
  g_test_add_func ("/policy/context/persistent-paths-are-normalized",
                   test_persistent_paths_are_normalized);
  g_test_add_func ("/policy/context/environment-is-read", test_environment_is_read);
  g_test_add_func ("/policy/context/unset-environment-wins-over-environment",
                   test_unset_environment_wins_over_environment);
  g_test_add_func ("/policy/context/bus-policies-are-read", test_bus_policies_are_read);
  g_test_add_func ("/policy/context/bus-rules-are-read-and-replaced", test_bus_rules_are_read_and_replaced);
  g_test_add_func ("/policy/context/unknown-groups-and-keys-are-ignored",
                   test_unknown_groups_and_keys_are_ignored);
  g_test_add_func ("/policy/context/empty-list-entries-are-skipped",
                   test_empty_list_entries_are_skipped);

  g_test_add_func ("/policy/context/x11-is-never-granted", test_x11_is_never_granted);
  g_test_add_func ("/policy/context/fallback-x11-is-never-granted",
                   test_fallback_x11_is_never_granted);
  g_test_add_func ("/policy/context/x11-option-warns-and-grants-nothing",
                   test_x11_option_warns_and_grants_nothing);
  g_test_add_func ("/policy/context/negated-x11-is-accepted-silently",
                   test_negated_x11_is_accepted_silently);

  g_test_add_func ("/policy/context/unknown-socket-is-refused-with-valid-values",
                   test_unknown_socket_is_refused_with_valid_values);
  for (i = 0; i < G_N_ELEMENTS (rejected_contexts); i++)
    {
      g_autofree char *path = g_strdup_printf ("/policy/context/refuses/%s",
                                               rejected_contexts[i].name);

      g_test_add_data_func (path, &rejected_contexts[i], test_rejected_context);
    }
  g_test_add_func ("/policy/context/error-messages-escape-values",
                   test_error_messages_escape_values);
  g_test_add_func ("/policy/context/failed-load-changes-nothing", test_failed_load_changes_nothing);

  g_test_add_func ("/policy/context/override-removes-socket", test_override_removes_socket);
  g_test_add_func ("/policy/context/negation-in-keyfile-removes-socket",
                   test_negation_in_keyfile_removes_socket);
  g_test_add_func ("/policy/context/override-adds-device", test_override_adds_device);
  g_test_add_func ("/policy/context/later-layer-wins", test_later_layer_wins);
  g_test_add_func ("/policy/context/negated-filesystem-removes-grant",
                   test_negated_filesystem_removes_grant);
  g_test_add_func ("/policy/context/override-replaces-filesystem-mode",
                   test_override_replaces_filesystem_mode);
  g_test_add_func ("/policy/context/host-reset-drops-lower-filesystems",
                   test_host_reset_drops_lower_filesystems);
  g_test_add_func ("/policy/context/plain-negation-of-host-keeps-home",
                   test_plain_negation_of_host_keeps_home);
  g_test_add_func ("/policy/context/persistent-paths-add-up", test_persistent_paths_add_up);
  g_test_add_func ("/policy/context/override-unsets-variable", test_override_unsets_variable);
  g_test_add_func ("/policy/context/bus-none-overrides-talk", test_bus_none_overrides_talk);
  g_test_add_func ("/policy/context/merge-keeps-warnings", test_merge_keeps_warnings);
  g_test_add_func ("/policy/context/dup-copies-everything", test_dup_copies_everything);

  g_test_add_func ("/policy/context/save-then-load-gives-same-context",
                   test_save_then_load_gives_same_context);
  g_test_add_func ("/policy/context/save-writes-negations", test_save_writes_negations);
  g_test_add_func ("/policy/context/save-keeps-other-groups-and-keys",
                   test_save_keeps_other_groups_and_keys);
  g_test_add_func ("/policy/context/save-of-empty-context-leaves-no-context-group",
                   test_save_of_empty_context_leaves_no_context_group);

  g_test_add_func ("/policy/context/options-match-keyfile", test_options_match_keyfile);
  g_test_add_func ("/policy/context/option-names-work-without-dashes",
                   test_option_names_work_without_dashes);
  g_test_add_func ("/policy/context/every-listed-option-is-parsed",
                   test_every_listed_option_is_parsed);
  for (i = 0; i < G_N_ELEMENTS (rejected_options); i++)
    {
      g_autofree char *path = g_strdup_printf ("/policy/context/refuses-option/%" G_GSIZE_FORMAT, i);

      g_test_add_data_func (path, &rejected_options[i], test_rejected_option);
    }

  g_test_add_func ("/policy/context/text-shows-grants-in-keyfile-form",
                   test_text_shows_grants_in_keyfile_form);
  g_test_add_func ("/policy/context/text-escapes-control-characters",
                   test_text_escapes_control_characters);
  g_test_add_func ("/policy/context/text-notes-session-bus", test_text_notes_session_bus);
  g_test_add_func ("/policy/context/text-has-no-note-without-session-bus",
                   test_text_has_no_note_without_session_bus);

  return g_test_run ();
}
