/* store/ref.c — parses, checks and formats refs.  Trusts nothing in the
 * strings it is given: every part is checked by policy/metadata.h's
 * validators before a ref exists, so a ref can be used as a path below an
 * installation (no '/', no "..", no empty part). */
#include <string.h>
#include <sys/utsname.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "policy/escape.h"
#include "policy/metadata.h"
#include "store/ref.h"
#include "store/store-error.h"

struct _XaRef
{
  XaMetadataKind kind;
  char *id;
  char *arch;
  char *branch;
  char *string;   /* "app/ID/ARCH/BRANCH" */
};

const char *
xa_ref_kind_to_string (XaMetadataKind kind)
{
  switch (kind)
    {
    case XA_METADATA_APP:
      return "app";
    case XA_METADATA_RUNTIME:
      return "runtime";
    default:
      g_return_val_if_reached ("app");
    }
}

static gboolean
kind_from_string (const char *str,
                  XaMetadataKind *out_kind)
{
  if (g_strcmp0 (str, "app") == 0)
    *out_kind = XA_METADATA_APP;
  else if (g_strcmp0 (str, "runtime") == 0)
    *out_kind = XA_METADATA_RUNTIME;
  else
    return FALSE;
  return TRUE;
}

/* The policy validators say what is wrong with one part; the store's
 * callers want one code for "this is not a ref", so the message is kept
 * and the code becomes XA_STORE_ERROR_INVALID_REF. */
static gboolean
validate_parts (const char *what,
                const char *id,
                const char *arch,
                const char *branch,
                GError **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *shown = xa_escape_for_terminal (what, -1);

  /* BASE/app/ID/data is the app's /var, beside BASE/app/ID/ARCH: an arch
   * of that name would put a deployment inside the app's own data. */
  if (g_strcmp0 (arch, "data") == 0)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                   _("invalid ref '%s': 'data' is not an architecture"), shown);
      return FALSE;
    }
  if (!xa_metadata_validate_id (id, &local_error) ||
      !xa_metadata_validate_arch (arch, &local_error) ||
      !xa_metadata_validate_branch (branch, &local_error))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                   _("invalid ref '%s': %s"), shown, local_error->message);
      return FALSE;
    }
  return TRUE;
}

static XaRef *
ref_alloc (XaMetadataKind kind,
           const char *id,
           const char *arch,
           const char *branch)
{
  XaRef *self = g_new0 (XaRef, 1);

  self->kind = kind;
  self->id = g_strdup (id);
  self->arch = g_strdup (arch);
  self->branch = g_strdup (branch);
  self->string = g_strconcat (xa_ref_kind_to_string (kind), "/", id, "/",
                              arch, "/", branch, NULL);
  return self;
}

/* @arch may be NULL for the machine's own architecture. */
XaRef *
xa_ref_new (XaMetadataKind kind,
            const char *id,
            const char *arch,
            const char *branch,
            GError **error)
{
  g_autofree char *what = NULL;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (branch != NULL, NULL);

  if (arch == NULL)
    arch = xa_ref_get_default_arch ();
  what = g_strconcat (xa_ref_kind_to_string (kind), "/", id, "/", arch, "/",
                      branch, NULL);
  if (!validate_parts (what, id, arch, branch, error))
    return NULL;
  return ref_alloc (kind, id, arch, branch);
}

XaRef *
xa_ref_parse (const char *ref,
              GError **error)
{
  g_auto(GStrv) parts = NULL;
  XaMetadataKind kind;

  g_return_val_if_fail (ref != NULL, NULL);

  parts = g_strsplit (ref, "/", 0);
  if (g_strv_length (parts) != 4 || !kind_from_string (parts[0], &kind))
    {
      g_autofree char *shown = xa_escape_for_terminal (ref, -1);

      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                   _("invalid ref '%s': expected app/ID/ARCH/BRANCH or "
                     "runtime/ID/ARCH/BRANCH"), shown);
      return NULL;
    }
  if (!validate_parts (ref, parts[1], parts[2], parts[3], error))
    return NULL;
  return ref_alloc (kind, parts[1], parts[2], parts[3]);
}

/* @spec is a metadata file's runtime= or sdk= value, "ID/ARCH/BRANCH". */
XaRef *
xa_ref_parse_runtime (const char *spec,
                      GError **error)
{
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  parts = g_strsplit (spec, "/", 0);
  if (g_strv_length (parts) != 3)
    {
      g_autofree char *shown = xa_escape_for_terminal (spec, -1);

      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                   _("invalid runtime '%s': expected ID/ARCH/BRANCH"), shown);
      return NULL;
    }
  if (!validate_parts (spec, parts[0], parts[1], parts[2], error))
    return NULL;
  return ref_alloc (XA_METADATA_RUNTIME, parts[0], parts[1], parts[2]);
}

XaRef *
xa_ref_dup (const XaRef *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return ref_alloc (self->kind, self->id, self->arch, self->branch);
}

void
xa_ref_free (XaRef *self)
{
  if (self == NULL)
    return;
  g_free (self->id);
  g_free (self->arch);
  g_free (self->branch);
  g_free (self->string);
  g_free (self);
}

XaMetadataKind
xa_ref_get_kind (const XaRef *self)
{
  return self->kind;
}

const char *
xa_ref_get_kind_name (const XaRef *self)
{
  return xa_ref_kind_to_string (self->kind);
}

const char *
xa_ref_get_id (const XaRef *self)
{
  return self->id;
}

const char *
xa_ref_get_arch (const XaRef *self)
{
  return self->arch;
}

const char *
xa_ref_get_branch (const XaRef *self)
{
  return self->branch;
}

const char *
xa_ref_get_string (const XaRef *self)
{
  return self->string;
}

/* "ID/ARCH/BRANCH", the form metadata files name runtimes with. */
char *
xa_ref_dup_runtime_spec (const XaRef *self)
{
  return g_strconcat (self->id, "/", self->arch, "/", self->branch, NULL);
}

gboolean
xa_ref_equal (const XaRef *a,
              const XaRef *b)
{
  return strcmp (a->string, b->string) == 0;
}

/* Flatpak's names for architectures, so refs match its repositories. */
static const struct
{
  const char *machine;
  const char *arch;
} arch_names[] = {
  { "i386", "i386" },
  { "i486", "i386" },
  { "i586", "i386" },
  { "i686", "i386" },
  { "armv7l", "arm" },
  { "armv8l", "arm" },
};

const char *
xa_ref_get_default_arch (void)
{
  struct utsname uts;

  if (uname (&uts) != 0)
    return "x86_64";
  for (gsize i = 0; i < G_N_ELEMENTS (arch_names); i++)
    if (strcmp (uts.machine, arch_names[i].machine) == 0)
      return arch_names[i].arch;
  /* Interned: the caller borrows it for the life of the process. */
  return g_intern_string (uts.machine);
}

gboolean
xa_ref_is_commit (const char *name)
{
  gsize i;

  for (i = 0; name[i] != '\0'; i++)
    if (!g_ascii_isdigit (name[i]) && !(name[i] >= 'a' && name[i] <= 'f'))
      return FALSE;
  return i == 64;
}
