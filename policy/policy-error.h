/* policy/policy-error.h — the policy module's one error domain
 * (STYLE.md §4).  Messages name the origin (file or option), the group
 * and key, and list the valid values where there is a list. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XA_POLICY_ERROR (xa_policy_error_quark ())

typedef enum
{
  XA_POLICY_ERROR_INVALID_METADATA,    /* not a metadata file: size, encoding, syntax, groups */
  XA_POLICY_ERROR_INVALID_NAME,        /* an id, arch or branch that breaks Flatpak's rules */
  XA_POLICY_ERROR_UNKNOWN_PERMISSION,  /* a socket, device, filesystem… that does not exist */
  XA_POLICY_ERROR_INVALID_VALUE,       /* a known key with a malformed value (path, bus name, variable) */
  XA_POLICY_ERROR_UNKNOWN_OPTION,      /* xa_context_parse_option: not a permission option */
} XaPolicyError;

GQuark xa_policy_error_quark (void);

G_END_DECLS
