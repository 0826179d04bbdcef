/* store/repo.c — see repo.h.  Trusts: the installation's base directory. */
#include <fcntl.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <ostree.h>

#include "store/installation-private.h"
#include "store/repo.h"

/* ostree_repo_create_at() is idempotent and writes objects/ last, so a
 * creation killed half-way is completed by the next call. */
OstreeRepo *
xa_installation_ensure_repo (XaInstallation *self,
                             GCancellable *cancellable,
                             GError **error)
{
  OstreeRepo *cached = xa_installation_get_cached_repo (self);
  g_autofree char *repo_path = NULL;
  g_autoptr(OstreeRepo) repo = NULL;

  if (cached != NULL)
    return cached;

  repo_path = g_build_filename (xa_installation_get_path (self), "repo", NULL);
  if (xa_installation_get_scope (self) == XA_INSTALLATION_USER || geteuid () == 0)
    {
      if (!xa_installation_ensure_layout (self, error))
        return NULL;
      /* Flatpak uses bare-user-only for every new installation: no
       * xattrs, no ownership, no setuid bits; what a user may check out. */
      repo = ostree_repo_create_at (AT_FDCWD, repo_path,
                                    OSTREE_REPO_MODE_BARE_USER_ONLY, NULL,
                                    cancellable, error);
    }
  else
    repo = ostree_repo_open_at (AT_FDCWD, repo_path, cancellable, error);

  if (repo == NULL)
    {
      g_prefix_error (error, _("installation '%s': "), xa_installation_get_path (self));
      return NULL;
    }
  xa_installation_set_cached_repo (self, repo, g_object_unref);
  return g_steal_pointer (&repo);
}

/* Keeps what the refs reach and what every deployment directory was
 * checked out from: a deploy of an older commit, or one kept while in
 * use, can be deployed again without a pull.  Depth 0: installations keep
 * no history. */
static gboolean
add_reachable (OstreeRepo *repo,
               const char *commit,
               GHashTable *reachable,
               GCancellable *cancellable,
               GError **error)
{
  g_autoptr(GError) local_error = NULL;

  if (ostree_repo_traverse_commit_union (repo, commit, 0, reachable, cancellable, &local_error))
    return TRUE;
  /* A deployment whose commit is already gone has nothing to keep. */
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

gboolean
xa_installation_prune_repo (XaInstallation *self,
                            GCancellable *cancellable,
                            GError **error)
{
  OstreeRepo *repo = xa_installation_ensure_repo (self, cancellable, error);
  g_autoptr(GHashTable) reachable = ostree_repo_traverse_new_reachable ();
  g_autoptr(GHashTable) refs = NULL;
  g_autoptr(GPtrArray) deployed = NULL;
  OstreeRepoPruneOptions options = { 0, };
  GHashTableIter iter;
  gpointer commit;
  gint total = 0;
  gint pruned = 0;
  guint64 size = 0;

  if (repo == NULL || !ostree_repo_list_refs (repo, NULL, &refs, cancellable, error))
    return FALSE;
  deployed = xa_installation_list_deployed_commits (self, error);
  if (deployed == NULL)
    return FALSE;
  g_hash_table_iter_init (&iter, refs);
  while (g_hash_table_iter_next (&iter, NULL, &commit))
    if (!add_reachable (repo, commit, reachable, cancellable, error))
      return FALSE;
  for (guint i = 0; i < deployed->len; i++)
    if (!add_reachable (repo, deployed->pdata[i], reachable, cancellable, error))
      return FALSE;
  options.flags = OSTREE_REPO_PRUNE_FLAGS_NONE;
  options.reachable = reachable;
  if (!ostree_repo_prune_from_reachable (repo, &options, &total, &pruned, &size,
                                         cancellable, error))
    return FALSE;
  g_debug ("pruned %d of %d objects, %" G_GUINT64_FORMAT " bytes", pruned, total, size);
  return TRUE;
}
