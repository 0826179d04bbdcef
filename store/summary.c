/* store/summary.c — see summary.h.  Trusts: the remote's GPG keyring when
 * gpg-verify-summary is on (then the whole summary and its summary.sig
 * are fetched and verified, and libostree verifies them again before it
 * pulls); without it, nothing but the transport, as libostree would.  An
 * indexed subset is used only when its SHA-256 is the one the index names,
 * so a mirror cannot serve one arch's refs under another's name.  Every
 * download has a size limit: a summary is data from the network. */
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <ostree.h>

#include "store/http.h"
#include "store/ref.h"
#include "store/repo.h"
#include "store/store-error.h"
#include "store/summary.h"

/* Flathub's whole summary is some 10 MiB; its index well under 1 MiB. */
#define SUMMARY_MAX (128 * 1024 * 1024)
#define SUMMARY_SIG_MAX (1024 * 1024)
#define SUMMARY_INDEX_MAX (16 * 1024 * 1024)
#define SUMMARY_INDEX_TYPE "(a{s(ayaaya{sv})}a{sv})"
#define SHA256_LEN 32

struct _XaSummary
{
  gint ref_count;
  GBytes *bytes;
  GBytes *signature;   /* empty when the remote has none */
  GHashTable *refs;    /* ref → commit */
};

XaSummary *
xa_summary_ref (XaSummary *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
xa_summary_unref (XaSummary *self)
{
  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->signature, g_bytes_unref);
  g_clear_pointer (&self->refs, g_hash_table_unref);
  g_free (self);
}

/* The remote's connection settings, as libostree reads them. */
typedef struct
{
  XaHttpOptions http;
  char *url;
  char *strings[4];
} Remote;

static void
remote_clear (Remote *remote)
{
  g_free (remote->url);
  for (guint i = 0; i < G_N_ELEMENTS (remote->strings); i++)
    g_free (remote->strings[i]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Remote, remote_clear)

static gboolean
remote_init (Remote *remote,
             OstreeRepo *repo,
             const char *name,
             GError **error)
{
  static const char *const keys[G_N_ELEMENTS (remote->strings)] = {
    "proxy", "tls-ca-path", "tls-client-cert-path", "tls-client-key-path",
  };

  if (!ostree_repo_remote_get_url (repo, name, &remote->url, error) ||
      !ostree_repo_get_remote_boolean_option (repo, name, "tls-permissive", FALSE,
                                              &remote->http.tls_permissive, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (!ostree_repo_get_remote_option (repo, name, keys[i], NULL, &remote->strings[i], error))
      return FALSE;
  remote->http.proxy = remote->strings[0];
  remote->http.tls_ca_path = remote->strings[1];
  remote->http.tls_client_cert_path = remote->strings[2];
  remote->http.tls_client_key_path = remote->strings[3];
  return TRUE;
}

static gboolean
fetch (const Remote *remote,
       const char *file,
       gsize max_size,
       GCancellable *cancellable,
       GBytes **out_bytes,
       GError **error)
{
  g_autofree char *url = g_strconcat (remote->url,
                                      g_str_has_suffix (remote->url, "/") ? "" : "/",
                                      file, NULL);

  return xa_http_get (url, &remote->http, max_size, cancellable, out_bytes, error);
}

static GBytes *
gunzip (GBytes *compressed,
        gsize max_size,
        GCancellable *cancellable,
        GError **error)
{
  g_autoptr(GZlibDecompressor) decompressor =
    g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_bytes (compressed);
  g_autoptr(GInputStream) in = g_converter_input_stream_new (raw, G_CONVERTER (decompressor));
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 buffer[16384];

  for (;;)
    {
      gssize n = g_input_stream_read (in, buffer, sizeof buffer, cancellable, error);

      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      if ((gsize) n > max_size - out->len)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       _("larger than %" G_GSIZE_FORMAT " bytes uncompressed"), max_size);
          return NULL;
        }
      g_byte_array_append (out, buffer, n);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
has_sha256 (GBytes *bytes,
            GVariant *digest)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 computed[SHA256_LEN];
  gsize len = sizeof computed;
  gsize digest_len = 0;
  const guint8 *expected = g_variant_get_fixed_array (digest, &digest_len, 1);

  g_checksum_update (checksum, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_checksum_get_digest (checksum, computed, &len);
  return digest_len == SHA256_LEN && memcmp (computed, expected, SHA256_LEN) == 0;
}

/* The subset of @index for @arch, checked against its digest;
 * *@out_summary is NULL when the index has no such subset. */
static gboolean
fetch_indexed (const Remote *remote,
               GBytes *index_bytes,
               const char *arch,
               GCancellable *cancellable,
               GBytes **out_summary,
               GError **error)
{
  g_autoptr(GVariant) index =
    g_variant_new_from_bytes (G_VARIANT_TYPE (SUMMARY_INDEX_TYPE), index_bytes, FALSE);
  g_autoptr(GVariant) subsets = g_variant_get_child_value (index, 0);
  g_autoptr(GVariant) entry = g_variant_lookup_value (subsets, arch, G_VARIANT_TYPE ("(ayaaya{sv})"));
  g_autoptr(GVariant) digest = NULL;
  g_autoptr(GBytes) compressed = NULL;
  g_autoptr(GBytes) summary = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *file = NULL;

  if (entry == NULL)
    {
      *out_summary = NULL;
      return TRUE;
    }
  digest = g_variant_get_child_value (entry, 0);
  if (g_variant_n_children (digest) != SHA256_LEN)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("summary.idx: the digest of subset '%s' is not SHA-256"), arch);
      return FALSE;
    }
  hex = ostree_checksum_from_bytes (g_variant_get_data (digest));
  file = g_strconcat ("summaries/", hex, ".gz", NULL);
  if (!fetch (remote, file, SUMMARY_MAX, cancellable, &compressed, error))
    return FALSE;
  if (compressed == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("%s is named in summary.idx but missing"), file);
      return FALSE;
    }
  summary = gunzip (compressed, SUMMARY_MAX, cancellable, error);
  if (summary == NULL)
    {
      g_prefix_error (error, "%s: ", file);
      return FALSE;
    }
  if (!has_sha256 (summary, digest))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("%s does not match its digest in summary.idx"), file);
      return FALSE;
    }
  *out_summary = g_steal_pointer (&summary);
  return TRUE;
}

/* ref → commit from the summary's ref list; refs whose checksum is not
 * 32 bytes are left out, as libostree would refuse them. */
static GHashTable *
parse_refs (GBytes *bytes)
{
  g_autoptr(GVariant) summary =
    g_variant_new_from_bytes (OSTREE_SUMMARY_GVARIANT_FORMAT, bytes, FALSE);
  g_autoptr(GVariant) refs = g_variant_get_child_value (summary, 0);
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gsize n = g_variant_n_children (refs);

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) ref = g_variant_get_child_value (refs, i);
      g_autoptr(GVariant) checksum = NULL;
      const char *name = NULL;

      g_variant_get_child (ref, 0, "&s", &name);
      g_variant_get_child (ref, 1, "(t@aya{sv})", NULL, &checksum, NULL);
      if (g_variant_n_children (checksum) == SHA256_LEN)
        g_hash_table_insert (table, g_strdup (name),
                             ostree_checksum_from_bytes (g_variant_get_data (checksum)));
    }
  return g_steal_pointer (&table);
}

static gboolean
verify (OstreeRepo *repo,
        const char *name,
        XaSummary *summary,
        GCancellable *cancellable,
        GError **error)
{
  g_autoptr(OstreeGpgVerifyResult) result = NULL;

  if (g_bytes_get_size (summary->signature) == 0)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("the summary is not signed, and the remote verifies signatures"));
      return FALSE;
    }
  result = ostree_repo_verify_summary (repo, name, summary->bytes, summary->signature,
                                       cancellable, error);
  return result != NULL && ostree_gpg_verify_result_require_valid_signature (result, error);
}

static XaSummary *
fetch_summary (OstreeRepo *repo,
               const char *name,
               const char *arch,
               GCancellable *cancellable,
               GError **error)
{
  g_auto(Remote) remote = { 0, };
  g_autoptr(XaSummary) self = g_new0 (XaSummary, 1);
  g_autoptr(GBytes) index = NULL;
  gboolean gpg_verify = FALSE;

  self->ref_count = 1;
  if (!remote_init (&remote, repo, name, error) ||
      !ostree_repo_remote_get_gpg_verify_summary (repo, name, &gpg_verify, error))
    return NULL;

  /* The index carries no signature that libostree could check; a signed
   * remote is read from its whole summary. */
  if (!gpg_verify && !fetch (&remote, "summary.idx", SUMMARY_INDEX_MAX, cancellable, &index, error))
    return NULL;
  if (index != NULL &&
      !fetch_indexed (&remote, index, arch, cancellable, &self->bytes, error))
    return NULL;
  if (self->bytes == NULL &&
      !fetch (&remote, "summary", SUMMARY_MAX, cancellable, &self->bytes, error))
    return NULL;
  if (self->bytes == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("%s has no summary; is it an OSTree repository?"), remote.url);
      return NULL;
    }
  if (gpg_verify && !fetch (&remote, "summary.sig", SUMMARY_SIG_MAX, cancellable,
                            &self->signature, error))
    return NULL;
  if (self->signature == NULL)
    self->signature = g_bytes_new (NULL, 0);
  if (gpg_verify && !verify (repo, name, self, cancellable, error))
    return NULL;
  self->refs = parse_refs (self->bytes);
  return g_steal_pointer (&self);
}

#define CACHE_KEY "xa-summaries"

gboolean
xa_summary_enable_cache (XaInstallation *inst,
                         GCancellable *cancellable,
                         GError **error)
{
  OstreeRepo *repo = xa_installation_ensure_repo (inst, cancellable, error);

  if (repo == NULL)
    return FALSE;
  /* Kept on the repo object, which lives as long as the installation. */
  if (g_object_get_data (G_OBJECT (repo), CACHE_KEY) == NULL)
    g_object_set_data_full (G_OBJECT (repo), CACHE_KEY,
                            g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                   (GDestroyNotify) xa_summary_unref),
                            (GDestroyNotify) g_hash_table_unref);
  return TRUE;
}

XaSummary *
xa_summary_load (XaInstallation *inst,
                 const char *remote,
                 const char *arch,
                 GCancellable *cancellable,
                 GError **error)
{
  OstreeRepo *repo = xa_installation_ensure_repo (inst, cancellable, error);
  g_autofree char *key = NULL;
  GHashTable *cache;
  XaSummary *summary;

  if (repo == NULL)
    return NULL;
  if (arch == NULL)
    arch = xa_ref_get_default_arch ();
  cache = g_object_get_data (G_OBJECT (repo), CACHE_KEY);
  key = g_strconcat (remote, "/", arch, NULL);
  summary = cache != NULL ? g_hash_table_lookup (cache, key) : NULL;
  if (summary != NULL)
    return xa_summary_ref (summary);

  summary = fetch_summary (repo, remote, arch, cancellable, error);
  if (summary == NULL)
    {
      g_prefix_error (error, _("remote '%s': "), remote);
      xa_store_error_flatten (error != NULL ? *error : NULL);
      return NULL;
    }
  if (cache != NULL)
    g_hash_table_insert (cache, g_steal_pointer (&key), xa_summary_ref (summary));
  return summary;
}

GHashTable *
xa_summary_get_refs (const XaSummary *self)
{
  return self->refs;
}

void
xa_summary_add_pull_options (const XaSummary *self,
                             GVariantBuilder *options)
{
  g_variant_builder_add (options, "{sv}", "summary-bytes",
                         g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, self->bytes, FALSE));
  g_variant_builder_add (options, "{sv}", "summary-sig-bytes",
                         g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, self->signature, FALSE));
}
