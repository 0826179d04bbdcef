/* store/build-finish.c — finishes a build directory the way `flatpak
 * build-finish` (1.14) does, so that either tool can export it:
 *
 *   metadata   command= (from --command, else kept, else the one program
 *              in files/bin) and the permissions, merged through the
 *              policy context (policy/context.h), which alone knows the
 *              [Context] keys and their values
 *   export/    copies of the .desktop files in files/share/applications,
 *              the .png, .svg, .svgz and .ico files below files/share/icons
 *              and the .service files in files/share/dbus-1/services whose
 *              names start with the app id (store/exports.c's rule, which
 *              installs check again); always created, empty with
 *              no_exports
 *
 * Trusts: the build directory and the options: they are the user's own.
 * Still, export/ takes regular files only (no symlink out of the tree),
 * and a command that looks like an option is refused (CVE-2024-32462).
 * Changes nothing on error: export/ is filled under a temporary name and
 * renamed last, after the metadata was replaced atomically. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/atomic-file.h"
#include "policy/context.h"
#include "store/build-finish.h"
#include "store/exports.h"
#include "store/store-error.h"

/* A build's share/ can be large; these bound what export/ takes. */
#define BUILD_FINISH_MAX_DEPTH  6
#define BUILD_FINISH_MAX_FILES  1024

typedef struct
{
  const char         *path;      /* below files/ and export/ */
  const char * const *suffixes;
  gboolean            recurse;   /* icon themes nest theme/size/context */
  gboolean            exact;     /* bus names: no "-suffix" */
} ExportSource;

static const char * const desktop_suffixes[] = { ".desktop", NULL };
static const char * const icon_suffixes[] = { ".png", ".svg", ".svgz", ".ico", NULL };
static const char * const service_suffixes[] = { ".service", NULL };

/* What store/exports.c installs; the rest of share/ stays in files/. */
static const ExportSource export_sources[] = {
  { "share/applications", desktop_suffixes, FALSE, FALSE },
  { "share/icons", icon_suffixes, TRUE, FALSE },
  { "share/dbus-1/services", service_suffixes, FALSE, TRUE },
};

typedef struct
{
  const char *app_id;
  const char *files;       /* DIR/files */
  const char *stage;       /* DIR/.export-XXXXXX */
  GPtrArray  *messages;
  guint       n_files;
} Finish;

static void
add_message (GPtrArray  *messages,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
add_message (GPtrArray  *messages,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (messages, g_strdup_vprintf (format, args));
  va_end (args);
}

static gboolean
errno_error (GError     **error,
             const char  *what,
             const char  *path)
{
  int errsv = errno;

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
               "%s '%s': %s", what, path, g_strerror (errsv));
  return FALSE;
}

static gboolean
export_file (Finish              *f,
             const ExportSource  *src,
             const char          *relpath,
             const char          *name,
             GError             **error)
{
  g_autofree char *from = g_build_filename (f->files, relpath, NULL);
  g_autofree char *to = g_build_filename (f->stage, relpath, NULL);
  g_autofree char *to_dir = g_path_get_dirname (to);
  g_autofree char *contents = NULL;
  const char *suffix = NULL;
  gsize len;

  for (gsize i = 0; src->suffixes[i] != NULL && suffix == NULL; i++)
    if (g_str_has_suffix (name, src->suffixes[i]))
      suffix = src->suffixes[i];
  if (suffix == NULL)
    {
      add_message (f->messages, _("Not exporting '%s': wrong suffix"), relpath);
      return TRUE;
    }
  if (!xa_exports_name_is_allowed (f->app_id, name, suffix, src->exact))
    {
      add_message (f->messages, _("Not exporting '%s': the name does not start with '%s'"),
                   relpath, f->app_id);
      return TRUE;
    }

  if (!g_file_get_contents (from, &contents, &len, error))
    return FALSE;
  if (g_mkdir_with_parents (to_dir, 0755) != 0)
    return errno_error (error, "mkdir", to_dir);
  if (!xa_atomic_file_write (to, contents, len, 0644, error))
    return FALSE;
  add_message (f->messages, _("Exporting '%s'"), relpath);
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
export_dir (Finish              *f,
            const ExportSource  *src,
            const char          *relpath,
            guint                depth,
            GError             **error)
{
  g_autofree char *path = g_build_filename (f->files, relpath, NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  dir = g_dir_open (path, 0, error);
  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *child = g_build_filename (relpath, names->pdata[i], NULL);
      g_autofree char *child_path = g_build_filename (f->files, child, NULL);
      struct stat st;

      name = names->pdata[i];
      /* As Flatpak: no hidden files, no editor backups. */
      if (name[0] == '.' || g_str_has_suffix (name, "~"))
        continue;
      if (lstat (child_path, &st) != 0)
        return errno_error (error, "stat", child_path);
      if (++f->n_files > BUILD_FINISH_MAX_FILES)
        {
          g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                       _("more than %d files to export below '%s'"),
                       BUILD_FINISH_MAX_FILES, f->files);
          return FALSE;
        }

      if (S_ISDIR (st.st_mode) && src->recurse && depth < BUILD_FINISH_MAX_DEPTH)
        {
          if (!export_dir (f, src, child, depth + 1, error))
            return FALSE;
        }
      else if (S_ISREG (st.st_mode))
        {
          if (!export_file (f, src, child, name, error))
            return FALSE;
        }
      else
        add_message (f->messages, _("Not exporting '%s': not a regular file"), child);
    }
  return TRUE;
}

static gboolean
collect_exports (Finish   *f,
                 GError  **error)
{
  for (gsize i = 0; i < G_N_ELEMENTS (export_sources); i++)
    {
      g_autofree char *path = g_build_filename (f->files, export_sources[i].path, NULL);
      struct stat st;

      if (lstat (path, &st) != 0 || !S_ISDIR (st.st_mode))
        continue;
      if (!export_dir (f, &export_sources[i], export_sources[i].path, 0, error))
        return FALSE;
    }
  return TRUE;
}

/* The app's command: @command, else the metadata's, else the one
 * program in files/bin. */
static gboolean
apply_command (GKeyFile    *keyfile,
               const char  *dir,
               const char  *command,
               GPtrArray   *messages,
               GError     **error)
{
  g_autofree char *bin = g_build_filename (dir, "files", "bin", NULL);
  g_autoptr(GDir) bin_dir = NULL;
  g_autofree char *found = NULL;
  const char *name;
  guint n = 0;

  if (command != NULL)
    {
      if (command[0] == '\0' || command[0] == '-' || !g_utf8_validate (command, -1, NULL))
        {
          /* A command that parses as an option would reach the sandbox
           * launcher as one (CVE-2024-32462). */
          g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                       _("invalid command '%s': empty or starts with '-'"), command);
          return FALSE;
        }
      g_key_file_set_string (keyfile, "Application", "command", command);
      return TRUE;
    }
  if (g_key_file_has_key (keyfile, "Application", "command", NULL))
    return TRUE;

  bin_dir = g_dir_open (bin, 0, NULL);
  while (bin_dir != NULL && (name = g_dir_read_name (bin_dir)) != NULL)
    {
      n++;
      g_free (found);
      found = g_strdup (name);
    }
  if (n == 1 && found[0] != '-')
    {
      g_key_file_set_string (keyfile, "Application", "command", found);
      add_message (messages, _("Using '%s' as the command"), found);
    }
  else
    add_message (messages, n == 0 ? _("No program in files/bin; no command set")
                                  : _("Several programs in files/bin; no command set, use --command"));
  return TRUE;
}

/* The metadata's own permissions, with the caller's merged on top, are
 * written back by the policy context, which keeps every other key. */
static gboolean
apply_context (GKeyFile    *keyfile,
               const char  *origin,
               XaContext   *args,
               GPtrArray   *messages,
               GError     **error)
{
  g_autoptr(XaContext) context = xa_context_new ();
  const char *const *warnings;

  if (!xa_context_load_keyfile (context, keyfile, origin, error))
    return FALSE;
  if (args != NULL)
    xa_context_merge (context, args);
  warnings = xa_context_get_warnings (context);
  for (gsize i = 0; warnings[i] != NULL; i++)
    add_message (messages, "%s", warnings[i]);
  xa_context_save_keyfile (context, keyfile);
  return TRUE;
}

static void
remove_stage (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_stage (child);
      else
        (void) unlink (child);
    }
  (void) rmdir (path);
}

static gboolean
finish_metadata (const XaBuildFinishOptions  *opts,
                 const char                  *metadata_path,
                 GKeyFile                    *keyfile,
                 gboolean                     is_runtime,
                 GPtrArray                   *messages,
                 GError                     **error)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!is_runtime && !apply_command (keyfile, opts->dir, opts->command, messages, error))
    return FALSE;
  if (!apply_context (keyfile, metadata_path, opts->context, messages, error))
    return FALSE;
  data = g_key_file_to_data (keyfile, &len, NULL);
  return xa_atomic_file_write (metadata_path, data, len, 0644, error);
}

gboolean
xa_build_finish (const XaBuildFinishOptions  *opts,
                 GPtrArray                  **out_messages,
                 GError                     **error)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *files = NULL;
  g_autofree char *metadata_path = NULL;
  g_autofree char *export_path = NULL;
  g_autofree char *stage = NULL;
  g_autofree char *id = NULL;
  gboolean is_runtime = FALSE;
  Finish f = { 0 };

  g_return_val_if_fail (opts != NULL && opts->dir != NULL, FALSE);

  files = g_build_filename (opts->dir, "files", NULL);
  metadata_path = g_build_filename (opts->dir, "metadata", NULL);
  export_path = g_build_filename (opts->dir, "export", NULL);
  if (!g_file_test (files, G_FILE_TEST_IS_DIR) ||
      !g_file_test (metadata_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _("'%s' is not a build directory; try: xdg-app build-init"), opts->dir);
      return FALSE;
    }
  if (g_file_test (export_path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("'%s' is already finished (it has 'export')"), opts->dir);
      return FALSE;
    }
  if (!g_key_file_load_from_file (keyfile, metadata_path,
                                  G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS, error))
    {
      g_prefix_error (error, "'%s': ", metadata_path);
      return FALSE;
    }

  id = g_key_file_get_string (keyfile, "Application", "name", NULL);
  if (id == NULL)
    {
      id = g_key_file_get_string (keyfile, "Runtime", "name", NULL);
      is_runtime = TRUE;
    }
  if (id == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': no name in [Application] or [Runtime]"), metadata_path);
      return FALSE;
    }

  stage = g_build_filename (opts->dir, ".export-XXXXXX", NULL);
  if (g_mkdtemp_full (stage, 0755) == NULL)
    return errno_error (error, "mkdir", stage);

  f.app_id = id;
  f.files = files;
  f.stage = stage;
  f.messages = messages;
  if ((!is_runtime && !opts->no_exports && !collect_exports (&f, error)) ||
      !finish_metadata (opts, metadata_path, keyfile, is_runtime, messages, error))
    {
      remove_stage (stage);
      return FALSE;
    }
  if (rename (stage, export_path) != 0)
    {
      errno_error (error, "rename", export_path);
      remove_stage (stage);
      return FALSE;
    }

  if (out_messages != NULL)
    *out_messages = g_steal_pointer (&messages);
  return TRUE;
}
