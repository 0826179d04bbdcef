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
