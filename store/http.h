/* store/http.h — fetches one small file of a remote (its summary, its
 * summary index) over http(s) or from file://, for the requests that
 * libostree has no call for. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How a remote is reached: its config's proxy and TLS keys. */
typedef struct
{
  const char *proxy;          /* NULL: none (curl's environment default) */
  const char *tls_ca_path;    /* NULL: the system's CAs */
  const char *tls_client_cert_path;
  const char *tls_client_key_path;
  gboolean    tls_permissive; /* do not verify the server's certificate */
} XaHttpOptions;

/* Fetches @url into *@out_bytes, at most @max_size bytes.  A file the
 * server does not have (404, 410, a missing file://) is not an error:
 * *@out_bytes is then NULL.  @options may be NULL. */
gboolean xa_http_get (const char           *url,
                      const XaHttpOptions  *options,
                      gsize                 max_size,
                      GCancellable         *cancellable,
                      GBytes              **out_bytes,
                      GError              **error);

G_END_DECLS
