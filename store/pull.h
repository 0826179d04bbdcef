/* store/pull.h — fetches one ref from a remote into the installation's
 * repository with libostree: only missing objects, through static deltas
 * where the remote has them, checked against their checksums and (when
 * the remote says so) GPG signatures.  Afterwards the local repository
 * has REMOTE:REF pointing at the pulled commit; nothing is deployed. */
#pragma once

#include <gio/gio.h>

#include "store/installation.h"

G_BEGIN_DECLS

/* A snapshot of a running pull, for the CLI's progress line. */
typedef struct
{
  guint64  bytes_transferred;    /* bytes received so far */
  guint    fetched;              /* objects fetched so far */
  guint    requested;            /* objects requested so far */
  guint    outstanding;          /* fetches in flight */
  guint    fetched_delta_parts;  /* static delta parts fetched */
  guint    total_delta_parts;    /* static delta parts to fetch; 0 without deltas */
  guint64  elapsed_us;           /* since the pull started, for a rate */
  gboolean done;                 /* the last report of this pull */
} XaPullStatus;

typedef void (*XaPullProgressFunc) (const XaPullStatus *status,
                                    gpointer            user_data);

/* Called from the thread that pulls, while it pulls, about twice a
 * second, and once more with done set, whether the pull failed or not
 * (after a failure, with the last counts libostree reported). */
typedef struct
{
  XaPullProgressFunc func;
  gpointer           user_data;
} XaPullProgress;

gboolean xa_pull_ref (XaInstallation        *inst,
                      const char            *remote,
                      const char            *ref,
                      const XaPullProgress  *progress,
                      GCancellable          *cancellable,
                      char                 **out_commit,
                      GError               **error);

G_END_DECLS
