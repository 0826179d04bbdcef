/* broker/bus-rules.c — see bus-rules.h.  Trusts: the permission context
 * it is built from (policy/ validated it).  Checks every name and rule it
 * is given, since a test or a future caller may not have.
 *
 * As under xdg-dbus-proxy 0.1.4 (tests/broker/test-differential.sh), a
 * name whose level comes only from call or broadcast rules gets exactly
 * the calls and the broadcasts those rules describe. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "broker/bus-rules.h"
#include "policy/bus-name.h"
#include "policy/method-rule.h"
#include "policy/policy-error.h"

/* A name with more rules than this is a mistake, not a policy. */
#define MAX_RULES_PER_NAME 256

struct _XaBusRule
{
  XaBusPolicy level;
  gboolean subtree;          /* from "name.*" */
  XaBusRuleTypes types;      /* XA_BUS_RULE_ALL for a plain level */
  XaMethodRule *method;      /* from call=/broadcast=: only what it describes; NULL for a level */
};

struct _XaBusRules
{
  gint ref_count;
  GHashTable *by_name;       /* name without ".*" → GPtrArray of XaBusRule */
};

static void
rule_free (XaBusRule *rule)
{
  g_clear_pointer (&rule->method, xa_method_rule_free);
  g_free (rule);
}

XaBusRules *
xa_bus_rules_new (void)
{
  XaBusRules *self = g_new0 (XaBusRules, 1);

  self->ref_count = 1;
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) g_ptr_array_unref);
  /* Everyone talks to the bus itself; which of its methods is the
   * filter's business. */
  xa_bus_rules_add_policy (self, "org.freedesktop.DBus", XA_BUS_POLICY_TALK, NULL);
  return self;
}

XaBusRules *
xa_bus_rules_ref (XaBusRules *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
xa_bus_rules_unref (XaBusRules *self)
{
  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_hash_table_unref (self->by_name);
  g_free (self);
}

/* "org.foo.*" → "org.foo" with *@out_subtree; NULL for a bad name. */
static char *
split_name (const char *name,
            gboolean *out_subtree,
            GError **error)
{
  g_autofree char *base = NULL;
  gboolean subtree = g_str_has_suffix (name, ".*");

  base = subtree ? g_strndup (name, strlen (name) - 2) : g_strdup (name);
  if (!xa_bus_name_is_well_known (base))
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("'%s' is not a bus name or a NAME.* pattern"), name);
      return NULL;
    }
  *out_subtree = subtree;
  return g_steal_pointer (&base);
}

static gboolean
add (XaBusRules *self,
     const char *name,
     XaBusRule *rule,
     GError **error)
{
  g_autofree char *base = split_name (name, &rule->subtree, error);
  GPtrArray *rules;

  if (base == NULL)
    {
      rule_free (rule);
      return FALSE;
    }
  rules = g_hash_table_lookup (self->by_name, base);
  if (rules == NULL)
    {
      rules = g_ptr_array_new_with_free_func ((GDestroyNotify) rule_free);
      g_hash_table_insert (self->by_name, g_steal_pointer (&base), rules);
    }
  if (rules->len >= MAX_RULES_PER_NAME)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("more than %d rules for '%s'"), MAX_RULES_PER_NAME, name);
      rule_free (rule);
      return FALSE;
    }
  g_ptr_array_add (rules, rule);
  return TRUE;
}

gboolean
xa_bus_rules_add_policy (XaBusRules *self,
                         const char *name,
                         XaBusPolicy level,
                         GError **error)
{
  XaBusRule *rule;

  if (level == XA_BUS_POLICY_NONE)
    {
      gboolean subtree;
      g_autofree char *base = split_name (name, &subtree, error);

      return base != NULL;
    }
  rule = g_new0 (XaBusRule, 1);
  rule->level = level;
  rule->types = XA_BUS_RULE_ALL;
  return add (self, name, rule, error);
}

gboolean
xa_bus_rules_add_rule (XaBusRules *self,
                       const char *name,
                       XaBusRuleTypes type,
                       const char *text,
                       GError **error)
{
  XaMethodRule *method;
  XaBusRule *rule;

  g_return_val_if_fail (type == XA_BUS_RULE_CALL || type == XA_BUS_RULE_BROADCAST, FALSE);

  method = xa_method_rule_parse (text, error);
  if (method == NULL)
    return FALSE;
  rule = g_new0 (XaBusRule, 1);
  rule->level = XA_BUS_POLICY_TALK;
  rule->types = type;
  rule->method = method;
  return add (self, name, rule, error);
}

XaBusRules *
xa_bus_rules_new_for_context (const XaContext *context,
                              XaBus bus,
                              const char *app_id,
                              GError **error)
{
  g_autoptr(XaBusRules) self = xa_bus_rules_new ();
  g_autofree char *own = g_strconcat (app_id, ".*", NULL);
  GHashTable *granted = xa_context_get_bus_policy (context, bus);
  GHashTableIter iter;
  gpointer name, level;

  if (bus == XA_BUS_SESSION)
    {
      /* An app may own its id and names below it, as under Flatpak, and
       * reach the portals: the only way out that asks the user. */
      if (!xa_bus_rules_add_policy (self, own, XA_BUS_POLICY_OWN, error) ||
          !xa_bus_rules_add_policy (self, "org.freedesktop.portal.*", XA_BUS_POLICY_TALK, error))
        return NULL;
    }
  g_hash_table_iter_init (&iter, granted);
  while (g_hash_table_iter_next (&iter, &name, &level))
    {
      const char *const *rules = xa_context_get_bus_rules (context, bus, name);

      if (!xa_bus_rules_add_policy (self, name, GPOINTER_TO_INT (level), error))
        return NULL;
      for (gsize i = 0; rules != NULL && rules[i] != NULL; i++)
        {
          gboolean call = g_str_has_prefix (rules[i], "call=");
          const char *text = strchr (rules[i], '=') + 1;

          if (!xa_bus_rules_add_rule (self, name, call ? XA_BUS_RULE_CALL : XA_BUS_RULE_BROADCAST,
                                      text, error))
            return NULL;
        }
    }
  return g_steal_pointer (&self);
}

gboolean
xa_bus_rules_covers (XaBusRules *self,
                     const char *name)
{
  g_auto(XaBusMatch) match = { 0, };

  xa_bus_match_init (&match);
  xa_bus_rules_collect (self, name, &match);
  return match.level > XA_BUS_POLICY_NONE;
}

gboolean
xa_bus_rules_is_subtree (XaBusRules *self,
                         const char *name)
{
  GPtrArray *rules = g_hash_table_lookup (self->by_name, name);

  for (guint i = 0; rules != NULL && i < rules->len; i++)
    if (((const XaBusRule *) rules->pdata[i])->subtree)
      return TRUE;
  return FALSE;
}

GList *
xa_bus_rules_get_names (XaBusRules *self)
{
  return g_hash_table_get_keys (self->by_name);
}

void
xa_bus_match_init (XaBusMatch *match)
{
  match->level = XA_BUS_POLICY_NONE;
  match->everything = FALSE;
  match->rules = NULL;        /* made for the first method rule */
}

void
xa_bus_match_clear (XaBusMatch *match)
{
  g_clear_pointer (&match->rules, g_ptr_array_unref);
}

void
xa_bus_rules_collect (XaBusRules *self,
                      const char *name,
                      XaBusMatch *match)
{
  /* A bus name has at most 255 bytes: most fit on the stack. */
  char buffer[256];
  g_autofree char *allocated = strlen (name) < sizeof buffer ? NULL : g_strdup (name);
  char *prefix = allocated != NULL ? allocated : strcpy (buffer, name);
  gboolean exact = TRUE;

  /* org.foo.bar, then org.foo, then org: the exact name's rules, then
   * the subtree rules of each prefix. */
  for (;;)
    {
      GPtrArray *rules = g_hash_table_lookup (self->by_name, prefix);
      char *dot;

      for (guint i = 0; rules != NULL && i < rules->len; i++)
        {
          const XaBusRule *rule = rules->pdata[i];

          if (!exact && !rule->subtree)
            continue;
          match->level = MAX (match->level, rule->level);
          if (rule->method == NULL && rule->level >= XA_BUS_POLICY_TALK)
            match->everything = TRUE;
          else if (rule->method != NULL)
            {
              if (match->rules == NULL)
                match->rules = g_ptr_array_new ();
              g_ptr_array_add (match->rules, (gpointer) rule);
            }
        }
      dot = strrchr (prefix, '.');
      if (dot == NULL)
        break;
      *dot = '\0';
      exact = FALSE;
    }
}

void
xa_bus_match_add_level (XaBusMatch *match,
                        XaBusPolicy level)
{
  match->level = MAX (match->level, level);
  if (level >= XA_BUS_POLICY_TALK)
    match->everything = TRUE;
}

gboolean
xa_bus_match_allows (const XaBusMatch *match,
                     XaBusRuleTypes type,
                     const char *path,
                     const char *interface,
                     const char *member)
{
  if (match->level == XA_BUS_POLICY_OWN || match->everything)
    return TRUE;
  for (guint i = 0; match->rules != NULL && i < match->rules->len; i++)
    {
      const XaBusRule *rule = match->rules->pdata[i];

      if ((rule->types & type) != 0 && xa_method_rule_matches (rule->method, path, interface, member))
        return TRUE;
    }
  return FALSE;
}
