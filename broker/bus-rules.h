/* broker/bus-rules.h — XaBusRules: what one instance may do on one bus,
 * compiled from its permission context for the filter to look up per
 * message.  The meaning is xdg-dbus-proxy's --see/--talk/--own/--call/
 * --broadcast, so that a policy written for Flatpak means the same here:
 *
 * - a name is a well-known name, or "prefix.*", which covers "prefix"
 *   itself and every name below it ("org.foo.*": org.foo, org.foo.bar,
 *   not org.foobar);
 * - levels none < see < talk < own; a name's level is the highest of
 *   every rule that covers it;
 * - a call or broadcast rule on a name, "[IFACE.METHOD|IFACE.*|*][@PATH]"
 *   where PATH is an object path, or one followed by a slash and a star
 *   for it and every path below, makes the name talk-visible, and lets
 *   through only the calls (or the broadcasts) it describes. */
#pragma once

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

typedef enum
{
  XA_BUS_RULE_CALL      = 1 << 0,   /* method calls and unicast signals to the name */
  XA_BUS_RULE_BROADCAST = 1 << 1,   /* broadcast signals from the name */
  XA_BUS_RULE_ALL       = XA_BUS_RULE_CALL | XA_BUS_RULE_BROADCAST,
} XaBusRuleTypes;

typedef struct _XaBusRules XaBusRules;
typedef struct _XaBusRule XaBusRule;

/* What covers one peer: its level and the rules that may let a message
 * through.  Fill with xa_bus_rules_collect(), ask xa_bus_match_allows(). */
typedef struct
{
  XaBusPolicy level;
  gboolean    everything;   /* a talk-or-higher grant with no restriction */
  GPtrArray  *rules;        /* const XaBusRule *, borrowed from the XaBusRules; NULL: none */
} XaBusMatch;

XaBusRules *xa_bus_rules_new              (void);
XaBusRules *xa_bus_rules_ref              (XaBusRules        *self);
void        xa_bus_rules_unref            (XaBusRules        *self);

/* @name: a well-known name or "prefix.*".  XA_BUS_POLICY_NONE adds
 * nothing.  Refuses a bad name (XA_POLICY_ERROR_INVALID_VALUE). */
gboolean    xa_bus_rules_add_policy       (XaBusRules        *self,
                                           const char        *name,
                                           XaBusPolicy        level,
                                           GError           **error);
/* @rule as described above; refuses a malformed one. */
gboolean    xa_bus_rules_add_rule         (XaBusRules        *self,
                                           const char        *name,
                                           XaBusRuleTypes     type,
                                           const char        *rule,
                                           GError           **error);

/* The rules of @bus for app @app_id: the defaults (own APP_ID.*, talk to
 * org.freedesktop.portal.* on the session bus), then the context's
 * grants. */
XaBusRules *xa_bus_rules_new_for_context  (const XaContext   *context,
                                           XaBus              bus,
                                           const char        *app_id,
                                           GError           **error);

/* Whether any rule names @name or a prefix of it: the filter tracks who
 * owns those. */
gboolean    xa_bus_rules_covers           (XaBusRules        *self,
                                           const char        *name);
/* Whether @name has a "prefix.*" rule of its own ("org.foo" for
 * "org.foo.*"), whose owners the filter finds with a namespace match. */
gboolean    xa_bus_rules_is_subtree       (XaBusRules        *self,
                                           const char        *name);
/* The names rules were given for ("org.foo" for "org.foo.*"): borrowed,
 * valid while @self lives. */
GList      *xa_bus_rules_get_names        (XaBusRules        *self);

void        xa_bus_match_init             (XaBusMatch        *match);
void        xa_bus_match_clear            (XaBusMatch        *match);
/* Adds what covers well-known @name to @match. */
void        xa_bus_rules_collect          (XaBusRules        *self,
                                           const char        *name,
                                           XaBusMatch        *match);
/* Adds a level granted outright (a unique name's own): at talk or above
 * it lets everything through. */
void        xa_bus_match_add_level        (XaBusMatch        *match,
                                           XaBusPolicy        level);
/* Whether a message of @type with @path, @interface, @member (each may be
 * NULL) is let through: own lets any call through, talk any broadcast,
 * otherwise a rule of @type must match. */
gboolean    xa_bus_match_allows           (const XaBusMatch  *match,
                                           XaBusRuleTypes     type,
                                           const char        *path,
                                           const char        *interface,
                                           const char        *member);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaBusRules, xa_bus_rules_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XaBusMatch, xa_bus_match_clear)

G_END_DECLS
