/* store/store-error.h — the store's one error domain (STYLE.md §4). */
#pragma once

#include <glib.h>

#include "policy/metadata.h"

G_BEGIN_DECLS

#define XA_STORE_ERROR (xa_store_error_quark ())

typedef enum
{
  XA_STORE_ERROR_NOT_INSTALLED,        /* no active deployment of that ref */
  XA_STORE_ERROR_ALREADY_INSTALLED,    /* install of a ref that is deployed */
  XA_STORE_ERROR_INVALID_REF,          /* not kind/ID/ARCH/BRANCH, or a bad part */
  XA_STORE_ERROR_REMOTE_NOT_FOUND,     /* no remote of that name */
  XA_STORE_ERROR_REMOTE_EXISTS,        /* add of a name already taken */
  XA_STORE_ERROR_INVALID_REMOTE,       /* bad remote name or URL */
  XA_STORE_ERROR_REMOTE_IN_USE,        /* delete of a remote installed refs come from */
  XA_STORE_ERROR_REF_NOT_FOUND,        /* the remote does not carry that ref */
  XA_STORE_ERROR_AMBIGUOUS,            /* several branches match; name one */
  XA_STORE_ERROR_INVALID_COMMIT,       /* bad or inconsistent metadata in a commit */
  XA_STORE_ERROR_RUNTIME_IN_USE,       /* uninstall of a runtime an app needs */
  XA_STORE_ERROR_PERMISSION_DENIED,    /* system installation changed by non-root */
} XaStoreError;

GQuark   xa_store_error_quark     (void);
void     xa_store_error_flatten   (GError      *error);
gboolean xa_store_error_set_not_installed (GError        **error,
                                           XaMetadataKind  kind,
                                           const char     *name);

G_END_DECLS
