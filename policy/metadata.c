/* policy/metadata.c — reads and checks an app's or runtime's `metadata`.
 * Trusts nothing in the file: it arrives in a commit from a repository
 * (GPG-checked or not, it was still written by someone else).  Size,
 * encoding, the two identity groups, the name, the runtime and sdk refs,
 * the command and every permission are checked before an XaMetadata
 * exists; anything that fails is one error naming the origin, the group
 * and the key.  Unknown groups and keys are ignored, as in Flatpak, so
 * that metadata written by newer tools still installs. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fsutil/bounded-file.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "policy/keyfile-read.h"
#include "policy/metadata.h"
#include "policy/policy-error.h"

#define GROUP_APPLICATION "Application"
#define GROUP_RUNTIME     "Runtime"
#define KEY_NAME          "name"
#define KEY_RUNTIME       "runtime"
#define KEY_SDK           "sdk"
#define KEY_COMMAND       "command"

/* Flatpak's limit for ids; branches and arches get the same bound. */
#define NAME_MAX_LEN 255
/* command= becomes an argv[0] or a path in the sandbox: PATH_MAX. */
#define COMMAND_MAX_LEN 4096

struct _XaMetadata
{
  XaMetadataKind  kind;
  char           *name;
  char           *runtime;
  char           *sdk;
  char           *command;
  GKeyFile       *keyfile;
  XaContext      *context;
  GPtrArray      *warnings;   /* char *, NULL-terminated */
};

static const char *const no_strings[] = { NULL };

void
xa_metadata_free (XaMetadata *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->runtime);
  g_free (self->sdk);
  g_free (self->command);
  g_clear_pointer (&self->keyfile, g_key_file_unref);
  g_clear_pointer (&self->context, xa_context_free);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_free (self);
}

/* ---- names ------------------------------------------------------------- */

static gboolean
name_error (GError     **error,
            const char  *what,
            const char  *value,
            const char  *why)
{
  g_autofree char *shown = xa_escape_for_terminal (value, -1);

  g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_NAME,
               _("'%s' is not a valid %s: %s"), shown, what, why);
  return FALSE;
}

static gboolean
is_id_char (char     c,
            gboolean last_element)
{
  return g_ascii_isalnum (c) || c == '_' || (last_element && c == '-');
}

gboolean
xa_metadata_validate_id (const char  *id,
                         GError     **error)
{
  const char *last_dot;
  const char *p;
  int elements = 1;

  g_return_val_if_fail (id != NULL, FALSE);

  if (id[0] == '\0')
    return name_error (error, _("id"), id, _("it is empty"));
  if (strlen (id) > NAME_MAX_LEN)
    return name_error (error, _("id"), id, _("it is longer than 255 characters"));

  last_dot = strrchr (id, '.');
  for (p = id; *p != '\0'; p++)
    {
      gboolean in_last = last_dot == NULL || p > last_dot;
      gboolean starts_element = p == id || p[-1] == '.';

      if (*p == '.')
        {
          if (starts_element)
            return name_error (error, _("id"), id, _("it has an empty element"));
          elements++;
          continue;
        }
      if (starts_element && g_ascii_isdigit (*p))
        return name_error (error, _("id"), id, _("an element starts with a digit"));
      if (*p == '-' && !in_last)
        return name_error (error, _("id"), id, _("only the last element may contain '-'"));
      if (!is_id_char (*p, in_last))
        return name_error (error, "id", id,
                           "only letters, digits, '_' and '-' may appear between the dots");
    }
  if (id[strlen (id) - 1] == '.')
    return name_error (error, _("id"), id, _("it ends with '.'"));
  if (elements < 3)
    return name_error (error, "id", id,
                       "it needs at least three elements, such as org.example.App");
  return TRUE;
}

gboolean
xa_metadata_validate_branch (const char  *branch,
                             GError     **error)
{
  const char *p;

  g_return_val_if_fail (branch != NULL, FALSE);

  if (branch[0] == '\0')
    return name_error (error, _("branch"), branch, _("it is empty"));
  if (strlen (branch) > NAME_MAX_LEN)
    return name_error (error, _("branch"), branch, _("it is longer than 255 characters"));
  /* A leading '.' would allow "." and ".." as path components. */
  if (branch[0] == '.')
    return name_error (error, _("branch"), branch, _("it starts with '.'"));
  for (p = branch; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-' && *p != '.')
      return name_error (error, "branch", branch,
                         "only letters, digits, '_', '-' and '.' are allowed");
  return TRUE;
}

gboolean
xa_metadata_validate_arch (const char  *arch,
                           GError     **error)
{
  const char *p;

  g_return_val_if_fail (arch != NULL, FALSE);

  if (arch[0] == '\0')
    return name_error (error, _("arch"), arch, _("it is empty"));
  if (strlen (arch) > NAME_MAX_LEN)
    return name_error (error, _("arch"), arch, _("it is longer than 255 characters"));
  for (p = arch; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return name_error (error, _("arch"), arch, _("only letters, digits and '_' are allowed"));
  return TRUE;
}

/* ---- loading ----------------------------------------------------------- */

static gboolean
validate_ref_spec (const char  *spec,
                   GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, "/", 0);

  if (g_strv_length (parts) != 3)
    return name_error (error, "runtime reference", spec,
                       "expected ID/ARCH/BRANCH, such as org.example.Platform/x86_64/stable");
  return xa_metadata_validate_id (parts[0], error) &&
         xa_metadata_validate_arch (parts[1], error) &&
         xa_metadata_validate_branch (parts[2], error);
}

/* command= is what the sandbox execs: a name looked up in PATH
 * ("notes") or an absolute path (Flatpak allows both).  A relative path
 * with '/' would depend on the working directory; a leading '-' would read
 * as an option to whatever forgot a "--".  Returns what is wrong, or NULL. */
static const char *
command_problem (const char *command)
{
  g_auto(GStrv) parts = NULL;
  const char *p;
  gsize i;

  if (command[0] == '\0')
    return _("it is empty");
  if (strlen (command) > COMMAND_MAX_LEN)
    return _("it is longer than 4096 bytes");
  if (command[0] == '-')
    return _("it starts with '-'");
  if (strchr (command, '/') != NULL && command[0] != '/')
    return _("it must be a program name or an absolute path");
  for (p = command; *p != '\0'; p = g_utf8_next_char (p))
    if (*p != ' ' && !g_unichar_isgraph (g_utf8_get_char (p)))
      return _("it contains a control or invisible character");
  parts = g_strsplit (command, "/", -1);
  for (i = 0; parts[i] != NULL; i++)
    if (strcmp (parts[i], "..") == 0)
      return _("it contains \"..\"");
  return NULL;
}

static gboolean
validate_command (const char  *command,
                  GError     **error)
{
  const char *why = command_problem (command);
  g_autofree char *shown = NULL;

  if (why == NULL)
    return TRUE;
  shown = xa_escape_for_terminal (command, -1);
  g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
               _("invalid command '%s': %s"), shown, why);
  return FALSE;
}

/* Reads an optional string key; "" when present counts as a value. */
static gboolean
read_string (GKeyFile    *keyfile,
             const char  *group,
             const char  *key,
             char       **out_value,
             GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *value = NULL;

  if (!g_key_file_has_key (keyfile, group, key, NULL))
    {
      *out_value = NULL;
      return TRUE;
    }
  value = xa_keyfile_read_string (keyfile, group, key, &local_error);
  if (value == NULL)
    {
      g_autofree char *shown = xa_escape_for_terminal (local_error->message, -1);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   "%s", shown);
      return FALSE;
    }
  *out_value = g_steal_pointer (&value);
  return TRUE;
}

/* The file as a whole: size, NUL bytes, encoding, keyfile syntax. */
static GKeyFile *
parse_keyfile (const char  *data,
               gsize        len,
               GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  const char *end = NULL;

  if (len > XA_METADATA_MAX_SIZE)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   _("larger than %d bytes"), XA_METADATA_MAX_SIZE);
      return NULL;
    }
  if (memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   _("contains a NUL byte at offset %zu"),
                   (size_t) ((const char *) memchr (data, '\0', len) - data));
      return NULL;
    }
  if (!g_utf8_validate_len (data, len, &end))
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   _("not valid UTF-8 at offset %zu"), (size_t) (end - data));
      return NULL;
    }
  if (!g_key_file_load_from_data (keyfile, data, len, G_KEY_FILE_NONE, &local_error))
    {
      g_autofree char *shown = xa_escape_for_terminal (local_error->message, -1);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   "%s", shown);
      return NULL;
    }
  return g_steal_pointer (&keyfile);
}

/* Checks the fields of [Application] or [Runtime] once they are read. */
static gboolean
validate_identity (XaMetadata  *self,
                   gboolean     is_app,
                   GError     **error)
{
  if (self->name == NULL)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   _("name is missing"));
      return FALSE;
    }
  if (!xa_metadata_validate_id (self->name, error))
    {
      g_prefix_error (error, "name: ");
      return FALSE;
    }
  if (is_app && self->runtime == NULL)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   _("runtime is missing"));
      return FALSE;
    }
  if (self->runtime != NULL && !validate_ref_spec (self->runtime, error))
    {
      g_prefix_error (error, "runtime: ");
      return FALSE;
    }
  if (self->sdk != NULL && !validate_ref_spec (self->sdk, error))
    {
      g_prefix_error (error, "sdk: ");
      return FALSE;
    }
  return self->command == NULL || validate_command (self->command, error);
}

/* [Application] or [Runtime], and what it says about identity. */
static gboolean
load_identity (XaMetadata  *self,
               const char  *description,
               GError     **error)
{
  gboolean is_app = g_key_file_has_group (self->keyfile, GROUP_APPLICATION);
  gboolean is_runtime = g_key_file_has_group (self->keyfile, GROUP_RUNTIME);
  const char *group = is_app ? GROUP_APPLICATION : GROUP_RUNTIME;

  if (is_app == is_runtime)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_METADATA,
                   "%s: %s", description,
                   is_app ? _("has both [Application] and [Runtime]; it must be one")
                          : _("has neither [Application] nor [Runtime]"));
      return FALSE;
    }
  self->kind = is_app ? XA_METADATA_APP : XA_METADATA_RUNTIME;

  /* The runtime's own runtime= and command= mean nothing and are not read. */
  if (!read_string (self->keyfile, group, KEY_NAME, &self->name, error) ||
      !read_string (self->keyfile, group, KEY_SDK, &self->sdk, error) ||
      (is_app && !read_string (self->keyfile, group, KEY_RUNTIME, &self->runtime, error)) ||
      (is_app && !read_string (self->keyfile, group, KEY_COMMAND, &self->command, error)) ||
      !validate_identity (self, is_app, error))
    {
      g_prefix_error (error, "%s, [%s]: ", description, group);
      return FALSE;
    }
  return TRUE;
}

static char *
describe_origin (const char *origin,
                 const char *path)
{
  g_autofree char *shown = NULL;

  if (origin != NULL)
    {
      shown = xa_escape_for_terminal (origin, -1);
      return g_strdup_printf (_("metadata of '%s'"), shown);
    }
  if (path != NULL)
    {
      shown = xa_escape_for_terminal (path, -1);
      return g_strdup_printf (_("metadata '%s'"), shown);
    }
  return g_strdup ("metadata");
}

static XaMetadata *
load_described (const char  *data,
                gsize        len,
                const char  *description,
                GError     **error)
{
  g_autoptr(XaMetadata) self = g_new0 (XaMetadata, 1);
  const char *const *warnings;

  self->context = xa_context_new ();
  self->warnings = g_ptr_array_new_null_terminated (0, g_free, TRUE);

  self->keyfile = parse_keyfile (data, len, error);
  if (self->keyfile == NULL)
    {
      g_prefix_error (error, "%s: ", description);
      return NULL;
    }
  if (!load_identity (self, description, error))
    return NULL;
  /* The context prefixes its own messages with the description. */
  if (!xa_context_load_keyfile (self->context, self->keyfile, description, error))
    return NULL;

  for (warnings = xa_context_get_warnings (self->context); *warnings != NULL; warnings++)
    g_ptr_array_add (self->warnings, g_strdup (*warnings));
  return g_steal_pointer (&self);
}

XaMetadata *
xa_metadata_load_data (const char  *data,
                       gsize        len,
                       const char  *origin,
                       GError     **error)
{
  g_autofree char *description = NULL;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  description = describe_origin (origin, NULL);
  return load_described (data != NULL ? data : "", len, description, error);
}

XaMetadata *
xa_metadata_load_file (const char  *path,
                       const char  *origin,
                       GError     **error)
{
  g_autofree char *description = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  description = describe_origin (origin, path);
  /* Not through a symlink: a checkout from a repository could hold one
   * named metadata pointing anywhere on the host. */
  data = xa_bounded_file_read (path, XA_METADATA_MAX_SIZE, &len, error);
  if (data == NULL)
    {
      g_prefix_error (error, "%s: ", description);
      return NULL;
    }
  return load_described (data, len, description, error);
}

/* ---- getters ----------------------------------------------------------- */

XaMetadataKind
xa_metadata_get_kind (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, XA_METADATA_APP);
  return self->kind;
}

const char *
xa_metadata_get_name (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

const char *
xa_metadata_get_runtime (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->runtime;
}

const char *
xa_metadata_get_sdk (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->sdk;
}

const char *
xa_metadata_get_command (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->command;
}

XaContext *
xa_metadata_get_context (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->context;
}

GKeyFile *
xa_metadata_get_keyfile (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->keyfile;
}

const char *const *
xa_metadata_get_warnings (XaMetadata *self)
{
  g_return_val_if_fail (self != NULL, no_strings);

  if (self->warnings->pdata == NULL)
    return no_strings;
  return (const char *const *) self->warnings->pdata;
}
