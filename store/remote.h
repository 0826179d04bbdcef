/* store/remote.h — the remotes of an installation: named repository URLs,
 * kept in the OSTree repository's config as `ostree remote add` keeps them
 * (group [remote "NAME"], keys url, gpg-verify, gpg-verify-summary,
 * xa.title), so Flatpak and ostree read them too. */
#pragma once

#include <gio/gio.h>

#include "policy/metadata.h"
#include "store/installation.h"

G_BEGIN_DECLS

typedef struct _XaRemote XaRemote;

gboolean    xa_remote_validate_name     (const char      *name,
                                         GError         **error);
gboolean    xa_remote_add               (XaInstallation  *inst,
                                         const char      *name,
                                         const char      *url,
                                         gboolean         gpg_verify,
                                         const char      *gpg_keyring_path,
                                         const char      *title,
                                         GError         **error);
gboolean    xa_remote_delete            (XaInstallation  *inst,
                                         const char      *name,
                                         gboolean         force,
                                         GError         **error);
XaRemote   *xa_remote_load              (XaInstallation  *inst,
                                         const char      *name,
                                         GError         **error);
GPtrArray  *xa_remote_list              (XaInstallation  *inst,
                                         GError         **error);
void        xa_remote_free              (XaRemote        *self);

const char *xa_remote_get_name          (XaRemote        *self);
const char *xa_remote_get_url           (XaRemote        *self);
const char *xa_remote_get_title         (XaRemote        *self);
gboolean    xa_remote_get_gpg_verify    (XaRemote        *self);

GHashTable *xa_remote_list_refs         (XaInstallation  *inst,
                                         const char      *name,
                                         const char      *arch,
                                         GCancellable    *cancellable,
                                         GError         **error);
GStrv       xa_remote_list_branches     (XaInstallation  *inst,
                                         const char      *name,
                                         XaMetadataKind   kind,
                                         const char      *id,
                                         const char      *arch,
                                         GCancellable    *cancellable,
                                         GError         **error);
char       *xa_remote_resolve_branch    (XaInstallation  *inst,
                                         const char      *name,
                                         XaMetadataKind   kind,
                                         const char      *id,
                                         const char      *arch,
                                         GCancellable    *cancellable,
                                         GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaRemote, xa_remote_free)

G_END_DECLS
