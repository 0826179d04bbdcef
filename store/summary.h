/* store/summary.h — what a remote carries: its summary, fetched once per
 * process and handed to libostree's pull so that no command fetches it
 * twice.  Reads Flatpak's indexed summaries (summary.idx) when the repo
 * has them: only the subset for one arch travels. */
#pragma once

#include <gio/gio.h>
#include <ostree.h>

#include "store/installation.h"

G_BEGIN_DECLS

typedef struct _XaSummary XaSummary;

/* The summary of @remote for @arch (NULL: the machine's), from the
 * network, or from memory after xa_summary_enable_cache().  Refs of other
 * arches may be absent. */
XaSummary       *xa_summary_load              (XaInstallation   *inst,
                                               const char       *remote,
                                               const char       *arch,
                                               GCancellable     *cancellable,
                                               GError          **error);
XaSummary       *xa_summary_ref               (XaSummary        *self);
void             xa_summary_unref             (XaSummary        *self);
/* From now on, summaries loaded through @inst are kept and reused for as
 * long as @inst lives: for a command that runs for seconds and reads a
 * remote several times, not for a service that would miss its updates. */
gboolean         xa_summary_enable_cache      (XaInstallation   *inst,
                                               GCancellable     *cancellable,
                                               GError          **error);
/* ref → commit checksum (hex).  Borrowed. */
GHashTable      *xa_summary_get_refs          (const XaSummary  *self);
/* Adds summary-bytes and summary-sig-bytes to the options of
 * ostree_repo_pull_with_options(): libostree then fetches neither. */
void             xa_summary_add_pull_options  (const XaSummary  *self,
                                               GVariantBuilder  *options);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaSummary, xa_summary_unref)

G_END_DECLS
