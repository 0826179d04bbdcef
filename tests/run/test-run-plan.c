/* tests/run/test-run-plan.c — the sandbox plan of an instance: what it
 * holds for given grants, and that a real sandbox built from it shows
 * exactly that (launcher from $XDG_APP_SANDBOX, runtime composed from the
 * host by runtime/compose-host-runtime). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>

#include "run/run-plan.h"
#include "run/safe-dir.h"

typedef struct
{
  char          *root;      /* temp dir */
  char          *runtime;   /* composed runtime's files/ */
  char          *app;       /* app files */
  char          *data;      /* app data dir */
  XaRunGrants   *grants;
  XaUserDbEntry  user;
  XaRunSpec      spec;
} Fixture;

static const char *const host_env[] = {
  "DISPLAY=:0", "LANG=C.UTF-8", "SECRET_TOKEN=x", "TERM=dumb", NULL,
};

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *bin = NULL;

  f->root = g_dir_make_tmp ("xa-run-plan-XXXXXX", NULL);
  g_assert_nonnull (f->root);
  g_assert_cmpint (chmod (f->root, 0755), ==, 0);
  f->runtime = g_build_filename (f->root, "runtime", "files", NULL);
  f->app = g_build_filename (f->root, "app", NULL);
  f->data = g_build_filename (f->root, "data", NULL);
  g_assert_cmpint (g_mkdir_with_parents (f->runtime, 0755), ==, 0);
  bin = g_build_filename (f->app, "bin", NULL);
  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);

  f->grants = xa_run_grants_new ();
  f->user = (XaUserDbEntry) { getuid (), getgid (), "tester", "Test User", "/home/tester", "testers" };
  f->spec = (XaRunSpec) {
    .app_id = "org.test.Hello", .arch = "x86_64", .branch = "master",
    .app_files = f->app, .app_commit = "abc",
    .runtime_ref = "runtime/org.test.Platform/x86_64/test",
    .runtime_files = f->runtime, .runtime_commit = "def", .data_dir = f->data,
    .instance_id = "0123456789", .grants = f->grants, .user = &f->user,
    .host_env = host_env, .landlock_abi = 7, .landlock_abi_max = -1,
  };
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  const char *rm[] = { "rm", "-rf", f->root, NULL };

  g_assert_true (g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH,
                               NULL, NULL, NULL, NULL, NULL, NULL));
  xa_run_grants_free (f->grants);
  g_free (f->root);
  g_free (f->runtime);
  g_free (f->app);
  g_free (f->data);
}

/* The plan as one string, each argument followed by a newline, then the
 * warnings. */
static char *
plan_text (Fixture *f)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaSandboxArgv) argv = xa_run_plan_build (&f->spec, warnings, &error);
  GString *s = g_string_new (NULL);
  GPtrArray *args;

  g_assert_no_error (error);
  args = xa_sandbox_argv_get_args (argv);
  for (guint i = 0; i < args->len; i++)
    g_string_append_printf (s, "%s\n", (char *) args->pdata[i]);
  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf (s, "WARNING %s\n", (char *) warnings->pdata[i]);
  return g_string_free (s, FALSE);
}

static void
test_never_x11 (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *text = NULL;

  f->grants->wayland = TRUE;
  text = plan_text (f);
  g_assert_null (strstr (text, "\nDISPLAY\n"));
  g_assert_null (strstr (text, "X11"));
  g_assert_null (strstr (text, "SECRET_TOKEN"));
  g_assert_nonnull (strstr (text, "--clearenv\n"));
  g_assert_nonnull (strstr (text, "--setenv\nLANG\nC.UTF-8\n"));
}

static void
test_no_network_by_default (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *closed = plan_text (f);
  g_autofree char *shared = NULL;

  g_assert_nonnull (strstr (closed, "--unshare-net\n"));
  f->grants->network = TRUE;
  shared = plan_text (f);
  g_assert_null (strstr (shared, "--unshare-net\n"));
}

static void
test_reserved_filesystem_ignored (Fixture       *f,
                                  gconstpointer  data)
{
  g_autofree char *text = NULL;

  xa_run_grants_add_filesystem (f->grants, "/usr/share", NULL, XA_RUN_FS_READ_WRITE);
  xa_run_grants_add_filesystem (f->grants, "/etc/../usr", NULL, XA_RUN_FS_READ_WRITE);
  xa_run_grants_add_filesystem (f->grants, "/", NULL, XA_RUN_FS_READ_ONLY);
  xa_run_grants_add_filesystem (f->grants, "/tmp/.X11-unix", NULL, XA_RUN_FS_READ_WRITE);
  text = plan_text (f);
  g_assert_null (strstr (text, "--bind\n/usr/share\n"));
  g_assert_null (strstr (text, "--bind\n/usr\n/usr\n"));
  g_assert_nonnull (strstr (text, "WARNING filesystem '/usr/share' would cover"));
  g_assert_nonnull (strstr (text, "WARNING filesystem '/usr' would cover"));
  g_assert_nonnull (strstr (text, "WARNING filesystem '/' would cover"));
  g_assert_nonnull (strstr (text, "WARNING filesystem '/tmp/.X11-unix' would cover"));
}

static void
test_persistent_symlink_refused (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(XaSandboxArgv) argv = NULL;
  g_autofree char *link = g_build_filename (f->data, ".mozilla", NULL);

  g_assert_cmpint (g_mkdir_with_parents (f->data, 0700), ==, 0);
  g_assert_cmpint (symlink ("/etc", link), ==, 0);
  g_ptr_array_add (f->grants->persistent, g_strdup (".mozilla"));
  argv = xa_run_plan_build (&f->spec, warnings, &error);
  g_assert_null (argv);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR);
  g_assert_nonnull (strstr (error->message, "a symlink is never followed"));
}

static void
test_safe_dir_relpaths (void)
{
  const struct
  {
    const char *path;
    gboolean    valid;
  } cases[] = {
    { ".mozilla", TRUE }, { "a/b/c", TRUE }, { "a//b", TRUE },
    { "", FALSE }, { "/etc", FALSE }, { "..", FALSE }, { "a/../b", FALSE },
    { "./a", FALSE }, { "a/.", FALSE }, { "/", FALSE }, { "//", FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (xa_safe_dir_is_valid_relpath (cases[i].path), ==, cases[i].valid);
}

static void
test_user_db_fields_escaped (void)
{
  XaUserDbEntry e = { 1000, 1000, "bob:x:0:0", "Bob\nroot::0:0::/:/bin/sh", "/home/bob", NULL };
  g_autofree char *passwd = xa_user_db_passwd (&e);
  g_autofree char *group = xa_user_db_group (&e);

  g_assert_cmpstr (passwd, ==, "user1000:x:1000:1000::/home/bob:/bin/sh\n"
                               "nobody:x:65534:65534:Unmapped user:/:/sbin/nologin\n");
  g_assert_cmpstr (group, ==, "group1000:x:1000:\nnogroup:x:65534:\n");
}

/* Runs `sh -c SCRIPT` in a sandbox made from the plan; returns stdout. */
static char *
run_in_sandbox (Fixture    *f,
                const char *script,
                int        *out_status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(XaSandboxArgv) argv = xa_run_plan_build (&f->spec, warnings, &error);
  const char *launcher = g_getenv ("XDG_APP_SANDBOX");
  const char *const command[] = { "/bin/sh", "-c", script, NULL };
  int out[2];
  pid_t pid;
  GString *s = g_string_new (NULL);
  char buf[4096];
  ssize_t n;

  g_assert_no_error (error);
  g_assert_cmpint (pipe (out), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      dup2 (out[1], 1);
      xa_sandbox_argv_exec (argv, launcher, command, &error);
      g_printerr ("%s\n", error->message);
      _exit (127);
    }
  close (out[1]);
  while ((n = read (out[0], buf, sizeof buf)) > 0)
    g_string_append_len (s, buf, n);
  close (out[0]);
  g_assert_cmpint (waitpid (pid, out_status, 0), ==, pid);
  return g_string_free (s, FALSE);
}

static void
test_sandbox_shows_the_layout (Fixture       *f,
                               gconstpointer  data)
{
  const char *source_root = g_getenv ("XDG_APP_SOURCE_ROOT");
  g_autofree char *out_dir = g_build_filename (f->root, "runtime", NULL);
  g_autofree char *compose = NULL;
  g_autofree char *out = NULL;
  int status;

  if (g_getenv ("XDG_APP_SANDBOX") == NULL || source_root == NULL)
    {
      g_test_skip ("needs XDG_APP_SANDBOX and XDG_APP_SOURCE_ROOT (run under meson test)");
      return;
    }
  compose = g_build_filename (source_root, "runtime", "compose-host-runtime", NULL);
  {
    const char *cmd[] = { compose, out_dir, NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) cmd, NULL, 0, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }

  g_ptr_array_add (f->grants->persistent, g_strdup (".keep"));
  f->grants->context_keyfile = g_strdup ("[Context]\nshared=ipc;\n");
  out = run_in_sandbox (f,
                        "echo $(ls -a /);"
                        "grep -E '^(name|instance-id|app-path)=' /.flatpak-info;"
                        "grep -c '^' /etc/passwd; id -un;"
                        "echo \"DISPLAY=${DISPLAY-unset} XDG_CONFIG_HOME=$XDG_CONFIG_HOME\";"
                        "ls -d /var/config /tmp/.X11-unix 2>&1 | sed 's/.*cannot access/absent/';"
                        "touch /usr/x 2>/dev/null && echo usr-writable;"
                        "touch /self/x 2>/dev/null && echo self-writable;"
                        "echo hi > $HOME/.keep/f && echo persistent-ok;"
                        "readlink /app",
                        &status);
  g_test_message ("%s", out);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, ". .. .flatpak-info .xdg-app-info app bin dev etc home lib lib64 proc run self tmp usr var"));
  g_assert_nonnull (strstr (out, "name=org.test.Hello\n"));
  g_assert_nonnull (strstr (out, "instance-id=0123456789\n"));
  g_assert_nonnull (strstr (out, "app-path=/self\n"));
  g_assert_nonnull (strstr (out, "\n2\ntester\n"));
  g_assert_nonnull (strstr (out, "DISPLAY=unset XDG_CONFIG_HOME=/var/config"));
  g_assert_nonnull (strstr (out, "/var/config\n"));
  g_assert_nonnull (strstr (out, "absent '/tmp/.X11-unix'"));
  g_assert_null (strstr (out, "usr-writable"));
  g_assert_null (strstr (out, "self-writable"));
  g_assert_nonnull (strstr (out, "persistent-ok\nself\n"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/run/plan/never-exposes-x11", Fixture, NULL,
              fixture_set_up, test_never_x11, fixture_tear_down);
  g_test_add ("/run/plan/unshares-network-unless-granted", Fixture, NULL,
              fixture_set_up, test_no_network_by_default, fixture_tear_down);
  g_test_add ("/run/plan/ignores-filesystems-over-its-layout", Fixture, NULL,
              fixture_set_up, test_reserved_filesystem_ignored, fixture_tear_down);
  g_test_add ("/run/plan/refuses-persistent-symlink", Fixture, NULL,
              fixture_set_up, test_persistent_symlink_refused, fixture_tear_down);
  g_test_add_func ("/run/safe-dir/accepts-only-plain-relative-paths", test_safe_dir_relpaths);
  g_test_add_func ("/run/user-db/replaces-fields-that-break-the-format", test_user_db_fields_escaped);
  g_test_add ("/run/plan/sandbox-shows-the-layout", Fixture, NULL,
              fixture_set_up, test_sandbox_shows_the_layout, fixture_tear_down);
  return g_test_run ();
}
