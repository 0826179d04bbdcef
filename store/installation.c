/* store/installation.c — where an installation lives and how it is laid
 * out (see installation.h), its lock, and the one way to remove a tree
 * below it.  No libostree here: `xdg-app run` reads installations without
 * loading it (store/repo.c opens the repository).  Trusts: the base directory it is given.
 * Trusts nothing below app/ID/data/, which the app itself writes: trees
 * are removed without following symlinks. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "fsutil/autofd.h"
#include "fsutil/errno-error.h"
#include "fsutil/remove-tree.h"
#include "store/deployment-lock.h"
#include "store/installation.h"
#include "store/installation-private.h"
#include "store/ref.h"
#include "store/store-error.h"

struct _XaInstallation
{
  gint ref_count;
  char *path;
  XaInstallationScope scope;
  gpointer repo;      /* an OstreeRepo, opened by store/repo.c */
  GDestroyNotify repo_free;
};

struct _XaInstallationLock
{
  int fd;
};

/* Directories every writable installation has; repo/ is OSTree's own. */
static const char *const layout_dirs[] = { "app", "runtime", "exports", "overrides" };

XaInstallation *
xa_installation_new (const char *path,
                     XaInstallationScope scope)
{
  XaInstallation *self;

  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  self = g_new0 (XaInstallation, 1);
  self->ref_count = 1;
  self->path = g_canonicalize_filename (path, NULL);
  self->scope = scope;
  return self;
}

/* GLib honours $XDG_DATA_HOME and falls back to ~/.local/share. */
XaInstallation *
xa_installation_new_user (void)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "xdg-app", NULL);

  return xa_installation_new (path, XA_INSTALLATION_USER);
}

XaInstallation *
xa_installation_new_system (void)
{
  return xa_installation_new ("/var/lib/xdg-app", XA_INSTALLATION_SYSTEM);
}

XaInstallation *
xa_installation_ref (XaInstallation *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
xa_installation_unref (XaInstallation *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  if (self->repo != NULL)
    self->repo_free (self->repo);
  g_free (self->path);
  g_free (self);
}

const char *
xa_installation_get_path (XaInstallation *self)
{
  return self->path;
}

XaInstallationScope
xa_installation_get_scope (XaInstallation *self)
{
  return self->scope;
}

/* Whether the installation exists yet: nothing creates it but a change. */
gboolean
xa_installation_has_repo (XaInstallation *self)
{
  g_autofree char *config = g_build_filename (self->path, "repo", "config", NULL);

  return self->repo != NULL || g_file_test (config, G_FILE_TEST_IS_REGULAR);
}

/* The system installation is changed by root only until the polkit-guarded
 * system helper exists (DESIGN.md). */
gboolean
xa_installation_check_writable (XaInstallation *self,
                                GError **error)
{
  if (self->scope == XA_INSTALLATION_SYSTEM && geteuid () != 0)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_PERMISSION_DENIED,
                   _("the system installation '%s' can only be changed by root "
                     "for now; try --user"),
                   self->path);
      return FALSE;
    }
  return TRUE;
}

gboolean
xa_installation_ensure_layout (XaInstallation *self,
               GError **error)
{
  for (gsize i = 0; i < G_N_ELEMENTS (layout_dirs); i++)
    {
      g_autofree char *dir = g_build_filename (self->path, layout_dirs[i], NULL);

      if (g_mkdir_with_parents (dir, 0755) != 0)
        return xa_set_error_from_errno (error, errno, _("cannot create '%s'"), dir);
    }
  return TRUE;
}

gpointer
xa_installation_get_cached_repo (XaInstallation *self)
{
  return self->repo;
}

void
xa_installation_set_cached_repo (XaInstallation *self,
                                 gpointer repo,
                                 GDestroyNotify repo_free)
{
  g_return_if_fail (self->repo == NULL);
  self->repo = repo;
  self->repo_free = repo_free;
}

/* One change at a time per installation: deploy, uninstall and prune hold
 * this lock.  Readers (listing, running) need none, because every change
 * becomes visible through one rename. */
XaInstallationLock *
xa_installation_lock (XaInstallation *self,
                      GError **error)
{
  g_autofree char *path = g_build_filename (self->path, "lock", NULL);
  xa_autofd int fd = -1;
  XaInstallationLock *lock;

  if (!xa_installation_ensure_layout (self, error))
    return NULL;

  fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      xa_set_error_from_errno (error, errno, _("cannot open '%s'"), path);
      return NULL;
    }
  while (flock (fd, LOCK_EX) != 0)
    if (errno != EINTR)
      {
        xa_set_error_from_errno (error, errno, _("cannot lock '%s'"), path);
        return NULL;
      }

  lock = g_new0 (XaInstallationLock, 1);
  lock->fd = g_steal_fd (&fd);
  return lock;
}

void
xa_installation_lock_free (XaInstallationLock *lock)
{
  if (lock == NULL)
    return;
  (void) close (lock->fd);   /* closing drops the flock */
  g_free (lock);
}

/* BASE/KIND/ID/ARCH/BRANCH */
char *
xa_installation_dup_deploy_base (XaInstallation *self,
                                 const XaRef *ref)
{
  return g_build_filename (self->path, xa_ref_get_kind_name (ref),
                           xa_ref_get_id (ref), xa_ref_get_arch (ref),
                           xa_ref_get_branch (ref), NULL);
}

char *
xa_installation_dup_data_dir (XaInstallation *self,
                              const char *app_id)
{
  return g_build_filename (self->path, "app", app_id, "data", NULL);
}

char *
xa_installation_dup_exports_dir (XaInstallation *self)
{
  return g_build_filename (self->path, "exports", NULL);
}

char *
xa_installation_dup_overrides_dir (XaInstallation *self)
{
  return g_build_filename (self->path, "overrides", NULL);
}

/* The commit that BASE/KIND/ID/ARCH/BRANCH/active points to, or NULL when
 * the ref is not installed (no link, a dangling link, or not a commit). */
char *
xa_installation_lookup_active (XaInstallation *self,
                               const XaRef *ref)
{
  g_autofree char *base = xa_installation_dup_deploy_base (self, ref);
  g_autofree char *active = g_build_filename (base, "active", NULL);
  g_autofree char *target = g_file_read_link (active, NULL);
  g_autofree char *dir = NULL;

  if (target == NULL || !xa_ref_is_commit (target))
    return NULL;
  dir = g_build_filename (base, target, NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return g_steal_pointer (&target);
}

/* Every name in @path, hidden ones too; empty when @path is missing. */
static GPtrArray *
list_all (const char *path,
          GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GDir) dir = g_dir_open (path, 0, &local_error);
  const char *name;

  if (dir == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&names);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  return g_steal_pointer (&names);
}

/* The names in @path that are not hidden. */
static GPtrArray *
list_dir (const char *path,
          GError **error)
{
  g_autoptr(GPtrArray) names = list_all (path, error);

  if (names == NULL)
    return NULL;
  for (guint i = names->len; i > 0; i--)
    if (((const char *) names->pdata[i - 1])[0] == '.')
      g_ptr_array_remove_index (names, i - 1);
  return g_steal_pointer (&names);
}

static gint
compare_refs (gconstpointer a,
              gconstpointer b)
{
  const XaRef *ra = *(const XaRef * const *) a;
  const XaRef *rb = *(const XaRef * const *) b;

  return strcmp (xa_ref_get_string (ra), xa_ref_get_string (rb));
}

static gboolean
add_branches (XaInstallation *self,
              XaMetadataKind kind,
              const char *id,
              const char *arch,
              gboolean need_active,
              GPtrArray *refs,
              GError **error)
{
  g_autofree char *arch_dir = g_build_filename (self->path, xa_ref_kind_to_string (kind),
                                                id, arch, NULL);
  g_autoptr(GPtrArray) branches = list_dir (arch_dir, error);

  if (branches == NULL)
    return FALSE;
  for (guint i = 0; i < branches->len; i++)
    {
      g_autoptr(XaRef) ref = xa_ref_new (kind, id, arch, branches->pdata[i], NULL);
      g_autofree char *active = NULL;

      if (ref == NULL)
        {
          g_debug ("'%s/%s': not a branch, skipped", arch_dir,
                   (const char *) branches->pdata[i]);
          continue;
        }
      active = need_active ? xa_installation_lookup_active (self, ref) : NULL;
      if (active != NULL || !need_active)
        g_ptr_array_add (refs, g_steal_pointer (&ref));
    }
  return TRUE;
}

/* Every ref of @kind that has a directory, sorted; with @need_active,
 * only those with an active deployment. */
static GPtrArray *
list_refs (XaInstallation *self,
           XaMetadataKind kind,
           gboolean need_active,
           GError **error)
{
  g_autoptr(GPtrArray) refs = g_ptr_array_new_with_free_func ((GDestroyNotify) xa_ref_free);
  g_autofree char *kind_dir = g_build_filename (self->path, xa_ref_kind_to_string (kind), NULL);
  g_autoptr(GPtrArray) ids = list_dir (kind_dir, error);

  if (ids == NULL)
    return NULL;
  for (guint i = 0; i < ids->len; i++)
    {
      g_autofree char *id_dir = g_build_filename (kind_dir, ids->pdata[i], NULL);
      g_autoptr(GPtrArray) arches = list_dir (id_dir, error);

      if (arches == NULL)
        return NULL;
      for (guint j = 0; j < arches->len; j++)
        {
          /* app/ID/data is the app's own /var, never a deployment. */
          if (kind == XA_METADATA_APP && strcmp (arches->pdata[j], "data") == 0)
            continue;
          if (!add_branches (self, kind, ids->pdata[i], arches->pdata[j], need_active,
                             refs, error))
            return NULL;
        }
    }
  g_ptr_array_sort (refs, compare_refs);
  return g_steal_pointer (&refs);
}

/* Every ref of @kind with an active deployment, sorted. */
GPtrArray *
xa_installation_list_refs (XaInstallation *self,
                           XaMetadataKind kind,
                           GError **error)
{
  return list_refs (self, kind, TRUE, error);
}

/* The commit of every deployment directory: active ones, and those kept
 * while in use.  A commit may appear more than once. */
GPtrArray *
xa_installation_list_deployed_commits (XaInstallation *self,
                                       GError **error)
{
  static const XaMetadataKind kinds[] = { XA_METADATA_APP, XA_METADATA_RUNTIME };
  g_autoptr(GPtrArray) commits = g_ptr_array_new_with_free_func (g_free);

  for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(GPtrArray) refs = list_refs (self, kinds[k], FALSE, error);

      if (refs == NULL)
        return NULL;
      for (guint i = 0; i < refs->len; i++)
        {
          g_autofree char *base = xa_installation_dup_deploy_base (self, refs->pdata[i]);
          g_autoptr(GPtrArray) names = list_dir (base, error);

          if (names == NULL)
            return NULL;
          for (guint j = 0; j < names->len; j++)
            if (xa_ref_is_commit (names->pdata[j]))
              g_ptr_array_add (commits, g_strdup (names->pdata[j]));
        }
    }
  return g_steal_pointer (&commits);
}

/* Removes @path and everything below it; a missing @path is no error.
 * @path must lie inside this installation: a caller's slip cannot remove
 * anything else. */
gboolean
xa_installation_remove_tree (XaInstallation *self,
                             const char *path,
                             GError **error)
{
  g_autofree char *parent = NULL;
  g_autofree char *name = NULL;
  xa_autofd int dfd = -1;

  g_return_val_if_fail (g_str_has_prefix (path, self->path), FALSE);
  g_return_val_if_fail (path[strlen (self->path)] == '/', FALSE);
  g_return_val_if_fail (strstr (path, "/../") == NULL, FALSE);

  parent = g_path_get_dirname (path);
  name = g_path_get_basename (path);
  dfd = open (parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return errno == ENOENT ? TRUE : xa_set_error_from_errno (error, errno, _("cannot open '%s'"), parent);
  return xa_remove_tree_at (dfd, name, path, error);
}

/* Names a killed deploy or removal leaves in BASE/KIND/ID/ARCH/BRANCH:
 * .COMMIT.tmp-XXXXXX (a checkout or a deployment being removed) and
 * active.tmp (a link not yet renamed over `active`). */
static gboolean
is_leftover (const char *name)
{
  return (name[0] == '.' && strstr (name, ".tmp-") != NULL) ||
         strcmp (name, "active.tmp") == 0;
}

static gboolean
remove_entries (XaInstallation *self,
                const XaRef *ref,
                gboolean deployments,
                const char *keep,
                GError **error)
{
  g_autofree char *base = xa_installation_dup_deploy_base (self, ref);
  g_autoptr(GPtrArray) names = list_all (base, error);

  if (names == NULL)
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autofree char *path = g_build_filename (base, name, NULL);
      g_autofree char *doomed = NULL;

      if (is_leftover (name))
        {
          if (!xa_installation_remove_tree (self, path, error))
            return FALSE;
          continue;
        }
      if (!deployments || g_strcmp0 (name, keep) == 0 ||
          !xa_ref_is_commit (name))
        continue;
      /* A sandbox still runs from it: its files stay until it ends, and
       * the next update or uninstall of @ref removes them. */
      if (xa_deployment_lock_is_held (path))
        {
          g_debug ("'%s' is in use, kept", path);
          continue;
        }
      /* Renamed first, so that a removal cut short never leaves a
       * half-empty COMMIT directory that a later deploy would reuse. */
      doomed = g_strdup_printf ("%s/.%s.tmp-%06x", base, name,
                                g_random_int_range (0, 0x1000000));
      if (rename (path, doomed) != 0)
        return xa_set_error_from_errno (error, errno, _("cannot rename '%s'"), path);
      if (!xa_installation_remove_tree (self, doomed, error))
        return FALSE;
    }
  return TRUE;
}

/* Removes what a killed deploy or uninstall of @ref left behind. */
gboolean
xa_installation_remove_leftovers (XaInstallation *self,
                                  const XaRef *ref,
                                  GError **error)
{
  return remove_entries (self, ref, FALSE, NULL, error);
}

/* Removes every deployment of @ref but @keep (NULL: all of them) and
 * those in use, and every leftover.  `active` itself is the caller's
 * business. */
gboolean
xa_installation_remove_deployments (XaInstallation *self,
                                    const XaRef *ref,
                                    const char *keep,
                                    GError **error)
{
  return remove_entries (self, ref, TRUE, keep, error);
}
