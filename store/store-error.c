/* store/store-error.c — the XA_STORE_ERROR domain, and the few ways the
 * store words an error. */
#include <stdarg.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "policy/metadata.h"
#include "store/store-error.h"

G_DEFINE_QUARK (xa-store-error-quark, xa_store_error)

/* Makes @error's message one line (STYLE.md §5): libostree's GPG messages
 * span several ("Signature made …\nCan't check signature: …").  Each line
 * break, with the blanks around it, becomes "; ". */
void
xa_store_error_flatten (GError *error)
{
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) flat = g_string_new (NULL);

  if (error == NULL || strchr (error->message, '\n') == NULL)
    return;
  lines = g_strsplit (error->message, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      if (flat->len > 0)
        g_string_append (flat, "; ");
      g_string_append (flat, lines[i]);
    }
  g_free (error->message);
  error->message = g_string_free (g_steal_pointer (&flat), FALSE);
}

/* XA_STORE_ERROR_NOT_INSTALLED: "'ID' is not installed" for an app,
 * "runtime 'ID/ARCH/BRANCH' is not installed" for a runtime. */
gboolean
xa_store_error_set_not_installed (GError **error,
                                  XaMetadataKind kind,
                                  const char *name)
{
  if (kind == XA_METADATA_RUNTIME)
    g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
                 _("runtime '%s' is not installed"), name);
  else
    g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
                 _("'%s' is not installed"), name);
  return FALSE;
}
