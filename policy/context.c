/* policy/context.c — the permission context: reads it from keyfiles and
 * command-line flags, layers it, writes it back, shows it.
 *
 * Trusts nothing it reads: keyfiles come from repositories (metadata) or
 * from disk (overrides), flags from the user.  Every value of a known key
 * must be one we know — an unknown socket or device is refused, never
 * guessed (Flatpak skips them with a debug message; for us a misread
 * permission is the worse failure).  Unknown groups and keys are ignored,
 * as Flatpak does, so newer metadata still loads.  Default: deny; a new
 * context grants nothing, and x11 is never granted at all.
 *
 * Layering follows Flatpak's flatpak_context_merge(): each of shares,
 * sockets, devices and features is a pair of bit sets, "granted" and
 * "mentioned"; a layer overrides exactly the bits it mentions, so "!x"
 * (mentioned, not granted) removes a grant from the layer below. */
#include <stdarg.h>
#include <string.h>

#include <gio/gio.h>
#include <glib.h>
#include <glib/gi18n.h>

#include "policy/bus-name.h"
#include "policy/bus-value.h"
#include "policy/context.h"
#include "policy/escape.h"
#include "policy/filesystem.h"
#include "policy/keyfile-read.h"
#include "policy/policy-error.h"

#define GROUP_CONTEXT            "Context"
#define GROUP_ENVIRONMENT        "Environment"
#define GROUP_SESSION_BUS_POLICY "Session Bus Policy"
#define GROUP_SYSTEM_BUS_POLICY  "System Bus Policy"

#define KEY_FILESYSTEMS          "filesystems"
#define KEY_PERSISTENT           "persistent"
#define KEY_UNSET_ENVIRONMENT    "unset-environment"

/* Longest persistent path and environment variable name accepted. */
#define PATH_MAX_LEN 4096
#define ENV_NAME_MAX_LEN 255

typedef enum
{
  KIND_SHARE,
  KIND_SOCKET,
  KIND_DEVICE,
  KIND_FEATURE,
  N_KINDS
} FlagKind;

/* Indexed by XaShare, XaSocket, … (same order as the enums). */
static const char *const share_names[] = {
  "network", "ipc", NULL
};
static const char *const socket_names[] = {
  "wayland", "pulseaudio", "session-bus", "system-bus", "ssh-auth", "pcsc",
  "cups", "gpg-agent", NULL
};
static const char *const device_names[] = {
  "dri", "input", "usb", "kvm", "shm", "all", NULL
};
static const char *const feature_names[] = {
  "devel", "multiarch", "bluetooth", "canbus", "per-app-dev-shm", NULL
};

typedef struct
{
  const char        *key;           /* in [Context] */
  const char        *noun;          /* in messages */
  const char *const *names;
} FlagKindInfo;

static const FlagKindInfo flag_kinds[N_KINDS] = {
  [KIND_SHARE]   = { "shared",   "share",   share_names },
  [KIND_SOCKET]  = { "sockets",  "socket",  socket_names },
  [KIND_DEVICE]  = { "devices",  "device",  device_names },
  [KIND_FEATURE] = { "features", "feature", feature_names },
};

/* Values that are accepted, reported, and never granted. */
typedef struct
{
  FlagKind    kind;
  const char *name;
  const char *reason;
} IgnoredValue;

static const IgnoredValue ignored_values[] = {
  /* DESIGN.md: X11 has no isolation between clients (any client can read
   * keystrokes and the screen), so no app gets it; Flatpak bundles ask for
   * it as a fallback and must still install and run on Wayland. */
  { KIND_SOCKET, "x11", N_("X11 is never exposed, ignoring") },
  /* fallback-x11 means "x11 when there is no Wayland": the same answer. */
  { KIND_SOCKET, "fallback-x11", N_("X11 is never exposed, ignoring") },
};

static const char *const bus_groups[] = {
  [XA_BUS_SESSION] = GROUP_SESSION_BUS_POLICY,
  [XA_BUS_SYSTEM] = GROUP_SYSTEM_BUS_POLICY,
};

struct _XaContext
{
  guint32     granted[N_KINDS];
  guint32     mentioned[N_KINDS];  /* granted ⊆ mentioned */
  GHashTable *filesystems;         /* spec → GINT_TO_POINTER (XaFilesystemMode) */
  GHashTable *persistent;          /* relative path, a set */
  GHashTable *env;                 /* name → value, or NULL for "unset" */
  GHashTable *bus_policy[2];       /* XaBus → (name → GINT_TO_POINTER (XaBusPolicy)) */
  GHashTable *bus_rules[2];        /* XaBus → (name → GStrv of "call=RULE", "broadcast=RULE");
                                    * only names also in bus_policy */
  GPtrArray  *warnings;            /* char *, NULL-terminated */

  /* Views handed out by the getters; NULL when stale. */
  GPtrArray  *filesystems_view;    /* XaFilesystem * */
  char      **persistent_view;
};

static const char *const no_strings[] = { NULL };

XaContext *
xa_context_new (void)
{
  XaContext *self = g_new0 (XaContext, 1);

  self->filesystems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->persistent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->bus_policy[XA_BUS_SESSION] =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->bus_policy[XA_BUS_SYSTEM] =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (int bus = XA_BUS_SESSION; bus <= XA_BUS_SYSTEM; bus++)
    self->bus_rules[bus] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                  (GDestroyNotify) g_strfreev);
  self->warnings = g_ptr_array_new_null_terminated (0, g_free, TRUE);
  return self;
}

XaContext *
xa_context_dup (const XaContext *self)
{
  XaContext *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = xa_context_new ();
  xa_context_merge (copy, self);
  return copy;
}

static void
context_changed (XaContext *self)
{
  g_clear_pointer (&self->filesystems_view, g_ptr_array_unref);
  g_clear_pointer (&self->persistent_view, g_strfreev);
}

void
xa_context_free (XaContext *self)
{
  if (self == NULL)
    return;
  context_changed (self);
  g_hash_table_unref (self->filesystems);
  g_hash_table_unref (self->persistent);
  g_hash_table_unref (self->env);
  g_hash_table_unref (self->bus_policy[XA_BUS_SESSION]);
  g_hash_table_unref (self->bus_policy[XA_BUS_SYSTEM]);
  g_hash_table_unref (self->bus_rules[XA_BUS_SESSION]);
  g_hash_table_unref (self->bus_rules[XA_BUS_SYSTEM]);
  g_ptr_array_unref (self->warnings);
  g_free (self);
}

/* ---- small helpers ---------------------------------------------------- */

static void
add_warning (XaContext  *self,
             const char *warning)
{
  guint i;

  for (i = 0; i < self->warnings->len; i++)
    if (strcmp (g_ptr_array_index (self->warnings, i), warning) == 0)
      return;
  g_ptr_array_add (self->warnings, g_strdup (warning));
}

static int
name_index (const char *const *names,
            const char        *name)
{
  int i;

  for (i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], name) == 0)
      return i;
  return -1;
}

static const IgnoredValue *
lookup_ignored (FlagKind    kind,
                const char *name)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (ignored_values); i++)
    if (ignored_values[i].kind == kind && strcmp (ignored_values[i].name, name) == 0)
      return &ignored_values[i];
  return NULL;
}

static void set_error (GError     **error,
                       int          code,
                       const char  *where,
                       const char  *format,
                       ...) G_GNUC_PRINTF (4, 5);

/* "WHERE: MESSAGE".  The message is escaped as a whole, values and all:
 * the CLI prints it on a terminal (CVE-2023-28101).  Escaping is
 * idempotent, so an already escaped @where passes unchanged. */
static void
set_error (GError     **error,
           int          code,
           const char  *where,
           const char  *format,
           ...)
{
  g_autofree char *message = NULL;
  g_autofree char *shown = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  shown = xa_escape_for_terminal (message, -1);
  g_set_error (error, XA_POLICY_ERROR, code, "%s: %s", where, shown);
}

static char *
join_names (const char *const *names)
{
  return g_strjoinv (", ", (char **) names);
}

/* Well-known names only (a unique name ":1.42" changes with every
 * connection), optionally ending in ".*" for a whole prefix, as Flatpak's
 * flatpak_verify_dbus_name(). */
static gboolean
is_valid_bus_name (const char *name)
{
  g_autofree char *prefix = NULL;

  if (g_str_has_suffix (name, ".*"))
    {
      prefix = g_strndup (name, strlen (name) - 2);
      name = prefix;
    }
  return xa_bus_name_is_well_known (name);
}

static gboolean
check_bus_name (const char  *name,
                const char  *where,
                GError     **error)
{
  if (is_valid_bus_name (name))
    return TRUE;
  set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
             _("invalid D-Bus name '%s' (expected a well-known name such as "
             "org.example.Service, or a prefix such as org.example.*)"),
             name);
  return FALSE;
}

/* Names go into a keyfile as keys and into an environment block: no '='
 * (it ends the name), no '[' or ']' (a keyfile reads them as a locale),
 * nothing invisible. */
static gboolean
check_env_name (const char  *name,
                const char  *where,
                GError     **error)
{
  const char *p;
  gboolean ok = name[0] != '\0' && strlen (name) <= ENV_NAME_MAX_LEN;

  for (p = name; ok && *p != '\0'; p++)
    ok = g_ascii_isgraph (*p) && *p != '=' && *p != '[' && *p != ']';
  if (ok)
    return TRUE;
  set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
             _("invalid environment variable name '%s' (printable ASCII, "
             "no '=', '[' or ']')"), name);
  return FALSE;
}

/* persistent= and --persist: a directory below the home directory that
 * is kept per app, so relative, and never climbing out with "..". */
static char *
parse_persistent (const char  *path,
                  const char  *where,
                  GError     **error)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p;
  gsize i;

  if (strlen (path) > PATH_MAX_LEN || !g_utf8_validate (path, -1, NULL))
    {
      set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                 _("persistent path '%s' is too long or not UTF-8"), path);
      return NULL;
    }
  for (p = path; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != ' ' && !g_unichar_isgraph (c))
        {
          set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                     _("persistent path '%s' contains a control or invisible character"),
                     path);
          return NULL;
        }
    }
  if (path[0] == '/')
    {
      set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                 _("persistent path '%s' must be relative to the home directory"),
                 path);
      return NULL;
    }
  parts = g_strsplit (path, "/", -1);
  for (i = 0; parts[i] != NULL; i++)
    {
      if (strcmp (parts[i], "..") == 0)
        {
          set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                     _("persistent path '%s' contains \"..\""), path);
          return NULL;
        }
      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      if (out->len > 0)
        g_string_append_c (out, '/');
      g_string_append (out, parts[i]);
    }
  if (out->len == 0)
    {
      set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                 _("persistent path '%s' names no directory"), path);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ---- setting one thing ------------------------------------------------- */

static void
set_flag (XaContext *self,
          FlagKind   kind,
          guint      value,
          gboolean   allow)
{
  guint32 bit = 1u << value;

  self->mentioned[kind] |= bit;
  if (allow)
    self->granted[kind] |= bit;
  else
    self->granted[kind] &= ~bit;
}

/* Applies one share/socket/device/feature name.  @warning_prefix says how
 * the user asked ("ORIGIN, [Context]: sockets=x11" or "--socket=x11"). */
static gboolean
apply_flag (XaContext   *self,
            FlagKind     kind,
            const char  *name,
            gboolean     allow,
            const char  *where,
            const char  *warning_prefix,
            GError     **error)
{
  const FlagKindInfo *info = &flag_kinds[kind];
  const IgnoredValue *ignored = lookup_ignored (kind, name);
  int index;

  if (ignored != NULL)
    {
      /* Denying what is never granted needs no word. */
      if (allow)
        {
          g_autofree char *warning = g_strdup_printf ("%s: %s", warning_prefix,
                                                      _(ignored->reason));
          add_warning (self, warning);
        }
      return TRUE;
    }

  index = name_index (info->names, name);
  if (index < 0)
    {
      g_autofree char *valid = join_names (info->names);

      set_error (error, XA_POLICY_ERROR_UNKNOWN_PERMISSION, where,
                 _("unknown %s '%s' (valid: %s)"), info->noun, name, valid);
      return FALSE;
    }
  set_flag (self, kind, (guint) index, allow);
  return TRUE;
}

static void
set_filesystem (XaContext          *self,
                const XaFilesystem *fs)
{
  /* "!host:reset" also means "!host", as in Flatpak. */
  if (strcmp (fs->spec, "host-reset") == 0)
    g_hash_table_insert (self->filesystems, g_strdup ("host"),
                         GINT_TO_POINTER (XA_FILESYSTEM_MODE_NONE));
  g_hash_table_insert (self->filesystems, g_strdup (fs->spec),
                       GINT_TO_POINTER (fs->mode));
  context_changed (self);
}

static gboolean
apply_filesystem (XaContext   *self,
                  const char  *text,
                  gboolean     negated,
                  const char  *where,
                  GError     **error)
{
  g_autoptr(XaFilesystem) fs = xa_filesystem_parse (text, negated, error);

  if (fs == NULL)
    {
      g_prefix_error (error, "%s: ", where);
      return FALSE;
    }
  set_filesystem (self, fs);
  return TRUE;
}

static gboolean
apply_persistent (XaContext   *self,
                  const char  *path,
                  const char  *where,
                  GError     **error)
{
  char *normalized = parse_persistent (path, where, error);

  if (normalized == NULL)
    return FALSE;
  g_hash_table_add (self->persistent, normalized);
  context_changed (self);
  return TRUE;
}

static gboolean
apply_bus_policy (XaContext    *self,
                  XaBus         bus,
                  const char   *name,
                  XaBusPolicy   level,
                  const char   *where,
                  GError      **error)
{
  if (!check_bus_name (name, where, error))
    return FALSE;
  g_hash_table_insert (self->bus_policy[bus], g_strdup (name), GINT_TO_POINTER (level));
  /* A level given alone replaces rules a layer below gave the name. */
  g_hash_table_remove (self->bus_rules[bus], name);
  return TRUE;
}

/* ---- loading ----------------------------------------------------------- */

/* Reads a list key; a missing key gives an empty list.  Empty entries
 * ("a;;b") are skipped by the callers. */
static gboolean
read_list (GKeyFile    *keyfile,
           const char  *key,
           const char  *where,
           char      ***out_values,
           GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) values = NULL;

  if (!g_key_file_has_key (keyfile, GROUP_CONTEXT, key, NULL))
    {
      *out_values = g_new0 (char *, 1);
      return TRUE;
    }
  values = xa_keyfile_read_list (keyfile, GROUP_CONTEXT, key, &local_error);
  if (values == NULL)
    {
      set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                 "%s: %s", key, local_error->message);
      return FALSE;
    }
  *out_values = g_steal_pointer (&values);
  return TRUE;
}

static const char *
strip_negation (const char *value,
                gboolean   *out_negated)
{
  *out_negated = value[0] == '!';
  return *out_negated ? value + 1 : value;
}

static gboolean
load_flags (XaContext   *layer,
            GKeyFile    *keyfile,
            FlagKind     kind,
            const char  *where,
            GError     **error)
{
  const char *key = flag_kinds[kind].key;
  g_auto(GStrv) values = NULL;
  gsize i;

  if (!read_list (keyfile, key, where, &values, error))
    return FALSE;
  for (i = 0; values[i] != NULL; i++)
    {
      g_autofree char *prefix = NULL;
      gboolean negated;
      const char *name = strip_negation (values[i], &negated);

      if (values[i][0] == '\0')
        continue;
      prefix = g_strdup_printf ("%s: %s=%s", where, key, values[i]);
      if (!apply_flag (layer, kind, name, !negated, where, prefix, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
load_filesystems (XaContext   *layer,
                  GKeyFile    *keyfile,
                  const char  *where,
                  GError     **error)
{
  g_auto(GStrv) values = NULL;
  gsize i;

  if (!read_list (keyfile, KEY_FILESYSTEMS, where, &values, error))
    return FALSE;
  for (i = 0; values[i] != NULL; i++)
    {
      gboolean negated;
      const char *text = strip_negation (values[i], &negated);

      if (values[i][0] == '\0')
        continue;
      if (!apply_filesystem (layer, text, negated, where, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
load_persistent (XaContext   *layer,
                 GKeyFile    *keyfile,
                 const char  *where,
                 GError     **error)
{
  g_auto(GStrv) values = NULL;
  gsize i;

  if (!read_list (keyfile, KEY_PERSISTENT, where, &values, error))
    return FALSE;
  for (i = 0; values[i] != NULL; i++)
    if (values[i][0] != '\0' && !apply_persistent (layer, values[i], where, error))
      return FALSE;
  return TRUE;
}

static gboolean
load_bus_policy (XaContext   *layer,
                 GKeyFile    *keyfile,
                 XaBus        bus,
                 const char  *origin,
                 GError     **error)
{
  g_autofree char *where = g_strdup_printf ("%s, [%s]", origin, bus_groups[bus]);
  g_auto(GStrv) names = g_key_file_get_keys (keyfile, bus_groups[bus], NULL, NULL);
  gsize i;

  for (i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *value = xa_keyfile_read_string (keyfile, bus_groups[bus],
                                                      names[i], &local_error);
      g_autoptr(GPtrArray) rules = NULL;
      XaBusPolicy level;

      if (!check_bus_name (names[i], where, error))
        return FALSE;
      if (value == NULL)
        {
          set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                     "%s: %s", names[i], local_error->message);
          return FALSE;
        }
      if (!xa_bus_value_parse (value, names[i], &level, &rules, &local_error))
        {
          set_error (error, local_error->code, where, "%s", local_error->message);
          return FALSE;
        }
      if (!apply_bus_policy (layer, bus, names[i], level, where, error))
        return FALSE;
      if (rules->len > 0)
        g_hash_table_insert (layer->bus_rules[bus], g_strdup (names[i]),
                             g_ptr_array_steal (rules, NULL));
    }
  return TRUE;
}

static gboolean
load_environment (XaContext   *layer,
                  GKeyFile    *keyfile,
                  const char  *origin,
                  GError     **error)
{
  g_autofree char *where = g_strdup_printf ("%s, [%s]", origin, GROUP_ENVIRONMENT);
  g_auto(GStrv) names = g_key_file_get_keys (keyfile, GROUP_ENVIRONMENT, NULL, NULL);
  gsize i;

  for (i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *value = NULL;

      if (!check_env_name (names[i], where, error))
        return FALSE;
      value = xa_keyfile_read_string (keyfile, GROUP_ENVIRONMENT, names[i], &local_error);
      if (value == NULL)
        {
          set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                     "%s: %s", names[i], local_error->message);
          return FALSE;
        }
      g_hash_table_insert (layer->env, g_strdup (names[i]), g_steal_pointer (&value));
    }
  return TRUE;
}

/* Read after [Environment]: Flatpak writes an unset variable both as
 * "VAR=" there (what old versions understood) and here, and here wins. */
static gboolean
load_unset_environment (XaContext   *layer,
                        GKeyFile    *keyfile,
                        const char  *where,
                        GError     **error)
{
  g_auto(GStrv) names = NULL;
  gsize i;

  if (!read_list (keyfile, KEY_UNSET_ENVIRONMENT, where, &names, error))
    return FALSE;
  for (i = 0; names[i] != NULL; i++)
    {
      if (names[i][0] == '\0')
        continue;
      if (!check_env_name (names[i], where, error))
        return FALSE;
      g_hash_table_insert (layer->env, g_strdup (names[i]), NULL);
    }
  return TRUE;
}

gboolean
xa_context_load_keyfile (XaContext   *self,
                         GKeyFile    *keyfile,
                         const char  *origin,
                         GError     **error)
{
  g_autoptr(XaContext) layer = NULL;
  g_autofree char *shown_origin = NULL;
  g_autofree char *where = NULL;
  int kind;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (keyfile != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Everything goes into a fresh layer first, so an error half-way
   * leaves @self as it was. */
  layer = xa_context_new ();
  shown_origin = xa_escape_for_terminal (origin != NULL ? origin : "keyfile", -1);
  where = g_strdup_printf ("%s, [%s]", shown_origin, GROUP_CONTEXT);

  for (kind = 0; kind < N_KINDS; kind++)
    if (!load_flags (layer, keyfile, (FlagKind) kind, where, error))
      return FALSE;
  if (!load_filesystems (layer, keyfile, where, error) ||
      !load_persistent (layer, keyfile, where, error) ||
      !load_bus_policy (layer, keyfile, XA_BUS_SESSION, shown_origin, error) ||
      !load_bus_policy (layer, keyfile, XA_BUS_SYSTEM, shown_origin, error) ||
      !load_environment (layer, keyfile, shown_origin, error) ||
      !load_unset_environment (layer, keyfile, where, error))
    return FALSE;

  xa_context_merge (self, layer);
  return TRUE;
}

/* ---- saving ------------------------------------------------------------ */

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The keys of @table, sorted; the strings are borrowed from @table. */
static GPtrArray *
sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

static void
set_or_remove_list (GKeyFile   *keyfile,
                    const char *key,
                    GPtrArray  *values)
{
  if (values->len > 0)
    g_key_file_set_string_list (keyfile, GROUP_CONTEXT, key,
                                (const char *const *) values->pdata, values->len);
  else
    (void) g_key_file_remove_key (keyfile, GROUP_CONTEXT, key, NULL);
}

/* The entries of one flag kind, "name" or "!name"; @with_negations FALSE
 * keeps only what is granted. */
static GPtrArray *
flag_strings (const XaContext *self,
              FlagKind         kind,
              gboolean         with_negations)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  const char *const *names = flag_kinds[kind].names;
  guint i;

  for (i = 0; names[i] != NULL; i++)
    {
      guint32 bit = 1u << i;

      if (self->granted[kind] & bit)
        g_ptr_array_add (out, g_strdup (names[i]));
      else if (with_negations && (self->mentioned[kind] & bit))
        g_ptr_array_add (out, g_strconcat ("!", names[i], NULL));
    }
  return out;
}

static GPtrArray *
filesystem_strings (const XaContext *self,
                    gboolean         with_negations)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) specs = sorted_keys (self->filesystems);
  guint i;

  /* "!host:reset" first: it clears what comes before it. */
  if (with_negations && g_hash_table_contains (self->filesystems, "host-reset"))
    g_ptr_array_add (out, g_strdup ("!host:reset"));
  for (i = 0; i < specs->len; i++)
    {
      XaFilesystem fs = {
        .spec = g_ptr_array_index (specs, i),
        .mode = GPOINTER_TO_INT (g_hash_table_lookup (self->filesystems,
                                                      g_ptr_array_index (specs, i))),
      };

      if (strcmp (fs.spec, "host-reset") == 0)
        continue;
      if (fs.mode == XA_FILESYSTEM_MODE_NONE && !with_negations)
        continue;
      g_ptr_array_add (out, xa_filesystem_to_string (&fs));
    }
  return out;
}

/* Variables that are unset, sorted, borrowed from self->env. */
static GPtrArray *
unset_names (const XaContext *self)
{
  g_autoptr(GPtrArray) names = sorted_keys (self->env);
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; i < names->len; i++)
    if (g_hash_table_lookup (self->env, g_ptr_array_index (names, i)) == NULL)
      g_ptr_array_add (out, g_ptr_array_index (names, i));
  return out;
}

/* @name's value in a bus policy group (policy/bus-value.h). */
static char *
bus_value_text (const XaContext *self,
                XaBus            bus,
                const char      *name)
{
  return xa_bus_value_to_string (GPOINTER_TO_INT (g_hash_table_lookup (self->bus_policy[bus], name)),
                                 g_hash_table_lookup (self->bus_rules[bus], name));
}

void
xa_context_save_keyfile (const XaContext *self,
                         GKeyFile        *keyfile)
{
  g_autoptr(GPtrArray) filesystems = NULL;
  g_autoptr(GPtrArray) persistent = NULL;
  g_autoptr(GPtrArray) env_names = NULL;
  g_autoptr(GPtrArray) unset = NULL;
  gsize n_keys = 0;
  int kind;
  int bus;
  guint i;

  g_return_if_fail (self != NULL);
  g_return_if_fail (keyfile != NULL);

  for (kind = 0; kind < N_KINDS; kind++)
    {
      g_autoptr(GPtrArray) values = flag_strings (self, (FlagKind) kind, TRUE);

      set_or_remove_list (keyfile, flag_kinds[kind].key, values);
    }
  filesystems = filesystem_strings (self, TRUE);
  set_or_remove_list (keyfile, KEY_FILESYSTEMS, filesystems);
  persistent = sorted_keys (self->persistent);
  set_or_remove_list (keyfile, KEY_PERSISTENT, persistent);
  unset = unset_names (self);
  set_or_remove_list (keyfile, KEY_UNSET_ENVIRONMENT, unset);

  for (bus = XA_BUS_SESSION; bus <= XA_BUS_SYSTEM; bus++)
    {
      g_autoptr(GPtrArray) names = sorted_keys (self->bus_policy[bus]);

      (void) g_key_file_remove_group (keyfile, bus_groups[bus], NULL);
      for (i = 0; i < names->len; i++)
        {
          const char *name = g_ptr_array_index (names, i);
          g_autofree char *value = bus_value_text (self, bus, name);

          g_key_file_set_string (keyfile, bus_groups[bus], name, value);
        }
    }

  (void) g_key_file_remove_group (keyfile, GROUP_ENVIRONMENT, NULL);
  env_names = sorted_keys (self->env);
  for (i = 0; i < env_names->len; i++)
    {
      const char *name = g_ptr_array_index (env_names, i);
      const char *value = g_hash_table_lookup (self->env, name);

      /* An unset variable is also written as "VAR=", which is what
       * Flatpak before 1.12 understood as unset. */
      g_key_file_set_string (keyfile, GROUP_ENVIRONMENT, name, value != NULL ? value : "");
    }

  /* An empty [Context] group is noise in a metadata or override file. */
  g_strfreev (g_key_file_get_keys (keyfile, GROUP_CONTEXT, &n_keys, NULL));
  if (n_keys == 0)
    (void) g_key_file_remove_group (keyfile, GROUP_CONTEXT, NULL);
}

/* ---- layering ---------------------------------------------------------- */

void
xa_context_merge (XaContext       *self,
                  const XaContext *other)
{
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  int kind;
  int bus;
  guint i;

  g_return_if_fail (self != NULL);
  g_return_if_fail (other != NULL);

  for (kind = 0; kind < N_KINDS; kind++)
    {
      self->granted[kind] &= ~other->mentioned[kind];
      self->granted[kind] |= other->granted[kind];
      self->mentioned[kind] |= other->mentioned[kind];
    }

  g_hash_table_iter_init (&iter, other->env);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (self->env, g_strdup (key), g_strdup (value));

  g_hash_table_iter_init (&iter, other->persistent);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (self->persistent, g_strdup (key));

  /* "!host:reset" forgets every filesystem of the layers below. */
  if (g_hash_table_contains (other->filesystems, "host-reset"))
    g_hash_table_remove_all (self->filesystems);
  g_hash_table_iter_init (&iter, other->filesystems);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (self->filesystems, g_strdup (key), value);

  for (bus = XA_BUS_SESSION; bus <= XA_BUS_SYSTEM; bus++)
    {
      g_hash_table_iter_init (&iter, other->bus_policy[bus]);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const char *const *rules = g_hash_table_lookup (other->bus_rules[bus], key);

          /* The layer's value replaces the whole value below. */
          g_hash_table_insert (self->bus_policy[bus], g_strdup (key), value);
          if (rules != NULL)
            g_hash_table_insert (self->bus_rules[bus], g_strdup (key), g_strdupv ((char **) rules));
          else
            g_hash_table_remove (self->bus_rules[bus], key);
        }
    }

  for (i = 0; i < other->warnings->len; i++)
    add_warning (self, g_ptr_array_index (other->warnings, i));

  context_changed (self);
}

/* ---- command-line flags ------------------------------------------------ */

typedef enum
{
  ACTION_ALLOW,
  ACTION_DENY,
  ACTION_FILESYSTEM,
  ACTION_NOFILESYSTEM,
  ACTION_PERSIST,
  ACTION_ENV,
  ACTION_UNSET_ENV,
  ACTION_BUS,
} OptionAction;

typedef struct
{
  const char   *name;
  OptionAction  action;
  FlagKind      kind;    /* ACTION_ALLOW, ACTION_DENY */
  XaBus         bus;     /* ACTION_BUS */
  XaBusPolicy   level;   /* ACTION_BUS */
} OptionInfo;

/* Flatpak's option names, so users' habits and scripts carry over. */
static const OptionInfo options[] = {
  { "share",               ACTION_ALLOW,        KIND_SHARE,   0, 0 },
  { "unshare",             ACTION_DENY,         KIND_SHARE,   0, 0 },
  { "socket",              ACTION_ALLOW,        KIND_SOCKET,  0, 0 },
  { "nosocket",            ACTION_DENY,         KIND_SOCKET,  0, 0 },
  { "device",              ACTION_ALLOW,        KIND_DEVICE,  0, 0 },
  { "nodevice",            ACTION_DENY,         KIND_DEVICE,  0, 0 },
  { "allow",               ACTION_ALLOW,        KIND_FEATURE, 0, 0 },
  { "disallow",            ACTION_DENY,         KIND_FEATURE, 0, 0 },
  { "filesystem",          ACTION_FILESYSTEM,   0, 0, 0 },
  { "nofilesystem",        ACTION_NOFILESYSTEM, 0, 0, 0 },
  { "persist",             ACTION_PERSIST,      0, 0, 0 },
  { "env",                 ACTION_ENV,          0, 0, 0 },
  { "unset-env",           ACTION_UNSET_ENV,    0, 0, 0 },
  { "own-name",            ACTION_BUS, 0, XA_BUS_SESSION, XA_BUS_POLICY_OWN },
  { "talk-name",           ACTION_BUS, 0, XA_BUS_SESSION, XA_BUS_POLICY_TALK },
  { "see-name",            ACTION_BUS, 0, XA_BUS_SESSION, XA_BUS_POLICY_SEE },
  { "no-talk-name",        ACTION_BUS, 0, XA_BUS_SESSION, XA_BUS_POLICY_NONE },
  { "system-own-name",     ACTION_BUS, 0, XA_BUS_SYSTEM,  XA_BUS_POLICY_OWN },
  { "system-talk-name",    ACTION_BUS, 0, XA_BUS_SYSTEM,  XA_BUS_POLICY_TALK },
  { "system-see-name",     ACTION_BUS, 0, XA_BUS_SYSTEM,  XA_BUS_POLICY_SEE },
  { "system-no-talk-name", ACTION_BUS, 0, XA_BUS_SYSTEM,  XA_BUS_POLICY_NONE },
};

const char *const *
xa_context_get_option_names (void)
{
  static const char **names = NULL;

  if (g_once_init_enter (&names))
    {
      const char **list = g_new0 (const char *, G_N_ELEMENTS (options) + 1);
      gsize i;

      for (i = 0; i < G_N_ELEMENTS (options); i++)
        list[i] = options[i].name;
      g_once_init_leave (&names, list);
    }
  return names;
}

static gboolean
apply_env_option (XaContext   *self,
                  const char  *value,
                  const char  *where,
                  GError     **error)
{
  const char *eq = strchr (value, '=');
  g_autofree char *name = NULL;

  if (eq == NULL)
    {
      set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                 _("expected VAR=VALUE, got '%s'"), value);
      return FALSE;
    }
  name = g_strndup (value, (gsize) (eq - value));
  if (!check_env_name (name, where, error))
    return FALSE;
  if (!g_utf8_validate (eq + 1, -1, NULL))
    {
      set_error (error, XA_POLICY_ERROR_INVALID_VALUE, where,
                 _("the value of '%s' is not UTF-8"), name);
      return FALSE;
    }
  g_hash_table_insert (self->env, g_steal_pointer (&name), g_strdup (eq + 1));
  return TRUE;
}

static gboolean
apply_option (XaContext         *self,
              const OptionInfo  *option,
              const char        *value,
              const char        *where,
              GError           **error)
{
  g_autofree char *prefix = NULL;

  switch (option->action)
    {
    case ACTION_ALLOW:
    case ACTION_DENY:
      prefix = g_strdup_printf ("%s=%s", where, value);
      return apply_flag (self, option->kind, value, option->action == ACTION_ALLOW,
                         where, prefix, error);
    case ACTION_FILESYSTEM:
      return apply_filesystem (self, value, FALSE, where, error);
    case ACTION_NOFILESYSTEM:
      return apply_filesystem (self, value, TRUE, where, error);
    case ACTION_PERSIST:
      return apply_persistent (self, value, where, error);
    case ACTION_ENV:
      return apply_env_option (self, value, where, error);
    case ACTION_UNSET_ENV:
      if (!check_env_name (value, where, error))
        return FALSE;
      g_hash_table_insert (self->env, g_strdup (value), NULL);
      return TRUE;
    case ACTION_BUS:
      return apply_bus_policy (self, option->bus, value, option->level, where, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

gboolean
xa_context_parse_option (XaContext   *self,
                         const char  *option_name,
                         const char  *value,
                         GError     **error)
{
  g_autofree char *where = NULL;
  const char *name;
  gsize i;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (option_name != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  name = g_str_has_prefix (option_name, "--") ? option_name + 2 : option_name;
  for (i = 0; i < G_N_ELEMENTS (options); i++)
    if (strcmp (options[i].name, name) == 0)
      break;
  if (i == G_N_ELEMENTS (options))
    {
      g_autofree char *shown = xa_escape_for_terminal (option_name, -1);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_OPTION,
                   _("'%s' is not a permission option"), shown);
      return FALSE;
    }
  where = g_strconcat ("--", options[i].name, NULL);
  return apply_option (self, &options[i], value, where, error);
}

/* ---- single grants and queries ----------------------------------------- */

static gboolean
has_flag (const XaContext *self,
          FlagKind         kind,
          guint            value)
{
  return (self->granted[kind] & (1u << value)) != 0;
}

void
xa_context_allow_share (XaContext *self,
                        XaShare    share)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (share <= XA_SHARE_IPC);

  set_flag (self, KIND_SHARE, share, TRUE);
}

void
xa_context_deny_share (XaContext *self,
                       XaShare    share)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (share <= XA_SHARE_IPC);

  set_flag (self, KIND_SHARE, share, FALSE);
}

gboolean
xa_context_has_share (const XaContext *self,
                      XaShare          share)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (share <= XA_SHARE_IPC, FALSE);

  return has_flag (self, KIND_SHARE, share);
}

void
xa_context_allow_socket (XaContext *self,
                         XaSocket   socket)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (socket <= XA_SOCKET_GPG_AGENT);

  set_flag (self, KIND_SOCKET, socket, TRUE);
}

void
xa_context_deny_socket (XaContext *self,
                        XaSocket   socket)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (socket <= XA_SOCKET_GPG_AGENT);

  set_flag (self, KIND_SOCKET, socket, FALSE);
}

gboolean
xa_context_has_socket (const XaContext *self,
                       XaSocket         socket)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (socket <= XA_SOCKET_GPG_AGENT, FALSE);

  return has_flag (self, KIND_SOCKET, socket);
}

void
xa_context_allow_device (XaContext *self,
                         XaDevice   device)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (device <= XA_DEVICE_ALL);

  set_flag (self, KIND_DEVICE, device, TRUE);
}

void
xa_context_deny_device (XaContext *self,
                        XaDevice   device)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (device <= XA_DEVICE_ALL);

  set_flag (self, KIND_DEVICE, device, FALSE);
}

gboolean
xa_context_has_device (const XaContext *self,
                       XaDevice         device)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (device <= XA_DEVICE_ALL, FALSE);

  return has_flag (self, KIND_DEVICE, device);
}

void
xa_context_allow_feature (XaContext *self,
                          XaFeature  feature)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (feature <= XA_FEATURE_PER_APP_DEV_SHM);

  set_flag (self, KIND_FEATURE, feature, TRUE);
}

void
xa_context_deny_feature (XaContext *self,
                         XaFeature  feature)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (feature <= XA_FEATURE_PER_APP_DEV_SHM);

  set_flag (self, KIND_FEATURE, feature, FALSE);
}

gboolean
xa_context_has_feature (const XaContext *self,
                        XaFeature        feature)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (feature <= XA_FEATURE_PER_APP_DEV_SHM, FALSE);

  return has_flag (self, KIND_FEATURE, feature);
}

static gint
compare_filesystems (gconstpointer a,
                     gconstpointer b)
{
  const XaFilesystem *fa = *(const XaFilesystem *const *) a;
  const XaFilesystem *fb = *(const XaFilesystem *const *) b;

  return strcmp (fa->spec, fb->spec);
}

const GPtrArray *
xa_context_get_filesystems (XaContext *self)
{
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->filesystems_view != NULL)
    return self->filesystems_view;

  self->filesystems_view = g_ptr_array_new_with_free_func ((GDestroyNotify) xa_filesystem_free);
  g_hash_table_iter_init (&iter, self->filesystems);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_INT (value) != XA_FILESYSTEM_MODE_NONE)
      g_ptr_array_add (self->filesystems_view,
                       xa_filesystem_new (key, GPOINTER_TO_INT (value)));
  g_ptr_array_sort (self->filesystems_view, compare_filesystems);
  return self->filesystems_view;
}

XaFilesystemMode
xa_context_get_filesystem_mode (const XaContext *self,
                                const char      *spec)
{
  g_return_val_if_fail (self != NULL, XA_FILESYSTEM_MODE_NONE);
  g_return_val_if_fail (spec != NULL, XA_FILESYSTEM_MODE_NONE);

  return GPOINTER_TO_INT (g_hash_table_lookup (self->filesystems, spec));
}

const char *const *
xa_context_get_persistent (XaContext *self)
{
  g_autoptr(GPtrArray) paths = NULL;
  guint i;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->persistent_view != NULL)
    return (const char *const *) self->persistent_view;

  paths = sorted_keys (self->persistent);
  self->persistent_view = g_new0 (char *, paths->len + 1);
  for (i = 0; i < paths->len; i++)
    self->persistent_view[i] = g_strdup (g_ptr_array_index (paths, i));
  return (const char *const *) self->persistent_view;
}

GHashTable *
xa_context_get_env (const XaContext *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->env;
}

GHashTable *
xa_context_get_bus_policy (const XaContext *self,
                           XaBus            bus)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (bus == XA_BUS_SESSION || bus == XA_BUS_SYSTEM, NULL);

  return self->bus_policy[bus];
}

const char *const *
xa_context_get_bus_rules (const XaContext *self,
                          XaBus            bus,
                          const char      *name)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (bus == XA_BUS_SESSION || bus == XA_BUS_SYSTEM, NULL);

  return g_hash_table_lookup (self->bus_rules[bus], name);
}

const char *const *
xa_context_get_warnings (const XaContext *self)
{
  g_return_val_if_fail (self != NULL, no_strings);

  /* An empty null-terminated GPtrArray may not have allocated pdata yet. */
  if (self->warnings->pdata == NULL)
    return no_strings;
  return (const char *const *) self->warnings->pdata;
}

/* ---- showing ----------------------------------------------------------- */

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *shown = xa_escape_for_terminal (text, -1);

  g_string_append (out, shown);
}

/* "key=a;b;\n", each entry escaped; nothing for an empty list. */
static void
append_list_line (GString    *out,
                  const char *key,
                  GPtrArray  *values)
{
  guint i;

  if (values->len == 0)
    return;
  g_string_append_printf (out, "%s=", key);
  for (i = 0; i < values->len; i++)
    {
      append_escaped (out, g_ptr_array_index (values, i));
      g_string_append_c (out, ';');
    }
  g_string_append_c (out, '\n');
}

static void
append_group (GString    *out,
              const char *group,
              GString    *body)
{
  if (body->len == 0)
    return;
  if (out->len > 0)
    g_string_append_c (out, '\n');
  g_string_append_printf (out, "[%s]\n%s", group, body->str);
}

static GString *
context_group_text (const XaContext *self)
{
  GString *body = g_string_new (NULL);
  g_autoptr(GPtrArray) filesystems = filesystem_strings (self, FALSE);
  g_autoptr(GPtrArray) persistent = sorted_keys (self->persistent);
  g_autoptr(GPtrArray) unset = unset_names (self);
  int kind;

  for (kind = 0; kind < N_KINDS; kind++)
    {
      g_autoptr(GPtrArray) values = flag_strings (self, (FlagKind) kind, FALSE);

      append_list_line (body, flag_kinds[kind].key, values);
    }
  append_list_line (body, KEY_FILESYSTEMS, filesystems);
  append_list_line (body, KEY_PERSISTENT, persistent);
  append_list_line (body, KEY_UNSET_ENVIRONMENT, unset);
  return body;
}

static GString *
environment_group_text (const XaContext *self)
{
  GString *body = g_string_new (NULL);
  g_autoptr(GPtrArray) names = sorted_keys (self->env);
  guint i;

  for (i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *value = g_hash_table_lookup (self->env, name);

      if (value == NULL)
        continue;
      append_escaped (body, name);
      g_string_append_c (body, '=');
      append_escaped (body, value);
      g_string_append_c (body, '\n');
    }
  return body;
}

static GString *
bus_group_text (const XaContext *self,
                XaBus            bus)
{
  GString *body = g_string_new (NULL);
  g_autoptr(GPtrArray) names = sorted_keys (self->bus_policy[bus]);
  guint i;

  for (i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      int level = GPOINTER_TO_INT (g_hash_table_lookup (self->bus_policy[bus], name));
      g_autofree char *value = NULL;

      if (level == XA_BUS_POLICY_NONE && !g_hash_table_contains (self->bus_rules[bus], name))
        continue;
      value = bus_value_text (self, bus, name);
      append_escaped (body, name);
      g_string_append_c (body, '=');
      append_escaped (body, value);
      g_string_append_c (body, '\n');
    }
  return body;
}

char *
xa_context_to_text (const XaContext *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) context = NULL;
  g_autoptr(GString) environment = NULL;
  g_autoptr(GString) session = NULL;
  g_autoptr(GString) system = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  context = context_group_text (self);
  environment = environment_group_text (self);
  session = bus_group_text (self, XA_BUS_SESSION);
  system = bus_group_text (self, XA_BUS_SYSTEM);
  append_group (out, GROUP_CONTEXT, context);
  append_group (out, GROUP_ENVIRONMENT, environment);
  append_group (out, GROUP_SESSION_BUS_POLICY, session);
  append_group (out, GROUP_SYSTEM_BUS_POLICY, system);

  /* The bus filter is what keeps an app to the names it was given; the
   * raw session bus reaches every service of the session (systemd --user,
   * the portal backends, other apps), so the sandbox stops meaning much. */
  if (has_flag (self, KIND_SOCKET, XA_SOCKET_SESSION_BUS))
    {
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, _("note: sockets=session-bus grants the whole session bus: "
                              "this defeats the sandbox"));
      g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
