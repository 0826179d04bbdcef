/* tests/broker/test-bus-rules.c — what a name's rules let through: levels,
 * NAME.* subtrees, call and broadcast rules, the defaults of an app, and
 * a table of rules refused. */
#include <glib.h>

#include "broker/bus-rules.h"
#include "policy/context.h"
#include "policy/policy-error.h"

static XaBusPolicy
level_of (XaBusRules *rules,
          const char *name)
{
  g_auto(XaBusMatch) match = { 0, };

  xa_bus_match_init (&match);
  xa_bus_rules_collect (rules, name, &match);
  return match.level;
}

static gboolean
allows (XaBusRules *rules,
        const char *name,
        XaBusRuleTypes type,
        const char *path,
        const char *interface,
        const char *member)
{
  g_auto(XaBusMatch) match = { 0, };

  xa_bus_match_init (&match);
  xa_bus_rules_collect (rules, name, &match);
  return xa_bus_match_allows (&match, type, path, interface, member);
}

static void
test_subtree_covers_the_name_and_below (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_bus_rules_add_policy (rules, "org.foo.*", XA_BUS_POLICY_TALK, &error));
  g_assert_no_error (error);
  g_assert_cmpint (level_of (rules, "org.foo"), ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (level_of (rules, "org.foo.bar"), ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (level_of (rules, "org.foo.bar.baz"), ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (level_of (rules, "org.foobar"), ==, XA_BUS_POLICY_NONE);
  g_assert_cmpint (level_of (rules, "org"), ==, XA_BUS_POLICY_NONE);
}

static void
test_exact_name_covers_only_itself (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();

  g_assert_true (xa_bus_rules_add_policy (rules, "org.foo", XA_BUS_POLICY_SEE, NULL));
  g_assert_cmpint (level_of (rules, "org.foo"), ==, XA_BUS_POLICY_SEE);
  g_assert_cmpint (level_of (rules, "org.foo.bar"), ==, XA_BUS_POLICY_NONE);
}

static void
test_highest_level_wins (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();

  g_assert_true (xa_bus_rules_add_policy (rules, "org.foo.*", XA_BUS_POLICY_SEE, NULL));
  g_assert_true (xa_bus_rules_add_policy (rules, "org.foo.bar", XA_BUS_POLICY_OWN, NULL));
  g_assert_cmpint (level_of (rules, "org.foo.bar"), ==, XA_BUS_POLICY_OWN);
  g_assert_cmpint (level_of (rules, "org.foo.baz"), ==, XA_BUS_POLICY_SEE);
  /* See lets nothing through; talk lets everything through. */
  g_assert_false (allows (rules, "org.foo.baz", XA_BUS_RULE_CALL, "/", "a.b", "C"));
  g_assert_true (allows (rules, "org.foo.bar", XA_BUS_RULE_CALL, "/", "a.b", "C"));
}

static void
test_the_bus_is_always_talk (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();

  g_assert_cmpint (level_of (rules, "org.freedesktop.DBus"), ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (level_of (rules, "org.freedesktop.DBus.Foo"), ==, XA_BUS_POLICY_NONE);
}

static void
test_call_rules_restrict_calls (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_bus_rules_add_rule (rules, "org.foo", XA_BUS_RULE_CALL,
                                        "org.foo.Iface.Get@/org/foo/*", &error));
  g_assert_no_error (error);
  g_assert_true (xa_bus_rules_add_rule (rules, "org.foo", XA_BUS_RULE_CALL,
                                        "org.foo.Other.*", &error));
  g_assert_no_error (error);
  /* A rule makes the name visible as talk... */
  g_assert_cmpint (level_of (rules, "org.foo"), ==, XA_BUS_POLICY_TALK);
  /* ...and lets through exactly what it describes. */
  g_assert_true (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/org/foo", "org.foo.Iface", "Get"));
  g_assert_true (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/org/foo/a/b", "org.foo.Iface", "Get"));
  g_assert_false (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/org/foobar", "org.foo.Iface", "Get"));
  g_assert_false (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/org/foo", "org.foo.Iface", "Set"));
  g_assert_false (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/org/foo", NULL, "Get"));
  g_assert_true (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/any", "org.foo.Other", "Any"));
  /* Call rules say nothing about broadcasts. */
  g_assert_false (allows (rules, "org.foo", XA_BUS_RULE_BROADCAST, "/org/foo", "org.foo.Iface", "Get"));
}

static void
test_broadcast_rules_restrict_broadcasts (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();

  g_assert_true (xa_bus_rules_add_rule (rules, "org.foo.*", XA_BUS_RULE_BROADCAST,
                                        "*@/org/foo/signals", NULL));
  g_assert_true (allows (rules, "org.foo.bar", XA_BUS_RULE_BROADCAST, "/org/foo/signals", "x.y", "Z"));
  g_assert_false (allows (rules, "org.foo.bar", XA_BUS_RULE_BROADCAST, "/org/foo/other", "x.y", "Z"));
  g_assert_false (allows (rules, "org.foo.bar", XA_BUS_RULE_CALL, "/org/foo/signals", "x.y", "Z"));
}

static void
test_whole_path_wildcard (void)
{
  g_autoptr(XaBusRules) rules = xa_bus_rules_new ();

  g_assert_true (xa_bus_rules_add_rule (rules, "org.foo", XA_BUS_RULE_CALL, "*@/*", NULL));
  g_assert_true (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/", "a.b", "C"));
  g_assert_true (allows (rules, "org.foo", XA_BUS_RULE_CALL, "/x/y", "a.b", "C"));
}

static void
test_unique_level_lets_everything_through (void)
{
  g_auto(XaBusMatch) match = { 0, };

  xa_bus_match_init (&match);
  xa_bus_match_add_level (&match, XA_BUS_POLICY_SEE);
  g_assert_false (xa_bus_match_allows (&match, XA_BUS_RULE_CALL, "/", "a.b", "C"));
  xa_bus_match_add_level (&match, XA_BUS_POLICY_TALK);
  g_assert_true (xa_bus_match_allows (&match, XA_BUS_RULE_CALL, "/", "a.b", "C"));
  g_assert_true (xa_bus_match_allows (&match, XA_BUS_RULE_BROADCAST, "/", "a.b", "C"));
}

static void
test_app_defaults (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(XaBusRules) session = NULL;
  g_autoptr(XaBusRules) system = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (xa_context_parse_option (context, "talk-name", "org.example.Extra", &error));
  g_assert_no_error (error);
  session = xa_bus_rules_new_for_context (context, XA_BUS_SESSION, "org.example.App", &error);
  g_assert_no_error (error);
  g_assert_cmpint (level_of (session, "org.example.App"), ==, XA_BUS_POLICY_OWN);
  g_assert_cmpint (level_of (session, "org.example.App.Helper"), ==, XA_BUS_POLICY_OWN);
  g_assert_cmpint (level_of (session, "org.example.AppX"), ==, XA_BUS_POLICY_NONE);
  g_assert_cmpint (level_of (session, "org.freedesktop.portal.Desktop"), ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (level_of (session, "org.example.Extra"), ==, XA_BUS_POLICY_TALK);
  g_assert_cmpint (level_of (session, "org.freedesktop.Notifications"), ==, XA_BUS_POLICY_NONE);

  system = xa_bus_rules_new_for_context (context, XA_BUS_SYSTEM, "org.example.App", &error);
  g_assert_no_error (error);
  g_assert_cmpint (level_of (system, "org.example.App"), ==, XA_BUS_POLICY_NONE);
  g_assert_cmpint (level_of (system, "org.freedesktop.portal.Desktop"), ==, XA_BUS_POLICY_NONE);
}

/* call= and broadcast= in [Session Bus Policy] become the same rules as
 * xa_bus_rules_add_rule() makes. */
static void
test_context_rules (void)
{
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(XaBusRules) session = NULL;
  g_autoptr(GError) error = NULL;
  const char *text = "[Session Bus Policy]\n"
                     "org.example.Foo=call=org.example.Foo.Get@/org/example/*;broadcast=org.example.Foo.Changed\n"
                     "org.example.Bar=see;broadcast=*\n";

  g_assert_true (g_key_file_load_from_data (keyfile, text, -1, G_KEY_FILE_NONE, &error));
  g_assert_true (xa_context_load_keyfile (context, keyfile, "test", &error));
  g_assert_no_error (error);
  session = xa_bus_rules_new_for_context (context, XA_BUS_SESSION, "org.example.App", &error);
  g_assert_no_error (error);

  g_assert_cmpint (level_of (session, "org.example.Foo"), ==, XA_BUS_POLICY_TALK);
  g_assert_true (allows (session, "org.example.Foo", XA_BUS_RULE_CALL, "/org/example/a", "org.example.Foo", "Get"));
  g_assert_false (allows (session, "org.example.Foo", XA_BUS_RULE_CALL, "/org/example/a", "org.example.Foo", "Set"));
  g_assert_false (allows (session, "org.example.Foo", XA_BUS_RULE_CALL, "/elsewhere", "org.example.Foo", "Get"));
  g_assert_true (allows (session, "org.example.Foo", XA_BUS_RULE_BROADCAST, "/x", "org.example.Foo", "Changed"));
  g_assert_false (allows (session, "org.example.Foo", XA_BUS_RULE_BROADCAST, "/x", "org.example.Foo", "Other"));
  g_assert_cmpint (level_of (session, "org.example.Bar"), ==, XA_BUS_POLICY_TALK);
  g_assert_false (allows (session, "org.example.Bar", XA_BUS_RULE_CALL, "/x", "org.example.Bar", "Get"));
  g_assert_true (allows (session, "org.example.Bar", XA_BUS_RULE_BROADCAST, "/x", "org.example.Bar", "Any"));
}

static void
test_bad_rules_are_refused (void)
{
  static const struct { const char *name; const char *rule; } bad[] = {
    { ":1.42", "*" },                       /* a unique name */
    { "org", "*" },                         /* one element */
    { "org.*", "*" },                       /* one element below the wildcard */
    { "org..foo", "*" },
    { "org.foo", "org.foo.Iface.Get@relative" },
    { "org.foo", "org.foo.Iface.Get@/a//b" },
    { "org.foo", "org.foo.Iface.Get@/a/" },
    { "org.foo", "Get" },                   /* a method without an interface */
    { "org.foo", "org.foo.Iface.1Get" },
    { "org.foo", ".Get" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(XaBusRules) rules = xa_bus_rules_new ();
      g_autoptr(GError) error = NULL;

      g_test_message ("%s = %s", bad[i].name, bad[i].rule);
      g_assert_false (xa_bus_rules_add_rule (rules, bad[i].name, XA_BUS_RULE_CALL,
                                             bad[i].rule, &error));
      g_assert_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/broker/bus-rules/subtree-covers-the-name-and-below",
                   test_subtree_covers_the_name_and_below);
  g_test_add_func ("/broker/bus-rules/exact-name-covers-only-itself",
                   test_exact_name_covers_only_itself);
  g_test_add_func ("/broker/bus-rules/highest-level-wins", test_highest_level_wins);
  g_test_add_func ("/broker/bus-rules/the-bus-is-always-talk", test_the_bus_is_always_talk);
  g_test_add_func ("/broker/bus-rules/call-rules-restrict-calls", test_call_rules_restrict_calls);
  g_test_add_func ("/broker/bus-rules/broadcast-rules-restrict-broadcasts",
                   test_broadcast_rules_restrict_broadcasts);
  g_test_add_func ("/broker/bus-rules/whole-path-wildcard", test_whole_path_wildcard);
  g_test_add_func ("/broker/bus-rules/unique-level-lets-everything-through",
                   test_unique_level_lets_everything_through);
  g_test_add_func ("/broker/bus-rules/app-defaults", test_app_defaults);
  g_test_add_func ("/broker/bus-rules/context-rules", test_context_rules);
  g_test_add_func ("/broker/bus-rules/bad-rules-are-refused", test_bad_rules_are_refused);
  return g_test_run ();
}
