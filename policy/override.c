/* policy/override.c — loads and saves the override files that the user
 * (or an administrator, for a system-wide installation) writes with
 * `xdg-app override`.  Trusts: the caller for the overrides directory;
 * nothing in the files, which are checked like metadata (size, regular
 * file, every value).  Saving is atomic, so an interrupted `override`
 * leaves the old file. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "fsutil/atomic-file.h"
#include "fsutil/bounded-file.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "policy/metadata.h"
#include "policy/override.h"
#include "policy/policy-error.h"

#define GLOBAL_NAME "global"

struct _XaOverride
{
  char      *dir;
  char      *app_id;    /* NULL: global */
  char      *path;
  GKeyFile  *keyfile;   /* as loaded, so foreign groups survive a save */
  XaContext *context;
};

void
xa_override_free (XaOverride *self)
{
  if (self == NULL)
    return;
  g_free (self->dir);
  g_free (self->app_id);
  g_free (self->path);
  g_clear_pointer (&self->keyfile, g_key_file_unref);
  g_clear_pointer (&self->context, xa_context_free);
  g_free (self);
}

/* The file name is the app id, so the id must be one: "../x" or "global"
 * would name another file. */
static char *
override_path (const char  *overrides_dir,
               const char  *app_id,
               GError     **error)
{
  if (app_id != NULL && !xa_metadata_validate_id (app_id, error))
    {
      g_prefix_error (error, "override: ");
      return NULL;
    }
  return g_build_filename (overrides_dir, app_id != NULL ? app_id : GLOBAL_NAME, NULL);
}

/* Reads @path into @keyfile; a missing file leaves it empty. */
static gboolean
read_keyfile (const char  *path,
              GKeyFile    *keyfile,
              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;

  data = xa_bounded_file_read (path, XA_OVERRIDE_MAX_SIZE, &len, &local_error);
  if (data == NULL && g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;
  if (data == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!g_utf8_validate_len (data, len, NULL) ||
      !g_key_file_load_from_data (keyfile, data, len, G_KEY_FILE_KEEP_COMMENTS, &local_error))
    {
      g_autofree char *shown_path = xa_escape_for_terminal (path, -1);
      g_autofree char *shown = xa_escape_for_terminal (local_error != NULL
                                                       ? local_error->message
                                                       : _("not valid UTF-8"), -1);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("override file '%s': %s"), shown_path, shown);
      return FALSE;
    }
  return TRUE;
}

XaOverride *
xa_override_load (const char  *overrides_dir,
                  const char  *app_id,
                  GError     **error)
{
  g_autoptr(XaOverride) self = NULL;
  g_autofree char *origin = NULL;

  g_return_val_if_fail (overrides_dir != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (XaOverride, 1);
  self->dir = g_strdup (overrides_dir);
  self->app_id = g_strdup (app_id);
  self->keyfile = g_key_file_new ();
  self->context = xa_context_new ();
  self->path = override_path (overrides_dir, app_id, error);
  if (self->path == NULL)
    return NULL;

  if (!read_keyfile (self->path, self->keyfile, error))
    return NULL;
  origin = g_strdup_printf (_("override file '%s'"), self->path);
  if (!xa_context_load_keyfile (self->context, self->keyfile, origin, error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
xa_override_save (XaOverride  *self,
                  GError     **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Only the last component: a missing installation is the caller's to
   * report, not ours to conjure. */
  if (g_mkdir (self->dir, 0755) < 0 && errno != EEXIST)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "'%s': %s", self->dir, g_strerror (errsv));
      return FALSE;
    }
  xa_context_save_keyfile (self->context, self->keyfile);
  data = g_key_file_to_data (self->keyfile, &len, NULL);
  return xa_atomic_file_write (self->path, data, len, 0644, error);
}

XaContext *
xa_override_get_context (XaOverride *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->context;
}

const char *
xa_override_get_app_id (XaOverride *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->app_id;
}

const char *
xa_override_get_path (XaOverride *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

gboolean
xa_override_remove (const char  *overrides_dir,
                    const char  *app_id,
                    GError     **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (overrides_dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  path = override_path (overrides_dir, app_id, error);
  if (path == NULL)
    return FALSE;
  if (g_unlink (path) < 0 && errno != ENOENT)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "'%s': %s", path, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

XaContext *
xa_override_load_merged (const char  *overrides_dir,
                         const char  *app_id,
                         GError     **error)
{
  g_autoptr(XaOverride) global = NULL;
  g_autoptr(XaOverride) app = NULL;
  g_autoptr(XaContext) merged = NULL;

  g_return_val_if_fail (overrides_dir != NULL, NULL);
  g_return_val_if_fail (app_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  global = xa_override_load (overrides_dir, NULL, error);
  if (global == NULL)
    return NULL;
  app = xa_override_load (overrides_dir, app_id, error);
  if (app == NULL)
    return NULL;
  merged = xa_context_dup (global->context);
  xa_context_merge (merged, app->context);
  return g_steal_pointer (&merged);
}
