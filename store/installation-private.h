/* store/installation-private.h — the slot in which store/repo.c keeps an
 * installation's open OstreeRepo, so that installation.c itself needs no
 * libostree.  For store/ only. */
#pragma once

#include <glib.h>

#include "store/installation.h"

G_BEGIN_DECLS

gpointer xa_installation_get_cached_repo (XaInstallation *self);
/* Takes @repo, once; @repo_free frees it with the installation. */
void     xa_installation_set_cached_repo (XaInstallation *self,
                                          gpointer        repo,
                                          GDestroyNotify  repo_free);

G_END_DECLS
