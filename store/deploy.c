/* store/deploy.c — checks out a pulled commit and makes it the active
 * deployment of its ref.  Trusts: libostree for the objects' integrity
 * (checked at pull time).  Trusts nothing in the commit: its metadata is
 * parsed and must name the ref it is deployed as before anything on disk
 * changes.
 *
 * Survives kill -9 at any point: the new tree is checked out under
 * BASE/.COMMIT.tmp-XXXXXX, synced, renamed to BASE/COMMIT, and only then
 * does BASE/active (a symlink, replaced by rename) point at it.  Until that
 * rename the previous deployment is the active one; leftovers (.tmp dirs,
 * active.tmp) are removed by the next deploy, and a COMMIT directory left
 * unused is reused by it (installation.c keeps every COMMIT directory
 * complete: it is renamed away before it is taken apart). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <ostree.h>

#include "fsutil/atomic-file.h"
#include "fsutil/autofd.h"
#include "fsutil/errno-error.h"
#include "policy/metadata.h"
#include "store/deploy.h"
#include "store/deployment-lock.h"
#include "store/deployment.h"
#include "store/exports.h"
#include "store/installation.h"
#include "store/repo.h"
#include "store/ref.h"
#include "store/remote.h"
#include "store/store-error.h"

/* A checkout directory that is removed unless the deploy gets as far as
 * renaming it into place. */
typedef struct
{
  XaInstallation *inst;
  char *path;
} TmpTree;

static void
tmp_tree_clear (TmpTree *tmp)
{
  g_autoptr(GError) local_error = NULL;

  if (tmp->path != NULL && !xa_installation_remove_tree (tmp->inst, tmp->path, &local_error))
    g_debug ("%s", local_error->message);
  g_clear_pointer (&tmp->path, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TmpTree, tmp_tree_clear)

/* fsync() for a directory (so a rename in it is durable), or syncfs() for
 * the file system a checkout lives on (so all its files are). */
static gboolean
sync_path (const char *path,
           gboolean whole_fs,
           GError **error)
{
  xa_autofd int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0)
    return xa_set_error_from_errno (error, errno, _("cannot open '%s'"), path);
  if ((whole_fs ? syncfs (fd) : fsync (fd)) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot sync '%s'"), path);
  return TRUE;
}

/* A refusal: one XA_STORE_ERROR_INVALID_COMMIT line naming ref and commit. */
static gboolean
refuse (GError **error,
        const XaRef *ref,
        const char *commit,
        const char *why)
{
  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
               _("'%s' commit %.12s refused: %s"), xa_ref_get_string (ref), commit, why);
  return FALSE;
}

static GBytes *
load_metadata_file (OstreeRepo *repo,
                    const XaRef *ref,
                    const char *commit,
                    GCancellable *cancellable,
                    GError **error)
{
  g_autoptr(GFile) root = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  char *data = NULL;
  gsize len = 0;

  if (!ostree_repo_read_commit (repo, commit, &root, NULL, cancellable, error))
    return NULL;
  file = g_file_get_child (root, "metadata");
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, &local_error);
  if (info == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      refuse (error, ref, commit, _("it has no metadata file"));
      return NULL;
    }
  if (info == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR ||
      /* Refused unread: policy/ would refuse it anyway. */
      g_file_info_get_size (info) > XA_METADATA_MAX_SIZE)
    {
      refuse (error, ref, commit, _("its metadata is not a regular file of at most 1 MiB"));
      return NULL;
    }
  if (!g_file_load_contents (file, cancellable, &data, &len, NULL, error))
    return NULL;
  return g_bytes_new_take (data, len);
}

/* The commit's own copy of the metadata (xa.metadata, written by
 * `flatpak build-export`), if it has one, must be the metadata file byte
 * for byte: clients decide from the copy before pulling.  Its xa.ref, if
 * any, must be the ref it is deployed as. */
static gboolean
check_commit_metadata (OstreeRepo *repo,
                       const XaRef *ref,
                       const char *commit,
                       GBytes *metadata,
                       GError **error)
{
  g_autoptr(GVariant) commit_v = NULL;
  g_autoptr(GVariant) meta = NULL;
  g_autoptr(GVariant) xa_metadata = NULL;
  const char *xa_ref = NULL;
  OstreeRepoCommitState state = 0;

  if (!ostree_repo_load_commit (repo, commit, &commit_v, &state, error))
    return FALSE;
  if ((state & OSTREE_REPO_COMMIT_STATE_PARTIAL) != 0)
    return refuse (error, ref, commit, _("it is only partly pulled; pull it again"));

  meta = g_variant_get_child_value (commit_v, 0);
  xa_metadata = g_variant_lookup_value (meta, "xa.metadata", G_VARIANT_TYPE_STRING);
  if (xa_metadata != NULL)
    {
      gsize len = 0;
      const char *str = g_variant_get_string (xa_metadata, &len);

      if (len != g_bytes_get_size (metadata) ||
          memcmp (str, g_bytes_get_data (metadata, NULL), len) != 0)
        return refuse (error, ref, commit,
                       _("its xa.metadata differs from its metadata file"));
    }
  if (g_variant_lookup (meta, "xa.ref", "&s", &xa_ref) &&
      strcmp (xa_ref, xa_ref_get_string (ref)) != 0)
    {
      g_autofree char *why = g_strdup_printf (_("it was built as '%s'"), xa_ref);

      return refuse (error, ref, commit, why);
    }
  return TRUE;
}

/* Everything that can be wrong with a commit, checked before anything
 * changes. */
static gboolean
check_commit (OstreeRepo *repo,
              const XaRef *ref,
              const char *commit,
              GPtrArray *warnings,
              GCancellable *cancellable,
              GError **error)
{
  g_autoptr(GBytes) data = load_metadata_file (repo, ref, commit, cancellable, error);
  g_autoptr(XaMetadata) metadata = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize len = 0;
  const char *str;

  if (data == NULL)
    return FALSE;
  str = g_bytes_get_data (data, &len);
  metadata = xa_metadata_load_data (str, len, xa_ref_get_id (ref), &local_error);
  if (metadata == NULL)
    return refuse (error, ref, commit, local_error->message);

  if (xa_metadata_get_kind (metadata) != xa_ref_get_kind (ref) ||
      g_strcmp0 (xa_metadata_get_name (metadata), xa_ref_get_id (ref)) != 0)
    {
      g_autofree char *why =
        g_strdup_printf (_("its metadata describes %s '%s'"),
                         xa_ref_kind_to_string (xa_metadata_get_kind (metadata)),
                         xa_metadata_get_name (metadata));

      return refuse (error, ref, commit, why);
    }
  if (xa_ref_get_kind (ref) == XA_METADATA_APP && xa_metadata_get_runtime (metadata) == NULL)
    return refuse (error, ref, commit, _("its metadata names no runtime"));
  if (!check_commit_metadata (repo, ref, commit, data, error))
    return FALSE;

  for (const char *const *w = xa_metadata_get_warnings (metadata); *w != NULL; w++)
    g_ptr_array_add (warnings, g_strdup (*w));
  return TRUE;
}

static gboolean
write_info (const char *dir,
            const XaRef *ref,
            const char *origin,
            const char *commit,
            GError **error)
{
  g_autoptr(GKeyFile) info = g_key_file_new ();
  g_autofree char *path = g_build_filename (dir, XA_DEPLOYMENT_INFO_FILE, NULL);
  g_autofree char *data = NULL;
  gsize len = 0;

  g_key_file_set_string (info, "Deploy", "origin", origin);
  g_key_file_set_string (info, "Deploy", "ref", xa_ref_get_string (ref));
  g_key_file_set_string (info, "Deploy", "commit", commit);
  data = g_key_file_to_data (info, &len, NULL);
  return xa_atomic_file_write (path, data, len, 0644, error);
}

/* BASE/.COMMIT.tmp-XXXXXX → BASE/COMMIT, complete and synced. */
static gboolean
check_out (XaInstallation *inst,
           OstreeRepo *repo,
           const XaRef *ref,
           const char *origin,
           const char *commit,
           const char *base,
           GCancellable *cancellable,
           GError **error)
{
  g_auto(TmpTree) tmp = { inst, NULL };
  g_autofree char *tmp_name = g_strdup_printf (".%s.tmp-%06x", commit,
                                               g_random_int_range (0, 0x1000000));
  g_autofree char *final = g_build_filename (base, commit, NULL);
  OstreeRepoCheckoutAtOptions options = { 0, };

  /* User mode: no ownership, no setuid/setgid bits, no xattrs.  Directories
   * get 0755-masked modes (bareuseronly_dirs, as Flatpak does), so nothing
   * in a deployment is writable by others.  OVERWRITE_NONE: the directory
   * is new and must not exist.  One syncfs afterwards is cheaper than an
   * fsync per file. */
  options.mode = OSTREE_REPO_CHECKOUT_MODE_USER;
  options.overwrite_mode = OSTREE_REPO_CHECKOUT_OVERWRITE_NONE;
  options.bareuseronly_dirs = TRUE;
  options.enable_fsync = FALSE;

  tmp.path = g_build_filename (base, tmp_name, NULL);
  if (!ostree_repo_checkout_at (repo, &options, AT_FDCWD, tmp.path, commit,
                                cancellable, error))
    {
      g_prefix_error (error, _("cannot check out '%s' commit %.12s: "),
                      xa_ref_get_string (ref), commit);
      return FALSE;
    }
  if (!write_info (tmp.path, ref, origin, commit, error) ||
      !xa_deployment_lock_create (tmp.path, error) ||
      !sync_path (tmp.path, TRUE, error))
    return FALSE;
  if (rename (tmp.path, final) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot rename into '%s'"), final);
  g_clear_pointer (&tmp.path, g_free);
  return sync_path (base, FALSE, error);
}

/* BASE/active.tmp → COMMIT, renamed over BASE/active: readers see either
 * the old or the new deployment, never none. */
static gboolean
set_active (const char *base,
            const char *commit,
            GError **error)
{
  g_autofree char *tmp = g_build_filename (base, "active.tmp", NULL);
  g_autofree char *active = g_build_filename (base, "active", NULL);

  if (unlink (tmp) != 0 && errno != ENOENT)
    return xa_set_error_from_errno (error, errno, _("cannot remove '%s'"), tmp);
  if (symlink (commit, tmp) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot create '%s'"), tmp);
  if (rename (tmp, active) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot rename into '%s'"), active);
  return sync_path (base, FALSE, error);
}

/* After a refusal, the local ref goes back to what is deployed (or away),
 * so the refused commit is not mistaken for the installed one and its
 * objects can be pruned. */
static void
roll_back_ref (OstreeRepo *repo,
               const XaRef *ref,
               const char *origin,
               const char *refused,
               const char *active)
{
  g_autofree char *refspec = g_strconcat (origin, ":", xa_ref_get_string (ref), NULL);
  g_autofree char *current = NULL;
  g_autoptr(GError) local_error = NULL;

  if (!ostree_repo_resolve_rev (repo, refspec, TRUE, &current, NULL) ||
      g_strcmp0 (current, refused) != 0)
    return;
  if (!ostree_repo_set_ref_immediate (repo, origin, xa_ref_get_string (ref), active,
                                      NULL, &local_error))
    g_debug ("cannot reset '%s': %s", refspec, local_error->message);
}

static gboolean
ensure_data_dir (XaInstallation *inst,
                 const XaRef *ref,
                 GError **error)
{
  g_autofree char *data = xa_installation_dup_data_dir (inst, xa_ref_get_id (ref));

  /* The app's /var: private to the user who runs it. */
  if (g_mkdir_with_parents (data, 0700) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot create '%s'"), data);
  return TRUE;
}

typedef struct
{
  const XaRef *ref;
  const char *origin;
  const char *commit;   /* NULL: the commit at ORIGIN:REF */
} DeployRequest;

static gboolean
update_exports (XaInstallation *inst,
                const XaRef *ref,
                const char *dir,
                GPtrArray *warnings,
                GError **error)
{
  g_autoptr(GPtrArray) exports_warnings = NULL;

  if (!xa_exports_update_full (inst, xa_ref_get_id (ref), dir, &exports_warnings, error))
    {
      g_prefix_error (error, _("'%s' is installed, but its exports are not updated: "),
                      xa_ref_get_id (ref));
      return FALSE;
    }
  for (guint i = 0; exports_warnings != NULL && i < exports_warnings->len; i++)
    g_ptr_array_add (warnings, g_strdup_printf (_("exports of '%s': %s"), xa_ref_get_id (ref),
                                                (const char *) exports_warnings->pdata[i]));
  return TRUE;
}

void
xa_deploy_result_clear (XaDeployResult *result)
{
  g_clear_pointer (&result->warnings, g_ptr_array_unref);
  result->changed = FALSE;
}

static gboolean
deploy (XaInstallation *inst,
        const DeployRequest *request,
        XaDeployResult *result,
        GCancellable *cancellable,
        GError **error)
{
  const XaRef *ref = request->ref;
  g_autoptr(XaInstallationLock) lock = xa_installation_lock (inst, error);
  g_autofree char *commit = NULL;
  g_autofree char *active = NULL;
  g_autofree char *base = NULL;
  g_autofree char *final = NULL;
  g_autoptr(GError) local_error = NULL;
  OstreeRepo *repo;

  if (lock == NULL)
    return FALSE;
  repo = xa_installation_ensure_repo (inst, cancellable, error);
  if (repo == NULL)
    return FALSE;
  if (request->commit != NULL)
    {
      /* It becomes a directory name. */
      if (!ostree_validate_checksum_string (request->commit, error))
        return FALSE;
      commit = g_strdup (request->commit);
    }
  else
    {
      g_autofree char *refspec = g_strconcat (request->origin, ":",
                                              xa_ref_get_string (ref), NULL);

      if (!ostree_repo_resolve_rev (repo, refspec, FALSE, &commit, error))
        return FALSE;
    }

  active = xa_installation_lookup_active (inst, ref);
  /* Nothing new; deployments an earlier update kept while they were in
   * use go now if they are not any more. */
  if (g_strcmp0 (active, commit) == 0)
    return xa_installation_remove_deployments (inst, ref, commit, error);
  if (!check_commit (repo, ref, commit, result->warnings, cancellable, &local_error))
    {
      if (g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT))
        roll_back_ref (repo, ref, request->origin, commit, active);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  base = xa_installation_dup_deploy_base (inst, ref);
  if (g_mkdir_with_parents (base, 0755) != 0)
    return xa_set_error_from_errno (error, errno, _("cannot create '%s'"), base);
  final = g_build_filename (base, commit, NULL);
  if (!xa_installation_remove_leftovers (inst, ref, error))
    return FALSE;
  /* A BASE/COMMIT directory was renamed into place complete and synced:
   * a deploy killed before it flipped `active` left it, and it is reused,
   * with this deploy's origin. */
  if (g_file_test (final, G_FILE_TEST_IS_DIR)
      ? !write_info (final, ref, request->origin, commit, error)
      : !check_out (inst, repo, ref, request->origin, commit, base, cancellable, error))
    return FALSE;
  if (xa_ref_get_kind (ref) == XA_METADATA_APP && !ensure_data_dir (inst, ref, error))
    return FALSE;
  if (!set_active (base, commit, error))
    return FALSE;

  result->changed = TRUE;
  if (xa_ref_get_kind (ref) == XA_METADATA_APP &&
      !update_exports (inst, ref, final, result->warnings, error))
    return FALSE;
  if (!xa_installation_remove_deployments (inst, ref, commit, error))
    return FALSE;
  /* An update leaves the old commit's objects unreachable: an
   * installation keeps no history. */
  return active == NULL || xa_installation_prune_repo (inst, cancellable, error);
}

/* Deploys @commit (NULL: the commit at ORIGIN:REF, as xa_pull_ref() left
 * it) of @ref, which must not be installed yet.  @out_result may be NULL;
 * its warnings are worth showing. */
gboolean
xa_deploy_install_full (XaInstallation *inst,
                        const XaRef *ref,
                        const char *origin,
                        const char *commit,
                        GCancellable *cancellable,
                        XaDeployResult *out_result,
                        GError **error)
{
  DeployRequest request = { ref, origin, commit };
  g_auto(XaDeployResult) result = { FALSE, g_ptr_array_new_with_free_func (g_free) };
  g_autofree char *active = NULL;

  g_return_val_if_fail (ref != NULL && origin != NULL, FALSE);

  if (!xa_installation_check_writable (inst, error) ||
      !xa_remote_validate_name (origin, error))
    return FALSE;
  active = xa_installation_lookup_active (inst, ref);
  if (active != NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_ALREADY_INSTALLED,
                   _("'%s' is already installed"), xa_ref_get_string (ref));
      return FALSE;
    }
  if (!deploy (inst, &request, &result, cancellable, error))
    return FALSE;
  if (out_result != NULL)
    *out_result = (XaDeployResult) { result.changed, g_steal_pointer (&result.warnings) };
  return TRUE;
}

/* Deploys @commit (NULL: the commit at ORIGIN:REF, for the origin @ref was
 * installed from) of the installed @ref.  @out_result (may be NULL) says
 * whether anything changed: not when that commit is already the active
 * one, "already up to date". */
gboolean
xa_deploy_update_full (XaInstallation *inst,
                       const XaRef *ref,
                       const char *commit,
                       GCancellable *cancellable,
                       XaDeployResult *out_result,
                       GError **error)
{
  g_autoptr(XaDeployment) current = NULL;
  DeployRequest request = { ref, NULL, commit };
  g_auto(XaDeployResult) result = { FALSE, g_ptr_array_new_with_free_func (g_free) };

  g_return_val_if_fail (ref != NULL, FALSE);

  if (!xa_installation_check_writable (inst, error))
    return FALSE;
  current = xa_deployment_open_ref (inst, ref, error);
  if (current == NULL)
    return FALSE;
  request.origin = xa_deployment_get_origin (current);
  if (request.origin == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_NOT_FOUND,
                   _("'%s' does not record the remote it came from; reinstall it"),
                   xa_ref_get_string (ref));
      return FALSE;
    }
  if (!deploy (inst, &request, &result, cancellable, error))
    return FALSE;
  if (out_result != NULL)
    *out_result = (XaDeployResult) { result.changed, g_steal_pointer (&result.warnings) };
  return TRUE;
}

/* xa_deploy_install_full() for callers that show no warnings (they go to
 * g_debug()). */
gboolean
xa_deploy_install (XaInstallation *inst,
                   const XaRef *ref,
                   const char *origin,
                   const char *commit,
                   GCancellable *cancellable,
                   GError **error)
{
  g_auto(XaDeployResult) result = { FALSE, NULL };

  if (!xa_deploy_install_full (inst, ref, origin, commit, cancellable, &result, error))
    return FALSE;
  for (guint i = 0; i < result.warnings->len; i++)
    g_debug ("%s", (const char *) result.warnings->pdata[i]);
  return TRUE;
}

/* xa_deploy_update_full(), telling only whether anything changed. */
gboolean
xa_deploy_update (XaInstallation *inst,
                  const XaRef *ref,
                  const char *commit,
                  GCancellable *cancellable,
                  gboolean *out_changed,
                  GError **error)
{
  g_auto(XaDeployResult) result = { FALSE, NULL };

  if (!xa_deploy_update_full (inst, ref, commit, cancellable, &result, error))
    return FALSE;
  for (guint i = 0; i < result.warnings->len; i++)
    g_debug ("%s", (const char *) result.warnings->pdata[i]);
  if (out_changed != NULL)
    *out_changed = result.changed;
  return TRUE;
}
