/* run/user-net.c — see user-net.h.
 *
 * Enforces: an app that shares the network never shares the host's
 * network namespace unless Landlock scopes it (ABI 6: abstract sockets
 * live in the network namespace, flatpak#4702); on an older kernel it
 * gets pasta, or, when pasta is missing, the host's namespace with one
 * warning that names the risk.  If pasta fails, the sandbox is killed
 * before the app starts.
 *
 * Trusts: pasta (Debian's passt) to connect only the namespace it is
 * given; the launcher's --info-fd for the sandbox's pid.  The helper runs
 * between fork() and exec() of a process that may have threads, so it
 * uses system calls only. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "run/user-net.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)

int
xa_user_net_landlock_abi (int abi_max)
{
  long abi = syscall (SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

  if (abi < 0)
    abi = 0;
  if (abi_max >= 0 && abi > abi_max)
    abi = abi_max;
  return (int) abi;
}

XaUserNetMode
xa_user_net_choose (gboolean network,
                    int abi,
                    char **out_pasta)
{
  *out_pasta = NULL;
  if (!network)
    return XA_USER_NET_NONE;
  if (abi >= XA_USER_NET_LANDLOCK_ABI_SCOPES)
    return XA_USER_NET_HOST;
  /* pasta opens /dev/net/tun inside the namespace, as this user. */
  if (access ("/dev/net/tun", R_OK | W_OK) != 0)
    return XA_USER_NET_EXPOSED;
  *out_pasta = g_find_program_in_path ("pasta");
  return *out_pasta != NULL ? XA_USER_NET_PASTA : XA_USER_NET_EXPOSED;
}

char *
xa_user_net_describe (XaUserNetMode mode,
                      int abi)
{
  switch (mode)
    {
    case XA_USER_NET_HOST:
      return g_strdup_printf (_("the host's network; Landlock ABI %d keeps abstract sockets "
                                "(X11 among them) and host processes out of reach"), abi);
    case XA_USER_NET_PASTA:
      return g_strdup_printf (_("a network namespace of its own through pasta (Landlock ABI %d "
                                "cannot scope abstract sockets, %d can); X11 and other abstract "
                                "sockets of the host are out of reach"),
                              abi, XA_USER_NET_LANDLOCK_ABI_SCOPES);
    case XA_USER_NET_EXPOSED:
      return g_strdup_printf (_("the host's network, unscoped: Landlock ABI %d is below %d and "
                                "pasta cannot run (apt install passt; /dev/net/tun must be usable "
                                "by this user), so the app can reach the host's abstract sockets, "
                                "an X server's among them"),
                              abi, XA_USER_NET_LANDLOCK_ABI_SCOPES);
    case XA_USER_NET_NONE:
    default:
      return g_strdup (_("no network: loopback only"));
    }
}

/* The child-pid the launcher writes to --info-fd, or -1. */
static pid_t
read_child_pid (int fd)
{
  static const char key[] = "\"child-pid\":";
  char buf[1024];
  size_t len = 0;

  for (;;)
    {
      ssize_t n = read (fd, buf + len, sizeof buf - 1 - len);
      char *p;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      len += n;
      buf[len] = '\0';
      p = strstr (buf, key);
      if (p != NULL)
        {
          pid_t pid = 0;

          p += sizeof key - 1;
          while (*p == ' ')
            p++;
          /* The number must be whole: something follows it. */
          if (*p < '0' || *p > '9')
            return -1;
          for (; *p >= '0' && *p <= '9'; p++)
            pid = pid * 10 + (*p - '0');
          if (*p != '\0')
            return pid;
        }
      if (len == sizeof buf - 1)
        return -1;
    }
}

static void
say (const char *text)
{
  (void) write (STDERR_FILENO, text, strlen (text));
}

/* The pid pasta writes to --pid /proc/self/fd/3 (a pipe), or -1. */
static pid_t
read_pasta_pid (int fd)
{
  char buf[32];
  ssize_t n;
  pid_t pid = 0;

  do
    n = read (fd, buf, sizeof buf - 1);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    return -1;
  for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
    pid = pid * 10 + (buf[i] - '0');
  return pid > 0 ? pid : -1;
}

/* Until the process of @pidfd exits.  pasta of passt 2023-03 does not
 * notice by itself: it would stay, scanning ports, one per run. */
static void
wait_for_exit (int pidfd)
{
  struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

  while (poll (&pfd, 1, -1) < 0 && errno == EINTR)
    ;
}

/* The helper: waits for the sandbox, runs pasta for it, lets the app
 * start or kills the sandbox; then stays until the sandbox ends, and
 * ends pasta with it. */
static void G_GNUC_NORETURN
run_helper (int info_fd,
            int block_fd,
            char **pasta_argv,
            char *pid_arg,
            gsize pid_arg_size)
{
  int low = MIN (info_fd, block_fd), high = MAX (info_fd, block_fd);
  pid_t child, pasta, daemon;
  int status = 0;
  int pid_pipe[2];
  int child_fd, daemon_fd = -1;

  /* The helper lives as long as the sandbox: it keeps none of xdg-app's
   * descriptors but its two pipes. */
  if (low > 3)
    (void) syscall (SYS_close_range, 3, low - 1, 0);
  if (high > low + 1)
    (void) syscall (SYS_close_range, low + 1, high - 1, 0);
  (void) syscall (SYS_close_range, high + 1, ~0U, 0);

  child = read_child_pid (info_fd);
  if (child <= 0)
    _exit (1);   /* the launcher failed: it says why */
  /* Taken while the sandbox waits on --block-fd, so that it names the
   * sandbox even after the sandbox's pid has been reused. */
  child_fd = (int) syscall (SYS_pidfd_open, child, 0);
  if (child_fd < 0 || pipe (pid_pipe) < 0)
    {
      (void) kill (child, SIGKILL);
      say ("xdg-app: cannot follow the sandbox for pasta; the app was stopped\n");
      _exit (1);
    }
  snprintf (pid_arg, pid_arg_size, "%d", (int) child);
  pasta = fork ();
  if (pasta == 0)
    {
      int null = open ("/dev/null", O_RDWR);

      /* Nothing of xdg-app's reaches pasta, which outlives us; fd 3 is
       * where it writes its pid. */
      if (null >= 0)
        {
          (void) dup2 (null, STDIN_FILENO);
          (void) dup2 (null, STDOUT_FILENO);
          (void) dup2 (null, STDERR_FILENO);
        }
      if (dup2 (pid_pipe[1], 3) < 0)
        _exit (127);
      (void) syscall (SYS_close_range, 4, ~0U, 0);
      execv (pasta_argv[0], pasta_argv);
      _exit (127);
    }
  (void) close (pid_pipe[1]);
  while (pasta > 0 && waitpid (pasta, &status, 0) < 0 && errno == EINTR)
    ;
  if (pasta > 0 && WIFEXITED (status) && WEXITSTATUS (status) == 0)
    {
      /* pasta runs on in the background. */
      daemon = read_pasta_pid (pid_pipe[0]);
      /* Held from now on, so that the signal below cannot reach a
       * process that reused the pid. */
      if (daemon > 0)
        daemon_fd = (int) syscall (SYS_pidfd_open, daemon, 0);
      (void) write (block_fd, "g", 1);
      (void) close (block_fd);
      wait_for_exit (child_fd);
      if (daemon_fd >= 0)
        (void) syscall (SYS_pidfd_send_signal, daemon_fd, SIGTERM, NULL, 0);
      _exit (0);
    }
  (void) syscall (SYS_pidfd_send_signal, child_fd, SIGKILL, NULL, 0);
  say ("xdg-app: pasta could not connect the app's network namespace; the app was stopped\n");
  _exit (1);
}

gboolean
xa_user_net_start (XaSandboxArgv *argv,
                   const char *pasta,
                   GError **error)
{
  char pid_arg[32] = "";
  /* Made before fork(): the helper may not allocate. */
  char *pasta_argv[] = {
    (char *) pasta, (char *) "--config-net", (char *) "--quiet",
    /* The host's loopback services, as with the host's network. */
    (char *) "-T", (char *) "auto", (char *) "-U", (char *) "auto",
    (char *) "--pid", (char *) "/proc/self/fd/3",
    /* As root, pasta would drop to nobody, who cannot enter the
     * sandbox's user namespace (it is root's). */
    getuid () == 0 ? (char *) "--runas" : pid_arg,
    getuid () == 0 ? (char *) "0" : NULL,
    pid_arg, NULL,
  };
  int info[2], block[2];
  pid_t pid;
  int status;

  if (pipe2 (info, O_CLOEXEC) < 0)
    goto failed;
  if (pipe2 (block, O_CLOEXEC) < 0)
    {
      (void) close (info[0]);
      (void) close (info[1]);
      goto failed;
    }
  pid = fork ();
  if (pid == 0)
    {
      /* Twice, so that the helper is nobody's child but init's. */
      if (fork () != 0)
        _exit (0);
      (void) close (info[1]);
      (void) close (block[0]);
      run_helper (info[0], block[1], pasta_argv, pid_arg, sizeof pid_arg);
    }
  (void) close (info[0]);
  (void) close (block[1]);
  if (pid < 0)
    {
      (void) close (info[1]);
      (void) close (block[0]);
      goto failed;
    }
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  xa_sandbox_argv_add (argv, "--unshare-net", NULL);
  xa_sandbox_argv_take_fd (argv, "--info-fd", info[1], NULL);
  xa_sandbox_argv_take_fd (argv, "--block-fd", block[0], NULL);
  return TRUE;

failed:
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
               _("cannot start user-mode networking: %s"), g_strerror (errno));
  return FALSE;
}
