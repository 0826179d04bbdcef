/* policy/bus-value.c — see bus-value.h.  Trusts nothing: values come from
 * metadata and overrides. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "policy/bus-value.h"
#include "policy/method-rule.h"
#include "policy/policy-error.h"

static const char *const level_names[] = {
  [XA_BUS_POLICY_NONE] = "none",
  [XA_BUS_POLICY_SEE] = "see",
  [XA_BUS_POLICY_TALK] = "talk",
  [XA_BUS_POLICY_OWN] = "own",
  NULL
};

static int
level_of (const char *word)
{
  for (int i = 0; level_names[i] != NULL; i++)
    if (strcmp (level_names[i], word) == 0)
      return i;
  return -1;
}

/* One item of the list: a rule into @rules, or a level into *@level. */
static gboolean
parse_item (const char *item,
            const char *name,
            int *level,
            GPtrArray *rules,
            GError **error)
{
  const char *rule = NULL;
  int item_level;

  if (g_str_has_prefix (item, "call="))
    rule = item + strlen ("call=");
  else if (g_str_has_prefix (item, "broadcast="))
    rule = item + strlen ("broadcast=");
  if (rule != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(XaMethodRule) parsed = xa_method_rule_parse (rule, &local_error);

      if (parsed == NULL)
        {
          g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE, "%s: %s",
                       name, local_error->message);
          return FALSE;
        }
      g_ptr_array_add (rules, g_strdup (item));
      return TRUE;
    }
  item_level = level_of (item);
  if (item_level < 0 || *level >= 0)
    {
      g_autofree char *valid = g_strjoinv (", ", (char **) level_names);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION,
                   item_level < 0 ? _("unknown policy '%s' for '%s' (valid: %s, call=RULE, broadcast=RULE)")
                                  : _("a second level '%s' for '%s' (valid: one of %s)"),
                   item, name, valid);
      return FALSE;
    }
  *level = item_level;
  return TRUE;
}

gboolean
xa_bus_value_parse (const char *value,
                    const char *name,
                    XaBusPolicy *out_level,
                    GPtrArray **out_rules,
                    GError **error)
{
  g_auto(GStrv) items = g_strsplit (value, ";", -1);
  g_autoptr(GPtrArray) rules = g_ptr_array_new_null_terminated (0, g_free, TRUE);
  int level = -1;   /* none given */

  for (gsize i = 0; items[i] != NULL; i++)
    {
      const char *item = g_strstrip (items[i]);

      if (item[0] != '\0' && !parse_item (item, name, &level, rules, error))
        return FALSE;
    }
  if (level == XA_BUS_POLICY_NONE && rules->len > 0)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("'%s' is given 'none' and rules at once"), name);
      return FALSE;
    }
  if (level < 0 && rules->len == 0)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION,
                   _("no policy for '%s'"), name);
      return FALSE;
    }
  *out_level = level < 0 ? XA_BUS_POLICY_NONE : (XaBusPolicy) level;
  *out_rules = g_steal_pointer (&rules);
  return TRUE;
}

char *
xa_bus_value_to_string (XaBusPolicy level,
                        const char *const *rules)
{
  g_autofree char *joined = NULL;

  if (rules == NULL || rules[0] == NULL)
    return g_strdup (level_names[level]);
  joined = g_strjoinv (";", (char **) rules);
  if (level == XA_BUS_POLICY_NONE)
    return g_steal_pointer (&joined);
  return g_strconcat (level_names[level], ";", joined, NULL);
}
