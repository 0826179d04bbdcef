/* tests/broker/test-bus-filter.c — the filter's own bookkeeping, without
 * a bus: after a client's Hello nothing else of the client may go out
 * until the bus has answered (so that the broker learns the unique name
 * before any call from it can reach a portal); a Hello that asks for no
 * answer drops the client; the calls in flight are counted (the proxy
 * batches a client that has many). */
#include <glib.h>

#include "broker/bus-filter.h"
#include "wire/builder.h"

typedef struct
{
  GBytes      *bytes;
  XaWireHeader header;
} Message;

static void
message_clear (Message *m)
{
  g_clear_pointer (&m->bytes, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Message, message_clear)

static void
message_parse (Message *m,
               GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  m->bytes = bytes;
  g_assert_true (xa_wire_parse (data, len, 0, &m->header, &error));
  g_assert_no_error (error);
}

static void
make_hello (Message *m,
            guint8 flags)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_call ("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                "org.freedesktop.DBus", "Hello");

  xa_wire_builder_set_flags (b, flags);
  message_parse (m, xa_wire_builder_finish (b, 1));
}

static XaBusFilter *
new_filter (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();
  g_autoptr(GError) error = NULL;

  /* No NAME.* rule: the filter has no other reason to hold the client. */
  g_assert_true (xa_bus_rules_add_policy (rules, "org.example.Talk", XA_BUS_POLICY_TALK, &error));
  return xa_bus_filter_new (rules);
}

static void
test_client_waits_for_hello_answer (void)
{
  g_autoptr(XaBusFilter) filter = new_filter ();
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_return (1);
  g_auto(Message) hello = { 0, };
  g_auto(Message) answer = { 0, };
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (xa_bus_filter_is_holding_client (filter));
  make_hello (&hello, 0);
  g_assert_cmpint (xa_bus_filter_from_client (filter, g_bytes_get_data (hello.bytes, NULL), &hello.header,
                                              &out, &error), ==, XA_BUS_FILTER_FORWARD);
  g_assert_true (xa_bus_filter_is_holding_client (filter));
  g_assert_null (xa_bus_filter_get_unique_name (filter));

  xa_wire_builder_set_sender (b, "org.freedesktop.DBus");
  xa_wire_builder_set_destination (b, ":1.7");
  xa_wire_builder_add_string (b, ":1.7");
  message_parse (&answer, xa_wire_builder_finish (b, 1));
  g_assert_cmpint (xa_bus_filter_from_bus (filter, g_bytes_get_data (answer.bytes, NULL), &answer.header,
                                           &out), ==, XA_BUS_FILTER_FORWARD);
  g_assert_cmpstr (xa_bus_filter_get_unique_name (filter), ==, ":1.7");
  g_assert_false (xa_bus_filter_is_holding_client (filter));
}

static void
test_client_waits_for_hello_error_too (void)
{
  g_autoptr(XaBusFilter) filter = new_filter ();
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_error (1, "org.freedesktop.DBus.Error.Failed");
  g_auto(Message) hello = { 0, };
  g_auto(Message) answer = { 0, };
  g_autoptr(GBytes) out = NULL;

  make_hello (&hello, 0);
  g_assert_cmpint (xa_bus_filter_from_client (filter, g_bytes_get_data (hello.bytes, NULL), &hello.header,
                                              &out, NULL), ==, XA_BUS_FILTER_FORWARD);
  xa_wire_builder_set_sender (b, "org.freedesktop.DBus");
  xa_wire_builder_add_string (b, "Already handled an Hello message");
  message_parse (&answer, xa_wire_builder_finish (b, 2));
  g_assert_cmpint (xa_bus_filter_from_bus (filter, g_bytes_get_data (answer.bytes, NULL), &answer.header,
                                           &out), ==, XA_BUS_FILTER_FORWARD);
  g_assert_null (xa_bus_filter_get_unique_name (filter));
  g_assert_false (xa_bus_filter_is_holding_client (filter));
}

static void
test_hello_without_answer_drops_client (void)
{
  g_autoptr(XaBusFilter) filter = new_filter ();
  g_auto(Message) hello = { 0, };
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  make_hello (&hello, XA_WIRE_FLAG_NO_REPLY_EXPECTED);
  g_assert_cmpint (xa_bus_filter_from_client (filter, g_bytes_get_data (hello.bytes, NULL), &hello.header,
                                              &out, &error), ==, XA_BUS_FILTER_DISCONNECT);
  g_assert_nonnull (error);
}

static void
answer_from_bus (XaBusFilter *filter,
                 const char *sender,
                 guint32 reply_serial,
                 guint32 serial)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_return (reply_serial);
  g_auto(Message) answer = { 0, };
  g_autoptr(GBytes) out = NULL;

  xa_wire_builder_set_sender (b, sender);
  xa_wire_builder_set_destination (b, ":1.7");
  if (reply_serial == 1)
    xa_wire_builder_add_string (b, ":1.7");
  message_parse (&answer, xa_wire_builder_finish (b, serial));
  (void) xa_bus_filter_from_bus (filter, g_bytes_get_data (answer.bytes, NULL), &answer.header, &out);
}

static void
call_from_client (XaBusFilter *filter,
                  guint32 serial,
                  guint8 flags)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_call ("org.example.Talk", "/org/example/Talk",
                                                                "org.example.Talk", "Ping");
  g_auto(Message) call = { 0, };
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  xa_wire_builder_set_flags (b, flags);
  message_parse (&call, xa_wire_builder_finish (b, serial));
  g_assert_cmpint (xa_bus_filter_from_client (filter, g_bytes_get_data (call.bytes, NULL), &call.header,
                                              &out, &error), ==, XA_BUS_FILTER_FORWARD);
  g_assert_no_error (error);
}

static void
test_calls_in_flight_are_counted (void)
{
  g_autoptr(XaBusFilter) filter = new_filter ();
  g_auto(Message) hello = { 0, };
  g_autoptr(GBytes) out = NULL;
  guint base;

  make_hello (&hello, 0);
  (void) xa_bus_filter_from_client (filter, g_bytes_get_data (hello.bytes, NULL), &hello.header, &out, NULL);
  g_assert_cmpuint (xa_bus_filter_get_n_pending (filter), ==, 1);
  answer_from_bus (filter, "org.freedesktop.DBus", 1, 1);
  /* What is left are the filter's own questions about the names. */
  base = xa_bus_filter_get_n_pending (filter);

  call_from_client (filter, 2, 0);
  call_from_client (filter, 3, XA_WIRE_FLAG_NO_REPLY_EXPECTED);
  call_from_client (filter, 4, 0);
  g_assert_cmpuint (xa_bus_filter_get_n_pending (filter), ==, base + 2);
  answer_from_bus (filter, ":1.9", 4, 10);
  g_assert_cmpuint (xa_bus_filter_get_n_pending (filter), ==, base + 1);
  /* A second answer to the same call is no answer. */
  answer_from_bus (filter, ":1.9", 4, 11);
  g_assert_cmpuint (xa_bus_filter_get_n_pending (filter), ==, base + 1);
  answer_from_bus (filter, ":1.9", 2, 12);
  g_assert_cmpuint (xa_bus_filter_get_n_pending (filter), ==, base);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bus-filter/client-waits-for-hello-answer", test_client_waits_for_hello_answer);
  g_test_add_func ("/bus-filter/client-waits-for-hello-error-too", test_client_waits_for_hello_error_too);
  g_test_add_func ("/bus-filter/hello-without-answer-drops-client", test_hello_without_answer_drops_client);
  g_test_add_func ("/bus-filter/calls-in-flight-are-counted", test_calls_in_flight_are_counted);
  return g_test_run ();
}
