/* policy/escape.c — escapes text that came from an app, a repository or a
 * metadata file before it reaches a terminal.  CVE-2023-28101 (Flatpak):
 * permissions shown by `flatpak info`/`install` could carry escape
 * sequences that rewrote what the user saw.  Trusts nothing in the text:
 * only characters GLib calls graphic, and the plain space, pass. */
#include <string.h>

#include <glib.h>

#include "policy/escape.h"

static gboolean
is_safe_char (gunichar c)
{
  /* g_unichar_isgraph() is FALSE for controls, formats (U+200B…, U+202E)
   * and separators; the ordinary space is the one separator we keep. */
  return c == ' ' || g_unichar_isgraph (c);
}

static void
append_escaped_bytes (GString    *out,
                      const char *p,
                      gsize       n)
{
  gsize i;

  for (i = 0; i < n; i++)
    g_string_append_printf (out, "\\x%02X", (guint) (guchar) p[i]);
}

char *
xa_escape_for_terminal (const char *text,
                        gssize      len)
{
  g_autoptr(GString) out = NULL;
  const char *p;
  const char *end;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (text == NULL)
    return g_strdup ("");
  if (len < 0)
    len = (gssize) strlen (text);

  out = g_string_sized_new ((gsize) len);
  p = text;
  end = text + len;
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);
      const char *next;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8 (or cut short): one byte at a time. */
          append_escaped_bytes (out, p, 1);
          p++;
          continue;
        }
      next = g_utf8_next_char (p);
      /* A NUL inside @len is a control character like the others. */
      if (c != 0 && is_safe_char (c))
        g_string_append_len (out, p, next - p);
      else
        append_escaped_bytes (out, p, (gsize) (next - p));
      p = next;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
