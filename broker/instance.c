/* broker/instance.c — see instance.h.
 *
 * Enforces: every instance has sockets of its own, in a directory of its
 * own below the broker's 0700 runtime directory, so that the socket a
 * connection arrives on names its instance (DESIGN.md: identity comes
 * from the broker).  Nothing is read from the sandbox: not
 * /proc/PID/root, not /.flatpak-info.  An instance ends when the process
 * behind its pidfd exits; a pid reused by another process cannot keep it
 * alive or be killed in its place.
 *
 * Trusts: the caller of xa_instance_new (broker/service.c) to have
 * checked that the pidfd names the registering process of the same user. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "broker/instance.h"
#include "fsutil/errno-error.h"
#include "fsutil/remove-tree.h"

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* A backlog for clients that connect at once (a GTK app opens two or
 * three connections while starting). */
#define XA_INSTANCE_BACKLOG 16

typedef struct
{
  XaInstance   *instance;
  XaInstanceBus bus;
  int           fd;
  guint         source;
  char         *path;
} Listener;

struct _XaInstance
{
  XaInstanceHooks hooks;
  char      *id;
  char      *app_id;
  char      *dir;
  XaContext *context;
  XaCaller  *caller;       /* who its connections are, for portals */
  int        pid_fd;
  int        pid;
  guint      pid_source;
  gint64     started;
  gint       n_clients;    /* atomic: the proxy's threads change it */
  gboolean   ended;
  Listener   listeners[XA_INSTANCE_N_BUSES];
};

static const char *const socket_names[XA_INSTANCE_N_BUSES] = { "bus", "system-bus" };

/* fdinfo has "Pid:" for pidfds since Linux 5.4. */
int
xa_instance_read_pidfd_pid (int pid_fd)
{
  g_autofree char *path = g_strdup_printf ("/proc/self/fdinfo/%d", pid_fd);
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return -1;
  line = strstr (text, "\nPid:");
  if (line == NULL)
    return -1;
  return (int) g_ascii_strtoll (line + strlen ("\nPid:"), NULL, 10);
}

static gboolean
on_pid_exit (int fd,
             GIOCondition condition,
             gpointer user_data)
{
  XaInstance *self = user_data;

  self->pid_source = 0;
  if (!self->ended)
    {
      self->ended = TRUE;
      self->hooks.ended (self, self->hooks.user_data);
    }
  return G_SOURCE_REMOVE;
}

static gboolean
on_listener_ready (int fd,
                   GIOCondition condition,
                   gpointer user_data)
{
  Listener *l = user_data;
  int client;

  /* One accept per wakeup: a flood of connections cannot starve the
   * other instances' traffic in the same main loop. */
  client = accept4 (fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (client >= 0)
    l->instance->hooks.accept (l->instance, l->bus, client, l->instance->hooks.user_data);
  return G_SOURCE_CONTINUE;
}

static gboolean
listener_open (XaInstance *self,
               XaInstanceBus bus,
               GError **error)
{
  Listener *l = &self->listeners[bus];
  struct sockaddr_un addr = { .sun_family = AF_UNIX };

  l->instance = self;
  l->bus = bus;
  l->path = g_build_filename (self->dir, socket_names[bus], NULL);
  if (strlen (l->path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
                   _("socket path '%s' is too long"), l->path);
      return FALSE;
    }
  strcpy (addr.sun_path, l->path);
  l->fd = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (l->fd < 0)
    return xa_set_error_from_errno (error, errno, _("cannot create a socket"));
  if (bind (l->fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot bind '%s'"), l->path);
  if (listen (l->fd, XA_INSTANCE_BACKLOG) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot listen on '%s'"), l->path);
  l->source = g_unix_fd_add (l->fd, G_IO_IN, on_listener_ready, l);
  return TRUE;
}

static void
listener_close (Listener *l)
{
  g_clear_handle_id (&l->source, g_source_remove);
  if (l->fd >= 0)
    (void) close (l->fd);
  l->fd = -1;
  g_clear_pointer (&l->path, g_free);
}

/* Ten random digits, as Flatpak's instance ids; never one in use, since
 * the directory is created exclusively. */
static char *
make_instance_dir (const char *runtime_dir,
                   char **out_dir,
                   GError **error)
{
  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *id = g_strdup_printf ("%010u", g_random_int_range (0, G_MAXINT32));
      g_autofree char *dir = g_build_filename (runtime_dir, id, NULL);

      if (mkdir (dir, 0700) == 0)
        {
          *out_dir = g_steal_pointer (&dir);
          return g_steal_pointer (&id);
        }
      if (errno != EEXIST)
        {
          xa_set_error_from_errno (error, errno, _("cannot create '%s'"), dir);
          return NULL;
        }
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST, _("no free instance id in '%s'"), runtime_dir);
  return NULL;
}

XaInstance *
xa_instance_new (const XaInstanceHooks *hooks,
                 const char *app_id,
                 XaContext *context,
                 int pid_fd,
                 GError **error)
{
  g_autoptr(XaInstance) self = g_new0 (XaInstance, 1);

  for (int b = 0; b < XA_INSTANCE_N_BUSES; b++)
    self->listeners[b].fd = -1;
  self->hooks = *hooks;
  self->context = context;
  self->pid_fd = pid_fd;
  self->app_id = g_strdup (app_id);
  self->started = g_get_real_time () / G_USEC_PER_SEC;

  self->pid = xa_instance_read_pidfd_pid (pid_fd);
  if (self->pid <= 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("fd %d is not a pidfd"), pid_fd);
      return NULL;
    }
  self->id = make_instance_dir (hooks->runtime_dir, &self->dir, error);
  if (self->id == NULL)
    return NULL;
  self->caller = xa_caller_new_app (app_id, self->id, context);
  if (!listener_open (self, XA_INSTANCE_BUS_SESSION, error))
    return NULL;
  if (xa_context_has_socket (context, XA_SOCKET_SYSTEM_BUS) &&
      !listener_open (self, XA_INSTANCE_BUS_SYSTEM, error))
    return NULL;
  self->pid_source = g_unix_fd_add (pid_fd, G_IO_IN, on_pid_exit, self);
  return g_steal_pointer (&self);
}

void
xa_instance_free (XaInstance *self)
{
  if (self == NULL)
    return;
  for (int b = 0; b < XA_INSTANCE_N_BUSES; b++)
    listener_close (&self->listeners[b]);
  if (self->dir != NULL)
    (void) xa_remove_tree_at (AT_FDCWD, self->dir, self->dir, NULL);
  g_clear_handle_id (&self->pid_source, g_source_remove);
  if (self->pid_fd >= 0)
    (void) close (self->pid_fd);
  g_clear_pointer (&self->context, xa_context_free);
  g_clear_pointer (&self->caller, xa_caller_unref);
  g_free (self->dir);
  g_free (self->id);
  g_free (self->app_id);
  g_free (self);
}

const char *
xa_instance_get_id (XaInstance *self)
{
  return self->id;
}

const char *
xa_instance_get_app_id (XaInstance *self)
{
  return self->app_id;
}

const XaContext *
xa_instance_get_context (XaInstance *self)
{
  return self->context;
}

XaCaller *
xa_instance_get_caller (XaInstance *self)
{
  return self->caller;
}

int
xa_instance_get_pid (XaInstance *self)
{
  return self->pid;
}

gint64
xa_instance_get_started (XaInstance *self)
{
  return self->started;
}

const char *
xa_instance_get_socket_path (XaInstance *self,
                             XaInstanceBus bus)
{
  return self->listeners[bus].path;
}

void
xa_instance_add_client (XaInstance *self)
{
  g_atomic_int_inc (&self->n_clients);
}

void
xa_instance_remove_client (XaInstance *self)
{
  g_return_if_fail (g_atomic_int_get (&self->n_clients) > 0);
  g_atomic_int_add (&self->n_clients, -1);
}

guint
xa_instance_get_n_clients (XaInstance *self)
{
  return (guint) g_atomic_int_get (&self->n_clients);
}

gboolean
xa_instance_kill (XaInstance *self,
                  GError **error)
{
  if (syscall (SYS_pidfd_send_signal, self->pid_fd, SIGKILL, NULL, 0) != 0 && errno != ESRCH)
    return xa_set_error_from_errno (error, errno, _("cannot kill instance %s"), self->id);
  return TRUE;
}
