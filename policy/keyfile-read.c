/* policy/keyfile-read.c — see keyfile-read.h.  GLib 2.74 sets its error
 * twice for a value with an unknown escape and a backslash at its end,
 * which prints a GLib-WARNING on the user's terminal next to our one
 * line (found by fuzz/fuzz-metadata).  The escapes GLib reads are
 * checked here first, and GLib only sees values it can read. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "policy/keyfile-read.h"

/* The first backslash of @raw that starts no escape GLib reads (\s \n \t
 * \r \\, and \; in lists), or NULL. */
static const char *
find_bad_escape (const char *raw,
                 gboolean is_list)
{
  const char *known = is_list ? "sntr\\;" : "sntr\\";

  for (const char *p = raw; *p != '\0'; p++)
    if (*p == '\\')
      {
        if (p[1] == '\0' || strchr (known, p[1]) == NULL)
          return p;
        p++;
      }
  return NULL;
}

static gboolean
check_escapes (GKeyFile *keyfile,
               const char *group,
               const char *key,
               gboolean is_list,
               GError **error)
{
  g_autofree char *raw = g_key_file_get_value (keyfile, group, key, error);
  const char *bad;

  if (raw == NULL)
    return FALSE;
  bad = find_bad_escape (raw, is_list);
  if (bad != NULL && bad[1] == '\0')
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   _("a backslash ends the value"));
      return FALSE;
    }
  if (bad != NULL)
    {
      /* Shown whole, even when it is the first byte of a longer
       * character: the caller escapes the message for the terminal. */
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   _("unknown escape '\\%c'"), bad[1]);
      return FALSE;
    }
  return TRUE;
}

char *
xa_keyfile_read_string (GKeyFile *keyfile,
                        const char *group,
                        const char *key,
                        GError **error)
{
  if (!check_escapes (keyfile, group, key, FALSE, error))
    return NULL;
  return g_key_file_get_string (keyfile, group, key, error);
}

char **
xa_keyfile_read_list (GKeyFile *keyfile,
                      const char *group,
                      const char *key,
                      GError **error)
{
  if (!check_escapes (keyfile, group, key, TRUE, error))
    return NULL;
  return g_key_file_get_string_list (keyfile, group, key, NULL, error);
}
