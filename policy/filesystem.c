/* policy/filesystem.c — parses and writes filesystems= entries.  Trusts
 * nothing in the text (it comes from metadata in a repository, an override
 * file or the command line): the location must be one Flatpak knows, a
 * path must not climb with "..", and no control character or non-UTF-8
 * byte gets through to become a mount point or a line on a terminal.
 * Where a value means nothing to us, it is refused rather than guessed
 * (Flatpak warns and carries on; a permission we misread is worse). */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "policy/escape.h"
#include "policy/filesystem.h"
#include "policy/policy-error.h"

/* Longest entry accepted: PATH_MAX, the most a mount point can be. */
#define FILESYSTEM_MAX_LEN 4096

/* Locations that are whole words; "host-reset" only exists negated. */
static const char *const special_locations[] = {
  "host",       /* most of the host's file system, under /run/host for /usr and /etc */
  "host-os",    /* the host's /usr and friends, read under /run/host */
  "host-etc",   /* the host's /etc, under /run/host/etc */
  "home",       /* the user's home directory */
  NULL
};

/* XDG directories, alone or followed by /SUBPATH. */
static const char *const xdg_locations[] = {
  "xdg-desktop",
  "xdg-documents",
  "xdg-download",
  "xdg-music",
  "xdg-pictures",
  "xdg-public-share",
  "xdg-videos",
  "xdg-templates",
  "xdg-config",
  "xdg-cache",
  "xdg-data",
  "xdg-run",    /* only with a subpath: all of XDG_RUNTIME_DIR would hand over every socket */
  NULL
};

#define VALID_LOCATIONS \
  "host, host-os, host-etc, home, xdg-desktop, xdg-documents, xdg-download, " \
  "xdg-music, xdg-pictures, xdg-public-share, xdg-videos, xdg-templates, " \
  "xdg-config, xdg-cache, xdg-data, xdg-run/PATH, ~/PATH, /PATH"

XaFilesystem *
xa_filesystem_new (const char       *spec,
                   XaFilesystemMode  mode)
{
  XaFilesystem *self;

  g_return_val_if_fail (spec != NULL, NULL);

  self = g_new0 (XaFilesystem, 1);
  self->spec = g_strdup (spec);
  self->mode = mode;
  return self;
}

void
xa_filesystem_free (XaFilesystem *self)
{
  if (self == NULL)
    return;
  g_free (self->spec);
  g_free (self);
}

static gboolean
check_characters (const char  *text,
                  GError     **error)
{
  const char *end = NULL;
  const char *p;

  if (strlen (text) > FILESYSTEM_MAX_LEN)
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("filesystem entry longer than %d bytes"), FILESYSTEM_MAX_LEN);
      return FALSE;
    }
  if (!g_utf8_validate (text, -1, &end))
    {
      g_autofree char *shown = xa_escape_for_terminal (text, -1);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("filesystem '%s' is not valid UTF-8"), shown);
      return FALSE;
    }
  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != ' ' && !g_unichar_isgraph (c))
        {
          g_autofree char *shown = xa_escape_for_terminal (text, -1);

          g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                       _("filesystem '%s' contains a control or invisible character"),
                       shown);
          return FALSE;
        }
    }
  return TRUE;
}

/* Splits "PATH[:SUFFIX]" at the first unescaped ':', removing the '\'
 * escapes from PATH.  *out_suffix points into @text, or is NULL. */
static char *
split_suffix (const char  *text,
              const char **out_suffix)
{
  g_autoptr(GString) location = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0' && *p != ':')
    {
      if (*p == '\\' && p[1] != '\0')
        p++;
      g_string_append_c (location, *p);
      p++;
    }
  *out_suffix = (*p == ':') ? p + 1 : NULL;
  return g_string_free (g_steal_pointer (&location), FALSE);
}

/* Reads the suffix into a mode; @reset is set for ":reset". */
static gboolean
parse_suffix (const char        *suffix,
              gboolean           negated,
              XaFilesystemMode  *out_mode,
              gboolean          *out_reset,
              GError           **error)
{
  XaFilesystemMode mode = XA_FILESYSTEM_MODE_READ_WRITE;
  gboolean reset = FALSE;

  if (suffix == NULL || *suffix == '\0' || strcmp (suffix, "rw") == 0)
    mode = XA_FILESYSTEM_MODE_READ_WRITE;
  else if (strcmp (suffix, "ro") == 0)
    mode = XA_FILESYSTEM_MODE_READ_ONLY;
  else if (strcmp (suffix, "create") == 0)
    mode = XA_FILESYSTEM_MODE_CREATE;
  else if (strcmp (suffix, "reset") == 0)
    reset = TRUE;
  else
    {
      g_autofree char *shown = xa_escape_for_terminal (suffix, -1);

      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION,
                   _("unknown filesystem suffix ':%s' (valid: :ro, :rw, :create)"),
                   shown);
      return FALSE;
    }

  /* As in Flatpak, a negation removes whatever mode was granted, so a
   * mode on it ("!home:ro") has nothing to say and is dropped. */
  *out_mode = negated ? XA_FILESYSTEM_MODE_NONE : mode;
  *out_reset = reset;
  return TRUE;
}

/* Collapses "//", "/./", a trailing "/" or "/."; refuses "..".  Works on
 * everything after the location word (or the leading '/' or "~/"). */
static gboolean
normalize_path (GString     *location,
                GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (location->str, "/", -1);
  g_autoptr(GString) out = g_string_new (NULL);
  gsize i;

  for (i = 0; parts[i] != NULL; i++)
    {
      if (strcmp (parts[i], "..") == 0)
        {
          g_autofree char *shown = xa_escape_for_terminal (location->str, -1);

          g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                       _("filesystem '%s' contains \"..\""), shown);
          return FALSE;
        }
      /* The first part is the location word, or empty for "/PATH". */
      if (i > 0 && (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0))
        continue;
      if (i > 0)
        g_string_append_c (out, '/');
      g_string_append (out, parts[i]);
    }
  if (out->len == 0 && location->str[0] == '/')
    {
      /* Flatpak refuses it too: "host" is what comes close, and it does
       * not put the host at the sandbox's root. */
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("filesystem '/' is not available; use 'host' for a similar result"));
      return FALSE;
    }
  g_string_assign (location, out->str);
  return TRUE;
}

static gboolean
is_xdg_location (const char *location)
{
  const char *slash = strchr (location, '/');
  gsize len = slash != NULL ? (gsize) (slash - location) : strlen (location);
  gsize i;

  for (i = 0; xdg_locations[i] != NULL; i++)
    {
      if (strlen (xdg_locations[i]) != len ||
          strncmp (xdg_locations[i], location, len) != 0)
        continue;
      /* xdg-run alone is not a location; xdg-run/SUBPATH is. */
      return strcmp (xdg_locations[i], "xdg-run") != 0 || slash != NULL;
    }
  return FALSE;
}

/* Maps the spellings Flatpak treats as aliases to one form, and refuses
 * what is no location at all. */
static char *
canonical_location (const char  *location,
                    GError     **error)
{
  g_autofree char *shown = NULL;

  if (g_strv_contains (special_locations, location) ||
      is_xdg_location (location) ||
      g_str_has_prefix (location, "~/") ||
      location[0] == '/')
    return g_strdup (location);
  if (strcmp (location, "~") == 0)
    return g_strdup ("home");
  if (g_str_has_prefix (location, "home/"))
    return g_strconcat ("~/", location + strlen ("home/"), NULL);

  shown = xa_escape_for_terminal (location, -1);
  g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_UNKNOWN_PERMISSION,
               _("unknown filesystem '%s' (valid: %s, each optionally with :ro, :rw or :create)"),
               shown, VALID_LOCATIONS);
  return NULL;
}

XaFilesystem *
xa_filesystem_parse (const char  *text,
                     gboolean     negated,
                     GError     **error)
{
  g_autofree char *raw = NULL;
  g_autofree char *spec = NULL;
  g_autoptr(GString) location = NULL;
  const char *suffix = NULL;
  XaFilesystemMode mode;
  gboolean reset;

  g_return_val_if_fail (text != NULL, NULL);

  if (!check_characters (text, error))
    return NULL;
  raw = split_suffix (text, &suffix);
  if (!parse_suffix (suffix, negated, &mode, &reset, error))
    return NULL;

  /* ":reset" is Flatpak's "!host:reset": forget every filesystem that a
   * lower layer granted.  It only makes sense negated, and only on host. */
  if (reset || strcmp (raw, "host-reset") == 0)
    {
      gboolean well_formed = reset ? strcmp (raw, "host") == 0 : suffix == NULL;

      if (!negated || !well_formed)
        {
          g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                       _("filesystem reset is only valid as '!host:reset' or --nofilesystem=host:reset"));
          return NULL;
        }
      return xa_filesystem_new ("host-reset", XA_FILESYSTEM_MODE_NONE);
    }

  if (raw[0] == '\0')
    {
      g_set_error (error, XA_POLICY_ERROR, XA_POLICY_ERROR_INVALID_VALUE,
                   _("empty filesystem entry"));
      return NULL;
    }
  location = g_string_new (raw);
  if (!normalize_path (location, error))
    return NULL;
  spec = canonical_location (location->str, error);
  if (spec == NULL)
    return NULL;
  return xa_filesystem_new (spec, mode);
}

char *
xa_filesystem_to_string (const XaFilesystem *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p;

  g_return_val_if_fail (self != NULL, NULL);

  if (strcmp (self->spec, "host-reset") == 0)
    return g_strdup ("!host:reset");

  if (self->mode == XA_FILESYSTEM_MODE_NONE)
    g_string_append_c (out, '!');
  for (p = self->spec; *p != '\0'; p++)
    {
      if (*p == ':' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  switch (self->mode)
    {
    case XA_FILESYSTEM_MODE_READ_ONLY:
      g_string_append (out, ":ro");
      break;
    case XA_FILESYSTEM_MODE_CREATE:
      g_string_append (out, ":create");
      break;
    case XA_FILESYSTEM_MODE_NONE:
    case XA_FILESYSTEM_MODE_READ_WRITE:
      break;
    default:
      g_assert_not_reached ();
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
