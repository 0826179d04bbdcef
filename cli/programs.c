/* cli/programs.c — see programs.h.  Trusts /proc/self/exe: the directory
 * this program was run from is as trusted as the program itself. */
#include <gio/gio.h>

#include "cli/programs.h"

char *
xa_cli_find_program (const char *name,
                     const char *build_subdir,
                     const char *installed_dir)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self != NULL ? g_path_get_dirname (self) : NULL;
  g_autofree char *in_subdir = build_subdir != NULL ? g_build_filename (build_subdir, name, NULL) : NULL;
  const char *const candidates[] = { name, in_subdir };

  for (gsize i = 0; dir != NULL && i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *canonical = NULL;

      if (candidates[i] == NULL)
        continue;
      path = g_build_filename (dir, candidates[i], NULL);
      canonical = g_canonicalize_filename (path, NULL);
      if (g_file_test (canonical, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&canonical);
    }
  return g_build_filename (installed_dir, name, NULL);
}
