/* fuzz/fuzz-bus-message.c — libFuzzer target for wire/message.c, the
 * parser every byte a sandboxed client sends goes through, and for
 * broker/bus-filter.c behind it, which reads the bodies of what the
 * parser let through (match rules, name lists, NameOwnerChanged).
 *
 * The input is a conversation: records of one direction byte (even:
 * from the client, odd: from the bus; bits 1-2: how many fds came with
 * it) and one message, whose length the message itself says.  One filter
 * sees the whole conversation, so that the fuzzer can reach the states
 * that Hello, replies and name changes lead to.
 *
 * Besides "no crash, no leak, no sanitizer report", each input must keep
 * these promises:
 *   - what xa_wire_parse() accepts, GDBus's own parser accepts too: the
 *     broker never forwards bytes that a bus daemon or a client cannot
 *     parse;
 *   - the parser never claims more fds than came with the message;
 *   - a refusal is a GError of XA_WIRE_ERROR;
 *   - every message the filter makes itself (answers, replacements, its
 *     own calls) parses again.
 * The same entry point runs under the normal build through fuzz/replay.c,
 * over the seed corpus in corpus/bus-message/. */
#include <stddef.h>
#include <stdint.h>

#include <gio/gio.h>

#include "broker/bus-filter.h"
#include "fuzz/fuzz-target.h"
#include "wire/message.h"

static XaBusRules *
make_rules (void)
{
  XaBusRules *rules = xa_bus_rules_new ();

  /* An app's defaults, and one of each kind of grant. */
  g_assert_true (xa_bus_rules_add_policy (rules, "org.example.App.*", XA_BUS_POLICY_OWN, NULL));
  g_assert_true (xa_bus_rules_add_policy (rules, "org.freedesktop.portal.*", XA_BUS_POLICY_TALK, NULL));
  g_assert_true (xa_bus_rules_add_policy (rules, "org.example.Talk", XA_BUS_POLICY_TALK, NULL));
  g_assert_true (xa_bus_rules_add_policy (rules, "org.example.See", XA_BUS_POLICY_SEE, NULL));
  g_assert_true (xa_bus_rules_add_rule (rules, "org.example.Call", XA_BUS_RULE_CALL,
                                        "org.example.Iface.Method@/org/example/*", NULL));
  g_assert_true (xa_bus_rules_add_rule (rules, "org.example.Cast", XA_BUS_RULE_BROADCAST,
                                        "org.example.Iface.*", NULL));
  return rules;
}

static void
assert_parses (GBytes *message)
{
  g_autoptr(GError) error = NULL;
  XaWireHeader header;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (message, &len);

  g_assert_true (xa_wire_parse (data, len, 0, &header, &error));
  g_assert_no_error (error);
}

/* GDBus must read what we accepted. */
static void
assert_gdbus_agrees (const guint8 *data,
                     gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusMessage) message = g_dbus_message_new_from_blob ((guchar *) data, len,
                                                                  G_DBUS_CAPABILITY_FLAGS_UNIX_FD_PASSING,
                                                                  &error);

  if (message == NULL)
    g_error ("accepted, but GDBus refuses it: %s", error->message);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autoptr(XaBusRules) rules = make_rules ();
  g_autoptr(XaBusFilter) filter = xa_bus_filter_new (rules);
  gsize at = 0;

  while (at + 1 + XA_WIRE_FIXED_HEADER_SIZE <= size)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) out = NULL;
      guint8 record = data[at++];
      gboolean from_client = (record & 1) == 0;
      guint n_fds = (record >> 1) & 3;
      const guint8 *message = data + at;
      XaBusFilterAction action;
      XaWireHeader header;
      GBytes *own;
      gsize len = 0;

      if (!xa_wire_peek_length (message, size - at, XA_WIRE_MAX_MESSAGE, &len, &error))
        {
          g_assert_true (error->domain == XA_WIRE_ERROR);
          break;
        }
      if (len > size - at)
        break;
      at += len;
      if (!xa_wire_parse (message, len, n_fds, &header, &error))
        {
          g_assert_true (error->domain == XA_WIRE_ERROR);
          continue;
        }
      g_assert_cmpuint (header.n_unix_fds, <=, n_fds);
      g_assert_cmpuint (header.body_offset + header.body_length, ==, len);
      assert_gdbus_agrees (message, len);

      if (from_client)
        action = xa_bus_filter_from_client (filter, message, &header, &out, &error);
      else
        action = xa_bus_filter_from_bus (filter, message, &header, &out);
      if (action == XA_BUS_FILTER_REPLACE || action == XA_BUS_FILTER_ANSWER)
        assert_parses (out);
      /* The client is told why it was dropped. */
      if (from_client && action == XA_BUS_FILTER_DISCONNECT)
        g_assert_nonnull (error);
      while ((own = xa_bus_filter_pop_outgoing (filter)) != NULL)
        {
          assert_parses (own);
          g_bytes_unref (own);
        }
    }
  return 0;
}
