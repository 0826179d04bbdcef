/* tests/policy/test-bus-name.c — xa_bus_name_is_well_known() against a
 * table, and against GIO's own checks on the same table. */
#include <string.h>

#include <gio/gio.h>

#include "policy/bus-name.h"

static const struct
{
  const char *name;
  gboolean valid;
} cases[] = {
  { "org.example.App", TRUE },
  { "org.example.App.Plugin_1", TRUE },
  { "org.example-site.App", TRUE },
  { "a.b", TRUE },
  { "_a._b", TRUE },
  { "-a.-b", TRUE },
  { "org", FALSE },                    /* one element */
  { "", FALSE },
  { ".org.example", FALSE },
  { "org.example.", FALSE },
  { "org..example", FALSE },
  { "org.1example", FALSE },           /* element starts with a digit */
  { "1org.example", FALSE },
  { ":1.42", FALSE },                  /* a unique name */
  { ":org.example", FALSE },
  { "org.exa mple", FALSE },
  { "org.exa$mple", FALSE },
  { "org.example.Ä", FALSE },
  { "org/example", FALSE },
  { "org.example*", FALSE },
};

static void
test_table (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean gio = g_dbus_is_name (cases[i].name) && !g_dbus_is_unique_name (cases[i].name);

      g_test_message ("%s", cases[i].name);
      g_assert_cmpint (xa_bus_name_is_well_known (cases[i].name), ==, cases[i].valid);
      g_assert_cmpint (gio, ==, cases[i].valid);
    }
}

static void
test_length (void)
{
  char name[300];

  /* "a." then 'b's: 255 bytes is the longest a name may be. */
  memset (name, 'b', sizeof name);
  name[0] = 'a';
  name[1] = '.';
  name[255] = '\0';
  g_assert_true (xa_bus_name_is_well_known (name));
  g_assert_true (g_dbus_is_name (name));
  name[255] = 'b';
  name[256] = '\0';
  g_assert_false (xa_bus_name_is_well_known (name));
  g_assert_false (g_dbus_is_name (name));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bus-name/table", test_table);
  g_test_add_func ("/bus-name/length", test_length);
  return g_test_run ();
}
