/* store/remote.c — adds, deletes and lists remotes, and reads what a
 * remote carries from its summary.  Trusts: libostree for the config
 * file format, store/summary.c for fetching and (when gpg-verify-summary
 * is on) verifying the summary.  Checks every name and URL it is given before
 * anything is written: a name becomes part of a config group header and
 * of ref names ("NAME:app/…"). */
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <ostree.h>

#include "policy/escape.h"
#include "store/deployment.h"
#include "store/installation.h"
#include "store/repo.h"
#include "store/ref.h"
#include "store/remote.h"
#include "store/store-error.h"
#include "store/summary.h"

/* A name longer than this is a mistake, not a remote. */
#define REMOTE_NAME_MAX 128

struct _XaRemote
{
  char *name;
  char *url;
  char *title;   /* NULL when the remote has none */
  gboolean gpg_verify;
};

gboolean
xa_remote_validate_name (const char *name,
                         GError **error)
{
  gsize len = strlen (name);
  gboolean ok = len > 0 && len <= REMOTE_NAME_MAX && name[0] != '-' && name[0] != '.';

  for (const char *p = name; ok && *p != '\0'; p++)
    ok = g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '-';
  if (!ok)
    {
      g_autofree char *shown = xa_escape_for_terminal (name, -1);

      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("invalid remote name '%s': use up to %d letters, digits, "
                     "'_', '.' and '-', not starting with '-' or '.'"),
                   shown, REMOTE_NAME_MAX);
      return FALSE;
    }
  return TRUE;
}

/* http://, https:// with a host, or file://; no spaces or control
 * characters (the URL goes into a config file and into log lines). */
static gboolean
is_valid_url (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  for (const char *p = url; *p != '\0'; p++)
    if ((guchar) *p <= 0x20 || *p == 0x7f)
      return FALSE;
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return FALSE;
  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "file") == 0)
    return TRUE;
  return (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0) &&
         g_uri_get_host (uri) != NULL && g_uri_get_host (uri)[0] != '\0';
}

static gboolean
validate_url (const char *name,
              const char *url,
              GError **error)
{
  g_autofree char *shown = NULL;

  if (is_valid_url (url))
    return TRUE;
  shown = xa_escape_for_terminal (url, -1);
  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
               _("invalid URL '%s' for remote '%s' (valid: http://HOST/…, "
                 "https://HOST/…, file:///PATH)"),
               shown, name);
  return FALSE;
}

static gboolean
remote_exists (OstreeRepo *repo,
               const char *name)
{
  g_auto(GStrv) names = ostree_repo_remote_list (repo, NULL);

  return names != NULL && g_strv_contains ((const char * const *) names, name);
}

static gboolean
set_not_found (OstreeRepo *repo,
               const char *name,
               GError **error)
{
  g_auto(GStrv) names = ostree_repo_remote_list (repo, NULL);
  g_autofree char *known = names != NULL ? g_strjoinv (", ", names) : NULL;

  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_NOT_FOUND,
               _("remote '%s' does not exist (remotes: %s)"), name,
               known != NULL ? known : "none");
  return FALSE;
}

/* Opens the repository and checks that remote @name exists. */
static OstreeRepo *
open_with_remote (XaInstallation *inst,
                  const char *name,
                  GError **error)
{
  OstreeRepo *repo;

  if (!xa_remote_validate_name (name, error))
    return NULL;
  repo = xa_installation_ensure_repo (inst, NULL, error);
  if (repo == NULL)
    return NULL;
  if (!remote_exists (repo, name))
    {
      set_not_found (repo, name, error);
      return NULL;
    }
  return repo;
}

static gboolean
import_keys (OstreeRepo *repo,
             const char *name,
             const char *keyring_path,
             GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (keyring_path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, error);
  guint imported = 0;

  if (stream == NULL)
    return FALSE;
  if (!ostree_repo_remote_gpg_import (repo, name, G_INPUT_STREAM (stream), NULL,
                                      &imported, NULL, error))
    {
      g_prefix_error (error, _("cannot import GPG keys from '%s': "), keyring_path);
      return FALSE;
    }
  if (imported == 0)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REMOTE,
                   _("'%s' holds no GPG keys"), keyring_path);
      return FALSE;
    }
  return TRUE;
}

/* Adds remote @name.  With @gpg_verify, commits and the summary must be
 * signed by a key of the remote's keyring (@gpg_keyring_path, imported
 * here) or of ostree's system keyrings — as `flatpak remote-add` sets it
 * up.  On any failure nothing is left behind. */
gboolean
xa_remote_add (XaInstallation *inst,
               const char *name,
               const char *url,
               gboolean gpg_verify,
               const char *gpg_keyring_path,
               const char *title,
               GError **error)
{
  g_autoptr(XaInstallationLock) lock = NULL;
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{sv}"));
  g_autoptr(GError) key_error = NULL;
  OstreeRepo *repo;

  g_return_val_if_fail (name != NULL && url != NULL, FALSE);

  if (!xa_installation_check_writable (inst, error) ||
      !xa_remote_validate_name (name, error) ||
      !validate_url (name, url, error))
    return FALSE;
  lock = xa_installation_lock (inst, error);
  if (lock == NULL)
    return FALSE;
  repo = xa_installation_ensure_repo (inst, NULL, error);
  if (repo == NULL)
    return FALSE;
  if (remote_exists (repo, name))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_EXISTS,
                   _("remote '%s' already exists"), name);
      return FALSE;
    }

  g_variant_builder_add (&options, "{sv}", "gpg-verify", g_variant_new_boolean (gpg_verify));
  g_variant_builder_add (&options, "{sv}", "gpg-verify-summary",
                         g_variant_new_boolean (gpg_verify));
  if (title != NULL)
    g_variant_builder_add (&options, "{sv}", "xa.title", g_variant_new_string (title));
  if (!ostree_repo_remote_change (repo, NULL, OSTREE_REPO_REMOTE_CHANGE_ADD, name, url,
                                  g_variant_builder_end (&options), NULL, error))
    {
      g_prefix_error (error, _("remote '%s': "), name);
      return FALSE;
    }

  if (gpg_keyring_path != NULL && !import_keys (repo, name, gpg_keyring_path, &key_error))
    {
      /* Deleting also removes the remote's keyring file. */
      (void) ostree_repo_remote_change (repo, NULL, OSTREE_REPO_REMOTE_CHANGE_DELETE_IF_EXISTS,
                                        name, NULL, NULL, NULL, NULL);
      g_propagate_error (error, g_steal_pointer (&key_error));
      return FALSE;
    }
  return TRUE;
}

/* Quoted ids of the installed refs that came from @name, or NULL. */
static char *
dup_users (const char *name,
           GPtrArray *deployments)
{
  g_autoptr(GString) users = NULL;

  for (guint i = 0; i < deployments->len; i++)
    {
      XaDeployment *deployment = deployments->pdata[i];

      if (g_strcmp0 (xa_deployment_get_origin (deployment), name) != 0)
        continue;
      if (users == NULL)
        users = g_string_new (NULL);
      else
        g_string_append (users, ", ");
      g_string_append_printf (users, "'%s'", xa_deployment_get_id (deployment));
    }
  return users != NULL ? g_string_free (g_steal_pointer (&users), FALSE) : NULL;
}

static gboolean
is_deployed_from (GPtrArray *deployments,
                  const char *name,
                  const char *ref)
{
  for (guint i = 0; i < deployments->len; i++)
    {
      XaDeployment *deployment = deployments->pdata[i];

      if (g_strcmp0 (xa_deployment_get_origin (deployment), name) == 0 &&
          strcmp (xa_ref_get_string (xa_deployment_get_ref (deployment)), ref) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Drops the remote's refs in the local repository, except those an
 * installed ref still needs (they keep its objects from being pruned). */
static gboolean
delete_unused_refs (OstreeRepo *repo,
                    const char *name,
                    GPtrArray *deployments,
                    GError **error)
{
  g_autoptr(GHashTable) refs = NULL;
  GHashTableIter iter;
  gpointer key;

  if (!ostree_repo_list_refs_ext (repo, NULL, &refs, OSTREE_REPO_LIST_REFS_EXT_NONE,
                                  NULL, error))
    return FALSE;
  g_hash_table_iter_init (&iter, refs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *refspec = key;
      const char *colon = strchr (refspec, ':');

      if (colon == NULL || strncmp (refspec, name, colon - refspec) != 0 ||
          (gsize) (colon - refspec) != strlen (name))
        continue;
      if (is_deployed_from (deployments, name, colon + 1))
        continue;
      if (!ostree_repo_set_ref_immediate (repo, name, colon + 1, NULL, NULL, error))
        return FALSE;
    }
  return TRUE;
}

static GPtrArray *
list_all_deployments (XaInstallation *inst,
                      GError **error)
{
  g_autoptr(GPtrArray) all = xa_deployment_list (inst, XA_METADATA_APP, error);
  g_autoptr(GPtrArray) runtimes = NULL;

  if (all == NULL)
    return NULL;
  runtimes = xa_deployment_list (inst, XA_METADATA_RUNTIME, error);
  if (runtimes == NULL)
    return NULL;
  g_ptr_array_extend_and_steal (all, g_steal_pointer (&runtimes));
  return g_steal_pointer (&all);
}

/* Deletes remote @name.  Refused while installed refs came from it,
 * unless @force: they stay installed but cannot be updated. */
gboolean
xa_remote_delete (XaInstallation *inst,
                  const char *name,
                  gboolean force,
                  GError **error)
{
  g_autoptr(XaInstallationLock) lock = NULL;
  g_autoptr(GPtrArray) deployments = NULL;
  g_autofree char *users = NULL;
  OstreeRepo *repo;

  if (!xa_installation_check_writable (inst, error))
    return FALSE;
  lock = xa_installation_lock (inst, error);
  if (lock == NULL)
    return FALSE;
  repo = open_with_remote (inst, name, error);
  if (repo == NULL)
    return FALSE;
  deployments = list_all_deployments (inst, error);
  if (deployments == NULL)
    return FALSE;

  users = dup_users (name, deployments);
  if (users != NULL && !force)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REMOTE_IN_USE,
                   _("remote '%s' is the origin of %s; uninstall them first or use --force"),
                   name, users);
      return FALSE;
    }

  if (!delete_unused_refs (repo, name, deployments, error) ||
      !ostree_repo_remote_change (repo, NULL, OSTREE_REPO_REMOTE_CHANGE_DELETE, name,
                                  NULL, NULL, NULL, error))
    {
      g_prefix_error (error, _("remote '%s': "), name);
      return FALSE;
    }
  return TRUE;
}

XaRemote *
xa_remote_load (XaInstallation *inst,
                const char *name,
                GError **error)
{
  g_autoptr(XaRemote) self = NULL;
  OstreeRepo *repo = open_with_remote (inst, name, error);

  if (repo == NULL)
    return NULL;

  self = g_new0 (XaRemote, 1);
  self->name = g_strdup (name);
  if (!ostree_repo_remote_get_url (repo, name, &self->url, error) ||
      !ostree_repo_get_remote_option (repo, name, "xa.title", NULL, &self->title, error) ||
      !ostree_repo_remote_get_gpg_verify (repo, name, &self->gpg_verify, error))
    {
      g_prefix_error (error, _("remote '%s': "), name);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* Every remote, sorted by name. */
GPtrArray *
xa_remote_list (XaInstallation *inst,
                GError **error)
{
  g_autoptr(GPtrArray) remotes = g_ptr_array_new_with_free_func ((GDestroyNotify) xa_remote_free);
  g_auto(GStrv) names = NULL;
  OstreeRepo *repo;

  /* A system installation nobody has made yet has no remotes. */
  if (!xa_installation_has_repo (inst) && !xa_installation_check_writable (inst, NULL))
    return g_steal_pointer (&remotes);
  repo = xa_installation_ensure_repo (inst, NULL, error);
  if (repo == NULL)
    return NULL;
  names = ostree_repo_remote_list (repo, NULL);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      XaRemote *remote;

      /* ostree also reads remotes.d/; names we would refuse are skipped. */
      if (!xa_remote_validate_name (names[i], NULL))
        continue;
      remote = xa_remote_load (inst, names[i], error);
      if (remote == NULL)
        return NULL;
      g_ptr_array_add (remotes, remote);
    }
  return g_steal_pointer (&remotes);
}

void
xa_remote_free (XaRemote *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->url);
  g_free (self->title);
  g_free (self);
}

const char *
xa_remote_get_name (XaRemote *self)
{
  return self->name;
}

const char *
xa_remote_get_url (XaRemote *self)
{
  return self->url;
}

const char *
xa_remote_get_title (XaRemote *self)
{
  return self->title;
}

gboolean
xa_remote_get_gpg_verify (XaRemote *self)
{
  return self->gpg_verify;
}

/* The refs remote @name carries for @arch (NULL: the machine's), from its
 * summary: ref → commit.  Refs of other arches may be absent. */
GHashTable *
xa_remote_list_refs (XaInstallation *inst,
                     const char *name,
                     const char *arch,
                     GCancellable *cancellable,
                     GError **error)
{
  g_autoptr(XaSummary) summary = NULL;

  if (open_with_remote (inst, name, error) == NULL)
    return NULL;
  summary = xa_summary_load (inst, name, arch, cancellable, error);
  if (summary == NULL)
    return NULL;
  return g_hash_table_ref (xa_summary_get_refs (summary));
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The branches of KIND/ID/ARCH on remote @name, sorted; @arch NULL is the
 * machine's.  May be empty. */
GStrv
xa_remote_list_branches (XaInstallation *inst,
                         const char *name,
                         XaMetadataKind kind,
                         const char *id,
                         const char *arch,
                         GCancellable *cancellable,
                         GError **error)
{
  g_autoptr(GHashTable) refs = NULL;
  g_autoptr(GPtrArray) branches = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(XaRef) wanted = NULL;
  g_autofree char *prefix = NULL;
  GHashTableIter iter;
  gpointer key;

  /* Checks id and arch; the branch is a placeholder. */
  wanted = xa_ref_new (kind, id, arch, "any", error);
  if (wanted == NULL)
    return NULL;
  refs = xa_remote_list_refs (inst, name, xa_ref_get_arch (wanted), cancellable, error);
  if (refs == NULL)
    return NULL;
  prefix = g_strconcat (xa_ref_get_kind_name (wanted), "/", xa_ref_get_id (wanted), "/",
                        xa_ref_get_arch (wanted), "/", NULL);
  g_hash_table_iter_init (&iter, refs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *ref = key;
      g_autoptr(XaRef) parsed = NULL;

      if (!g_str_has_prefix (ref, prefix))
        continue;
      /* A ref with a bad branch is somebody else's problem: not listed. */
      parsed = xa_ref_parse (ref, NULL);
      if (parsed != NULL)
        g_ptr_array_add (branches, g_strdup (xa_ref_get_branch (parsed)));
    }
  g_ptr_array_sort (branches, compare_strings);
  g_ptr_array_add (branches, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&branches), FALSE);
}

/* The only branch of KIND/ID/ARCH on remote @name; an error names the
 * branches to choose from when there are several. */
char *
xa_remote_resolve_branch (XaInstallation *inst,
                          const char *name,
                          XaMetadataKind kind,
                          const char *id,
                          const char *arch,
                          GCancellable *cancellable,
                          GError **error)
{
  g_auto(GStrv) branches = xa_remote_list_branches (inst, name, kind, id, arch,
                                                    cancellable, error);
  g_autofree char *listed = NULL;

  if (branches == NULL)
    return NULL;
  switch (g_strv_length (branches))
    {
    case 0:
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_REF_NOT_FOUND,
                   _("'%s' is not in remote '%s'"), id, name);
      return NULL;
    case 1:
      return g_strdup (branches[0]);
    default:
      listed = g_strjoinv (", ", branches);
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_AMBIGUOUS,
                   _("'%s' has several branches in remote '%s' (%s); name one"),
                   id, name, listed);
      return NULL;
    }
}
