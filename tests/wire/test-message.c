/* tests/wire/test-message.c — the wire module against GIO's own D-Bus
 * code: messages GDBus writes (both byte orders) parse and read back the
 * same; messages we build parse in GDBus; a table of malformed messages,
 * each refused; and the authentication handshake both ways. */
#include <string.h>

#include <gio/gio.h>

#include "wire/builder.h"
#include "wire/message.h"
#include "wire/reader.h"
#include "wire/sasl.h"

static GBytes *
gdbus_blob (GDBusMessage *message,
            GDBusMessageByteOrder order)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  guchar *blob;

  g_dbus_message_set_byte_order (message, order);
  if (g_dbus_message_get_serial (message) == 0)
    g_dbus_message_set_serial (message, 7);
  blob = g_dbus_message_to_blob (message, &len, G_DBUS_CAPABILITY_FLAGS_UNIX_FD_PASSING, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (blob, len);
}

static void
parse_ok (GBytes *bytes,
          guint n_fds,
          XaWireHeader *out)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gsize total = 0;

  g_assert_true (xa_wire_peek_length (data, len, XA_WIRE_MAX_MESSAGE, &total, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (total, ==, len);
  xa_wire_parse (data, len, n_fds, out, &error);
  g_assert_no_error (error);
}

static void
test_gdbus_messages_parse (void)
{
  static const GDBusMessageByteOrder orders[] = {
    G_DBUS_MESSAGE_BYTE_ORDER_LITTLE_ENDIAN, G_DBUS_MESSAGE_BYTE_ORDER_BIG_ENDIAN,
  };

  for (gsize i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      g_autoptr(GDBusMessage) m =
        g_dbus_message_new_method_call ("org.example.Peer", "/org/example/Obj",
                                        "org.example.Iface", "Method");
      g_autoptr(GBytes) blob = NULL;
      XaWireHeader h;
      XaWireReader r;
      XaWireReader array;
      XaWireReader entry;
      XaWireReader value;
      const char *s;
      guint32 u;
      gboolean b;

      g_dbus_message_set_body (m, g_variant_new_parsed ("('hello', uint32 42, true, "
                                                        "['a', 'bc'], {'k': <'v'>}, "
                                                        "(byte 1, int64 -2, 3.5), objectpath '/x', "
                                                        "signature 'a{sv}', <<[int16 1]>>)"));
      g_dbus_message_set_sender (m, ":1.5");
      blob = gdbus_blob (m, orders[i]);
      parse_ok (blob, 0, &h);
      g_assert_cmpint (h.big_endian, ==, orders[i] == G_DBUS_MESSAGE_BYTE_ORDER_BIG_ENDIAN);
      g_assert_cmpint (h.type, ==, XA_WIRE_METHOD_CALL);
      g_assert_cmpuint (h.serial, ==, 7);
      g_assert_cmpstr (h.destination, ==, "org.example.Peer");
      g_assert_cmpstr (h.path, ==, "/org/example/Obj");
      g_assert_cmpstr (h.interface, ==, "org.example.Iface");
      g_assert_cmpstr (h.member, ==, "Method");
      g_assert_cmpstr (h.sender, ==, ":1.5");
      g_assert_cmpstr (h.signature, ==, "subasa{sv}(yxd)ogv");

      g_assert_true (xa_wire_reader_init (&r, g_bytes_get_data (blob, NULL), &h));
      g_assert_true (xa_wire_reader_read_string (&r, &s));
      g_assert_cmpstr (s, ==, "hello");
      g_assert_false (xa_wire_reader_read_string (&r, &s));
      g_assert_true (xa_wire_reader_read_uint32 (&r, &u));
      g_assert_cmpuint (u, ==, 42);
      g_assert_true (xa_wire_reader_read_boolean (&r, &b));
      g_assert_true (b);
      g_assert_true (xa_wire_reader_enter_array (&r, &array));
      g_assert_true (xa_wire_reader_read_string (&array, &s));
      g_assert_cmpstr (s, ==, "a");
      g_assert_true (xa_wire_reader_read_string (&array, &s));
      g_assert_cmpstr (s, ==, "bc");
      g_assert_false (xa_wire_reader_read_string (&array, &s));
      g_assert_true (xa_wire_reader_enter_array (&r, &array));
      g_assert_true (xa_wire_reader_enter_struct (&array, &entry));
      g_assert_true (xa_wire_reader_read_string (&entry, &s));
      g_assert_cmpstr (s, ==, "k");
      g_assert_true (xa_wire_reader_enter_variant (&entry, &value));
      g_assert_true (xa_wire_reader_read_string (&value, &s));
      g_assert_cmpstr (s, ==, "v");
      g_assert_cmpint (xa_wire_reader_peek_type (&array), ==, '\0');
      g_assert_true (xa_wire_reader_skip (&r));   /* the struct */
      g_assert_true (xa_wire_reader_read_string (&r, &s));
      g_assert_cmpstr (s, ==, "/x");
      g_assert_true (xa_wire_reader_read_string (&r, &s));
      g_assert_cmpstr (s, ==, "a{sv}");
      g_assert_true (xa_wire_reader_skip (&r));
      g_assert_cmpint (xa_wire_reader_peek_type (&r), ==, '\0');
    }
}

static void
test_built_messages_parse_in_gdbus (void)
{
  g_autoptr(XaWireBuilder) b =
    xa_wire_builder_new_method_call ("org.example.Peer", "/", "org.example.Iface", "Call");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GDBusMessage) m = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) expected = NULL;
  const guint8 id[] = { 1, 2, 3 };
  XaWireHeader h;
  gsize len = 0;
  const guint8 *data;

  xa_wire_builder_add_string (b, "app");
  xa_wire_builder_add_handle (b, 0);
  xa_wire_builder_set_unix_fds (b, 1);
  xa_wire_builder_open_array (b, "{sv}");
  xa_wire_builder_open_struct (b);
  xa_wire_builder_add_string (b, "bytes");
  xa_wire_builder_open_variant (b, "ay");
  xa_wire_builder_add_bytes (b, id, sizeof id);
  xa_wire_builder_close_variant (b);
  xa_wire_builder_close_struct (b);
  xa_wire_builder_open_struct (b);
  xa_wire_builder_add_string (b, "when");
  xa_wire_builder_open_variant (b, "x");
  xa_wire_builder_add_int64 (b, -5);
  xa_wire_builder_close_variant (b);
  xa_wire_builder_close_struct (b);
  xa_wire_builder_close_array (b);
  xa_wire_builder_open_struct (b);
  xa_wire_builder_add_byte (b, 9);
  xa_wire_builder_add_boolean (b, TRUE);
  xa_wire_builder_close_struct (b);
  bytes = xa_wire_builder_finish (b, 99);

  parse_ok (bytes, 1, &h);
  g_assert_cmpstr (h.signature, ==, "sha{sv}(yb)");
  data = g_bytes_get_data (bytes, &len);
  m = g_dbus_message_new_from_blob ((guchar *) data, len, G_DBUS_CAPABILITY_FLAGS_UNIX_FD_PASSING, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_dbus_message_get_serial (m), ==, 99);
  g_assert_cmpstr (g_dbus_message_get_member (m), ==, "Call");
  expected = g_variant_new_parsed ("('app', handle 0, {'bytes': <[byte 1, 2, 3]>, "
                                   "'when': <int64 -5>}, (byte 9, true))");
  g_assert_true (g_variant_equal (g_dbus_message_get_body (m), expected));
}

static GBytes *
small_call (void)
{
  g_autoptr(XaWireBuilder) b =
    xa_wire_builder_new_method_call ("org.example.Peer", "/p", "org.example.I", "M");

  xa_wire_builder_add_string (b, "abc");
  xa_wire_builder_add_boolean (b, TRUE);
  return xa_wire_builder_finish (b, 5);
}

/* @message with the byte at @offset set to @value. */
static GBytes *
patched (GBytes *message,
         gsize offset,
         guint8 value)
{
  GByteArray *copy = g_byte_array_new ();
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (message, &len);

  g_assert_cmpuint (offset, <, len);
  g_byte_array_append (copy, data, len);
  copy->data[offset] = value;
  return g_byte_array_free_to_bytes (copy);
}

static gsize
find (GBytes *message,
      const char *needle,
      gsize needle_len)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (message, &len);
  const guint8 *at = memmem (data, len, needle, needle_len);

  g_assert_nonnull (at);
  return at - data;
}

static void
refused (GBytes *message,
         guint n_fds,
         const char *what)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (message, &len);
  XaWireHeader h;

  g_test_message ("%s", what);
  g_assert_false (xa_wire_parse (data, len, n_fds, &h, &error));
  g_assert_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID);
  g_test_message ("  -> %s", error->message);
  g_assert_nonnull (strstr (error->message, "offset"));
}

static void
test_malformed_messages_are_refused (void)
{
  g_autoptr(GBytes) good = small_call ();
  gsize body = 0;
  gsize bool_at;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (good, &len);
  XaWireHeader h;

  parse_ok (good, 0, &h);
  body = h.body_offset;
  bool_at = body + 4 + 3 + 1;   /* "abc" NUL, then aligned to 4 */
  {
    g_autoptr(GBytes) m = patched (good, 1, 7);
    refused (m, 0, "unknown message type");
  }
  {
    g_autoptr(GBytes) m = patched (good, 3, 2);
    refused (m, 0, "protocol version 2");
  }
  {
    g_autoptr(GBytes) m = patched (good, 8, 0);
    g_autoptr(GBytes) m2 = patched (m, 9, 0);
    refused (m2, 0, "serial 0");
  }
  {
    g_autoptr(GBytes) m = patched (good, bool_at, 2);
    refused (m, 0, "boolean 2");
  }
  {
    g_autoptr(GBytes) m = patched (good, body + 5, 0);
    refused (m, 0, "NUL inside a string");
  }
  {
    g_autoptr(GBytes) m = patched (good, body + 5, 0xff);
    refused (m, 0, "string that is not UTF-8");
  }
  {
    g_autoptr(GBytes) m = patched (good, body + 4 + 3, 'x');
    refused (m, 0, "string without its NUL");
  }
  {
    g_autoptr(GBytes) m = patched (good, find (good, "/p", 2) + 1, '-');
    refused (m, 0, "bad object path");
  }
  {
    g_autoptr(GBytes) m = patched (good, find (good, "org.example.I", 13) + 4, '.');
    refused (m, 0, "empty element in an interface name");
  }
  {
    g_autoptr(GBytes) m = patched (good, find (good, "sb", 2) + 1, 'z');
    refused (m, 0, "unknown type in the signature");
  }
  {
    /* The body's signature says one value more than there is. */
    g_autoptr(GBytes) m = patched (good, find (good, "sb", 2) + 1, 's');
    refused (m, 0, "body shorter than its signature");
  }
  {
    /* Truncated: one byte less than the header says. */
    g_autoptr(GBytes) m = g_bytes_new (data, len - 1);
    refused (m, 0, "truncated");
  }
  {
    /* A padding byte between the header and the body. */
    gsize pad_at = body - 1;
    g_autoptr(GBytes) m = data[pad_at] == 0 ? patched (good, pad_at, 1) : NULL;

    if (m != NULL)
      refused (m, 0, "non-zero padding");
  }
}

static void
test_structure_limits (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) deep = g_string_new (NULL);

  /* 33 nested arrays: one past the limit. */
  for (int i = 0; i < 33; i++)
    g_string_append_c (deep, 'a');
  g_string_append_c (deep, 'y');
  g_assert_false (xa_wire_signature_is_valid (deep->str, deep->len));
  g_assert_true (xa_wire_signature_is_valid (deep->str + 1, deep->len - 1));
  g_assert_false (xa_wire_signature_is_valid ("a{vs}", 5));   /* key not basic */
  g_assert_false (xa_wire_signature_is_valid ("{ss}", 4));    /* entry outside an array */
  g_assert_false (xa_wire_signature_is_valid ("()", 2));
  g_assert_false (xa_wire_signature_is_valid ("(s", 2));
  g_assert_false (xa_wire_signature_is_valid ("a", 1));
  g_assert_true (xa_wire_signature_is_valid ("a{sv}(a(ii)s)", 13));

  /* A variant holding a variant holding … 70 deep: refused. */
  {
    g_autoptr(XaWireBuilder) b = xa_wire_builder_new_signal ("/", "org.example.I", "S");
    g_autoptr(GBytes) bytes = NULL;
    XaWireHeader h;
    gsize len = 0;
    const guint8 *data;

    for (int i = 0; i < 70; i++)
      xa_wire_builder_open_variant (b, i == 69 ? "u" : "v");
    xa_wire_builder_add_uint32 (b, 1);
    for (int i = 0; i < 70; i++)
      xa_wire_builder_close_variant (b);
    bytes = xa_wire_builder_finish (b, 1);
    data = g_bytes_get_data (bytes, &len);
    g_assert_false (xa_wire_parse (data, len, 0, &h, &error));
    g_assert_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID);
  }
}

static void
test_fd_index_beyond_unix_fds (void)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_call ("org.example.P", "/", "org.example.I", "M");
  g_autoptr(GBytes) bytes = NULL;
  XaWireHeader h;

  xa_wire_builder_add_handle (b, 1);
  xa_wire_builder_set_unix_fds (b, 1);
  bytes = xa_wire_builder_finish (b, 3);
  refused (bytes, 1, "fd index 1 with UNIX_FDS 1");
  g_clear_pointer (&bytes, g_bytes_unref);

  xa_wire_builder_free (g_steal_pointer (&b));
  b = xa_wire_builder_new_method_call ("org.example.P", "/", "org.example.I", "M");
  xa_wire_builder_add_handle (b, 0);
  xa_wire_builder_set_unix_fds (b, 2);
  bytes = xa_wire_builder_finish (b, 3);
  refused (bytes, 1, "UNIX_FDS 2 with one fd received");
  parse_ok (bytes, 2, &h);
}

static void
test_oversized_is_refused_from_the_first_bytes (void)
{
  g_autoptr(GError) error = NULL;
  guint8 header[16] = { 'l', 1, 0, 1, 0, 0, 0, 0x10, 1, 0, 0, 0, 0, 0, 0, 0 };
  gsize total = 0;

  /* A body of 256 MiB. */
  g_assert_false (xa_wire_peek_length (header, sizeof header, XA_WIRE_MAX_MESSAGE, &total, &error));
  g_assert_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_TOO_LARGE);
  g_clear_error (&error);
  header[0] = 'x';
  g_assert_false (xa_wire_peek_length (header, sizeof header, XA_WIRE_MAX_MESSAGE, &total, &error));
  g_assert_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID);
}

/* ---------------------------------------------------------------- SASL */

static XaSaslStatus
feed_server (XaSaslServer *server,
             const char *bytes,
             gsize len,
             GString *replies,
             gsize *out_consumed)
{
  g_autoptr(GByteArray) reply = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  XaSaslStatus status;

  status = xa_sasl_server_feed (server, (const guint8 *) bytes, len, out_consumed, reply, &error);
  g_string_append_len (replies, (const char *) reply->data, reply->len);
  return status;
}

static void
test_sasl_gdbus_pipelined (void)
{
  /* What GDBus sends for uid 0, all at once, and a message after it. */
  static const char bytes[] = "\0AUTH EXTERNAL 30\r\nNEGOTIATE_UNIX_FD\r\nBEGIN\r\nl\1\0\1";
  g_autoptr(XaSaslServer) server = xa_sasl_server_new (0, TRUE);
  g_autoptr(GString) replies = g_string_new (NULL);
  gsize consumed = 0;

  g_assert_cmpint (feed_server (server, bytes, sizeof bytes - 1, replies, &consumed), ==, XA_SASL_DONE);
  g_assert_cmpuint (consumed, ==, sizeof bytes - 1 - 4);
  g_assert_true (g_str_has_prefix (replies->str, "OK "));
  g_assert_nonnull (strstr (replies->str, "\r\nAGREE_UNIX_FD\r\n"));
  g_assert_true (xa_sasl_server_get_unix_fds (server));
}

static void
test_sasl_refusals (void)
{
  static const struct { const char *bytes; gsize len; const char *reply; } cases[] = {
    { "\0AUTH EXTERNAL 31303030\r\n", 25, "REJECTED EXTERNAL" },     /* uid 1000, peer is 0 */
    { "\0AUTH DBUS_COOKIE_SHA1 30\r\n", 27, "REJECTED EXTERNAL" },
    { "\0AUTH EXTERNAL zz\r\n", 19, "REJECTED EXTERNAL" },
    { "\0BEGIN\r\n", 8, "ERROR" },
    { "\0NEGOTIATE_UNIX_FD\r\n", 20, "ERROR" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(XaSaslServer) server = xa_sasl_server_new (0, TRUE);
      g_autoptr(GString) replies = g_string_new (NULL);
      gsize consumed = 0;

      g_assert_cmpint (feed_server (server, cases[i].bytes, cases[i].len, replies, &consumed),
                       ==, XA_SASL_CONTINUE);
      g_assert_true (g_str_has_prefix (replies->str, cases[i].reply));
    }

  /* No NUL first, an endless line: the connection ends. */
  {
    g_autoptr(XaSaslServer) server = xa_sasl_server_new (0, TRUE);
    g_autoptr(GString) replies = g_string_new (NULL);
    g_autofree char *long_line = g_malloc0 (20000);
    gsize consumed = 0;

    g_assert_cmpint (feed_server (server, "AUTH", 4, replies, &consumed), ==, XA_SASL_FAILED);
    g_clear_pointer (&server, xa_sasl_server_free);
    server = xa_sasl_server_new (0, TRUE);
    memset (long_line + 1, 'A', 19999);
    g_assert_cmpint (feed_server (server, long_line, 20000, replies, &consumed), ==, XA_SASL_FAILED);
  }
}

static void
test_sasl_client_and_server_agree (void)
{
  g_autoptr(XaSaslServer) server = xa_sasl_server_new (1234, FALSE);
  g_autoptr(XaSaslClient) client = xa_sasl_client_new (1234, TRUE);
  g_autoptr(GByteArray) to_server = g_byte_array_new ();
  g_autoptr(GByteArray) to_client = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  XaSaslStatus s_status = XA_SASL_CONTINUE;
  XaSaslStatus c_status = XA_SASL_CONTINUE;

  xa_sasl_client_start (client, to_server);
  for (int round = 0; round < 5 && (s_status != XA_SASL_DONE || c_status != XA_SASL_DONE); round++)
    {
      gsize consumed = 0;

      if (to_server->len > 0 && s_status != XA_SASL_DONE)
        {
          s_status = xa_sasl_server_feed (server, to_server->data, to_server->len, &consumed,
                                          to_client, &error);
          g_assert_no_error (error);
          g_byte_array_remove_range (to_server, 0, consumed);
        }
      if (to_client->len > 0 && c_status != XA_SASL_DONE)
        {
          c_status = xa_sasl_client_feed (client, to_client->data, to_client->len, &consumed,
                                          to_server, &error);
          g_assert_no_error (error);
          g_byte_array_remove_range (to_client, 0, consumed);
        }
    }
  g_assert_cmpint (s_status, ==, XA_SASL_DONE);
  g_assert_cmpint (c_status, ==, XA_SASL_DONE);
  /* The server offered no fd passing; both know it. */
  g_assert_false (xa_sasl_client_get_unix_fds (client));
  g_assert_false (xa_sasl_server_get_unix_fds (server));
}

/* Names as the specification has them, next to GLib's own checks. */
static void
test_names (void)
{
  g_autofree char *long_element = g_strnfill (253, 'a');
  g_autofree char *name_255 = g_strconcat ("a.", long_element, NULL);
  g_autofree char *name_256 = g_strconcat ("a.b", long_element, NULL);
  g_autofree char *digits = g_strnfill (253, '2');
  g_autofree char *unique_255 = g_strconcat (":1.", digits + 1, NULL);
  g_autofree char *unique_256 = g_strconcat (":1.", digits, NULL);
  const char *members[] = { "Ping", "_x", "a1", "Get_All", "", "1a", "a.b", "a-b", "a b", "é" };
  const char *interfaces[] = { "org.example.X", "a.b", "a_.b1", "org", "a..b", ".a.b", "a.b.", "a.1b",
                               "a-b.c", "" };
  const char *names[] = { "org.example.X", "a-b.c", ":1.7", ":1.7.x", ":a-1.0", "org", ":1",
                          "a.1b", "a..b", "" };

  for (gsize i = 0; i < G_N_ELEMENTS (members); i++)
    g_assert_cmpint (xa_wire_is_member (members[i]), ==, g_dbus_is_member_name (members[i]));
  for (gsize i = 0; i < G_N_ELEMENTS (interfaces); i++)
    g_assert_cmpint (xa_wire_is_interface (interfaces[i]), ==, g_dbus_is_interface_name (interfaces[i]));
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (xa_wire_is_bus_name (names[i]), ==, g_dbus_is_name (names[i]));

  /* GLib lets an empty element through here; the specification does not. */
  g_assert_false (xa_wire_is_bus_name (":.1"));
  g_assert_true (xa_wire_is_interface (name_255));
  g_assert_false (xa_wire_is_interface (name_256));
  g_assert_true (xa_wire_is_bus_name (name_255));
  g_assert_false (xa_wire_is_bus_name (name_256));
  g_assert_true (xa_wire_is_bus_name (unique_255));
  g_assert_false (xa_wire_is_bus_name (unique_256));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/wire/message/gdbus-messages-parse", test_gdbus_messages_parse);
  g_test_add_func ("/wire/message/built-messages-parse-in-gdbus", test_built_messages_parse_in_gdbus);
  g_test_add_func ("/wire/message/malformed-messages-are-refused", test_malformed_messages_are_refused);
  g_test_add_func ("/wire/message/structure-limits", test_structure_limits);
  g_test_add_func ("/wire/message/fd-index-beyond-unix-fds", test_fd_index_beyond_unix_fds);
  g_test_add_func ("/wire/message/oversized-is-refused-from-the-first-bytes",
                   test_oversized_is_refused_from_the_first_bytes);
  g_test_add_func ("/wire/message/names", test_names);
  g_test_add_func ("/wire/sasl/gdbus-pipelined", test_sasl_gdbus_pipelined);
  g_test_add_func ("/wire/sasl/refusals", test_sasl_refusals);
  g_test_add_func ("/wire/sasl/client-and-server-agree", test_sasl_client_and_server_agree);
  return g_test_run ();
}
