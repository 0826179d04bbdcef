/* run/run-plan.c — turns an XaRunSpec into the launcher's plan.
 *
 * Enforces: deny by default — the plan holds only the runtime, the app,
 * its data directory and what the grants name; X11 is never exposed (no
 * socket directory, no DISPLAY); every namespace but the ones a grant
 * shares is new; the command keeps no capability (the launcher's rule) and
 * runs under the project's seccomp profile.  A granted path never lands on
 * a directory the sandbox's own layout owns (/usr, /self, /etc…), so a
 * grant cannot replace the runtime or the app.  Paths below the app's data
 * directory are opened without following symlinks (run/safe-dir.c,
 * CVE-2024-42472).  Trusts: the spec's host paths, which come from the
 * store and the user's own environment. */
#include "run/run-plan.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "run/safe-dir.h"
#include "store/deployment-lock.h"

/* Directories of the sandbox's own layout: a filesystem grant may not
 * name them or anything below them.  /tmp/.X11-unix too: X11 is never
 * exposed, not even through filesystems=/tmp/.X11-unix (DESIGN.md). */
static const char *const reserved_dirs[] = {
  "/usr", "/self", "/app", "/etc", "/var", "/proc", "/dev", "/run/user",
  "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/.xdg-app-info",
  "/.flatpak-info", "/run/host", "/tmp/.X11-unix",
};

/* Host variables an app may see, when set: locale and terminal. */
static const char *const passed_env[] = {
  "LANG", "LANGUAGE", "LC_ALL", "LC_ADDRESS", "LC_COLLATE", "LC_CTYPE",
  "LC_IDENTIFICATION", "LC_MEASUREMENT", "LC_MESSAGES", "LC_MONETARY",
  "LC_NAME", "LC_NUMERIC", "LC_PAPER", "LC_TELEPHONE", "LC_TIME",
  "TERM", "COLORTERM", "NO_COLOR", "TZ", "XDG_CURRENT_DESKTOP",
  "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "GDK_BACKEND",
};

/* Entries of the runtime's /etc that the sandbox gets from elsewhere. */
static const char *const etc_replaced[] = {
  "passwd", "group", "machine-id", "resolv.conf", "hosts", "host.conf",
  "localtime", "timezone", "gai.conf",
};

char *
xa_run_plan_new_instance_id (void)
{
  return g_strdup_printf ("%010u", g_random_int_range (1, G_MAXINT32));
}

static gboolean
xa_run_plan_is_reserved (const char *path)
{
  if (g_str_equal (path, "/"))
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (reserved_dirs); i++)
    {
      gsize n = strlen (reserved_dirs[i]);

      if (strncmp (path, reserved_dirs[i], n) == 0 && (path[n] == '\0' || path[n] == '/'))
        return TRUE;
    }
  return FALSE;
}

/* The second wall, for every app: Landlock keeps it from connecting to
 * abstract sockets outside the sandbox (the X server at
 * @/tmp/.X11-unix/XN, abstract D-Bus sockets: they live in the network
 * namespace, which shared=network shares — flatpak#4702), from
 * signalling host processes, and from using a directory fd from outside
 * to walk out of its view.  On a kernel without the scopes the launcher
 * applies what it can (--landlock-best-effort), an app that shares the
 * network gets a namespace of its own through pasta (run/user-net.h),
 * and without pasta the user is told. */
static void
xa_run_plan_landlock (XaSandboxArgv   *argv,
                      const XaRunSpec *spec,
                      GPtrArray       *out_warnings)
{
  xa_sandbox_argv_add (argv, "--scope-abstract-unix-sockets", "--scope-signals",
                       "--landlock-fs", "--landlock-best-effort", NULL);
  if (spec->landlock_abi_max >= 0)
    {
      g_autofree char *max = g_strdup_printf ("%d", spec->landlock_abi_max);

      xa_sandbox_argv_add (argv, "--landlock-abi-max", max, NULL);
    }
  if (spec->net_mode == XA_USER_NET_EXPOSED)
    g_ptr_array_add (out_warnings, xa_user_net_describe (spec->net_mode, spec->landlock_abi));
}

/* The sandbox holds a lock on the deployment's .ref for as long as it
 * lives, so that an update or uninstall keeps the files it runs from
 * (store/deployment-lock.h). */
static void
add_deployment_lock (XaSandboxArgv *argv,
                     const char *host_files,
                     const char *dest)
{
  g_autofree char *host = g_build_filename (host_files, XA_DEPLOYMENT_LOCK_NAME, NULL);
  g_autofree char *inside = NULL;

  if (!g_file_test (host, G_FILE_TEST_IS_REGULAR))
    return;
  inside = g_build_filename (dest, XA_DEPLOYMENT_LOCK_NAME, NULL);
  xa_sandbox_argv_add (argv, "--lock-file", inside, NULL);
}

static void
xa_run_plan_layout (XaSandboxArgv   *argv,
                    const XaRunSpec *spec)
{
  static const char *const usr_links[] = { "bin", "sbin", "lib", "lib32", "lib64", "libx32" };
  const XaRunGrants *g = spec->grants;

  xa_sandbox_argv_add (argv, "--unshare-user", "--unshare-pid", "--unshare-uts",
                       "--unshare-cgroup-try", "--close-fds", NULL);
  if (!g->ipc)
    xa_sandbox_argv_add (argv, "--unshare-ipc", NULL);
  if (!g->network)
    xa_sandbox_argv_add (argv, "--unshare-net", NULL);
  xa_sandbox_argv_add (argv, "--seccomp-profile",
                       spec->devel || g->devel ? "devel" : "default", NULL);

  xa_sandbox_argv_add (argv, "--ro-bind", spec->runtime_files, "/usr", NULL);
  add_deployment_lock (argv, spec->runtime_files, "/usr");
  for (gsize i = 0; i < G_N_ELEMENTS (usr_links); i++)
    {
      g_autofree char *host = g_build_filename (spec->runtime_files, usr_links[i], NULL);
      g_autofree char *target = g_strconcat ("usr/", usr_links[i], NULL);
      g_autofree char *dest = g_strconcat ("/", usr_links[i], NULL);

      if (g_file_test (host, G_FILE_TEST_EXISTS))
        xa_sandbox_argv_add (argv, "--symlink", target, dest, NULL);
    }

  if (spec->app_files != NULL)
    {
      xa_sandbox_argv_add (argv, spec->app_writable ? "--bind" : "--ro-bind",
                           spec->app_files, "/self", NULL);
      if (!spec->app_writable)
        add_deployment_lock (argv, spec->app_files, "/self");
      /* Bundles built for Flatpak look for themselves at /app. */
      xa_sandbox_argv_add (argv, "--symlink", "self", "/app", NULL);
    }

  xa_sandbox_argv_add (argv, "--proc", "/proc", NULL);
  if (g->all_devices)
    xa_sandbox_argv_add (argv, "--dev-bind", "/dev", "/dev", NULL);
  else
    {
      xa_sandbox_argv_add (argv, "--dev", "/dev", NULL);
      if (g->dri)
        xa_sandbox_argv_add (argv, "--dev-bind-try", "/dev/dri", "/dev/dri", NULL);
      if (g->input)
        xa_sandbox_argv_add (argv, "--dev-bind-try", "/dev/input", "/dev/input", NULL);
      if (g->usb)
        xa_sandbox_argv_add (argv, "--dev-bind-try", "/dev/bus/usb", "/dev/bus/usb", NULL);
      if (g->shm)
        xa_sandbox_argv_add (argv, "--bind-try", "/dev/shm", "/dev/shm", NULL);
      if (g->kvm)
        xa_sandbox_argv_add (argv, "--dev-bind-try", "/dev/kvm", "/dev/kvm", NULL);
    }
  xa_sandbox_argv_add (argv, "--tmpfs", "/tmp", NULL);
}

/* /etc: the runtime's entries as symlinks into /usr/etc, except those
 * that come from the user (passwd, group) or the host (network and time
 * configuration, machine id). */
static gboolean
xa_run_plan_etc (XaSandboxArgv    *argv,
                 const XaRunSpec  *spec,
                 GError          **error)
{
  g_autofree char *etc = g_build_filename (spec->runtime_files, "etc", NULL);
  g_autoptr(GDir) dir = g_dir_open (etc, 0, NULL);
  g_autofree char *passwd = xa_user_db_passwd (spec->user);
  g_autofree char *group = xa_user_db_group (spec->user);
  const char *name;

  xa_sandbox_argv_add (argv, "--dir", "/etc", NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *target = NULL;
      g_autofree char *dest = NULL;
      gboolean replaced = FALSE;

      for (gsize i = 0; i < G_N_ELEMENTS (etc_replaced); i++)
        replaced |= g_str_equal (name, etc_replaced[i]);
      if (replaced)
        continue;
      target = g_strconcat ("../usr/etc/", name, NULL);
      dest = g_strconcat ("/etc/", name, NULL);
      xa_sandbox_argv_add (argv, "--symlink", target, dest, NULL);
    }

  if (!xa_sandbox_argv_add_data (argv, "--ro-bind-data", "/etc/passwd", passwd, strlen (passwd), error)
      || !xa_sandbox_argv_add_data (argv, "--ro-bind-data", "/etc/group", group, strlen (group), error))
    return FALSE;
  xa_sandbox_argv_add (argv, "--ro-bind-try", "/etc/machine-id", "/etc/machine-id",
                       "--ro-bind-try", "/etc/localtime", "/etc/localtime",
                       "--ro-bind-try", "/etc/timezone", "/etc/timezone", NULL);
  if (spec->grants->network)
    xa_sandbox_argv_add (argv, "--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf",
                         "--ro-bind-try", "/etc/hosts", "/etc/hosts",
                         "--ro-bind-try", "/etc/host.conf", "/etc/host.conf",
                         "--ro-bind-try", "/etc/gai.conf", "/etc/gai.conf", NULL);
  return TRUE;
}

/* /var is the app's data directory, with the XDG base directories the
 * app's environment points at. */
static gboolean
xa_run_plan_data (XaSandboxArgv    *argv,
                  const XaRunSpec  *spec,
                  GError          **error)
{
  static const char *const subdirs[] = { "config", "data", "cache", "state", "tmp" };
  int data_fd;

  if (spec->data_dir == NULL)
    return TRUE;
  if (g_mkdir_with_parents (spec->data_dir, 0700) < 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "data directory of '%s': %s", spec->app_id, g_strerror (errsv));
      return FALSE;
    }
  data_fd = open (spec->data_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (data_fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "data directory of '%s': %s", spec->app_id, g_strerror (errsv));
      return FALSE;
    }
  xa_sandbox_argv_take_fd (argv, "--bind-fd", data_fd, "/var");

  for (gsize i = 0; i < G_N_ELEMENTS (subdirs); i++)
    {
      int fd = xa_safe_dir_ensure (data_fd, subdirs[i], error);

      if (fd < 0)
        {
          g_prefix_error (error, "data directory of '%s': ", spec->app_id);
          return FALSE;
        }
      (void) close (fd);
    }
  return TRUE;
}

/* persistent=DIR: $HOME/DIR inside is DATA/DIR on the host, opened
 * without following symlinks and bound by fd, so the app cannot point it
 * anywhere else (CVE-2024-42472).  After the filesystem grants, so that a
 * granted home does not cover them. */
static gboolean
xa_run_plan_persistent (XaSandboxArgv    *argv,
                        const XaRunSpec  *spec,
                        GError          **error)
{
  int data_fd;

  if (spec->data_dir == NULL || spec->grants->persistent->len == 0)
    return TRUE;
  data_fd = open (spec->data_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (data_fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "data directory of '%s': %s", spec->app_id, g_strerror (errsv));
      return FALSE;
    }
  for (guint i = 0; i < spec->grants->persistent->len; i++)
    {
      const char *rel = spec->grants->persistent->pdata[i];
      g_autofree char *dest = g_build_filename (spec->user->home, rel, NULL);
      int fd = xa_safe_dir_ensure (data_fd, rel, error);

      if (fd < 0)
        {
          (void) close (data_fd);
          g_prefix_error (error, "persistent directory of '%s': ", spec->app_id);
          return FALSE;
        }
      xa_sandbox_argv_take_fd (argv, "--bind-fd", fd, dest);
    }
  (void) close (data_fd);
  return TRUE;
}

static void
xa_run_plan_filesystems (XaSandboxArgv   *argv,
                         const XaRunSpec *spec,
                         GPtrArray       *out_warnings)
{
  for (guint i = 0; i < spec->grants->filesystems->len; i++)
    {
      const XaRunFsGrant *fs = spec->grants->filesystems->pdata[i];

      /* xdg-run/… lands in the sandbox's runtime directory by design. */
      g_autofree char *runtime_dir = g_strdup_printf ("/run/user/%u/", (unsigned) spec->user->uid);

      if (xa_run_plan_is_reserved (fs->dest) && !g_str_has_prefix (fs->dest, runtime_dir))
        {
          g_ptr_array_add (out_warnings,
                           g_strdup_printf ("filesystem '%s' would cover the sandbox's own layout, ignoring",
                                            fs->dest));
          continue;
        }
      if (fs->mode == XA_RUN_FS_CREATE)
        (void) g_mkdir_with_parents (fs->path, 0700);
      if (!g_file_test (fs->path, G_FILE_TEST_EXISTS))
        continue;
      xa_sandbox_argv_add (argv, fs->mode == XA_RUN_FS_READ_ONLY ? "--ro-bind" : "--bind",
                           fs->path, fs->dest, NULL);
    }
  if (spec->grants->host_os)
    xa_sandbox_argv_add (argv, "--ro-bind", "/usr", "/run/host/usr", NULL);
  if (spec->grants->host_etc)
    xa_sandbox_argv_add (argv, "--ro-bind", "/etc", "/run/host/etc", NULL);
}

/* /run/user/UID with the granted sockets, nothing else. */
static void
xa_run_plan_runtime_dir (XaSandboxArgv   *argv,
                         const XaRunSpec *spec,
                         GPtrArray       *out_warnings)
{
  const XaRunGrants *g = spec->grants;
  g_autofree char *dir = g_strdup_printf ("/run/user/%u", (unsigned) spec->user->uid);
  g_autofree char *sock = NULL;

  xa_sandbox_argv_add (argv, "--perms", "0700", "--dir", dir, NULL);

  if (g->wayland)
    {
      const char *display = spec->host_wayland_display != NULL ? spec->host_wayland_display : "wayland-0";
      g_autofree char *host = g_path_is_absolute (display) || spec->host_runtime_dir == NULL
                              ? g_strdup (display)
                              : g_build_filename (spec->host_runtime_dir, display, NULL);
      g_autofree char *dest = g_build_filename (dir, "wayland-0", NULL);

      if (g_file_test (host, G_FILE_TEST_EXISTS))
        xa_sandbox_argv_add (argv, "--ro-bind", host, dest, NULL);
      else
        g_ptr_array_add (out_warnings,
                         g_strdup_printf ("no Wayland socket at '%s'; the app runs without a display", host));
    }
  if (g->pulseaudio && spec->host_runtime_dir != NULL)
    {
      g_autofree char *host = g_build_filename (spec->host_runtime_dir, "pulse", "native", NULL);
      g_autofree char *dest = g_build_filename (dir, "pulse", "native", NULL);

      if (g_file_test (host, G_FILE_TEST_EXISTS))
        xa_sandbox_argv_add (argv, "--ro-bind", host, dest, NULL);
    }
  /* The broker's socket for this instance; the host's own only when
   * the whole bus was granted. */
  if (spec->broker_session_bus != NULL || (g->session_bus && spec->host_session_bus != NULL))
    {
      sock = g_build_filename (dir, "bus", NULL);
      xa_sandbox_argv_add (argv, "--ro-bind",
                           spec->broker_session_bus != NULL ? spec->broker_session_bus
                                                            : spec->host_session_bus,
                           sock, NULL);
    }
  if (spec->broker_system_bus != NULL)
    xa_sandbox_argv_add (argv, "--ro-bind", spec->broker_system_bus,
                         "/run/dbus/system_bus_socket", NULL);
}

static void
xa_run_plan_env (XaSandboxArgv   *argv,
                 const XaRunSpec *spec)
{
  const XaRunGrants *g = spec->grants;
  g_autofree char *runtime_dir = g_strdup_printf ("/run/user/%u", (unsigned) spec->user->uid);

  xa_sandbox_argv_add (argv, "--clearenv", NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (passed_env); i++)
    {
      const char *v = g_environ_getenv ((char **) spec->host_env, passed_env[i]);

      if (v != NULL)
        xa_sandbox_argv_add (argv, "--setenv", passed_env[i], v, NULL);
    }
  xa_sandbox_argv_add (argv,
                       "--setenv", "PATH", spec->app_files != NULL ? "/self/bin:/usr/bin" : "/usr/bin",
                       "--setenv", "HOME", spec->user->home,
                       "--setenv", "USER", spec->user->name,
                       "--setenv", "LOGNAME", spec->user->name,
                       "--setenv", "XDG_RUNTIME_DIR", runtime_dir,
                       "--setenv", "XDG_DATA_DIRS", "/self/share:/usr/share",
                       "--setenv", "XDG_CONFIG_DIRS", "/self/etc/xdg:/etc/xdg",
                       NULL);
  if (spec->data_dir != NULL)
    xa_sandbox_argv_add (argv,
                         "--setenv", "XDG_CONFIG_HOME", "/var/config",
                         "--setenv", "XDG_DATA_HOME", "/var/data",
                         "--setenv", "XDG_CACHE_HOME", "/var/cache",
                         "--setenv", "XDG_STATE_HOME", "/var/state",
                         "--setenv", "TMPDIR", "/tmp",
                         NULL);
  if (spec->app_id != NULL)
    xa_sandbox_argv_add (argv, "--setenv", "XDG_APP_ID", spec->app_id,
                         "--setenv", "FLATPAK_ID", spec->app_id, NULL);
  if (g->wayland)
    xa_sandbox_argv_add (argv, "--setenv", "WAYLAND_DISPLAY", "wayland-0", NULL);
  if (g->pulseaudio)
    {
      g_autofree char *server = g_strdup_printf ("unix:%s/pulse/native", runtime_dir);
      xa_sandbox_argv_add (argv, "--setenv", "PULSE_SERVER", server, NULL);
    }
  if (spec->broker_session_bus != NULL || (g->session_bus && spec->host_session_bus != NULL))
    {
      g_autofree char *addr = g_strdup_printf ("unix:path=%s/bus", runtime_dir);
      xa_sandbox_argv_add (argv, "--setenv", "DBUS_SESSION_BUS_ADDRESS", addr, NULL);
    }
  if (spec->broker_system_bus != NULL)
    xa_sandbox_argv_add (argv, "--setenv", "DBUS_SYSTEM_BUS_ADDRESS",
                         "unix:path=/run/dbus/system_bus_socket", NULL);

  /* The app's [Environment] last, so it can override the defaults. */
  for (guint i = 0; i < g->env->len; i++)
    {
      const char *kv = g->env->pdata[i];
      const char *eq = strchr (kv, '=');
      g_autofree char *key = eq != NULL ? g_strndup (kv, (gsize) (eq - kv)) : NULL;

      if (key != NULL && key[0] != '\0')
        xa_sandbox_argv_add (argv, "--setenv", key, eq + 1, NULL);
    }
  for (guint i = 0; i < g->unset_env->len; i++)
    xa_sandbox_argv_add (argv, "--unsetenv", g->unset_env->pdata[i], NULL);
}

char *
xa_run_plan_instance_info (const XaRunSpec *spec)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *data = NULL;
  const char *group = spec->app_id != NULL ? "Application" : "Runtime";
  const char *name = spec->app_id;
  g_auto(GStrv) parts = NULL;

  if (name == NULL && spec->runtime_ref != NULL)
    {
      parts = g_strsplit (spec->runtime_ref, "/", 4);
      name = g_strv_length (parts) > 1 ? parts[1] : spec->runtime_ref;
    }
  g_key_file_set_string (kf, group, "name", name != NULL ? name : "");
  if (spec->runtime_ref != NULL)
    g_key_file_set_string (kf, group, "runtime", spec->runtime_ref);

  g_key_file_set_string (kf, "Instance", "instance-id", spec->instance_id);
  if (spec->arch != NULL)
    g_key_file_set_string (kf, "Instance", "arch", spec->arch);
  if (spec->branch != NULL)
    g_key_file_set_string (kf, "Instance", "branch", spec->branch);
  if (spec->app_commit != NULL)
    g_key_file_set_string (kf, "Instance", "app-commit", spec->app_commit);
  if (spec->runtime_commit != NULL)
    g_key_file_set_string (kf, "Instance", "runtime-commit", spec->runtime_commit);
  /* Where the app and runtime are inside the sandbox, not on the host:
   * nothing the app reads names a host path outside its view. */
  if (spec->app_files != NULL)
    g_key_file_set_string (kf, "Instance", "app-path", "/self");
  g_key_file_set_string (kf, "Instance", "runtime-path", "/usr");
  /* Clients such as GLib switch to portals when they find this file;
   * some read the version to know which portal features exist. */
  g_key_file_set_string (kf, "Instance", "flatpak-version", "1.14.10");
  g_key_file_set_boolean (kf, "Instance", "session-bus-proxy", FALSE);
  g_key_file_set_boolean (kf, "Instance", "system-bus-proxy", FALSE);
  if (spec->devel)
    g_key_file_set_boolean (kf, "Instance", "devel", TRUE);

  data = g_key_file_to_data (kf, NULL, NULL);
  g_string_append (out, data);
  if (spec->grants->context_keyfile != NULL)
    g_string_append_printf (out, "\n%s", spec->grants->context_keyfile);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

XaSandboxArgv *
xa_run_plan_build (const XaRunSpec  *spec,
                   GPtrArray        *out_warnings,
                   GError          **error)
{
  g_autoptr(XaSandboxArgv) argv = xa_sandbox_argv_new ();
  g_autofree char *info = xa_run_plan_instance_info (spec);

  g_return_val_if_fail (spec->runtime_files != NULL, NULL);
  g_return_val_if_fail (spec->user != NULL && spec->grants != NULL, NULL);

  xa_run_plan_layout (argv, spec);
  if (!xa_run_plan_etc (argv, spec, error))
    return NULL;
  if (!xa_run_plan_data (argv, spec, error))
    return NULL;
  xa_sandbox_argv_add (argv, "--dir", spec->user->home, NULL);
  xa_run_plan_filesystems (argv, spec, out_warnings);
  if (!xa_run_plan_persistent (argv, spec, error))
    return NULL;
  xa_run_plan_runtime_dir (argv, spec, out_warnings);

  if (!xa_sandbox_argv_add_data (argv, "--ro-bind-data", "/.xdg-app-info", info, strlen (info), error))
    return NULL;
  xa_sandbox_argv_add (argv, "--symlink", ".xdg-app-info", "/.flatpak-info", NULL);

  xa_run_plan_env (argv, spec);
  xa_run_plan_landlock (argv, spec, out_warnings);
  return g_steal_pointer (&argv);
}
