/* policy/method-rule.c — see method-rule.h.  Trusts nothing: the text
 * comes from an app's metadata.  Paths and names are checked with the
 * D-Bus specification's syntax, so that a rule that could never match
 * is refused when the app is installed, not silently useless. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "policy/method-rule.h"
#include "policy/policy-error.h"

void
xa_method_rule_free (XaMethodRule *self)
{
  if (self == NULL)
    return;
  g_free (self->interface);
  g_free (self->member);
  g_free (self->path);
  g_free (self);
}

static gboolean
is_member (const char *s)
{
  return g_regex_match_simple ("^[A-Za-z_][A-Za-z0-9_]{0,254}$", s, 0, 0);
}

/* An interface name: two elements or more, none starting with a digit. */
static gboolean
is_interface (const char *s)
{
  return strlen (s) <= 255 &&
         g_regex_match_simple ("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)+$", s, 0, 0);
}

static gboolean
is_object_path (const char *s)
{
  return g_regex_match_simple ("^(/|(/[A-Za-z0-9_]+)+)$", s, 0, 0);
}

static gboolean
parse_path (XaMethodRule *self,
            const char *text)
{
  gsize len = strlen (text);

  self->path = g_strdup (text);
  if (g_str_has_suffix (text, "/*"))
    {
      self->path_subtree = TRUE;
      /* The root's subtree keeps "/" as its path. */
      self->path[MAX (len - 2, 1)] = '\0';
    }
  return is_object_path (self->path);
}

static gboolean
parse_method (XaMethodRule *self,
              const char *text)
{
  g_autofree char *interface = NULL;
  const char *dot;

  if (text[0] == '\0' || strcmp (text, "*") == 0)
    return TRUE;
  dot = strrchr (text, '.');
  if (dot == NULL)
    return FALSE;
  interface = g_strndup (text, dot - text);
  if (!is_interface (interface))
    return FALSE;
  if (strcmp (dot + 1, "*") != 0)
    {
      if (!is_member (dot + 1))
        return FALSE;
      self->member = g_strdup (dot + 1);
    }
  self->interface = g_steal_pointer (&interface);
  return TRUE;
}

XaMethodRule *
xa_method_rule_parse (const char *text,
                      GError **error)
{
  g_autoptr(XaMethodRule) self = g_new0 (XaMethodRule, 1);
  const char *at = strchr (text, '@');
  g_autofree char *method = at != NULL ? g_strndup (text, at - text) : g_strdup (text);

  if ((at != NULL && !parse_path (self, at + 1)) || !parse_method (self, method))
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("invalid bus rule '%s' (valid: [INTERFACE.METHOD|INTERFACE.*|*][@/PATH[/*]])"),
                   text);
      return NULL;
    }
  return g_steal_pointer (&self);
}

static gboolean
path_matches (const XaMethodRule *self,
              const char *path)
{
  gsize len;

  if (self->path == NULL)
    return TRUE;
  if (path == NULL)
    return FALSE;
  if (!self->path_subtree)
    return strcmp (self->path, path) == 0;
  /* The root as a subtree covers every path. */
  len = strcmp (self->path, "/") == 0 ? 0 : strlen (self->path);
  return strncmp (path, self->path, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

gboolean
xa_method_rule_matches (const XaMethodRule *self,
                        const char *path,
                        const char *interface,
                        const char *member)
{
  return path_matches (self, path) &&
         (self->interface == NULL || g_strcmp0 (self->interface, interface) == 0) &&
         (self->member == NULL || g_strcmp0 (self->member, member) == 0);
}
