/* fuzz/fuzz-metadata.c — libFuzzer target for policy/metadata.c and
 * policy/context.c, the parsers of the one file every repository hands
 * us.  Besides "no crash, no leak, no sanitizer report", each input must
 * keep three promises:
 *   - a refusal is a GError whose message carries no control character
 *     (it is printed on a terminal: CVE-2023-28101);
 *   - xa_context_to_text() carries none either, newlines apart;
 *   - what xa_context_save_keyfile() writes loads back to the same grants.
 * The same entry point runs under the normal build through
 * fuzz/replay.c, over the seed corpus in corpus/metadata/. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "fuzz/fuzz-target.h"
#include "policy/context.h"
#include "policy/metadata.h"

static void
assert_printable (const char *text,
                  gboolean    allow_newlines)
{
  const char *p;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (allow_newlines && c == '\n')
        continue;
      g_assert_true (c == ' ' || g_unichar_isgraph (c));
    }
}

/* Saving and loading again must give the same permissions. */
static void
assert_round_trip (XaContext *context)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GKeyFile) reread = g_key_file_new ();
  g_autoptr(XaContext) copy = xa_context_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize len = 0;

  xa_context_save_keyfile (context, keyfile);
  data = g_key_file_to_data (keyfile, &len, NULL);
  g_assert_true (g_key_file_load_from_data (reread, data, len, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (xa_context_load_keyfile (copy, reread, "round trip", &error));
  g_assert_no_error (error);

  before = xa_context_to_text (context);
  after = xa_context_to_text (copy);
  g_assert_cmpstr (before, ==, after);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(XaMetadata) metadata = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *const *warnings;
  XaContext *context;

  metadata = xa_metadata_load_data ((const char *) data, size, "fuzz", &error);
  if (metadata == NULL)
    {
      g_assert_nonnull (error);
      assert_printable (error->message, FALSE);
      return 0;
    }
  g_assert_no_error (error);

  g_assert_nonnull (xa_metadata_get_name (metadata));
  g_assert_true (xa_metadata_validate_id (xa_metadata_get_name (metadata), NULL));
  if (xa_metadata_get_kind (metadata) == XA_METADATA_APP)
    g_assert_nonnull (xa_metadata_get_runtime (metadata));
  else
    g_assert_null (xa_metadata_get_runtime (metadata));
  for (warnings = xa_metadata_get_warnings (metadata); *warnings != NULL; warnings++)
    assert_printable (*warnings, FALSE);

  context = xa_metadata_get_context (metadata);
  text = xa_context_to_text (context);
  assert_printable (text, TRUE);
  (void) xa_context_get_filesystems (context);
  (void) xa_context_get_persistent (context);
  assert_round_trip (context);
  return 0;
}
