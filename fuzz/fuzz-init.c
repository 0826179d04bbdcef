/* fuzz/fuzz-init.c — linked into every libFuzzer binary (not into the
 * replay drivers, where g_test_init() does the same): a GLib warning or
 * critical is a bug the fuzzer found ("GError set over the top of a
 * previous GError", a failed g_return_if_fail), so it aborts, which
 * libFuzzer records as a crash with its input.  GLib's own fatal path
 * raises SIGTRAP, which libFuzzer does not catch. */
#include <stdlib.h>

#include <glib.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);

static GLogWriterOutput
write_log (GLogLevelFlags level,
           const GLogField *fields,
           gsize n_fields,
           gpointer user_data)
{
  GLogWriterOutput result = g_log_writer_standard_streams (level, fields, n_fields, user_data);

  if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) != 0)
    abort ();
  return result;
}

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  g_log_set_writer_func (write_log, NULL, NULL);
  return 0;
}
