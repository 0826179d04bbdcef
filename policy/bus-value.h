/* policy/bus-value.h — one value of [Session Bus Policy] or [System Bus
 * Policy]: a level as Flatpak writes it ("talk"), or xdg-app's own list
 * of a level and call and broadcast rules with xdg-dbus-proxy's meaning
 * ("see;call=org.example.Foo.Get@/org/example"), the rules checked at
 * install time (policy/method-rule.h). */
#pragma once

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

/* Reads @value, the value of bus name @name (named in errors).
 * *@out_level is XA_BUS_POLICY_NONE when only rules are given;
 * *@out_rules holds "call=RULE" and "broadcast=RULE", NULL-terminated.
 * Errors: XA_POLICY_ERROR_UNKNOWN_PERMISSION, _INVALID_VALUE. */
gboolean  xa_bus_value_parse     (const char          *value,
                                  const char          *name,
                                  XaBusPolicy         *out_level,
                                  GPtrArray          **out_rules,
                                  GError             **error);
/* The value that reads back as @level and @rules (NULL: none): the level
 * alone when there are no rules, the rules alone when the level is
 * none. */
char     *xa_bus_value_to_string (XaBusPolicy          level,
                                  const char *const   *rules);

G_END_DECLS
