/* run/sandbox-argv.c — builds the launcher's plan and execs it.  Trusts:
 * its callers for what goes in; it only carries the plan and its data
 * descriptors to the launcher, and makes sure nothing else does. */
#include "run/sandbox-argv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gio/gio.h>

struct _XaSandboxArgv
{
  GPtrArray *args;  /* char *, owned */
  GArray    *fds;   /* int, owned: closed by _free */
};

XaSandboxArgv *
xa_sandbox_argv_new (void)
{
  XaSandboxArgv *self = g_new0 (XaSandboxArgv, 1);

  self->args = g_ptr_array_new_with_free_func (g_free);
  self->fds = g_array_new (FALSE, FALSE, sizeof (int));
  return self;
}

void
xa_sandbox_argv_free (XaSandboxArgv *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->fds->len; i++)
    (void) close (g_array_index (self->fds, int, i));
  g_array_unref (self->fds);
  g_ptr_array_unref (self->args);
  g_free (self);
}

void
xa_sandbox_argv_add (XaSandboxArgv *self,
                     const char    *arg,
                     ...)
{
  va_list ap;

  va_start (ap, arg);
  for (const char *a = arg; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (self->args, g_strdup (a));
  va_end (ap);
}

/* A sealed memfd: the launcher, and anything it hands the fd to, can read
 * the data but never change it. */
static int
xa_sandbox_argv_sealed_memfd (const char  *name,
                              const char  *data,
                              gsize        len,
                              GError     **error)
{
  int fd = memfd_create (name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  gsize done = 0;

  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "memfd for '%s': %s", name, g_strerror (errsv));
      return -1;
    }
  while (done < len)
    {
      ssize_t n = write (fd, data + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int errsv = errno;
          (void) close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "writing '%s': %s", name, g_strerror (errsv));
          return -1;
        }
      done += (gsize) n;
    }
  if (lseek (fd, 0, SEEK_SET) < 0
      || fcntl (fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0)
    {
      int errsv = errno;
      (void) close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "sealing '%s': %s", name, g_strerror (errsv));
      return -1;
    }
  return fd;
}

gboolean
xa_sandbox_argv_add_data (XaSandboxArgv *self,
                          const char    *option,
                          const char    *dest,
                          const char    *data,
                          gsize          len,
                          GError       **error)
{
  int fd = xa_sandbox_argv_sealed_memfd (dest, data, len, error);
  g_autofree char *fd_str = NULL;

  if (fd < 0)
    return FALSE;
  g_array_append_val (self->fds, fd);
  fd_str = g_strdup_printf ("%d", fd);
  xa_sandbox_argv_add (self, option, fd_str, dest, NULL);
  return TRUE;
}

void
xa_sandbox_argv_take_fd (XaSandboxArgv *self,
                         const char    *option,
                         int            fd,
                         const char    *dest)
{
  g_autofree char *fd_str = g_strdup_printf ("%d", fd);

  g_array_append_val (self->fds, fd);
  xa_sandbox_argv_add (self, option, fd_str, dest, NULL);
}

GPtrArray *
xa_sandbox_argv_get_args (XaSandboxArgv *self)
{
  return self->args;
}

gboolean
xa_sandbox_argv_exec (XaSandboxArgv      *self,
                      const char         *launcher,
                      const char *const  *command,
                      GError            **error)
{
  g_autoptr(GString) blob = g_string_new (NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  int args_fd;

  for (guint i = 0; i < self->args->len; i++)
    g_string_append_len (blob, self->args->pdata[i], strlen (self->args->pdata[i]) + 1);
  args_fd = xa_sandbox_argv_sealed_memfd ("xdg-app-args", blob->str, blob->len, error);
  if (args_fd < 0)
    return FALSE;
  g_array_append_val (self->fds, args_fd);

  /* The plan's fds survive exec; the launcher closes every other one
   * (--close-fds), so nothing the caller leaked reaches the app. */
  for (guint i = 0; i < self->fds->len; i++)
    {
      int fd = g_array_index (self->fds, int, i);
      int flags = fcntl (fd, F_GETFD);

      if (flags < 0 || fcntl (fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
        {
          int errsv = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "passing fd %d to the launcher: %s", fd, g_strerror (errsv));
          return FALSE;
        }
    }

  g_ptr_array_add (argv, g_strdup (launcher));
  g_ptr_array_add (argv, g_strdup ("--args"));
  g_ptr_array_add (argv, g_strdup_printf ("%d", args_fd));
  g_ptr_array_add (argv, g_strdup ("--"));
  for (gsize i = 0; command[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (command[i]));
  g_ptr_array_add (argv, NULL);

  execv (launcher, (char **) argv->pdata);
  {
    int errsv = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                 "cannot run the sandbox launcher '%s': %s", launcher, g_strerror (errsv));
  }
  return FALSE;
}
