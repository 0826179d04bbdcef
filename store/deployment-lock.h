/* store/deployment-lock.h — whether a deployment is in use.  Each
 * deployment's files/ carries an empty `.ref` file; every sandbox that
 * runs from it holds a read lock on it (xdg-app-sandbox --lock-file
 * /usr/.ref, /self/.ref) for as long as anything in it lives.  An update
 * or an uninstall leaves a deployment whose file is locked in place, and a
 * later one of the same ref removes it.  The name is Flatpak's. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XA_DEPLOYMENT_LOCK_NAME ".ref"

/* Creates DIR/files/.ref when DIR/files exists. */
gboolean xa_deployment_lock_create  (const char  *deploy_dir,
                                     GError     **error);
/* Whether some process holds a lock on DIR/files/.ref.  A deployment made
 * before these files existed, or without files/, is never in use. */
gboolean xa_deployment_lock_is_held (const char  *deploy_dir);

G_END_DECLS
