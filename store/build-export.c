/* store/build-export.c — commits a build directory to an OSTree repository
 * as app/ID/ARCH/BRANCH or runtime/ID/ARCH/BRANCH, laid out the way
 * `flatpak build-export` (1.14) lays it out so that Flatpak installs it:
 *
 *   commit root   metadata (0644), files/ (the build's files, or --files),
 *                 export/ (apps only), all owned by 0:0, modes canonical
 *   commit meta   xa.metadata (the metadata file, byte for byte),
 *                 xa.installed-size and xa.download-size (big-endian u64),
 *                 xa.ref, ostree.ref-binding, ostree.collection-binding
 *   summary       OSTree's, plus xa.cache {ref: (installed, download,
 *                 metadata)}, xa.sparse-cache and xa.cache-version, which
 *                 a Flatpak client reads before it pulls anything
 *
 * Trusts: the build directory and the options (they come from the user
 * who runs the export).  The repository may hold commits from anyone;
 * the summary copies their xa.* values only when they have the right
 * types. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <ostree.h>

#include "policy/metadata.h"
#include "store/build-export.h"
#include "store/ref.h"
#include "store/store-error.h"

/* Flatpak's summary cache format: version 2 is what Flatpak 1.14 writes
 * and expects before it trusts the cache of an indexed summary. */
#define XA_CACHE_VERSION 2

typedef struct
{
  XaBuildExportOptions  opts;      /* with the defaults filled in */
  char                 *files_path;
  char                 *metadata_path;
  char                 *export_path;
  char                 *metadata_contents;
  gsize                 metadata_len;
  XaRef                *ref;
  OstreeRepo           *repo;
} ExportJob;

static void
export_job_clear (ExportJob *job)
{
  g_free (job->files_path);
  g_free (job->metadata_path);
  g_free (job->export_path);
  g_free (job->metadata_contents);
  g_clear_pointer (&job->ref, xa_ref_free);
  g_clear_object (&job->repo);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportJob, export_job_clear)

/* Owner 0:0, no xattrs, and Flatpak's canonical modes: 0755 for
 * directories and for files the owner may run, 0644 for the rest.  No
 * setuid bit, no group or world write, whatever the build left. */
static OstreeRepoCommitFilterResult
canonicalize_filter (OstreeRepo *repo,
                     const char *path,
                     GFileInfo  *info,
                     gpointer    user_data)
{
  guint32 mode = g_file_info_get_attribute_uint32 (info, "unix::mode");

  g_file_info_set_attribute_uint32 (info, "unix::uid", 0);
  g_file_info_set_attribute_uint32 (info, "unix::gid", 0);

  switch (g_file_info_get_file_type (info))
    {
    case G_FILE_TYPE_DIRECTORY:
      mode = S_IFDIR | 0755;
      break;
    case G_FILE_TYPE_REGULAR:
      mode = S_IFREG | ((mode & S_IXUSR) ? 0755 : 0644);
      break;
    case G_FILE_TYPE_SYMBOLIC_LINK:
      break;
    default:
      /* Sockets and FIFOs a build left behind are not content. */
      g_debug ("build-export: skipping special file '%s'", path);
      return OSTREE_REPO_COMMIT_FILTER_SKIP;
    }
  g_file_info_set_attribute_uint32 (info, "unix::mode", mode);
  return OSTREE_REPO_COMMIT_FILTER_ALLOW;
}

static gboolean
set_root_dirmeta (OstreeRepo         *repo,
                  OstreeMutableTree  *mtree,
                  GCancellable       *cancellable,
                  GError            **error)
{
  g_autoptr(GFileInfo) info = g_file_info_new ();
  g_autoptr(GVariant) dirmeta = NULL;
  g_autofree guchar *csum = NULL;
  g_autofree char *checksum = NULL;

  g_file_info_set_name (info, "/");
  g_file_info_set_file_type (info, G_FILE_TYPE_DIRECTORY);
  g_file_info_set_attribute_uint32 (info, "unix::uid", 0);
  g_file_info_set_attribute_uint32 (info, "unix::gid", 0);
  g_file_info_set_attribute_uint32 (info, "unix::mode", S_IFDIR | 0755);

  dirmeta = g_variant_ref_sink (ostree_create_directory_metadata (info, NULL));
  if (!ostree_repo_write_metadata (repo, OSTREE_OBJECT_TYPE_DIR_META, NULL, dirmeta,
                                   &csum, cancellable, error))
    return FALSE;
  checksum = ostree_checksum_from_bytes (csum);
  ostree_mutable_tree_set_metadata_checksum (mtree, checksum);
  return TRUE;
}

/* The metadata file goes in from the bytes we read, so that the file and
 * xa.metadata are the same even if the build directory changes under us:
 * Flatpak refuses a deployment whose metadata differs from xa.metadata. */
static gboolean
add_metadata_file (ExportJob          *job,
                   OstreeMutableTree  *mtree,
                   GCancellable       *cancellable,
                   GError            **error)
{
  g_autoptr(GFileInfo) info = g_file_info_new ();
  g_autoptr(GInputStream) raw = NULL;
  g_autoptr(GInputStream) content = NULL;
  g_autofree guchar *csum = NULL;
  g_autofree char *checksum = NULL;
  guint64 length;

  g_file_info_set_name (info, "metadata");
  g_file_info_set_file_type (info, G_FILE_TYPE_REGULAR);
  g_file_info_set_size (info, job->metadata_len);
  g_file_info_set_attribute_uint32 (info, "unix::uid", 0);
  g_file_info_set_attribute_uint32 (info, "unix::gid", 0);
  g_file_info_set_attribute_uint32 (info, "unix::mode", S_IFREG | 0644);

  raw = g_memory_input_stream_new_from_data (job->metadata_contents, job->metadata_len, NULL);
  if (!ostree_raw_file_to_content_stream (raw, info, NULL, &content, &length,
                                          cancellable, error) ||
      !ostree_repo_write_content (job->repo, NULL, content, length, &csum,
                                  cancellable, error))
    return FALSE;
  checksum = ostree_checksum_from_bytes (csum);
  return ostree_mutable_tree_replace_file (mtree, "metadata", checksum, error);
}

static gboolean
add_dir (ExportJob          *job,
         OstreeMutableTree  *root,
         const char         *name,
         const char         *path,
         GCancellable       *cancellable,
         GError            **error)
{
  g_autoptr(OstreeMutableTree) subtree = NULL;
  g_autoptr(OstreeRepoCommitModifier) modifier = NULL;

  modifier = ostree_repo_commit_modifier_new (OSTREE_REPO_COMMIT_MODIFIER_FLAGS_SKIP_XATTRS,
                                              canonicalize_filter, NULL, NULL);
  if (!ostree_mutable_tree_ensure_dir (root, name, &subtree, error) ||
      !ostree_repo_write_dfd_to_mtree (job->repo, AT_FDCWD, path, subtree, modifier,
                                       cancellable, error))
    {
      g_prefix_error (error, "'%s': ", path);
      return FALSE;
    }
  return TRUE;
}

/* The size of a content object as stored.  A new object still sits in
 * the transaction's staging directory, where OSTree's query does not
 * look; then the stored size is that of the file under its stream. */
static gboolean
object_storage_size (OstreeRepo    *repo,
                     const char    *checksum,
                     guint64       *out_size,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GInputStream) input = NULL;
  GInputStream *base;
  struct stat st;
  guint64 size;

  if (ostree_repo_query_object_storage_size (repo, OSTREE_OBJECT_TYPE_FILE, checksum,
                                             &size, cancellable, &local_error))
    {
      *out_size = size;
      return TRUE;
    }
  if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (!ostree_repo_load_file (repo, checksum, &input, NULL, NULL, cancellable, error))
    return FALSE;
  base = input;
  while (base != NULL && G_IS_FILTER_INPUT_STREAM (base))
    base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (base));
  if (base == NULL || !G_IS_UNIX_INPUT_STREAM (base) ||
      fstat (g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (base)), &st) != 0)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   "cannot find the stored size of object %s", checksum);
      return FALSE;
    }
  *out_size = st.st_size;
  return TRUE;
}

/* Flatpak's sizes: installed counts each regular file in 512-byte
 * blocks; download counts the stored objects. */
static gboolean
collect_sizes (OstreeRepo    *repo,
               GFile         *file,
               GFileInfo     *info,
               guint64       *installed,
               guint64       *download,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GFileEnumerator) children = NULL;

  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
    {
      guint64 stored = 0;

      *installed += (((guint64) g_file_info_get_size (info) + 511) / 512) * 512;
      if (!object_storage_size (repo, ostree_repo_file_get_checksum (OSTREE_REPO_FILE (file)),
                                &stored, cancellable, error))
        return FALSE;
      *download += stored;
      return TRUE;
    }
  if (info != NULL && g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY)
    return TRUE;

  children = g_file_enumerate_children (file, "standard::name,standard::type,standard::size",
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, error);
  if (children == NULL)
    return FALSE;
  while (TRUE)
    {
      GFileInfo *child_info;
      GFile *child;

      if (!g_file_enumerator_iterate (children, &child_info, &child, cancellable, error))
        return FALSE;
      if (child_info == NULL)
        break;
      if (!collect_sizes (repo, child, child_info, installed, download, cancellable, error))
        return FALSE;
    }
  return TRUE;
}

static GVariant *
commit_metadata (ExportJob     *job,
                 GFile         *root,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);
  const char *ref = xa_ref_get_string (job->ref);
  const char *collection_id = ostree_repo_get_collection_id (job->repo);
  guint64 installed = 0;
  guint64 download = 0;

  if (!collect_sizes (job->repo, root, NULL, &installed, &download, cancellable, error))
    return NULL;

  /* OSTree checks these bindings on pull, so a commit cannot be served
   * under another ref; xa.ref is the older spelling Flatpak still reads. */
  g_variant_dict_insert_value (&dict, "ostree.collection-binding",
                               g_variant_new_string (collection_id != NULL ? collection_id : ""));
  g_variant_dict_insert_value (&dict, "ostree.ref-binding",
                               g_variant_new_strv (&ref, 1));
  g_variant_dict_insert_value (&dict, "xa.ref", g_variant_new_string (ref));
  g_variant_dict_insert_value (&dict, "xa.metadata",
                               g_variant_new_string (job->metadata_contents));
  g_variant_dict_insert_value (&dict, "xa.installed-size",
                               g_variant_new_uint64 (GUINT64_TO_BE (installed)));
  g_variant_dict_insert_value (&dict, "xa.download-size",
                               g_variant_new_uint64 (GUINT64_TO_BE (download)));
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static gboolean
open_or_create_repo (ExportJob     *job,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GFile) path = g_file_new_for_path (job->opts.repo);
  g_autoptr(GDir) dir = g_dir_open (job->opts.repo, 0, NULL);
  gboolean empty = dir == NULL || g_dir_read_name (dir) == NULL;

  job->repo = ostree_repo_new (path);
  /* Flatpak serves archive-z2 repositories over HTTP: one compressed
   * file per object. */
  if (empty ? !ostree_repo_create (job->repo, OSTREE_REPO_MODE_ARCHIVE_Z2, cancellable, error)
            : !ostree_repo_open (job->repo, cancellable, error))
    {
      g_prefix_error (error, _("repository '%s': "), job->opts.repo);
      return FALSE;
    }
  return TRUE;
}

/* Everything between prepare and commit of the transaction. */
static gboolean
write_commit (ExportJob     *job,
              GCancellable  *cancellable,
              char         **out_commit,
              GError       **error)
{
  g_autoptr(OstreeMutableTree) mtree = ostree_mutable_tree_new ();
  g_autoptr(GFile) root = NULL;
  g_autoptr(GVariant) metadata = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *commit = NULL;
  g_autofree char *subject = NULL;
  g_autofree char *body = NULL;
  const char *ref = xa_ref_get_string (job->ref);
  const char *collection_id = ostree_repo_get_collection_id (job->repo);

  if (!ostree_repo_resolve_rev (job->repo, ref, TRUE, &parent, error) ||
      !set_root_dirmeta (job->repo, mtree, cancellable, error) ||
      !add_dir (job, mtree, "files", job->files_path, cancellable, error) ||
      (job->export_path != NULL &&
       !add_dir (job, mtree, "export", job->export_path, cancellable, error)) ||
      !add_metadata_file (job, mtree, cancellable, error) ||
      !ostree_repo_write_mtree (job->repo, mtree, &root, cancellable, error))
    return FALSE;

  metadata = commit_metadata (job, root, cancellable, error);
  if (metadata == NULL)
    return FALSE;

  subject = job->opts.subject != NULL ? g_strdup (job->opts.subject)
                                      : g_strconcat ("Export ", xa_ref_get_id (job->ref), NULL);
  body = job->opts.body != NULL ? g_strdup (job->opts.body)
                                : g_strdup_printf ("Name: %s\nArch: %s\nBranch: %s\n"
                                                   "Built with: xdg-app\n",
                                                   xa_ref_get_id (job->ref),
                                                   xa_ref_get_arch (job->ref),
                                                   xa_ref_get_branch (job->ref));
  if (!ostree_repo_write_commit (job->repo, parent, subject, body, metadata,
                                 OSTREE_REPO_FILE (root), &commit, cancellable, error))
    return FALSE;

  for (gsize i = 0; job->opts.gpg_key_ids != NULL && job->opts.gpg_key_ids[i] != NULL; i++)
    if (!ostree_repo_sign_commit (job->repo, commit, job->opts.gpg_key_ids[i],
                                  job->opts.gpg_homedir, cancellable, error))
      {
        g_prefix_error (error, _("signing with key '%s': "), job->opts.gpg_key_ids[i]);
        return FALSE;
      }

  if (collection_id != NULL)
    {
      OstreeCollectionRef cref = { (char *) collection_id, (char *) ref };
      ostree_repo_transaction_set_collection_ref (job->repo, &cref, commit);
    }
  else
    ostree_repo_transaction_set_ref (job->repo, NULL, ref, commit);

  if (!ostree_repo_commit_transaction (job->repo, NULL, cancellable, error))
    return FALSE;

  *out_commit = g_steal_pointer (&commit);
  return TRUE;
}

/* Reads and checks the build directory: its metadata names the ref. */
static gboolean
load_build_dir (ExportJob  *job,
                GError    **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *arch = NULL;
  const char *group = "Application";
  XaMetadataKind kind = XA_METADATA_APP;

  job->files_path = g_build_filename (job->opts.dir, job->opts.files, NULL);
  job->metadata_path = g_build_filename (job->opts.dir, job->opts.metadata, NULL);
  if (!g_file_test (job->files_path, G_FILE_TEST_IS_DIR) ||
      !g_file_test (job->metadata_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("'%s' is not a build directory (no '%s' or no '%s'); try: xdg-app build-init"),
                   job->opts.dir, job->opts.files, job->opts.metadata);
      return FALSE;
    }

  if (!g_file_get_contents (job->metadata_path, &job->metadata_contents,
                            &job->metadata_len, error))
    return FALSE;
  if (strlen (job->metadata_contents) != job->metadata_len ||
      !g_utf8_validate (job->metadata_contents, -1, NULL) ||
      !g_key_file_load_from_data (keyfile, job->metadata_contents, job->metadata_len,
                                  G_KEY_FILE_NONE, &local_error))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT, "'%s': %s",
                   job->metadata_path,
                   local_error != NULL ? local_error->message : _("not UTF-8 text"));
      return FALSE;
    }

  id = g_key_file_get_string (keyfile, group, "name", NULL);
  if (id == NULL)
    {
      group = "Runtime";
      kind = XA_METADATA_RUNTIME;
      id = g_key_file_get_string (keyfile, group, "name", NULL);
    }
  if (id == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': no name in [Application] or [Runtime]"), job->metadata_path);
      return FALSE;
    }
  if (job->opts.runtime)
    kind = XA_METADATA_RUNTIME;

  /* The arch a build is for is its runtime's: ID/ARCH/BRANCH. */
  arch = g_strdup (job->opts.arch);
  runtime = g_key_file_get_string (keyfile, group, "runtime", NULL);
  if (arch == NULL && runtime != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (runtime, "/", 0);

      if (g_strv_length (parts) != 3)
        {
          g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                       _("'%s': runtime '%s' is not ID/ARCH/BRANCH"), job->metadata_path, runtime);
          return FALSE;
        }
      arch = g_strdup (parts[1]);
    }

  job->ref = xa_ref_new (kind, id, arch, job->opts.branch, error);
  if (job->ref == NULL)
    return FALSE;

  if (kind == XA_METADATA_APP)
    {
      job->export_path = g_build_filename (job->opts.dir, "export", NULL);
      if (!g_file_test (job->export_path, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("'%s' is not finished (no 'export'); try: xdg-app build-finish %s"),
                       job->opts.dir, job->opts.dir);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
xa_build_export (const XaBuildExportOptions  *options,
                 GCancellable                *cancellable,
                 char                       **out_commit,
                 GError                     **error)
{
  g_auto(ExportJob) job = { 0 };
  g_autofree char *commit = NULL;

  g_return_val_if_fail (options != NULL && options->repo != NULL && options->dir != NULL, FALSE);

  job.opts = *options;
  if (job.opts.branch == NULL)
    job.opts.branch = "master";
  if (job.opts.files == NULL)
    job.opts.files = "files";
  if (job.opts.metadata == NULL)
    job.opts.metadata = "metadata";

  if (!load_build_dir (&job, error) ||
      !open_or_create_repo (&job, cancellable, error))
    return FALSE;

  if (!ostree_repo_prepare_transaction (job.repo, NULL, cancellable, error))
    return FALSE;
  if (!write_commit (&job, cancellable, &commit, error))
    {
      (void) ostree_repo_abort_transaction (job.repo, NULL, NULL);
      g_prefix_error (error, _("exporting '%s' to '%s': "),
                      xa_ref_get_string (job.ref), job.opts.repo);
      return FALSE;
    }

  if (!job.opts.no_update_summary &&
      !xa_build_export_update_summary (job.repo, job.opts.gpg_key_ids, job.opts.gpg_homedir,
                                       cancellable, error))
    return FALSE;

  if (out_commit != NULL)
    *out_commit = g_steal_pointer (&commit);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The summary                                                        */

/* One xa.cache entry, (installed-size, download-size, metadata), from a
 * commit's own metadata; NULL for a commit that is not Flatpak's kind. */
static gboolean
cache_entry (OstreeRepo  *repo,
             const char  *checksum,
             GVariant   **out_entry,
             GError     **error)
{
  g_autoptr(GVariant) commit = NULL;
  g_autoptr(GVariant) meta = NULL;
  g_autoptr(GVariant) xa_metadata = NULL;
  g_autoptr(GVariant) installed = NULL;
  g_autoptr(GVariant) download = NULL;

  if (!ostree_repo_load_variant (repo, OSTREE_OBJECT_TYPE_COMMIT, checksum, &commit, error))
    return FALSE;
  meta = g_variant_get_child_value (commit, 0);
  xa_metadata = g_variant_lookup_value (meta, "xa.metadata", G_VARIANT_TYPE_STRING);
  installed = g_variant_lookup_value (meta, "xa.installed-size", G_VARIANT_TYPE_UINT64);
  download = g_variant_lookup_value (meta, "xa.download-size", G_VARIANT_TYPE_UINT64);
  if (xa_metadata == NULL || installed == NULL || download == NULL)
    {
      *out_entry = NULL;
      return TRUE;
    }

  /* The sizes stay big-endian, as they are in the commit. */
  *out_entry = g_variant_ref_sink (g_variant_new ("(tt@s)", g_variant_get_uint64 (installed),
                                                  g_variant_get_uint64 (download), xa_metadata));
  return TRUE;
}

/* Flatpak 1.14 reads "summary.idx" before "summary" when a repository has
 * one (`flatpak build-update-repo` writes it).  Ours would go stale, so it
 * goes: clients fall back to the summary written here. */
static gboolean
remove_stale_index (OstreeRepo  *repo,
                    GError     **error)
{
  const char *names[] = { "summary.idx", "summary.idx.sig" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (unlinkat (ostree_repo_get_dfd (repo), names[i], 0) != 0 && errno != ENOENT)
      {
        int errsv = errno;
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                     "unlink '%s': %s", names[i], g_strerror (errsv));
        return FALSE;
      }
  return TRUE;
}

gboolean
xa_build_export_update_summary (OstreeRepo          *repo,
                                const char * const  *gpg_key_ids,
                                const char          *gpg_homedir,
                                GCancellable        *cancellable,
                                GError             **error)
{
  g_autoptr(GHashTable) refs = NULL;
  g_autoptr(GList) names = NULL;
  g_auto(GVariantBuilder) cache = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{s(tts)}"));
  g_auto(GVariantDict) extra = G_VARIANT_DICT_INIT (NULL);
  g_autoptr(GVariant) extra_v = NULL;

  g_return_val_if_fail (OSTREE_IS_REPO (repo), FALSE);

  if (!ostree_repo_list_refs (repo, NULL, &refs, cancellable, error))
    return FALSE;
  names = g_list_sort (g_hash_table_get_keys (refs), (GCompareFunc) strcmp);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *ref = l->data;
      g_autoptr(GVariant) entry = NULL;

      if (!g_str_has_prefix (ref, "app/") && !g_str_has_prefix (ref, "runtime/"))
        continue;
      if (!cache_entry (repo, g_hash_table_lookup (refs, ref), &entry, error))
        return FALSE;
      if (entry != NULL)
        g_variant_builder_add (&cache, "{s@(tts)}", ref, entry);
    }

  /* xa.cache is a variant inside the variant of the a{sv}: Flatpak reads
   * it that way, for historical reasons. */
  g_variant_dict_insert_value (&extra, "xa.cache",
                               g_variant_new_variant (g_variant_builder_end (&cache)));
  g_variant_dict_insert_value (&extra, "xa.sparse-cache",
                               g_variant_new_array (G_VARIANT_TYPE ("{sa{sv}}"), NULL, 0));
  g_variant_dict_insert_value (&extra, "xa.cache-version",
                               g_variant_new_uint32 (GUINT32_TO_LE (XA_CACHE_VERSION)));

  extra_v = g_variant_ref_sink (g_variant_dict_end (&extra));
  if (!ostree_repo_regenerate_summary (repo, extra_v, cancellable, error) ||
      !remove_stale_index (repo, error))
    {
      g_prefix_error (error, _("updating the summary: "));
      return FALSE;
    }

  if (gpg_key_ids != NULL && gpg_key_ids[0] != NULL &&
      !ostree_repo_add_gpg_signature_summary (repo, (const char **) gpg_key_ids, gpg_homedir,
                                              cancellable, error))
    {
      g_prefix_error (error, _("signing the summary: "));
      return FALSE;
    }
  return TRUE;
}
