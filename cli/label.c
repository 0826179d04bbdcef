/* cli/label.c — names of refs and installations in the CLI's output. */
#include <glib.h>
#include <glib/gi18n.h>

#include "cli/label.h"
#include "store/installation.h"
#include "store/ref.h"

char *
xa_label_dup_ref (const XaRef *ref)
{
  g_autofree char *spec = NULL;

  if (xa_ref_get_kind (ref) == XA_METADATA_APP)
    return g_strdup_printf ("'%s'", xa_ref_get_id (ref));
  spec = xa_ref_dup_runtime_spec (ref);
  return g_strdup_printf (_("runtime '%s'"), spec);
}

const char *
xa_label_get_scope (XaInstallation *inst)
{
  switch (xa_installation_get_scope (inst))
    {
    case XA_INSTALLATION_SYSTEM:
      return "system";
    case XA_INSTALLATION_USER:
    default:
      return "user";
    }
}
