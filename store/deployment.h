/* store/deployment.h — an installed ref as found on disk: the directory
 * its `active` link points to, its metadata, its commit and its origin. */
#pragma once

#include <gio/gio.h>

#include "policy/metadata.h"
#include "store/installation.h"
#include "store/ref.h"

G_BEGIN_DECLS

/* The file in each deployment directory that records where it came from;
 * written before the directory is renamed into place. */
#define XA_DEPLOYMENT_INFO_FILE "xa-deploy"

typedef struct _XaDeployment XaDeployment;

XaDeployment   *xa_deployment_open             (XaInstallation        *inst,
                                                XaMetadataKind         kind,
                                                const char            *id,
                                                const char            *arch,
                                                const char            *branch,
                                                GError               **error);
XaDeployment   *xa_deployment_open_ref         (XaInstallation        *inst,
                                                const XaRef           *ref,
                                                GError               **error);
XaDeployment   *xa_deployment_find_runtime     (XaInstallation *const *installations,
                                                const char            *runtime,
                                                GError               **error);
GPtrArray      *xa_deployment_list             (XaInstallation        *inst,
                                                XaMetadataKind         kind,
                                                GError               **error);
void            xa_deployment_free             (XaDeployment          *self);

XaInstallation *xa_deployment_get_installation (XaDeployment          *self);
const XaRef    *xa_deployment_get_ref          (XaDeployment          *self);
XaMetadataKind  xa_deployment_get_kind         (XaDeployment          *self);
const char     *xa_deployment_get_id           (XaDeployment          *self);
const char     *xa_deployment_get_arch         (XaDeployment          *self);
const char     *xa_deployment_get_branch       (XaDeployment          *self);
const char     *xa_deployment_get_dir          (XaDeployment          *self);
const char     *xa_deployment_get_files_dir    (XaDeployment          *self);
XaMetadata     *xa_deployment_get_metadata     (XaDeployment          *self);
const char     *xa_deployment_get_commit       (XaDeployment          *self);
const char     *xa_deployment_get_origin       (XaDeployment          *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaDeployment, xa_deployment_free)

G_END_DECLS
