/* store/deployment.c — opens installed refs.  Trusts: the installation's
 * directories, written only by store/deploy.c (checked metadata, atomic
 * rename).  Still re-checks that the metadata names the ref it sits
 * under, so a hand-edited tree cannot pass for another app. */
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "policy/metadata.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/ref.h"
#include "store/store-error.h"

struct _XaDeployment
{
  XaInstallation *inst;
  XaRef *ref;
  char *commit;
  char *dir;
  char *files_dir;
  XaMetadata *metadata;
  char *origin;   /* NULL when the deployment does not record one */
};

void
xa_deployment_free (XaDeployment *self)
{
  /* Released through its autoptr cleanup: policy/ owns how. */
  g_autoptr(XaMetadata) metadata = NULL;

  if (self == NULL)
    return;
  metadata = g_steal_pointer (&self->metadata);
  g_clear_pointer (&self->inst, xa_installation_unref);
  g_clear_pointer (&self->ref, xa_ref_free);
  g_free (self->commit);
  g_free (self->dir);
  g_free (self->files_dir);
  g_free (self->origin);
  g_free (self);
}

static char *
load_origin (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, XA_DEPLOYMENT_INFO_FILE, NULL);
  g_autoptr(GKeyFile) info = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *origin = NULL;

  if (!g_key_file_load_from_file (info, path, G_KEY_FILE_NONE, &local_error))
    {
      g_debug ("'%s': %s", path, local_error->message);
      return NULL;
    }
  origin = g_key_file_get_string (info, "Deploy", "origin", NULL);
  return g_steal_pointer (&origin);
}

static char *
dup_display_name (const XaRef *ref)
{
  if (xa_ref_get_kind (ref) == XA_METADATA_APP)
    return g_strdup (xa_ref_get_id (ref));
  return xa_ref_dup_runtime_spec (ref);
}

/* Opens the active deployment of @ref. */
XaDeployment *
xa_deployment_open_ref (XaInstallation *inst,
                        const XaRef *ref,
                        GError **error)
{
  g_autoptr(XaDeployment) self = NULL;
  g_autofree char *commit = xa_installation_lookup_active (inst, ref);
  g_autofree char *base = NULL;
  g_autofree char *metadata_path = NULL;
  g_autofree char *name = dup_display_name (ref);

  if (commit == NULL)
    {
      xa_store_error_set_not_installed (error, xa_ref_get_kind (ref), name);
      return NULL;
    }

  self = g_new0 (XaDeployment, 1);
  self->inst = xa_installation_ref (inst);
  self->ref = xa_ref_dup (ref);
  base = xa_installation_dup_deploy_base (inst, ref);
  self->dir = g_build_filename (base, commit, NULL);
  self->files_dir = g_build_filename (self->dir, "files", NULL);
  self->commit = g_steal_pointer (&commit);
  self->origin = load_origin (self->dir);

  metadata_path = g_build_filename (self->dir, "metadata", NULL);
  self->metadata = xa_metadata_load_file (metadata_path, xa_ref_get_id (ref), error);
  if (self->metadata == NULL)
    return NULL;
  if (xa_metadata_get_kind (self->metadata) != xa_ref_get_kind (ref) ||
      g_strcmp0 (xa_metadata_get_name (self->metadata), xa_ref_get_id (ref)) != 0)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': the metadata of the deployment describes %s '%s'"),
                   self->dir,
                   xa_metadata_get_kind (self->metadata) == XA_METADATA_APP ? "app" : "runtime",
                   xa_metadata_get_name (self->metadata));
      return NULL;
    }
  return g_steal_pointer (&self);
}

static gboolean
matches (const XaRef *ref,
         const char *id,
         const char *arch)
{
  return strcmp (xa_ref_get_id (ref), id) == 0 &&
         strcmp (xa_ref_get_arch (ref), arch) == 0;
}

/* The one installed branch of KIND/ID/ARCH, or an error naming them. */
static XaRef *
pick_branch (XaInstallation *inst,
             XaMetadataKind kind,
             const char *id,
             const char *arch,
             GError **error)
{
  g_autoptr(GPtrArray) refs = xa_installation_list_refs (inst, kind, error);
  g_autoptr(GString) branches = NULL;
  XaRef *found = NULL;

  if (refs == NULL)
    return NULL;
  for (guint i = 0; i < refs->len; i++)
    {
      XaRef *ref = refs->pdata[i];

      if (!matches (ref, id, arch))
        continue;
      if (branches == NULL)
        branches = g_string_new (xa_ref_get_branch (ref));
      else
        g_string_append_printf (branches, ", %s", xa_ref_get_branch (ref));
      found = found == NULL ? ref : found;
    }
  if (found == NULL)
    {
      xa_store_error_set_not_installed (error, kind, id);
      return NULL;
    }
  if (strchr (branches->str, ',') != NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS,
                   _("'%s' is installed in several branches (%s); name one"),
                   id, branches->str);
      return NULL;
    }
  return xa_ref_dup (found);
}

/* Opens the active deployment of KIND/ID/ARCH/BRANCH.  @arch NULL means
 * the machine's; @branch NULL means the only one installed. */
XaDeployment *
xa_deployment_open (XaInstallation *inst,
                    XaMetadataKind kind,
                    const char *id,
                    const char *arch,
                    const char *branch,
                    GError **error)
{
  g_autoptr(XaRef) ref = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  if (arch == NULL)
    arch = xa_ref_get_default_arch ();
  if (branch != NULL)
    ref = xa_ref_new (kind, id, arch, branch, error);
  else if (xa_metadata_validate_id (id, error))
    ref = pick_branch (inst, kind, id, arch, error);
  if (ref == NULL)
    return NULL;
  return xa_deployment_open_ref (inst, ref, error);
}

/* Finds @runtime ("ID/ARCH/BRANCH", as a metadata file's runtime= names
 * it) in @installations, a NULL-terminated list in search order (the
 * caller puts the user's installation before the system's). */
XaDeployment *
xa_deployment_find_runtime (XaInstallation *const *installations,
                            const char *runtime,
                            GError **error)
{
  g_autoptr(XaRef) ref = xa_ref_parse_runtime (runtime, error);

  if (ref == NULL)
    return NULL;
  for (gsize i = 0; installations[i] != NULL; i++)
    {
      g_autofree char *commit = xa_installation_lookup_active (installations[i], ref);

      if (commit != NULL)
        return xa_deployment_open_ref (installations[i], ref, error);
    }
  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
               _("runtime '%s' is not installed; try: xdg-app install-runtime REMOTE %s %s"),
               runtime, xa_ref_get_id (ref), xa_ref_get_branch (ref));
  return NULL;
}

/* Every installed ref of @kind, opened, sorted by ref.  A deployment that
 * cannot be opened (its metadata was damaged on disk) is left out. */
GPtrArray *
xa_deployment_list (XaInstallation *inst,
                    XaMetadataKind kind,
                    GError **error)
{
  g_autoptr(GPtrArray) refs = xa_installation_list_refs (inst, kind, error);
  g_autoptr(GPtrArray) deployments = NULL;

  if (refs == NULL)
    return NULL;
  deployments = g_ptr_array_new_with_free_func ((GDestroyNotify) xa_deployment_free);
  for (guint i = 0; i < refs->len; i++)
    {
      g_autoptr(GError) local_error = NULL;
      XaDeployment *deployment = xa_deployment_open_ref (inst, refs->pdata[i], &local_error);

      if (deployment == NULL)
        g_debug ("%s", local_error->message);
      else
        g_ptr_array_add (deployments, deployment);
    }
  return g_steal_pointer (&deployments);
}

XaInstallation *
xa_deployment_get_installation (XaDeployment *self)
{
  return self->inst;
}

const XaRef *
xa_deployment_get_ref (XaDeployment *self)
{
  return self->ref;
}

XaMetadataKind
xa_deployment_get_kind (XaDeployment *self)
{
  return xa_ref_get_kind (self->ref);
}

const char *
xa_deployment_get_id (XaDeployment *self)
{
  return xa_ref_get_id (self->ref);
}

const char *
xa_deployment_get_arch (XaDeployment *self)
{
  return xa_ref_get_arch (self->ref);
}

const char *
xa_deployment_get_branch (XaDeployment *self)
{
  return xa_ref_get_branch (self->ref);
}

/* BASE/KIND/ID/ARCH/BRANCH/COMMIT */
const char *
xa_deployment_get_dir (XaDeployment *self)
{
  return self->dir;
}

/* What the sandbox mounts at /self (apps) or /usr (runtimes). */
const char *
xa_deployment_get_files_dir (XaDeployment *self)
{
  return self->files_dir;
}

XaMetadata *
xa_deployment_get_metadata (XaDeployment *self)
{
  return self->metadata;
}

const char *
xa_deployment_get_commit (XaDeployment *self)
{
  return self->commit;
}

/* The remote it was installed from, or NULL when unknown. */
const char *
xa_deployment_get_origin (XaDeployment *self)
{
  return self->origin;
}
