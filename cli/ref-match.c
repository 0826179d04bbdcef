/* cli/ref-match.c — see ref-match.h.  The id and branch come from the
 * command line: they are checked before they reach a message. */
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/ref-match.h"
#include "policy/metadata.h"
#include "store/installation.h"
#include "store/ref.h"
#include "store/store-error.h"

static gint
compare_refs (gconstpointer a,
              gconstpointer b)
{
  return strcmp (xa_ref_get_string (*(const XaRef *const *) a),
                 xa_ref_get_string (*(const XaRef *const *) b));
}

void
xa_ref_match_sort (GPtrArray *refs)
{
  g_ptr_array_sort (refs, compare_refs);
}

GPtrArray *
xa_ref_match_list_installed (XaInstallation  *inst,
                             GError         **error)
{
  g_autoptr(GPtrArray) apps = xa_installation_list_refs (inst, XA_METADATA_APP, error);
  g_autoptr(GPtrArray) runtimes = NULL;

  if (apps == NULL)
    return NULL;
  runtimes = xa_installation_list_refs (inst, XA_METADATA_RUNTIME, error);
  if (runtimes == NULL)
    return NULL;
  g_ptr_array_extend_and_steal (apps, g_steal_pointer (&runtimes));
  return g_steal_pointer (&apps);
}

static gboolean
kind_matches (const XaRef     *ref,
              XaRefMatchKinds  kinds)
{
  return xa_ref_get_kind (ref) == XA_METADATA_APP ? (kinds & XA_REF_MATCH_APP) != 0
                                                  : (kinds & XA_REF_MATCH_RUNTIME) != 0;
}

GPtrArray *
xa_ref_match_filter (GPtrArray       *refs,
                     XaRefMatchKinds  kinds,
                     const char      *id,
                     const char      *branch)
{
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < refs->len; i++)
    {
      const XaRef *ref = refs->pdata[i];

      if (kind_matches (ref, kinds) && strcmp (xa_ref_get_id (ref), id) == 0 &&
          (branch == NULL || strcmp (xa_ref_get_branch (ref), branch) == 0))
        g_ptr_array_add (found, (gpointer) ref);
    }
  return found;
}

static gboolean
set_none (const char  *id,
          const char  *branch,
          const char  *where,
          GError     **error)
{
  g_autofree char *name = branch != NULL ? g_strdup_printf ("%s//%s", id, branch) : g_strdup (id);

  if (where != NULL)
    g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REF_NOT_FOUND,
                 _("'%s' is not in %s"), name, where);
  else
    g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
                 _("'%s' is not installed"), name);
  return FALSE;
}

XaRef *
xa_ref_match_pick (GPtrArray        *refs,
                   XaRefMatchKinds   kinds,
                   const char       *id,
                   const char       *branch,
                   const char       *where,
                   GError          **error)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GString) branches = NULL;
  gboolean apps = FALSE;
  gboolean runtimes = FALSE;

  if (!xa_metadata_validate_id (id, error) ||
      (branch != NULL && !xa_metadata_validate_branch (branch, error)))
    return NULL;
  found = xa_ref_match_filter (refs, kinds, id, branch);
  if (found->len == 0)
    {
      set_none (id, branch, where, error);
      return NULL;
    }
  if (found->len == 1)
    return xa_ref_dup (found->pdata[0]);

  branches = g_string_new (NULL);
  for (guint i = 0; i < found->len; i++)
    {
      const XaRef *ref = found->pdata[i];

      apps = apps || xa_ref_get_kind (ref) == XA_METADATA_APP;
      runtimes = runtimes || xa_ref_get_kind (ref) == XA_METADATA_RUNTIME;
      g_string_append_printf (branches, "%s%s", i > 0 ? ", " : "", xa_ref_get_branch (ref));
    }
  if (apps && runtimes)
    {
      if (where != NULL)
        g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS,
                     _("'%s' is both an app and a runtime in %s; use --app or --runtime"),
                     id, where);
      else
        g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS,
                     _("'%s' is installed both as an app and as a runtime; "
                       "use --app or --runtime"), id);
      return NULL;
    }
  if (where != NULL)
    g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS,
                 _("'%s' has several branches in %s (%s); name one"), id, where, branches->str);
  else
    g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS,
                 _("'%s' is installed in several branches (%s); name one"), id, branches->str);
  return NULL;
}
