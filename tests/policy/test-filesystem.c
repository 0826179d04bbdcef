/* tests/policy/test-filesystem.c — filesystems= entries: Flatpak's
 * spellings read into one normalized form, written back the same way,
 * and a table of what is refused. */
#include <string.h>

#include <glib.h>

#include "policy/filesystem.h"
#include "policy/policy-error.h"

typedef struct
{
  const char       *input;
  gboolean          negated;
  const char       *spec;
  XaFilesystemMode  mode;
  const char       *written;   /* xa_filesystem_to_string() */
} Accepted;

static const Accepted accepted[] = {
  { "home",                FALSE, "home",               XA_FILESYSTEM_MODE_READ_WRITE, "home" },
  { "host:ro",             FALSE, "host",               XA_FILESYSTEM_MODE_READ_ONLY,  "host:ro" },
  { "host-os",             FALSE, "host-os",            XA_FILESYSTEM_MODE_READ_WRITE, "host-os" },
  { "host-etc:ro",         FALSE, "host-etc",           XA_FILESYSTEM_MODE_READ_ONLY,  "host-etc:ro" },
  { "xdg-download",        FALSE, "xdg-download",       XA_FILESYSTEM_MODE_READ_WRITE, "xdg-download" },
  { "xdg-music:ro",        FALSE, "xdg-music",          XA_FILESYSTEM_MODE_READ_ONLY,  "xdg-music:ro" },
  { "xdg-config/kdeglobals:ro", FALSE, "xdg-config/kdeglobals", XA_FILESYSTEM_MODE_READ_ONLY, "xdg-config/kdeglobals:ro" },
  { "xdg-run/pipewire-0",  FALSE, "xdg-run/pipewire-0", XA_FILESYSTEM_MODE_READ_WRITE, "xdg-run/pipewire-0" },
  { "~/Games:create",      FALSE, "~/Games",            XA_FILESYSTEM_MODE_CREATE,     "~/Games:create" },
  { "/media/usb:rw",       FALSE, "/media/usb",         XA_FILESYSTEM_MODE_READ_WRITE, "/media/usb" },
  { "~",                   FALSE, "home",               XA_FILESYSTEM_MODE_READ_WRITE, "home" },
  { "home/Music",          FALSE, "~/Music",            XA_FILESYSTEM_MODE_READ_WRITE, "~/Music" },
  { "/srv//data/./x/",     FALSE, "/srv/data/x",        XA_FILESYSTEM_MODE_READ_WRITE, "/srv/data/x" },
  { "/mnt/a\\:b:ro",       FALSE, "/mnt/a:b",           XA_FILESYSTEM_MODE_READ_ONLY,  "/mnt/a\\:b:ro" },
  { "/mnt/My Files",       FALSE, "/mnt/My Files",      XA_FILESYSTEM_MODE_READ_WRITE, "/mnt/My Files" },
  { "home",                TRUE,  "home",               XA_FILESYSTEM_MODE_NONE,       "!home" },
  { "home:ro",             TRUE,  "home",               XA_FILESYSTEM_MODE_NONE,       "!home" },
  { "host:reset",          TRUE,  "host-reset",         XA_FILESYSTEM_MODE_NONE,       "!host:reset" },
  { "host-reset",          TRUE,  "host-reset",         XA_FILESYSTEM_MODE_NONE,       "!host:reset" },
};

typedef struct
{
  const char *input;
  gboolean    negated;
  int         code;
  const char *message;
} Rejected;

static const Rejected rejected[] = {
  { "everything",      FALSE, XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown filesystem 'everything' (valid: host, host-os," },
  { "xdg-run",         FALSE, XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown filesystem 'xdg-run'" },
  { "xdg-nothing",     FALSE, XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown filesystem 'xdg-nothing'" },
  { "Music",           FALSE, XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown filesystem 'Music'" },
  { "home:rx",         FALSE, XA_POLICY_ERROR_UNKNOWN_PERMISSION, "unknown filesystem suffix ':rx' (valid: :ro, :rw, :create)" },
  { "~/../etc",        FALSE, XA_POLICY_ERROR_INVALID_VALUE, "filesystem '~/../etc' contains \"..\"" },
  { "/srv/..",         FALSE, XA_POLICY_ERROR_INVALID_VALUE, "contains \"..\"" },
  { "xdg-config/../..", FALSE, XA_POLICY_ERROR_INVALID_VALUE, "contains \"..\"" },
  { "/",               FALSE, XA_POLICY_ERROR_INVALID_VALUE, "filesystem '/' is not available; use 'host'" },
  { "//./",            FALSE, XA_POLICY_ERROR_INVALID_VALUE, "filesystem '/' is not available" },
  { "",                FALSE, XA_POLICY_ERROR_INVALID_VALUE, "empty filesystem entry" },
  { "host:reset",      FALSE, XA_POLICY_ERROR_INVALID_VALUE, "only valid as '!host:reset'" },
  { "home:reset",      TRUE,  XA_POLICY_ERROR_INVALID_VALUE, "only valid as '!host:reset'" },
  { "host-reset:ro",   TRUE,  XA_POLICY_ERROR_INVALID_VALUE, "only valid as '!host:reset'" },
  { "/media/a\tb",     FALSE, XA_POLICY_ERROR_INVALID_VALUE, "filesystem '/media/a\\x09b' contains a control or invisible character" },
  { "/media/\033[2J",  FALSE, XA_POLICY_ERROR_INVALID_VALUE, "'/media/\\x1B[2J'" },
  { "/media/\377",     FALSE, XA_POLICY_ERROR_INVALID_VALUE, "filesystem '/media/\\xFF' is not valid UTF-8" },
};

static void
test_accepted (gconstpointer data)
{
  const Accepted *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(XaFilesystem) fs = xa_filesystem_parse (c->input, c->negated, &error);
  g_autofree char *written = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (fs->spec, ==, c->spec);
  g_assert_cmpint (fs->mode, ==, c->mode);
  written = xa_filesystem_to_string (fs);
  g_assert_cmpstr (written, ==, c->written);
}

static void
test_rejected (gconstpointer data)
{
  const Rejected *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(XaFilesystem) fs = xa_filesystem_parse (c->input, c->negated, &error);

  g_assert_null (fs);
  g_assert_error (error, XA_POLICY_ERROR, c->code);
  if (strstr (error->message, c->message) == NULL)
    g_error ("message '%s' lacks '%s'", error->message, c->message);
}

/* What to_string writes, parse reads back to the same entry. */
static void
test_written_form_reads_back (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr(XaFilesystem) fs = xa_filesystem_parse (accepted[i].input, accepted[i].negated, NULL);
      g_autofree char *written = xa_filesystem_to_string (fs);
      gboolean negated = written[0] == '!';
      g_autoptr(XaFilesystem) again = xa_filesystem_parse (written + (negated ? 1 : 0),
                                                           negated, NULL);

      g_assert_nonnull (again);
      g_assert_cmpstr (again->spec, ==, fs->spec);
      g_assert_cmpint (again->mode, ==, fs->mode);
    }
}

int
main (int    argc,
      char **argv)
{
  gsize i;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autofree char *path = g_strdup_printf ("/policy/filesystem/accepts/%" G_GSIZE_FORMAT, i);

      g_test_add_data_func (path, &accepted[i], test_accepted);
    }
  for (i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_autofree char *path = g_strdup_printf ("/policy/filesystem/refuses/%" G_GSIZE_FORMAT, i);

      g_test_add_data_func (path, &rejected[i], test_rejected);
    }
  g_test_add_func ("/policy/filesystem/written-form-reads-back", test_written_form_reads_back);

  return g_test_run ();
}
