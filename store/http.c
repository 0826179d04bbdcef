/* store/http.c — see http.h.  Trusts: libcurl for HTTP and TLS (the
 * library libostree itself fetches with on Debian).  Refuses a body over
 * the caller's limit as it arrives, so a hostile server cannot make us
 * buffer more; follows at most a few redirects, and only to http(s): a
 * remote on the network cannot send us to a file:// path of this machine. */
#include <curl/curl.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "store/http.h"

#define MAX_REDIRECTS 5
#define CONNECT_TIMEOUT_S 30L
/* A transfer slower than this for LOW_SPEED_TIME_S is given up. */
#define LOW_SPEED_LIMIT_BPS 100L
#define LOW_SPEED_TIME_S 60L

typedef struct
{
  GByteArray *body;
  gsize max_size;
  gboolean too_big;
  GCancellable *cancellable;
} Transfer;

static size_t
write_body (char *data,
            size_t size,
            size_t nmemb,
            void *user_data)
{
  Transfer *transfer = user_data;
  gsize len = size * nmemb;

  if (len > transfer->max_size - transfer->body->len)
    {
      transfer->too_big = TRUE;
      return 0;  /* curl stops with CURLE_WRITE_ERROR */
    }
  g_byte_array_append (transfer->body, (const guint8 *) data, len);
  return len;
}

static int
check_cancelled (void *user_data,
                 curl_off_t dltotal,
                 curl_off_t dlnow,
                 curl_off_t ultotal,
                 curl_off_t ulnow)
{
  Transfer *transfer = user_data;

  return g_cancellable_is_cancelled (transfer->cancellable) ? 1 : 0;
}

static gsize
init_curl_once (void)
{
  return curl_global_init (CURL_GLOBAL_DEFAULT) == CURLE_OK ? 1 : 2;
}

static void
set_options (CURL *curl,
             const char *url,
             const XaHttpOptions *options,
             Transfer *transfer,
             char *error_buffer)
{
  curl_easy_setopt (curl, CURLOPT_URL, url);
  curl_easy_setopt (curl, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt (curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (curl, CURLOPT_PROTOCOLS_STR, "http,https,file");
  curl_easy_setopt (curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt (curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt (curl, CURLOPT_MAXREDIRS, (long) MAX_REDIRECTS);
  curl_easy_setopt (curl, CURLOPT_CONNECTTIMEOUT, CONNECT_TIMEOUT_S);
  curl_easy_setopt (curl, CURLOPT_LOW_SPEED_LIMIT, LOW_SPEED_LIMIT_BPS);
  curl_easy_setopt (curl, CURLOPT_LOW_SPEED_TIME, LOW_SPEED_TIME_S);
  curl_easy_setopt (curl, CURLOPT_USERAGENT, "xdg-app");
  curl_easy_setopt (curl, CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt (curl, CURLOPT_WRITEDATA, transfer);
  curl_easy_setopt (curl, CURLOPT_XFERINFOFUNCTION, check_cancelled);
  curl_easy_setopt (curl, CURLOPT_XFERINFODATA, transfer);
  curl_easy_setopt (curl, CURLOPT_NOPROGRESS, 0L);
  if (options == NULL)
    return;
  if (options->proxy != NULL)
    curl_easy_setopt (curl, CURLOPT_PROXY, options->proxy);
  if (options->tls_ca_path != NULL)
    curl_easy_setopt (curl, CURLOPT_CAINFO, options->tls_ca_path);
  if (options->tls_client_cert_path != NULL)
    curl_easy_setopt (curl, CURLOPT_SSLCERT, options->tls_client_cert_path);
  if (options->tls_client_key_path != NULL)
    curl_easy_setopt (curl, CURLOPT_SSLKEY, options->tls_client_key_path);
  if (options->tls_permissive)
    {
      curl_easy_setopt (curl, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt (curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
}

gboolean
xa_http_get (const char *url,
             const XaHttpOptions *options,
             gsize max_size,
             GCancellable *cancellable,
             GBytes **out_bytes,
             GError **error)
{
  static gsize curl_ready = 0;
  g_autoptr(GByteArray) body = g_byte_array_new ();
  Transfer transfer = { body, max_size, FALSE, cancellable };
  char error_buffer[CURL_ERROR_SIZE] = "";
  CURLcode code;
  long status = 0;
  CURL *curl;

  if (g_once_init_enter (&curl_ready))
    g_once_init_leave (&curl_ready, init_curl_once ());
  curl = curl_ready == 1 ? curl_easy_init () : NULL;
  if (curl == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("cannot fetch %s: libcurl could not start"), url);
      return FALSE;
    }
  set_options (curl, url, options, &transfer, error_buffer);
  code = curl_easy_perform (curl);
  curl_easy_getinfo (curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup (curl);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (transfer.too_big)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("cannot fetch %s: larger than %" G_GSIZE_FORMAT " bytes"),
                   url, max_size);
      return FALSE;
    }
  if (code == CURLE_FILE_COULDNT_READ_FILE || status == 404 || status == 410)
    {
      *out_bytes = NULL;
      return TRUE;
    }
  if (code != CURLE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot fetch %s: %s"), url,
                   error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror (code));
      return FALSE;
    }
  /* file:// has no status; anything else must be a success. */
  if (status != 0 && (status < 200 || status > 299))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("cannot fetch %s: the server answered %ld"), url, status);
      return FALSE;
    }
  *out_bytes = g_byte_array_free_to_bytes (g_steal_pointer (&body));
  return TRUE;
}
