/* tests/policy/test-escape.c — xa_escape_for_terminal(): nothing that can
 * act on a terminal gets through (CVE-2023-28101). */
#include <string.h>

#include <glib.h>

#include "policy/escape.h"

typedef struct
{
  const char *name;
  const char *input;
  gssize      len;
  const char *expected;
} EscapeCase;

static const EscapeCase escape_cases[] = {
  /* Each row: what reaches the terminal for one kind of byte. */
  { "printable-text-passes", "org.example.Notes ~/Music é", -1, "org.example.Notes ~/Music é" },
  { "escape-sequence-becomes-hex", "a\033[2Jb", -1, "a\\x1B[2Jb" },
  { "newline-and-tab-become-hex", "a\nb\tc", -1, "a\\x0Ab\\x09c" },
  { "bell-and-del-become-hex", "\a\177", -1, "\\x07\\x7F" },
  { "c1-csi-becomes-hex", "a\302\233b", -1, "a\\xC2\\x9Bb" },
  { "bidi-override-becomes-hex", "txt\342\200\256exe", -1, "txt\\xE2\\x80\\xAEexe" },
  { "zero-width-space-becomes-hex", "a\342\200\213b", -1, "a\\xE2\\x80\\x8Bb" },
  { "invalid-utf8-becomes-hex", "a\377b", -1, "a\\xFFb" },
  { "truncated-utf8-becomes-hex", "a\303", -1, "a\\xC3" },
  { "nul-inside-length-becomes-hex", "a\0b", 3, "a\\x00b" },
  { "backslash-passes", "C:\\dir", -1, "C:\\dir" },
};

static void
test_escape_case (gconstpointer data)
{
  const EscapeCase *c = data;
  g_autofree char *out = xa_escape_for_terminal (c->input, c->len);

  g_assert_cmpstr (out, ==, c->expected);
}

static void
test_escaping_twice_changes_nothing (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (escape_cases); i++)
    {
      g_autofree char *once = xa_escape_for_terminal (escape_cases[i].input, escape_cases[i].len);
      g_autofree char *twice = xa_escape_for_terminal (once, -1);

      g_assert_cmpstr (once, ==, twice);
    }
}

int
main (int    argc,
      char **argv)
{
  gsize i;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (i = 0; i < G_N_ELEMENTS (escape_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/policy/escape/%s", escape_cases[i].name);

      g_test_add_data_func (path, &escape_cases[i], test_escape_case);
    }
  g_test_add_func ("/policy/escape/escaping-twice-changes-nothing",
                   test_escaping_twice_changes_nothing);

  return g_test_run ();
}
