/* store/repo.h — an installation's OSTree repository.  Everything that
 * needs libostree goes through here; store/installation.h does not. */
#pragma once

#include <gio/gio.h>
#include <ostree.h>

#include "store/installation.h"

G_BEGIN_DECLS

/* Opens the repository, creating the installation first when this process
 * may change it.  Borrowed: it lives as long as @self. */
OstreeRepo *xa_installation_ensure_repo (XaInstallation  *self,
                                         GCancellable    *cancellable,
                                         GError         **error);

/* Drops every object no ref reaches any more.  The caller holds the
 * installation's lock. */
gboolean    xa_installation_prune_repo  (XaInstallation  *self,
                                         GCancellable    *cancellable,
                                         GError         **error);

G_END_DECLS
