/* store/installation.h — one installation: a base directory holding an
 * OSTree repository and the deployments checked out of it.
 *
 *   BASE/repo/                          OSTree, mode bare-user-only
 *   BASE/app/ID/ARCH/BRANCH/COMMIT/     one deployment (metadata, files/, export/)
 *   BASE/app/ID/ARCH/BRANCH/active      symlink to the active COMMIT
 *   BASE/app/ID/data/                   the app's /var; kept across updates
 *   BASE/runtime/ID/ARCH/BRANCH/…       likewise, without data/
 *   BASE/exports/                       desktop files etc. (store/exports.c)
 *   BASE/overrides/                     per-app permission overrides (policy/)
 */
#pragma once

#include <gio/gio.h>

#include "store/ref.h"

G_BEGIN_DECLS

typedef enum
{
  XA_INSTALLATION_USER,    /* $XDG_DATA_HOME/xdg-app */
  XA_INSTALLATION_SYSTEM,  /* /var/lib/xdg-app; only root changes it, for now */
} XaInstallationScope;

typedef struct _XaInstallation XaInstallation;
typedef struct _XaInstallationLock XaInstallationLock;

XaInstallation     *xa_installation_new              (const char          *path,
                                                      XaInstallationScope  scope);
XaInstallation     *xa_installation_new_user         (void);
XaInstallation     *xa_installation_new_system       (void);
XaInstallation     *xa_installation_ref              (XaInstallation      *self);
void                xa_installation_unref            (XaInstallation      *self);

const char         *xa_installation_get_path         (XaInstallation      *self);
XaInstallationScope xa_installation_get_scope        (XaInstallation      *self);

gboolean            xa_installation_has_repo         (XaInstallation      *self);
gboolean            xa_installation_check_writable   (XaInstallation      *self,
                                                      GError             **error);
/* Creates app/, runtime/, exports/ and overrides/ (store/repo.c creates
 * repo/ after them). */
gboolean            xa_installation_ensure_layout    (XaInstallation      *self,
                                                      GError             **error);
XaInstallationLock *xa_installation_lock             (XaInstallation      *self,
                                                      GError             **error);
void                xa_installation_lock_free        (XaInstallationLock  *lock);

char               *xa_installation_dup_deploy_base  (XaInstallation      *self,
                                                      const XaRef         *ref);
char               *xa_installation_dup_data_dir     (XaInstallation      *self,
                                                      const char          *app_id);
char               *xa_installation_dup_exports_dir  (XaInstallation      *self);
char               *xa_installation_dup_overrides_dir (XaInstallation     *self);
GPtrArray          *xa_installation_list_refs        (XaInstallation      *self,
                                                      XaMetadataKind       kind,
                                                      GError             **error);
GPtrArray          *xa_installation_list_deployed_commits (XaInstallation *self,
                                                           GError        **error);
char               *xa_installation_lookup_active    (XaInstallation      *self,
                                                      const XaRef         *ref);
gboolean            xa_installation_remove_tree      (XaInstallation      *self,
                                                      const char          *path,
                                                      GError             **error);
gboolean            xa_installation_remove_leftovers (XaInstallation      *self,
                                                      const XaRef         *ref,
                                                      GError             **error);
gboolean            xa_installation_remove_deployments (XaInstallation    *self,
                                                        const XaRef       *ref,
                                                        const char        *keep,
                                                        GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaInstallation, xa_installation_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaInstallationLock, xa_installation_lock_free)

G_END_DECLS
