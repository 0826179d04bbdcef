/* store/uninstall.c — removes an installed ref.  Survives kill -9 at any
 * point: `active` goes first (one unlink: from then on the ref is not
 * installed), then exports, the local ref and the directories; a later
 * uninstall finishes what an interrupted one left.  Never follows a
 * symlink while removing (the app writes its own data directory). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <ostree.h>

#include "fsutil/autofd.h"
#include "fsutil/errno-error.h"
#include "policy/metadata.h"
#include "store/deployment.h"
#include "store/exports.h"
#include "store/installation.h"
#include "store/repo.h"
#include "store/ref.h"
#include "store/store-error.h"
#include "store/uninstall.h"

/* Quoted ids of the apps in @inst whose runtime= is @ref: "" when there
 * are none, NULL on error. */
static char *
dup_runtime_users (XaInstallation *inst,
                   const XaRef *ref,
                   GError **error)
{
  g_autoptr(GPtrArray) apps = xa_deployment_list (inst, XA_METADATA_APP, error);
  g_autofree char *spec = xa_ref_dup_runtime_spec (ref);
  g_autoptr(GString) users = g_string_new (NULL);

  if (apps == NULL)
    return NULL;
  for (guint i = 0; i < apps->len; i++)
    {
      XaDeployment *app = apps->pdata[i];
      const char *runtime = xa_metadata_get_runtime (xa_deployment_get_metadata (app));

      if (g_strcmp0 (runtime, spec) != 0)
        continue;
      g_string_append_printf (users, "%s'%s'", users->len > 0 ? ", " : "",
                              xa_deployment_get_id (app));
    }
  return g_string_free (g_steal_pointer (&users), FALSE);
}

/* The remotes that the deployment directories below @base came from:
 * usually one; more if an interrupted reinstall left an older one. */
static GPtrArray *
dup_origins (const char *base)
{
  g_autoptr(GPtrArray) origins = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = g_dir_open (base, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (base, name, XA_DEPLOYMENT_INFO_FILE, NULL);
      g_autoptr(GKeyFile) info = g_key_file_new ();
      g_autofree char *origin = NULL;

      if (!xa_ref_is_commit (name) ||
          !g_key_file_load_from_file (info, path, G_KEY_FILE_NONE, NULL))
        continue;
      origin = g_key_file_get_string (info, "Deploy", "origin", NULL);
      if (origin != NULL &&
          !g_ptr_array_find_with_equal_func (origins, origin, g_str_equal, NULL))
        g_ptr_array_add (origins, g_steal_pointer (&origin));
    }
  return g_steal_pointer (&origins);
}

static gboolean
remove_active (const char *base,
               GError **error)
{
  g_autofree char *active = g_build_filename (base, "active", NULL);
  xa_autofd int fd = -1;

  if (unlink (active) != 0 && errno != ENOENT)
    return xa_set_error_from_errno (error, errno, _("cannot remove '%s'"), active);
  fd = open (base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return xa_set_error_from_errno (error, errno, _("cannot open '%s'"), base);
  if (fsync (fd) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot sync '%s'"), base);
  return TRUE;
}

static gboolean
delete_local_refs (OstreeRepo *repo,
                   const XaRef *ref,
                   GPtrArray *origins,
                   GCancellable *cancellable,
                   GError **error)
{
  for (guint i = 0; i < origins->len; i++)
    {
      g_autofree char *refspec = g_strconcat (origins->pdata[i], ":",
                                              xa_ref_get_string (ref), NULL);
      g_autofree char *commit = NULL;

      if (!ostree_repo_resolve_rev (repo, refspec, TRUE, &commit, error))
        return FALSE;
      if (commit != NULL &&
          !ostree_repo_set_ref_immediate (repo, origins->pdata[i], xa_ref_get_string (ref),
                                          NULL, cancellable, error))
        return FALSE;
    }
  return TRUE;
}

/* BASE/KIND/ID/ARCH and BASE/KIND/ID, once nothing is left in them. */
static void
remove_empty_parents (XaInstallation *inst,
                      const XaRef *ref)
{
  g_autofree char *id_dir = g_build_filename (xa_installation_get_path (inst),
                                              xa_ref_get_kind_name (ref),
                                              xa_ref_get_id (ref), NULL);
  g_autofree char *arch_dir = g_build_filename (id_dir, xa_ref_get_arch (ref), NULL);

  (void) rmdir (arch_dir);
  (void) rmdir (id_dir);
}

static gboolean
check_not_needed (XaInstallation *inst,
                  const XaRef *ref,
                  XaUninstallFlags flags,
                  GError **error)
{
  g_autofree char *users = NULL;
  g_autofree char *spec = NULL;

  if (xa_ref_get_kind (ref) != XA_METADATA_RUNTIME || (flags & XA_UNINSTALL_FLAGS_FORCE) != 0)
    return TRUE;
  users = dup_runtime_users (inst, ref, error);
  if (users == NULL)
    return FALSE;
  if (users[0] == '\0')
    return TRUE;
  spec = xa_ref_dup_runtime_spec (ref);
  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_RUNTIME_IN_USE,
               _("runtime '%s' is used by %s; uninstall them first or use --force"),
               spec, users);
  return FALSE;
}

static gboolean
remove_data (XaInstallation *inst,
             const XaRef *ref,
             GError **error)
{
  g_autofree char *data = xa_installation_dup_data_dir (inst, xa_ref_get_id (ref));

  if (!xa_installation_remove_tree (inst, data, error))
    return FALSE;
  remove_empty_parents (inst, ref);
  return TRUE;
}

gboolean
xa_uninstall_apply (XaInstallation *inst,
                    const XaRef *ref,
                    XaUninstallFlags flags,
                    GCancellable *cancellable,
                    GError **error)
{
  g_autoptr(XaInstallationLock) lock = NULL;
  g_autoptr(GPtrArray) origins = NULL;
  g_autofree char *base = NULL;
  gboolean is_app = xa_ref_get_kind (ref) == XA_METADATA_APP;
  gboolean delete_data = is_app && (flags & XA_UNINSTALL_FLAGS_DELETE_DATA) != 0;
  OstreeRepo *repo;

  g_return_val_if_fail (ref != NULL, FALSE);

  if (!xa_installation_check_writable (inst, error))
    return FALSE;
  lock = xa_installation_lock (inst, error);
  if (lock == NULL)
    return FALSE;
  repo = xa_installation_ensure_repo (inst, cancellable, error);
  if (repo == NULL)
    return FALSE;

  base = xa_installation_dup_deploy_base (inst, ref);
  if (!g_file_test (base, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *spec = xa_ref_dup_runtime_spec (ref);

      /* Data kept by an earlier uninstall can still be asked for. */
      if (delete_data)
        return remove_data (inst, ref, error);
      return xa_store_error_set_not_installed (error, xa_ref_get_kind (ref),
                                               is_app ? xa_ref_get_id (ref) : spec);
    }
  if (!check_not_needed (inst, ref, flags, error))
    return FALSE;

  origins = dup_origins (base);
  if (!remove_active (base, error))
    return FALSE;
  if (is_app && !xa_exports_remove (inst, xa_ref_get_id (ref), error))
    return FALSE;
  if (!delete_local_refs (repo, ref, origins, cancellable, error) ||
      !xa_installation_remove_deployments (inst, ref, NULL, error))
    return FALSE;
  /* Not empty while a sandbox still runs from a deployment. */
  if (rmdir (base) != 0 && errno != ENOTEMPTY && errno != EEXIST)
    return xa_set_error_from_errno (error, errno, _("cannot remove '%s'"), base);
  remove_empty_parents (inst, ref);
  if (delete_data && !remove_data (inst, ref, error))
    return FALSE;
  return xa_installation_prune_repo (inst, cancellable, error);
}
