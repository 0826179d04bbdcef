/* fuzz/replay.c — runs every file of a corpus directory through the
 * fuzz target linked with it, one test case per file, so the target's
 * checks run in every build and in CI, not only under clang.
 *
 *   replay-TARGET CORPUS-DIR        (TAP on stdout) */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fuzz/fuzz-target.h"

static void
replay_one (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpint (LLVMFuzzerTestOneInput ((const guint8 *) contents, len), ==, 0);
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *corpus = NULL;
  const char *name;
  guint i;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  if (argc != 2)
    {
      g_printerr ("usage: %s CORPUS-DIR\n", argv[0]);
      return EXIT_FAILURE;
    }

  dir = g_dir_open (argv[1], 0, &error);
  if (dir == NULL)
    {
      g_printerr ("error: %s\n", error->message);
      return EXIT_FAILURE;
    }
  corpus = g_path_get_basename (argv[1]);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (paths, g_build_filename (argv[1], name, NULL));
  g_ptr_array_sort (paths, compare_strings);

  for (i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *test_path = g_strdup_printf ("/fuzz/%s/replays-%s", corpus, base);

      g_test_add_data_func (test_path, path, replay_one);
    }
  return g_test_run ();
}
