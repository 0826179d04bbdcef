/* tests/store/test-exports.c — the checks every exported file goes
 * through (store/exports.c): a table of hostile desktop and D-Bus
 * service files, the name rule, and the exports tree on disk. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "store/exports.h"

#define APP "org.example.Notes"

/* Every rewritten Exec must start "xdg-app run --command=CMD -- APP":
 * nothing the app wrote may sit among xdg-app's own options. */
static void
assert_exec_is_confined (const char *exec,
                         const char *command)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  int argc = 0;
  int i = 2;

  g_assert_true (g_shell_parse_argv (exec, &argc, &argv, &error));
  g_assert_no_error (error);
  g_assert_cmpint (argc, >=, 4);
  g_assert_cmpstr (argv[0], ==, "xdg-app");
  g_assert_cmpstr (argv[1], ==, "run");
  if (command != NULL)
    {
      g_autofree char *expected = g_strconcat ("--command=", command, NULL);
      g_assert_cmpstr (argv[i], ==, expected);
      i++;
    }
  g_assert_cmpstr (argv[i], ==, "--");
  g_assert_cmpstr (argv[i + 1], ==, APP);
}

static char *
rewrite_desktop (const char  *contents,
                 GPtrArray   *warnings,
                 GError     **error)
{
  return xa_exports_rewrite_desktop_file (APP, APP ".desktop", contents, strlen (contents),
                                          warnings, error);
}

static char *
string_of (GKeyFile   *keyfile,
           const char *group,
           const char *key)
{
  return g_key_file_get_string (keyfile, group, key, NULL);
}

static char *
exec_of (const char *data,
         const char *group)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();

  g_assert_true (g_key_file_load_from_data (keyfile, data, -1, G_KEY_FILE_NONE, NULL));
  return g_key_file_get_string (keyfile, group, "Exec", NULL);
}

static void
test_desktop_exec_rewritten (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *out = rewrite_desktop ("[Desktop Entry]\nType=Application\nName=Notes\n"
                                          "Exec=notes --new-window %U\nTryExec=notes\n"
                                          "Icon=" APP "\n", NULL, &error);
  g_autofree char *exec = NULL;

  g_assert_no_error (error);
  g_assert_true (g_key_file_load_from_data (keyfile, out, -1, G_KEY_FILE_NONE, NULL));
  exec = g_key_file_get_string (keyfile, "Desktop Entry", "Exec", NULL);
  g_assert_cmpstr (exec, ==, "xdg-app run --command=notes -- " APP " --new-window %U");
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "TryExec", NULL));
  g_assert_true (g_key_file_has_key (keyfile, "Desktop Entry", "Icon", NULL));
  {
    g_autofree char *marker = string_of (keyfile, "Desktop Entry", "X-XdgApp");
    g_assert_cmpstr (marker, ==, APP);
  }
}

/* The hostile table: each row is refused, or comes out confined. */
typedef struct
{
  const char *what;
  const char *exec_line;     /* goes after [Desktop Entry]\nType=Application\n */
  gboolean    refused;
  const char *command;       /* the --command= it must come out with */
  const char *args;          /* the app's arguments after "-- APP", or NULL */
} HostileDesktop;

static const HostileDesktop hostile_desktops[] = {
  { "CVE-2024-32462: Exec is an option", "Exec=--command=sh\n", TRUE, NULL, NULL },
  { "CVE-2024-32462: bwrap options in the program", "Exec='--bind / /host' sh\n", TRUE, NULL, NULL },
  { "options after the program stay the app's", "Exec=notes --command=sh --socket=x11\n",
    FALSE, "notes", "--command=sh --socket=x11" },
  { "a field code as the program", "Exec=%u\n", TRUE, NULL, NULL },
  { "a field code glued to an option", "Exec=notes --url=%u\n", TRUE, NULL, NULL },
  { "two field codes in one argument", "Exec=notes %u%u\n", TRUE, NULL, NULL },
  { "a stray percent", "Exec=notes 100%\n", TRUE, NULL, NULL },
  { "a literal percent", "Exec=notes 100%%\n", FALSE, "notes", "100%%" },
  { "a quoted field code is still one argument", "Exec=notes \"%f\"\n", FALSE, "notes", "%f" },
  { "deprecated field codes are dropped", "Exec=notes %d %m file\n", FALSE, "notes", "file" },
  { "shell metacharacters stay one quoted argument", "Exec=notes 'a b;$(id)' \"c|d\"\n",
    FALSE, "notes", "'a b;$(id)' 'c|d'" },
  { "a shell is only a program in the sandbox", "Exec=sh -c 'rm -rf ~'\n",
    FALSE, "sh", "-c 'rm -rf ~'" },
  { "an escaped newline", "Exec=notes\\n--command=sh\n", TRUE, NULL, NULL },
  { "an escaped tab", "Exec=notes\\t%u\n", TRUE, NULL, NULL },
  { "a raw escape character", "Exec=notes \x1b[2J\n", TRUE, NULL, NULL },
  { "a control character in Name", "Name=Notes\x07\nExec=notes\n", TRUE, NULL, NULL },
  { "not UTF-8", "Name=\xff\xfe\nExec=notes\n", TRUE, NULL, NULL },
  { "an unterminated quote", "Exec=notes 'abc\n", TRUE, NULL, NULL },
  { "an empty Exec", "Exec=\n", TRUE, NULL, NULL },
  { "an empty program", "Exec='' notes\n", TRUE, NULL, NULL },
  { "no Exec still runs the app", "Name=Notes\n", FALSE, NULL, "" },
  { "an absolute program inside the app", "Exec=/app/bin/notes\n", FALSE, "/app/bin/notes", "" },
};

static void
test_desktop_hostile_table (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (hostile_desktops); i++)
    {
      const HostileDesktop *row = &hostile_desktops[i];
      g_autofree char *contents = g_strconcat ("[Desktop Entry]\nType=Application\n",
                                               row->exec_line, NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;
      g_autofree char *exec = NULL;

      g_test_message ("row %" G_GSIZE_FORMAT ": %s", i, row->what);
      out = rewrite_desktop (contents, NULL, &error);
      if (row->refused)
        {
          g_assert_null (out);
          g_assert_nonnull (error);
          continue;
        }
      g_assert_no_error (error);
      exec = exec_of (out, "Desktop Entry");
      assert_exec_is_confined (exec, row->command);
      if (row->args != NULL)
        {
          g_autofree char *prefix = row->command != NULL
            ? g_strdup_printf ("xdg-app run --command=%s -- " APP, row->command)
            : g_strdup ("xdg-app run -- " APP);
          g_autofree char *expected = row->args[0] != '\0'
            ? g_strconcat (prefix, " ", row->args, NULL) : g_strdup (prefix);
          g_assert_cmpstr (exec, ==, expected);
        }
    }
}

static void
test_desktop_refuses_other_types (void)
{
  const char *files[] = {
    "[Desktop Entry]\nType=Link\nURL=file:///etc/shadow\n",
    "[Desktop Entry]\nExec=notes\n",
    "[Not A Desktop Entry]\nType=Application\nExec=notes\n",
    "no group at all\n",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *out = rewrite_desktop (files[i], NULL, &error);

      g_assert_null (out);
      g_assert_nonnull (error);
    }
}

static void
test_desktop_actions_rewritten_or_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *exec = NULL;

  out = rewrite_desktop ("[Desktop Entry]\nType=Application\nExec=notes\nActions=new;\n"
                         "[Desktop Action new]\nName=New\nExec=notes --new %u\n", NULL, &error);
  g_assert_no_error (error);
  exec = exec_of (out, "Desktop Action new");
  g_assert_cmpstr (exec, ==, "xdg-app run --command=notes -- " APP " --new %u");
  g_clear_pointer (&out, g_free);

  out = rewrite_desktop ("[Desktop Entry]\nType=Application\nExec=notes\nActions=evil;\n"
                         "[Desktop Action evil]\nExec=--command=sh\n", NULL, &error);
  g_assert_null (out);
  g_assert_nonnull (error);
}

static void
test_desktop_dangerous_keys_dropped (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *out = NULL;

  out = rewrite_desktop ("[Desktop Entry]\nType=Application\nExec=notes\n"
                         "Exec[de]=sh -c evil\nTryExec[de]=/bin/sh\n"
                         "Icon=../../../../etc/passwd\nIcon[fr]=/usr/share/pixmaps/x.png\n"
                         "X-KDE-SubstituteUID=true\nX-KDE-Username=root\n"
                         "X-Flatpak-RunOptions=--devel\nX-XdgApp=org.other.App\n"
                         "X-GNOME-Bugzilla-ExtraInfoScript=/bin/evil\n"
                         "[X-Custom]\nExec=/bin/evil\n", warnings, &error);
  g_assert_no_error (error);
  g_assert_true (g_key_file_load_from_data (keyfile, out, -1, G_KEY_FILE_KEEP_TRANSLATIONS, NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "Exec[de]", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "TryExec[de]", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "Icon", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "Icon[fr]", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "X-KDE-SubstituteUID", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "X-KDE-Username", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry", "X-Flatpak-RunOptions", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "Desktop Entry",
                                      "X-GNOME-Bugzilla-ExtraInfoScript", NULL));
  g_assert_false (g_key_file_has_key (keyfile, "X-Custom", "Exec", NULL));
  {
    g_autofree char *marker = string_of (keyfile, "Desktop Entry", "X-XdgApp");
    g_assert_cmpstr (marker, ==, APP);
  }
  g_assert_cmpuint (warnings->len, ==, 2);   /* the two icon paths */
}

typedef struct
{
  const char *what;
  const char *file_name;
  const char *contents;
  const char *exec;          /* expected Exec, NULL: refused */
} ServiceRow;

static const ServiceRow service_rows[] = {
  { "plain", APP ".service", "[D-BUS Service]\nName=" APP "\nExec=/app/bin/notes --gapplication-service\n",
    "xdg-app run --command=/app/bin/notes -- " APP " --gapplication-service" },
  { "only Name and Exec survive", APP ".service",
    "[D-BUS Service]\nName=" APP "\nExec=notes\nSystemdService=evil.service\nUser=root\n",
    "xdg-app run --command=notes -- " APP },
  { "Name differs from the file name", APP ".service",
    "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=notes\n", NULL },
  { "a unique name", ":1.5.service", "[D-BUS Service]\nName=:1.5\nExec=notes\n", NULL },
  { "Exec is an option", APP ".service", "[D-BUS Service]\nName=" APP "\nExec=--command=sh\n", NULL },
  { "no Exec", APP ".service", "[D-BUS Service]\nName=" APP "\n", NULL },
  { "a control character", APP ".service", "[D-BUS Service]\nName=" APP "\nExec=notes\\n-x\n", NULL },
  { "no group", APP ".service", "Name=" APP "\n", NULL },
};

static void
test_service_table (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (service_rows); i++)
    {
      const ServiceRow *row = &service_rows[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(GKeyFile) keyfile = g_key_file_new ();
      g_autofree char *out = NULL;
      g_auto(GStrv) keys = NULL;

      g_test_message ("row %" G_GSIZE_FORMAT ": %s", i, row->what);
      out = xa_exports_rewrite_service_file (APP, row->file_name, row->contents,
                                             strlen (row->contents), &error);
      if (row->exec == NULL)
        {
          g_assert_null (out);
          g_assert_nonnull (error);
          continue;
        }
      g_assert_no_error (error);
      g_assert_true (g_key_file_load_from_data (keyfile, out, -1, G_KEY_FILE_NONE, NULL));
      {
        g_autofree char *exec = string_of (keyfile, "D-BUS Service", "Exec");
        g_assert_cmpstr (exec, ==, row->exec);
      }
      keys = g_key_file_get_keys (keyfile, "D-BUS Service", NULL, NULL);
      g_assert_cmpuint (g_strv_length (keys), ==, 2);
    }
}

static void
test_name_rule (void)
{
  const struct { const char *name; const char *suffix; gboolean exact; gboolean allowed; } rows[] = {
    { APP ".desktop", ".desktop", FALSE, TRUE },
    { APP ".Editor.desktop", ".desktop", FALSE, TRUE },
    { APP "-symbolic.svg", ".svg", FALSE, TRUE },
    { APP "s.desktop", ".desktop", FALSE, FALSE },        /* another app's id */
    { "org.example.desktop", ".desktop", FALSE, FALSE },  /* a prefix of ours */
    { "org.gnome.Terminal.desktop", ".desktop", FALSE, FALSE },
    { APP "..desktop", ".desktop", FALSE, FALSE },
    { APP ".x..y.desktop", ".desktop", FALSE, FALSE },
    { APP ". x.desktop", ".desktop", FALSE, FALSE },
    { APP "/../x.desktop", ".desktop", FALSE, FALSE },
    { APP ".desktop", ".png", FALSE, FALSE },
    { ".desktop", ".desktop", FALSE, FALSE },
    { APP ".service", ".service", TRUE, TRUE },
    { APP ".Helper.service", ".service", TRUE, TRUE },
    { APP "-helper.service", ".service", TRUE, FALSE },   /* not a name we own */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_test_message ("name '%s'", rows[i].name);
      g_assert_cmpint (xa_exports_name_is_allowed (APP, rows[i].name, rows[i].suffix, rows[i].exact),
                       ==, rows[i].allowed);
    }
}

/* ------------------------------------------------------------------ */
/* On disk                                                            */

typedef struct
{
  char *tmp;
  char *exports;
  char *deploy;
} Fixture;

static void
write_file (const char *base,
            const char *relpath,
            const char *contents)
{
  g_autofree char *path = g_build_filename (base, relpath, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

static char *
make_deploy (Fixture    *fx,
             const char *name)
{
  g_autofree char *dir = g_build_filename (fx->tmp, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return g_steal_pointer (&dir);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fx->tmp = g_dir_make_tmp ("xa-exports-XXXXXX", &error);
  g_assert_no_error (error);
  fx->exports = g_build_filename (fx->tmp, "exports", NULL);
  fx->deploy = make_deploy (fx, "deploy1");
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        rm_rf (child);
      else
        (void) g_unlink (child);
    }
  (void) g_rmdir (path);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  rm_rf (fx->tmp);
  g_free (fx->tmp);
  g_free (fx->exports);
  g_free (fx->deploy);
}

static char *
exported (Fixture    *fx,
          const char *relpath)
{
  return g_build_filename (fx->exports, "share", relpath, NULL);
}

static gboolean
warnings_mention (GPtrArray  *warnings,
                  const char *needle)
{
  for (guint i = 0; i < warnings->len; i++)
    if (strstr (warnings->pdata[i], needle) != NULL)
      return TRUE;
  return FALSE;
}

/* Counts every entry below @path that is a symlink which does not
 * resolve. */
static guint
count_dangling (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        n += !g_file_test (child, G_FILE_TEST_EXISTS);
      else if (g_file_test (child, G_FILE_TEST_IS_DIR))
        n += count_dangling (child);
    }
  return n;
}

static const char good_desktop[] =
  "[Desktop Entry]\nType=Application\nName=Notes\nExec=notes %U\nIcon=" APP "\n";

static void
test_update_exports_good_files_only (Fixture       *fx,
                                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *desktop = exported (fx, "applications/" APP ".desktop");
  g_autofree char *contents = NULL;
  g_autofree char *exec = NULL;
  g_autofree char *passwd_link = g_build_filename (fx->deploy, "export/share/applications/"
                                                   APP ".Passwd.desktop", NULL);
  g_autofree char *fifo = g_build_filename (fx->deploy, "export/share/applications/"
                                            APP ".Fifo.desktop", NULL);

  write_file (fx->deploy, "export/share/applications/" APP ".desktop", good_desktop);
  write_file (fx->deploy, "export/share/applications/org.gnome.Terminal.desktop", good_desktop);
  write_file (fx->deploy, "export/share/applications/" APP ".Evil.desktop",
              "[Desktop Entry]\nType=Application\nExec=--command=sh\n");
  write_file (fx->deploy, "export/share/applications/subdir/" APP ".desktop", good_desktop);
  write_file (fx->deploy, "export/share/applications/" APP ".Esc.desktop",
              "[Desktop Entry]\n\x1b]0;owned\x07\x1b[2J\n");
  write_file (fx->deploy, "export/share/icons/hicolor/64x64/apps/" APP ".png", "PNG");
  write_file (fx->deploy, "export/share/icons/hicolor/64x64/apps/firefox.png", "PNG");
  write_file (fx->deploy, "export/share/icons/hicolor/64x64/apps/" APP ".sh", "#!/bin/sh");
  write_file (fx->deploy, "export/share/icons/hicolor/.hidden/apps/" APP ".png", "PNG");
  write_file (fx->deploy, "export/share/dbus-1/services/" APP ".service",
              "[D-BUS Service]\nName=" APP "\nExec=notes --gapplication-service\n");
  write_file (fx->deploy, "export/share/dbus-1/services/org.freedesktop.secrets.service",
              "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=notes\n");
  g_assert_cmpint (symlink ("/etc/passwd", passwd_link), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);

  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, &warnings, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_test (desktop, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (desktop, &contents, NULL, NULL));
  exec = exec_of (contents, "Desktop Entry");
  g_assert_cmpstr (exec, ==, "xdg-app run --command=notes -- " APP " %U");
  {
    g_autofree char *icon = exported (fx, "icons/hicolor/64x64/apps/" APP ".png");
    g_autofree char *service = exported (fx, "dbus-1/services/" APP ".service");
    g_assert_true (g_file_test (icon, G_FILE_TEST_IS_REGULAR));
    g_assert_true (g_file_test (service, G_FILE_TEST_IS_REGULAR));
  }

  /* Everything else was refused, and said so. */
  {
    const char *absent[] = {
      "applications/org.gnome.Terminal.desktop", "applications/" APP ".Evil.desktop",
      "applications/" APP ".Passwd.desktop", "applications/" APP ".Fifo.desktop",
      "applications/subdir", "icons/hicolor/64x64/apps/firefox.png",
      "icons/hicolor/64x64/apps/" APP ".sh", "icons/hicolor/.hidden",
      "dbus-1/services/org.freedesktop.secrets.service",
    };
    for (gsize i = 0; i < G_N_ELEMENTS (absent); i++)
      {
        g_autofree char *path = exported (fx, absent[i]);
        g_test_message ("absent: %s", absent[i]);
        g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK));
      }
  }
  g_assert_true (warnings_mention (warnings, "org.gnome.Terminal.desktop"));
  g_assert_true (warnings_mention (warnings, APP ".Evil.desktop"));
  g_assert_true (warnings_mention (warnings, APP ".Passwd.desktop"));
  g_assert_true (warnings_mention (warnings, "firefox.png"));
  g_assert_true (warnings_mention (warnings, "org.freedesktop.secrets.service"));
  g_assert_true (warnings_mention (warnings, APP ".Esc.desktop"));
  /* Warnings reach a terminal: nothing in them may act on it. */
  for (guint i = 0; i < warnings->len; i++)
    for (const char *p = warnings->pdata[i]; *p != '\0'; p++)
      g_assert_false ((unsigned char) *p < 0x20 || *p == 0x7f);
}

static void
test_update_refuses_symlinked_tree (Fixture       *fx,
                                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *host = g_build_filename (fx->tmp, "host-share", NULL);
  g_autofree char *export_dir = g_build_filename (fx->deploy, "export", NULL);
  g_autofree char *share = g_build_filename (export_dir, "share", NULL);
  g_autofree char *desktop = exported (fx, "applications/" APP ".desktop");

  /* export/share -> a host directory that holds a perfectly good file:
   * a commit must not make us read outside the deployment. */
  write_file (host, "applications/" APP ".desktop", good_desktop);
  g_assert_cmpint (g_mkdir_with_parents (export_dir, 0755), ==, 0);
  g_assert_cmpint (symlink (host, share), ==, 0);

  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, &warnings, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (warnings->len, >, 0);
}

static void
test_update_replaces_the_set (Fixture       *fx,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *deploy2 = make_deploy (fx, "deploy2");
  g_autofree char *old_action = exported (fx, "applications/" APP ".Old.desktop");
  g_autofree char *new_action = exported (fx, "applications/" APP ".New.desktop");
  g_autofree char *main_desktop = exported (fx, "applications/" APP ".desktop");
  g_autofree char *by_app = g_build_filename (fx->exports, "by-app", APP, NULL);
  g_autoptr(GDir) dir = NULL;
  guint n_entries = 0;

  write_file (fx->deploy, "export/share/applications/" APP ".desktop", good_desktop);
  write_file (fx->deploy, "export/share/applications/" APP ".Old.desktop", good_desktop);
  write_file (deploy2, "export/share/applications/" APP ".desktop",
              "[Desktop Entry]\nType=Application\nName=Notes 2\nExec=notes2\n");
  write_file (deploy2, "export/share/applications/" APP ".New.desktop", good_desktop);

  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (old_action, G_FILE_TEST_EXISTS));

  g_assert_true (xa_exports_update_at (fx->exports, APP, deploy2, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (old_action, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (new_action, G_FILE_TEST_EXISTS));
  {
    g_autofree char *contents = NULL;
    g_assert_true (g_file_get_contents (main_desktop, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "Notes 2"));
  }
  g_assert_cmpuint (count_dangling (fx->exports), ==, 0);

  /* One generation and `current` are left. */
  dir = g_dir_open (by_app, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    n_entries++;
  g_assert_cmpuint (n_entries, ==, 2);
}

static void
test_remove_leaves_nothing (Fixture       *fx,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *desktop = exported (fx, "applications/" APP ".desktop");
  g_autofree char *by_app = g_build_filename (fx->exports, "by-app", APP, NULL);

  write_file (fx->deploy, "export/share/applications/" APP ".desktop", good_desktop);
  write_file (fx->deploy, "export/share/icons/hicolor/64x64/apps/" APP ".png", "PNG");
  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (desktop, G_FILE_TEST_EXISTS));

  g_assert_true (xa_exports_remove_at (fx->exports, APP, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK));
  g_assert_false (g_file_test (by_app, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_dangling (fx->exports), ==, 0);

  /* Removing what is not there is not an error. */
  g_assert_true (xa_exports_remove_at (fx->exports, APP, &error));
  g_assert_no_error (error);
}

/* What a kill -9 in the middle of an update leaves: a half-written
 * generation, links that dangle and a temporary link.  Readers see the
 * old set; the next update cleans up. */
static void
test_update_recovers_from_a_crash (Fixture       *fx,
                                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *apps = exported (fx, "applications");
  g_autofree char *stale_gen = g_build_filename (fx->exports, "by-app", APP, "gen-crashed", NULL);
  g_autofree char *dangling = g_build_filename (apps, APP ".Gone.desktop", NULL);
  g_autofree char *tmp_link = g_build_filename (apps, ".xa-link-deadbeef", NULL);
  g_autofree char *desktop = exported (fx, "applications/" APP ".desktop");
  g_autofree char *contents = NULL;

  write_file (fx->deploy, "export/share/applications/" APP ".desktop", good_desktop);
  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, NULL, &error));
  g_assert_no_error (error);

  write_file (stale_gen, "share/applications/" APP ".Gone.desktop", good_desktop);
  g_assert_cmpint (symlink ("../../by-app/" APP "/current/share/applications/" APP ".Gone.desktop",
                            dangling), ==, 0);
  g_assert_cmpint (symlink ("../../by-app/" APP "/gen-crashed/x", tmp_link), ==, 0);
  /* The reader's view: the old set, the dangling name reads as absent. */
  g_assert_true (g_file_get_contents (desktop, &contents, NULL, NULL));
  g_assert_false (g_file_test (dangling, G_FILE_TEST_EXISTS));

  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));
  g_assert_false (g_file_test (tmp_link, G_FILE_TEST_IS_SYMLINK));
  g_assert_false (g_file_test (stale_gen, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (desktop, G_FILE_TEST_EXISTS));
}

/* org.example.Notes may export org.example.Notes.Editor.desktop, which
 * is also the main file of the app org.example.Notes.Editor: the first
 * keeps it, the second is told. */
static void
test_update_keeps_another_apps_file (Fixture       *fx,
                                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *deploy2 = make_deploy (fx, "editor");
  g_autofree char *desktop = exported (fx, "applications/" APP ".Editor.desktop");
  g_autofree char *contents = NULL;

  write_file (fx->deploy, "export/share/applications/" APP ".Editor.desktop", good_desktop);
  write_file (deploy2, "export/share/applications/" APP ".Editor.desktop",
              "[Desktop Entry]\nType=Application\nName=Other\nExec=editor\n");
  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (xa_exports_update_at (fx->exports, APP ".Editor", deploy2, &warnings, &error));
  g_assert_no_error (error);
  g_assert_true (warnings_mention (warnings, "already exported"));
  g_assert_true (g_file_get_contents (desktop, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "--command=notes"));
}

/* Root's umask 077 must not hide a system installation's exports. */
static void
test_update_is_readable_by_everyone (Fixture       *fx,
                                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *apps = exported (fx, "applications");
  g_autofree char *desktop = exported (fx, "applications/" APP ".desktop");
  g_autofree char *current = g_build_filename (fx->exports, "by-app", APP, "current", NULL);
  struct stat st;
  mode_t old_umask;

  write_file (fx->deploy, "export/share/applications/" APP ".desktop", good_desktop);
  old_umask = umask (077);
  g_assert_true (xa_exports_update_at (fx->exports, APP, fx->deploy, NULL, &error));
  umask (old_umask);
  g_assert_no_error (error);

  g_assert_cmpint (stat (apps, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0755);
  g_assert_cmpint (stat (current, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0755);
  g_assert_cmpint (stat (desktop, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0644);
}

static void
test_update_refuses_bad_app_id (Fixture       *fx,
                                gconstpointer  data)
{
  const char *ids[] = { "../../etc", "org.example/x", "", "org..x" };

  for (gsize i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (xa_exports_update_at (fx->exports, ids[i], fx->deploy, NULL, &error));
      g_assert_nonnull (error);
      g_assert_false (xa_exports_remove_at (fx->exports, ids[i], NULL));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/exports/desktop/exec-is-rewritten", test_desktop_exec_rewritten);
  g_test_add_func ("/store/exports/desktop/hostile-exec-is-refused-or-confined",
                   test_desktop_hostile_table);
  g_test_add_func ("/store/exports/desktop/only-applications-are-exported",
                   test_desktop_refuses_other_types);
  g_test_add_func ("/store/exports/desktop/actions-are-rewritten-or-refused",
                   test_desktop_actions_rewritten_or_refused);
  g_test_add_func ("/store/exports/desktop/dangerous-keys-are-dropped",
                   test_desktop_dangerous_keys_dropped);
  g_test_add_func ("/store/exports/service/hostile-files-are-refused", test_service_table);
  g_test_add_func ("/store/exports/names-start-with-the-app-id", test_name_rule);

#define ADD(path, fn) \
  g_test_add ("/store/exports/" path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("update/exports-good-files-only", test_update_exports_good_files_only);
  ADD ("update/never-follows-a-symlinked-tree", test_update_refuses_symlinked_tree);
  ADD ("update/replaces-the-whole-set", test_update_replaces_the_set);
  ADD ("update/recovers-from-a-crash", test_update_recovers_from_a_crash);
  ADD ("update/keeps-another-apps-file", test_update_keeps_another_apps_file);
  ADD ("update/refuses-a-bad-app-id", test_update_refuses_bad_app_id);
  ADD ("update/is-readable-by-everyone", test_update_is_readable_by_everyone);
  ADD ("remove/leaves-nothing", test_remove_leaves_nothing);
#undef ADD

  return g_test_run ();
}
