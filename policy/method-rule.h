/* policy/method-rule.h — XaMethodRule: the calls, or the broadcasts, that
 * a call= or broadcast= grant in [Session Bus Policy] lets through, in
 * the syntax of xdg-dbus-proxy's --call and --broadcast:
 *
 *   [INTERFACE.METHOD | INTERFACE.* | *][@PATH | @PATH/ *]
 *
 * (no blank between "/" and "*"): "org.example.Foo.Get@/org/example/ *"
 * is the method Get of interface org.example.Foo on /org/example and
 * every path below it; an absent part matches anything. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char     *interface;      /* NULL: any */
  char     *member;         /* NULL: any */
  char     *path;           /* NULL: any */
  gboolean  path_subtree;   /* @path and every path below it */
} XaMethodRule;

/* Refuses a malformed rule (XA_POLICY_ERROR_INVALID_VALUE). */
XaMethodRule *xa_method_rule_parse   (const char          *text,
                                      GError             **error);
void          xa_method_rule_free    (XaMethodRule        *self);
/* Whether a message with @path, @interface and @member (each may be
 * NULL) is one the rule describes. */
gboolean      xa_method_rule_matches (const XaMethodRule  *self,
                                      const char          *path,
                                      const char          *interface,
                                      const char          *member);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaMethodRule, xa_method_rule_free)

G_END_DECLS
