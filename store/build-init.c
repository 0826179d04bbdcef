/* store/build-init.c — lays out a build directory the way `flatpak
 * build-init` does, so that either tool can finish and export it:
 *
 *   DIR/metadata   [Application] (or [Runtime]) name=ID,
 *                  runtime=PLATFORM/ARCH/BRANCH, sdk=SDK/ARCH/BRANCH
 *   DIR/files/     the app's /self (/app), empty
 *   DIR/var/       its /var: empty, or a copy of a runtime's files (-v);
 *                  var/tmp, and var/run -> /run
 *
 * Trusts: the options (the user's own command line), after checking each
 * id, arch and branch with policy/metadata.h; and the var runtime's
 * deployment, which the store checked out.  Nothing is left half-made:
 * var/ is filled under a temporary name and renamed, and files/, which
 * marks a directory as initialized, comes last. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/atomic-file.h"
#include "fsutil/autofd.h"
#include "fsutil/remove-tree.h"
#include "policy/metadata.h"
#include "store/build-init.h"
#include "store/deployment.h"
#include "store/ref.h"
#include "store/store-error.h"

/* A runtime's var tree is small; this bounds a runaway copy. */
#define BUILD_INIT_MAX_DEPTH 64

static gboolean
errno_error (GError     **error,
             const char  *what,
             const char  *path)
{
  int errsv = errno;

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
               "%s '%s': %s", what, path, g_strerror (errsv));
  return FALSE;
}

static gboolean
copy_file_at (int          src_dfd,
              const char  *name,
              mode_t       mode,
              int          dst_dfd,
              GError     **error)
{
  xa_autofd int in = -1;
  xa_autofd int out = -1;
  char buf[65536];

  in = openat (src_dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (in < 0)
    return errno_error (error, "open", name);
  out = openat (dst_dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (out < 0)
    return errno_error (error, "create", name);

  while (TRUE)
    {
      ssize_t n = read (in, buf, sizeof buf);
      ssize_t done = 0;

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno_error (error, "read", name);
      if (n == 0)
        break;
      while (done < n)
        {
          ssize_t w = write (out, buf + done, n - done);

          if (w < 0 && errno == EINTR)
            continue;
          if (w < 0)
            return errno_error (error, "write", name);
          done += w;
        }
    }
  if (fchmod (out, mode) != 0)
    return errno_error (error, "chmod", name);
  return TRUE;
}

/* Copies the directory @src_dfd into @dst_dfd: directories, regular
 * files and symlinks, with their permission bits (no setuid, setgid or
 * sticky bit); anything else is skipped. */
static gboolean
copy_tree_at (int          src_dfd,
              int          dst_dfd,
              guint        depth,
              GError     **error)
{
  xa_autofd int iter_fd = -1;
  DIR *dir = NULL;
  struct dirent *dent;
  gboolean ok = TRUE;

  if (depth > BUILD_INIT_MAX_DEPTH)
    {
      errno = ELOOP;
      return errno_error (error, "copy", "var");
    }
  iter_fd = fcntl (src_dfd, F_DUPFD_CLOEXEC, 3);
  if (iter_fd < 0 || (dir = fdopendir (iter_fd)) == NULL)
    return errno_error (error, "opendir", "var");
  iter_fd = -1;

  while (ok && (dent = readdir (dir)) != NULL)
    {
      const char *name = dent->d_name;
      struct stat st;
      mode_t mode;

      if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0)
        continue;
      if (fstatat (src_dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        {
          ok = errno_error (error, "stat", name);
          break;
        }
      mode = st.st_mode & 0777;

      if (S_ISDIR (st.st_mode))
        {
          xa_autofd int src_child = -1;
          xa_autofd int dst_child = -1;

          if (mkdirat (dst_dfd, name, 0700) != 0)
            ok = errno_error (error, "mkdir", name);
          else if ((src_child = openat (src_dfd, name,
                                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
                   (dst_child = openat (dst_dfd, name,
                                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
            ok = errno_error (error, "open", name);
          else
            ok = copy_tree_at (src_child, dst_child, depth + 1, error) &&
                 (fchmod (dst_child, mode) == 0 || errno_error (error, "chmod", name));
        }
      else if (S_ISREG (st.st_mode))
        ok = copy_file_at (src_dfd, name, mode, dst_dfd, error);
      else if (S_ISLNK (st.st_mode))
        {
          char target[PATH_MAX];
          ssize_t n = readlinkat (src_dfd, name, target, sizeof target - 1);

          if (n < 0)
            ok = errno_error (error, "readlink", name);
          else
            {
              target[n] = '\0';
              if (symlinkat (target, dst_dfd, name) != 0)
                ok = errno_error (error, "symlink", name);
            }
        }
      else
        g_debug ("build-init: not copying special file '%s'", name);
    }
  closedir (dir);
  return ok;
}

/* Fills @stage, a new empty directory, with what var/ should hold. */
static gboolean
fill_var (const char   *stage,
          const char   *var_files,
          GError      **error)
{
  g_autofree char *tmp = g_build_filename (stage, "tmp", NULL);
  g_autofree char *run = g_build_filename (stage, "run", NULL);

  if (var_files != NULL)
    {
      xa_autofd int src = open (var_files, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      xa_autofd int dst = open (stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

      if (src < 0)
        return errno_error (error, "open", var_files);
      if (dst < 0)
        return errno_error (error, "open", stage);
      if (!copy_tree_at (src, dst, 0, error))
        {
          g_prefix_error (error, _("copying '%s': "), var_files);
          return FALSE;
        }
    }

  if (g_mkdir_with_parents (tmp, 0755) != 0)
    return errno_error (error, "mkdir", tmp);
  /* As Flatpak: a build's /var/run is the sandbox's /run. */
  if (!g_file_test (run, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK) &&
      symlink ("/run", run) != 0)
    return errno_error (error, "symlink", run);
  return TRUE;
}

static char *
metadata_contents (const XaBuildInitOptions  *opts,
                   const char                *arch,
                   const char                *branch)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  const char *group = opts->is_runtime ? "Runtime" : "Application";
  g_autofree char *runtime = g_strdup_printf ("%s/%s/%s", opts->runtime, arch, branch);
  g_autofree char *sdk = g_strdup_printf ("%s/%s/%s", opts->sdk, arch, branch);

  g_key_file_set_string (keyfile, group, "name", opts->id);
  g_key_file_set_string (keyfile, group, "runtime", runtime);
  g_key_file_set_string (keyfile, group, "sdk", sdk);
  return g_key_file_to_data (keyfile, NULL, NULL);
}

static gboolean
check_options (const XaBuildInitOptions  *opts,
               const char                *arch,
               const char                *branch,
               GError                   **error)
{
  const struct { const char *what; const char *value; } ids[] = {
    { opts->is_runtime ? "runtime id" : "app id", opts->id },
    { "SDK", opts->sdk },
    { "platform", opts->runtime },
    { "var runtime", opts->var },
  };
  g_autoptr(GError) local_error = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (ids); i++)
    if (ids[i].value != NULL && !xa_metadata_validate_id (ids[i].value, &local_error))
      {
        g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                     _("invalid %s '%s': %s"), ids[i].what, ids[i].value, local_error->message);
        return FALSE;
      }
  if (!xa_metadata_validate_arch (arch, &local_error) ||
      !xa_metadata_validate_branch (branch, &local_error))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                   "%s", local_error->message);
      return FALSE;
    }
  if (opts->var != NULL && opts->installation == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
                   _("var runtime '%s': no installation to look it up in"), opts->var);
      return FALSE;
    }
  return TRUE;
}

/* Removes a staging directory that did not make it, best effort. */
static void
remove_stage (const char *stage)
{
  if (stage != NULL)
    (void) xa_remove_tree_at (AT_FDCWD, stage, stage, NULL);
}

gboolean
xa_build_init (const XaBuildInitOptions  *opts,
               GError                   **error)
{
  const char *arch;
  const char *branch;
  g_autofree char *files = NULL;
  g_autofree char *var = NULL;
  g_autofree char *stage = NULL;
  g_autofree char *metadata_path = NULL;
  g_autofree char *metadata = NULL;
  g_autoptr(XaDeployment) var_deploy = NULL;
  const char *var_files = NULL;

  g_return_val_if_fail (opts != NULL && opts->dir != NULL && opts->id != NULL &&
                        opts->sdk != NULL && opts->runtime != NULL, FALSE);

  arch = opts->arch != NULL ? opts->arch : xa_ref_get_default_arch ();
  branch = opts->branch != NULL ? opts->branch : "master";
  if (!check_options (opts, arch, branch, error))
    return FALSE;

  files = g_build_filename (opts->dir, "files", NULL);
  var = g_build_filename (opts->dir, "var", NULL);
  metadata_path = g_build_filename (opts->dir, "metadata", NULL);
  if (g_file_test (files, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("'%s' is already a build directory (it has 'files')"), opts->dir);
      return FALSE;
    }

  if (opts->var != NULL)
    {
      var_deploy = xa_deployment_open (opts->installation, XA_METADATA_RUNTIME,
                                       opts->var, arch, branch, error);
      if (var_deploy == NULL)
        {
          g_prefix_error (error, _("var runtime: "));
          return FALSE;
        }
      var_files = xa_deployment_get_files_dir (var_deploy);
    }

  if (g_mkdir_with_parents (opts->dir, 0755) != 0)
    return errno_error (error, "mkdir", opts->dir);

  if (!g_file_test (var, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
    {
      stage = g_build_filename (opts->dir, ".var-XXXXXX", NULL);
      if (g_mkdtemp_full (stage, 0755) == NULL)
        return errno_error (error, "mkdir", stage);
      if (!fill_var (stage, var_files, error))
        {
          remove_stage (stage);
          return FALSE;
        }
      if (rename (stage, var) != 0)
        {
          errno_error (error, "rename", var);
          remove_stage (stage);
          return FALSE;
        }
    }
  else if (opts->var != NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("'%s' exists; remove it to fill it from '%s'"), var, opts->var);
      return FALSE;
    }

  metadata = metadata_contents (opts, arch, branch);
  if (!xa_atomic_file_write (metadata_path, metadata, strlen (metadata), 0644, error))
    return FALSE;

  if (mkdir (files, 0755) != 0)
    return errno_error (error, "mkdir", files);
  return TRUE;
}
