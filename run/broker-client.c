/* run/broker-client.c — see broker-client.h.  Trusts: the session bus
 * the caller names (the user's own) and what the broker answers on it;
 * checks that the socket paths it gets are absolute. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/autofd.h"
#include "run/broker-client.h"
#include "wire/address.h"
#include "wire/builder.h"
#include "wire/message.h"
#include "wire/reader.h"
#include "wire/sasl.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#define BROKER_NAME "org.freedesktop.XdgApp.Broker"
#define BROKER_PATH "/org/freedesktop/XdgApp/Broker"
#define BROKER_IFACE "org.freedesktop.XdgApp.Broker1"
/* How long a bus may take to answer, and a started broker to appear. */
#define REPLY_TIMEOUT_MS 25000
#define START_TIMEOUT_MS 5000
#define MAX_REPLY (1024 * 1024)

typedef struct
{
  int         fd;
  GByteArray *in;
  guint32     serial;
} Conn;

static void
conn_clear (Conn *conn)
{
  if (conn->fd >= 0)
    (void) close (conn->fd);
  g_clear_pointer (&conn->in, g_byte_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Conn, conn_clear)

static gboolean
write_all (Conn *conn,
           const guint8 *data,
           gsize len,
           int pass_fd,
           GError **error)
{
  union { struct cmsghdr align; char buf[CMSG_SPACE (sizeof (int))]; } control;

  while (len > 0)
    {
      struct iovec iov = { (void *) data, len };
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
      ssize_t n;

      if (pass_fd >= 0)
        {
          struct cmsghdr *cmsg;

          msg.msg_control = control.buf;
          msg.msg_controllen = sizeof control.buf;
          cmsg = CMSG_FIRSTHDR (&msg);
          cmsg->cmsg_level = SOL_SOCKET;
          cmsg->cmsg_type = SCM_RIGHTS;
          cmsg->cmsg_len = CMSG_LEN (sizeof (int));
          memcpy (CMSG_DATA (cmsg), &pass_fd, sizeof (int));
        }
      n = sendmsg (conn->fd, &msg, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                       _("session bus: %s"), g_strerror (errno));
          return FALSE;
        }
      pass_fd = -1;
      data += n;
      len -= n;
    }
  return TRUE;
}

/* Reads more bytes, waiting at most @timeout_ms. */
static gboolean
read_more (Conn *conn,
           int timeout_ms,
           GError **error)
{
  struct pollfd pfd = { conn->fd, POLLIN, 0 };
  guint8 buffer[4096];
  ssize_t n;
  int ready;

  do
    ready = poll (&pfd, 1, timeout_ms);
  while (ready < 0 && errno == EINTR);
  if (ready == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_AGAIN, _("session bus: no answer"));
      return FALSE;
    }
  n = read (conn->fd, buffer, sizeof buffer);
  if (n <= 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, _("session bus: connection closed"));
      return FALSE;
    }
  if (conn->in->len + n > MAX_REPLY)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC, _("session bus: answer too long"));
      return FALSE;
    }
  g_byte_array_append (conn->in, buffer, n);
  return TRUE;
}

static gboolean
authenticate (Conn *conn,
              GError **error)
{
  g_autoptr(XaSaslClient) sasl = xa_sasl_client_new (getuid (), TRUE);
  g_autoptr(GByteArray) out = g_byte_array_new ();

  xa_sasl_client_start (sasl, out);
  for (;;)
    {
      gsize consumed = 0;
      XaSaslStatus status;

      if (out->len > 0 && !write_all (conn, out->data, out->len, -1, error))
        return FALSE;
      g_byte_array_set_size (out, 0);
      if (!read_more (conn, REPLY_TIMEOUT_MS, error))
        return FALSE;
      status = xa_sasl_client_feed (sasl, conn->in->data, conn->in->len, &consumed, out, error);
      g_byte_array_remove_range (conn->in, 0, consumed);
      if (status == XA_SASL_FAILED)
        return FALSE;
      if (status == XA_SASL_DONE)
        break;
    }
  if (!write_all (conn, out->data, out->len, -1, error))
    return FALSE;
  if (!xa_sasl_client_get_unix_fds (sasl))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSYS,
                   _("session bus: it does not pass file descriptors"));
      return FALSE;
    }
  return TRUE;
}

/* Sends @message and waits for its reply, skipping signals; the reply is
 * checked and left at the front of conn->in with its header in @out. */
static gboolean
call (Conn *conn,
      GBytes *message,
      int pass_fd,
      XaWireHeader *out,
      GError **error)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (message, &len);
  guint32 serial = conn->serial;

  if (!write_all (conn, data, len, pass_fd, error))
    return FALSE;
  for (;;)
    {
      gsize total = 0;

      if (conn->in->len >= XA_WIRE_FIXED_HEADER_SIZE)
        {
          if (!xa_wire_peek_length (conn->in->data, conn->in->len, MAX_REPLY, &total, error))
            return FALSE;
          if (conn->in->len >= total)
            {
              if (!xa_wire_parse (conn->in->data, total, 0, out, error))
                return FALSE;
              if ((out->type == XA_WIRE_METHOD_RETURN || out->type == XA_WIRE_ERROR_REPLY) &&
                  out->reply_serial == serial)
                return TRUE;
              g_byte_array_remove_range (conn->in, 0, total);
              continue;
            }
        }
      if (!read_more (conn, REPLY_TIMEOUT_MS, error))
        return FALSE;
    }
}

/* "name: message" of an error reply, for the user. */
static char *
dup_error_text (Conn *conn,
                const XaWireHeader *h)
{
  XaWireReader reader;
  const char *text = NULL;

  xa_wire_reader_init (&reader, conn->in->data, h);
  if (!xa_wire_reader_read_string (&reader, &text))
    text = "";
  return g_strdup_printf ("%s: %s", h->error_name, text);
}

static gboolean
hello (Conn *conn,
       GError **error)
{
  g_autoptr(XaWireBuilder) b =
    xa_wire_builder_new_method_call ("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                     "org.freedesktop.DBus", "Hello");
  g_autoptr(GBytes) message = xa_wire_builder_finish (b, ++conn->serial);
  XaWireHeader h;

  if (!call (conn, message, -1, &h, error))
    return FALSE;
  if (h.type == XA_WIRE_ERROR_REPLY)
    {
      g_autofree char *text = dup_error_text (conn, &h);

      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, _("session bus: %s"), text);
      return FALSE;
    }
  g_byte_array_set_size (conn->in, 0);
  return TRUE;
}

/* The broker's answer: instance id and sockets. */
static gboolean
read_instance (Conn *conn,
               const XaWireHeader *h,
               XaBrokerInstance *out,
               GError **error)
{
  XaWireReader reader;
  XaWireReader dict;
  XaWireReader entry;
  XaWireReader value;
  const char *id = NULL;
  const char *key;

  xa_wire_reader_init (&reader, conn->in->data, h);
  if (g_strcmp0 (h->signature, "sa{sv}") != 0 ||
      !xa_wire_reader_read_string (&reader, &id) ||
      !xa_wire_reader_enter_array (&reader, &dict))
    goto invalid;
  while (xa_wire_reader_enter_struct (&dict, &entry))
    {
      const guint8 *bytes;
      gsize len;
      char **slot;

      if (!xa_wire_reader_read_string (&entry, &key) ||
          !xa_wire_reader_enter_variant (&entry, &value))
        goto invalid;
      slot = strcmp (key, "session-bus") == 0 ? &out->session_bus
             : strcmp (key, "system-bus") == 0 ? &out->system_bus : NULL;
      if (slot == NULL)
        continue;   /* a newer broker's: not for us */
      if (!xa_wire_reader_read_bytes (&value, &bytes, &len) ||
          len == 0 || bytes[0] != '/' || memchr (bytes, '\0', len) != NULL)
        goto invalid;
      g_free (*slot);
      *slot = g_strndup ((const char *) bytes, len);
    }
  if (out->session_bus == NULL)
    goto invalid;
  out->instance_id = g_strdup (id);
  return TRUE;

invalid:
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("the broker's answer is not understood"));
  return FALSE;
}

static GBytes *
build_register (Conn *conn,
                const char *app_id,
                const char *context,
                gboolean auto_start)
{
  g_autoptr(XaWireBuilder) b =
    xa_wire_builder_new_method_call (BROKER_NAME, BROKER_PATH, BROKER_IFACE, "RegisterInstance");

  if (!auto_start)
    xa_wire_builder_set_flags (b, XA_WIRE_FLAG_NO_AUTO_START);
  xa_wire_builder_add_string (b, app_id);
  xa_wire_builder_add_string (b, context);
  xa_wire_builder_add_handle (b, 0);
  xa_wire_builder_set_unix_fds (b, 1);
  xa_wire_builder_open_array (b, "{sv}");
  xa_wire_builder_close_array (b);
  return xa_wire_builder_finish (b, ++conn->serial);
}

static gboolean
is_absent (const XaWireHeader *h)
{
  return h->type == XA_WIRE_ERROR_REPLY &&
         (g_strcmp0 (h->error_name, "org.freedesktop.DBus.Error.ServiceUnknown") == 0 ||
          g_strcmp0 (h->error_name, "org.freedesktop.DBus.Error.NameHasNoOwner") == 0);
}

/* Starts the broker outside this process tree (GLib double-forks). */
static gboolean
spawn_broker (const char *program,
              GError **error)
{
  const char *argv[] = { program, NULL };

  return g_spawn_async (NULL, (char **) argv, NULL,
                        G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                        NULL, NULL, NULL, error);
}

gboolean
xa_broker_client_register (const char *bus_address,
                           const char *app_id,
                           const char *context,
                           const char *broker_program,
                           XaBrokerInstance *out_instance,
                           GError **error)
{
  g_auto(Conn) conn = { -1, g_byte_array_new (), 0 };
  xa_autofd int pid_fd = -1;
  gint64 deadline = 0;
  XaWireHeader h;

  conn.fd = xa_wire_address_connect (bus_address, error);
  if (conn.fd < 0 || !authenticate (&conn, error) || !hello (&conn, error))
    return FALSE;
  pid_fd = syscall (SYS_pidfd_open, getpid (), 0);
  if (pid_fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   _("pidfd_open: %s"), g_strerror (errno));
      return FALSE;
    }

  for (gboolean auto_start = TRUE;; auto_start = FALSE)
    {
      g_autoptr(GBytes) message = build_register (&conn, app_id, context, auto_start);

      if (!call (&conn, message, pid_fd, &h, error))
        return FALSE;
      if (!is_absent (&h) || broker_program == NULL)
        break;
      /* Not activatable here: start it ourselves, then wait for it. */
      if (deadline == 0)
        {
          if (!spawn_broker (broker_program, error))
            return FALSE;
          deadline = g_get_monotonic_time () + START_TIMEOUT_MS * 1000;
        }
      else if (g_get_monotonic_time () > deadline)
        break;
      g_byte_array_set_size (conn.in, 0);
      g_usleep (10 * 1000);
    }
  if (h.type == XA_WIRE_ERROR_REPLY)
    {
      g_autofree char *text = dup_error_text (&conn, &h);

      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("the broker refused: %s"), text);
      return FALSE;
    }
  return read_instance (&conn, &h, out_instance, error);
}

void
xa_broker_instance_clear (XaBrokerInstance *instance)
{
  g_clear_pointer (&instance->instance_id, g_free);
  g_clear_pointer (&instance->session_bus, g_free);
  g_clear_pointer (&instance->system_bus, g_free);
}
