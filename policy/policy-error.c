/* policy/policy-error.c — the XA_POLICY_ERROR quark. */
#include <glib.h>

#include "policy/policy-error.h"

G_DEFINE_QUARK (xa-policy-error-quark, xa_policy_error)
