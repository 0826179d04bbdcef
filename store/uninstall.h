/* store/uninstall.h — removes an installed ref: its deployments, its
 * exports, its local ref and the objects only it used.  An app's data
 * (BASE/app/ID/data) stays unless asked. */
#pragma once

#include <gio/gio.h>

#include "store/installation.h"
#include "store/ref.h"

G_BEGIN_DECLS

typedef enum
{
  XA_UNINSTALL_FLAGS_NONE        = 0,
  XA_UNINSTALL_FLAGS_DELETE_DATA = 1 << 0,  /* also remove BASE/app/ID/data */
  XA_UNINSTALL_FLAGS_FORCE       = 1 << 1,  /* even a runtime installed apps need */
} XaUninstallFlags;

gboolean xa_uninstall_apply (XaInstallation    *inst,
                             const XaRef       *ref,
                             XaUninstallFlags   flags,
                             GCancellable      *cancellable,
                             GError           **error);

G_END_DECLS
