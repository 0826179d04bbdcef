/* store/pull.c — pulls one ref.  Trusts: libostree to verify every
 * object's checksum as it is written, and GPG signatures and ref bindings
 * per the remote's config.  An interrupted pull leaves staged objects in
 * repo/tmp that the next pull reuses; the local ref moves only when the
 * whole commit is there, so nothing half-pulled is ever deployed. */
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <ostree.h>

#include "store/installation.h"
#include "store/repo.h"
#include "store/pull.h"
#include "store/ref.h"
#include "store/remote.h"
#include "store/store-error.h"
#include "store/summary.h"

/* How often libostree reports progress, in milliseconds. */
#define PULL_UPDATE_FREQUENCY_MS 500

static guint
get_uint (OstreeAsyncProgress *progress,
          const char *key)
{
  g_autoptr(GVariant) value = ostree_async_progress_get_variant (progress, key);

  return value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32)
         ? g_variant_get_uint32 (value) : 0;
}

static guint64
get_uint64 (OstreeAsyncProgress *progress,
            const char *key)
{
  g_autoptr(GVariant) value = ostree_async_progress_get_variant (progress, key);

  return value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT64)
         ? g_variant_get_uint64 (value) : 0;
}

static void
report (OstreeAsyncProgress *progress,
        const XaPullProgress *callback,
        gboolean done)
{
  XaPullStatus status = { 0, };
  guint64 start_time = get_uint64 (progress, "start-time");
  guint64 now = g_get_monotonic_time ();

  status.bytes_transferred = get_uint64 (progress, "bytes-transferred");
  status.fetched = get_uint (progress, "fetched");
  status.requested = get_uint (progress, "requested");
  status.outstanding = get_uint (progress, "outstanding-fetches");
  status.fetched_delta_parts = get_uint (progress, "fetched-delta-parts");
  status.total_delta_parts = get_uint (progress, "total-delta-parts");
  status.elapsed_us = start_time != 0 && now > start_time ? now - start_time : 0;
  status.done = done;
  callback->func (&status, callback->user_data);
}

static void
progress_changed (OstreeAsyncProgress *progress,
                  gpointer user_data)
{
  report (progress, user_data, FALSE);
}

/* The summary of @remote, which must list @ref: fails with
 * XA_STORE_ERROR_REF_NOT_FOUND, naming the remote, when it does not;
 * libostree's own message is less clear. */
static XaSummary *
load_summary_with_ref (XaInstallation *inst,
                       const char *remote,
                       const XaRef *ref,
                       GCancellable *cancellable,
                       GError **error)
{
  g_autoptr(XaSummary) summary = xa_summary_load (inst, remote, xa_ref_get_arch (ref),
                                                  cancellable, error);

  if (summary == NULL)
    return NULL;
  if (!g_hash_table_contains (xa_summary_get_refs (summary), xa_ref_get_string (ref)))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REF_NOT_FOUND,
                   _("'%s' is not in remote '%s'"), xa_ref_get_string (ref), remote);
      return NULL;
    }
  return g_steal_pointer (&summary);
}

static gboolean
pull (OstreeRepo *repo,
      const char *remote,
      const char *ref,
      const XaSummary *summary,
      const XaPullProgress *callback,
      GCancellable *cancellable,
      GError **error)
{
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{sv}"));
  const char *refs[] = { ref, NULL };
  g_autoptr(OstreeAsyncProgress) progress = NULL;
  gboolean ok;

  g_variant_builder_add (&options, "{sv}", "refs", g_variant_new_strv (refs, -1));
  g_variant_builder_add (&options, "{sv}", "flags",
                         g_variant_new_int32 (OSTREE_REPO_PULL_FLAGS_NONE));
  g_variant_builder_add (&options, "{sv}", "update-frequency",
                         g_variant_new_uint32 (PULL_UPDATE_FREQUENCY_MS));
  /* Fetched once for the whole command: libostree would fetch it again. */
  xa_summary_add_pull_options (summary, &options);

  if (callback != NULL && callback->func != NULL)
    progress = ostree_async_progress_new_and_connect (progress_changed, (gpointer) callback);

  ok = ostree_repo_pull_with_options (repo, remote, g_variant_builder_end (&options),
                                      progress, cancellable, error);
  if (progress != NULL)
    {
      ostree_async_progress_finish (progress);
      report (progress, callback, TRUE);
    }
  return ok;
}

/* Pulls @ref ("app/ID/ARCH/BRANCH" or "runtime/…") from @remote.
 * @progress may be NULL.  @out_commit gets the commit now at REMOTE:REF. */
gboolean
xa_pull_ref (XaInstallation *inst,
             const char *remote,
             const char *ref,
             const XaPullProgress *progress,
             GCancellable *cancellable,
             char **out_commit,
             GError **error)
{
  g_autoptr(XaInstallationLock) lock = NULL;
  g_autoptr(XaRemote) remote_info = NULL;
  g_autoptr(XaRef) parsed = NULL;
  g_autofree char *refspec = NULL;
  g_autofree char *commit = NULL;
  g_autoptr(XaSummary) summary = NULL;
  OstreeRepo *repo;

  g_return_val_if_fail (remote != NULL && ref != NULL, FALSE);

  parsed = xa_ref_parse (ref, error);
  if (parsed == NULL || !xa_installation_check_writable (inst, error))
    return FALSE;
  remote_info = xa_remote_load (inst, remote, error);
  if (remote_info == NULL)
    return FALSE;
  /* Held so that an uninstall's prune never runs beside a pull. */
  lock = xa_installation_lock (inst, error);
  if (lock == NULL)
    return FALSE;
  repo = xa_installation_ensure_repo (inst, cancellable, error);
  if (repo == NULL)
    return FALSE;
  summary = load_summary_with_ref (inst, remote, parsed, cancellable, error);
  if (summary == NULL)
    return FALSE;

  if (!pull (repo, remote, ref, summary, progress, cancellable, error))
    {
      g_prefix_error (error, _("cannot pull '%s' from remote '%s': "), ref, remote);
      xa_store_error_flatten (error != NULL ? *error : NULL);
      return FALSE;
    }

  refspec = g_strconcat (remote, ":", ref, NULL);
  if (!ostree_repo_resolve_rev (repo, refspec, FALSE, &commit, error))
    return FALSE;
  if (out_commit != NULL)
    *out_commit = g_steal_pointer (&commit);
  return TRUE;
}
