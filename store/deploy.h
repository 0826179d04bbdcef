/* store/deploy.h — turns a pulled commit into the active deployment of its
 * ref: check its metadata, check it out beside the current one, flip the
 * `active` link atomically, update the app's exports, drop the old one. */
#pragma once

#include <gio/gio.h>

#include "store/installation.h"
#include "store/ref.h"

G_BEGIN_DECLS

/* What a deploy did, for the CLI's messages. */
typedef struct
{
  gboolean   changed;    /* FALSE: that commit was already active ("already up to date") */
  GPtrArray *warnings;   /* char *, one line each: metadata values and exported
                          * files that were ignored; escaped for a terminal */
} XaDeployResult;

void     xa_deploy_result_clear (XaDeployResult  *result);

gboolean xa_deploy_install      (XaInstallation  *inst,
                                 const XaRef     *ref,
                                 const char      *origin,
                                 const char      *commit,
                                 GCancellable    *cancellable,
                                 GError         **error);
gboolean xa_deploy_install_full (XaInstallation  *inst,
                                 const XaRef     *ref,
                                 const char      *origin,
                                 const char      *commit,
                                 GCancellable    *cancellable,
                                 XaDeployResult  *out_result,
                                 GError         **error);
gboolean xa_deploy_update       (XaInstallation  *inst,
                                 const XaRef     *ref,
                                 const char      *commit,
                                 GCancellable    *cancellable,
                                 gboolean        *out_changed,
                                 GError         **error);
gboolean xa_deploy_update_full  (XaInstallation  *inst,
                                 const XaRef     *ref,
                                 const char      *commit,
                                 GCancellable    *cancellable,
                                 XaDeployResult  *out_result,
                                 GError         **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XaDeployResult, xa_deploy_result_clear)

G_END_DECLS
