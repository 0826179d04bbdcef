/* store/exports.c — puts an app's desktop files, icons and D-Bus service
 * files where the desktop finds them, each rewritten so that it can only
 * start that app, through `xdg-app run`, in its sandbox.
 *
 * Trusts: the installation's own directories and the caller's app id
 * (checked again here).  Trusts nothing under the deployment's export/:
 * anyone can build a commit, so every name, every file type and every
 * value of every exported file is checked, and none is ever given to a
 * shell.  Default: a file that fails a check is not exported and the
 * caller gets a warning; the rest of the app's exports go on.
 *
 * Layout, below the installation's exports/ directory:
 *
 *   share/applications/ID.desktop        symlink, see below
 *   share/icons/hicolor/64x64/apps/ID.png
 *   share/dbus-1/services/ID.service
 *   by-app/ID/gen-XXXXXX/share/…         the rewritten files of one update
 *   by-app/ID/current -> gen-XXXXXX      the app's exported set
 *
 * Every file under share/ is a relative symlink through by-app/ID/current.
 * An update writes a whole new generation, adds the links it needs (they
 * dangle until the flip, so readers see nothing new), flips `current` with
 * one rename, and only then sweeps the links that dangle.  A crash at any
 * point leaves readers the old set or the new one; dangling links read as
 * absent and the next update or removal sweeps them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "fsutil/atomic-file.h"
#include "fsutil/autofd.h"
#include "fsutil/errno-error.h"
#include "policy/bus-name.h"
#include "policy/escape.h"
#include "policy/metadata.h"
#include "store/exports.h"
#include "store/store-error.h"

/* What one app may make us write: a hostile commit can hold any number
 * of files of any size under export/. */
#define EXPORTS_MAX_FILES          1024
#define EXPORTS_MAX_KEYFILE_SIZE   (256 * 1024)
#define EXPORTS_MAX_ICON_SIZE      (4 * 1024 * 1024)
#define EXPORTS_MAX_DEPTH          6
#define EXPORTS_MAX_SWEEP_DEPTH    12

#define EXPORTS_BY_APP             "by-app"
#define EXPORTS_CURRENT            "current"
#define EXPORTS_MARKER_KEY         "X-XdgApp"

typedef enum
{
  EXPORT_DESKTOP,
  EXPORT_ICON,
  EXPORT_SERVICE,
} ExportKind;

typedef struct
{
  const char         *path;      /* below export/ and exports/ */
  ExportKind          kind;
  const char * const *suffixes;
  gboolean            recurse;   /* icon themes nest theme/size/context */
} ExportTree;

static const char * const desktop_suffixes[] = { ".desktop", NULL };
static const char * const icon_suffixes[] = { ".png", ".svg", ".svgz", ".ico", NULL };
static const char * const service_suffixes[] = { ".service", NULL };

/* The three trees flatpak build-finish collects and Flatpak exports;
 * mime packages, search providers and metainfo are not exported here. */
static const ExportTree export_trees[] = {
  { "share/applications", EXPORT_DESKTOP, desktop_suffixes, FALSE },
  { "share/icons", EXPORT_ICON, icon_suffixes, TRUE },
  { "share/dbus-1/services", EXPORT_SERVICE, service_suffixes, FALSE },
};

/* Keys that make a desktop environment run something on the host, or
 * that describe another sandbox: dropped from every group. */
static const char * const dropped_keys[] = {
  "TryExec",                           /* runs a host path to probe */
  "X-GNOME-Bugzilla-ExtraInfoScript",  /* run by bug-buddy on the host */
  "X-KDE-SubstituteUID",               /* KDE runs Exec as another user */
  "X-KDE-Username",
  NULL,
};

typedef struct
{
  const char *app_id;
  const char *gen_path;      /* the new generation's root */
  GPtrArray  *exported;      /* relative paths below the generation */
  GPtrArray  *warnings;
  guint       n_seen;
} ExportRun;

static void
add_warning (GPtrArray  *warnings,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
add_warning (GPtrArray  *warnings,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (warnings == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Names and values come from the commit and are shown on a terminal. */
  g_ptr_array_add (warnings, xa_escape_for_terminal (message, -1));
}

/* mkdir -p with every directory it creates made 0755, whatever the
 * umask: a system installation's exports are read by every user. */
static gboolean
mkdir_readable (const char  *path,
                GError     **error)
{
  g_autofree char *parent = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  parent = g_path_get_dirname (path);
  if (strcmp (parent, path) != 0 && !mkdir_readable (parent, error))
    return FALSE;
  if (mkdir (path, 0755) != 0 && errno != EEXIST)
    return xa_set_error_from_errno (error, errno, "mkdir '%s'", path);
  if (chmod (path, 0755) != 0)
    return xa_set_error_from_errno (error, errno, "chmod '%s'", path);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Names                                                              */

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

/* "ID" or "ID.Part[.Part…]"; with !exact also "ID-suffix", the sloppy
 * match Flatpak allows for org.the.App-symbolic.png and friends. */
gboolean
xa_exports_name_is_allowed (const char *app_id,
                            const char *file_name,
                            const char *suffix,
                            gboolean    exact)
{
  gsize id_len, name_len, suffix_len;
  const char *rest;
  const char *end;
  gboolean part_start = FALSE;

  g_return_val_if_fail (app_id != NULL && file_name != NULL && suffix != NULL, FALSE);

  id_len = strlen (app_id);
  name_len = strlen (file_name);
  suffix_len = strlen (suffix);
  if (name_len < id_len + suffix_len ||
      !g_str_has_suffix (file_name, suffix) ||
      strncmp (file_name, app_id, id_len) != 0)
    return FALSE;

  rest = file_name + id_len;
  end = file_name + name_len - suffix_len;
  if (rest == end)
    return TRUE;
  if (*rest == '.')
    part_start = TRUE;
  else if (*rest != '-' || exact)
    return FALSE;

  for (rest++; rest < end; rest++)
    {
      if (*rest == '.')
        {
          if (part_start)
            return FALSE;     /* "..", or "ID." + "." */
          part_start = TRUE;
          continue;
        }
      if (!is_name_char (*rest))
        return FALSE;
      part_start = FALSE;
    }
  return !part_start;
}

/* A directory or file name below export/share/icons: printable ASCII
 * word characters only, never hidden, never "." or "..". */
static gboolean
path_component_is_safe (const char *name)
{
  if (name[0] == '\0' || name[0] == '.')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!is_name_char (*p) && *p != '.' && *p != '@' && *p != '+')
      return FALSE;
  return TRUE;
}

/* Valid UTF-8 and no C0 control character or DEL.  @allow_tab for text
 * values, never for command lines. */
static gboolean
text_is_clean (const char *s,
               gboolean    allow_tab)
{
  if (!g_utf8_validate (s, -1, NULL))
    return FALSE;
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
    {
      if (*p == '\t' && allow_tab)
        continue;
      if (*p < 0x20 || *p == 0x7f)
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Command lines                                                      */

static gboolean
is_field_code (const char *arg)
{
  /* %f %F %u %U: files and URLs; %i: "--icon NAME"; %c: the translated
   * name; %k: the desktop file's location.  The launcher expands them. */
  return arg[0] == '%' && arg[1] != '\0' && arg[2] == '\0' &&
         strchr ("fFuUick", arg[1]) != NULL;
}

static gboolean
is_deprecated_field_code (const char *arg)
{
  /* The specification says these are to be removed and ignored. */
  return arg[0] == '%' && arg[1] != '\0' && arg[2] == '\0' &&
         strchr ("dDnNvm", arg[1]) != NULL;
}

/* In a desktop file a '%' outside a whole-argument field code must be
 * "%%": a field code glued to other text ("--url=%u", "%u%u") expands
 * in ways that differ between launchers. */
static gboolean
percent_signs_are_literal (const char *arg)
{
  for (const char *p = arg; *p != '\0'; p++)
    {
      if (*p != '%')
        continue;
      if (p[1] != '%')
        return FALSE;
      p++;
    }
  return TRUE;
}

static void
append_quoted (GString    *out,
               const char *arg)
{
  gboolean plain = arg[0] != '\0';

  for (const char *p = arg; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || strchr ("_-./:=+,@%", *p) != NULL;

  g_string_append_c (out, ' ');
  if (plain)
    g_string_append (out, arg);
  else
    {
      g_autofree char *quoted = g_shell_quote (arg);
      g_string_append (out, quoted);
    }
}

/* Turns the app's Exec value into "xdg-app run --command=CMD -- ID ARGS".
 * The "--" ends xdg-app's options before the app id, so neither the app
 * nor whatever a launcher substitutes for %u can add options to
 * `xdg-app run` (CVE-2024-32462: a desktop file's Exec passed
 * `--command=--bind / /host …` into bwrap).  The command itself must not
 * look like an option either: it reaches the sandbox as a program name. */
static char *
rewrite_exec (const char  *app_id,
              const char  *exec,
              gboolean     desktop,
              GError     **error)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GString) out = g_string_new (XA_EXPORTS_PROGRAM " run");
  g_autoptr(GError) local_error = NULL;
  g_autofree char *command = NULL;
  int argc = 0;

  if (exec == NULL)
    {
      g_string_append (out, " --");
      append_quoted (out, app_id);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if (!text_is_clean (exec, FALSE))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("Exec contains a control character"));
      return NULL;
    }
  if (!g_shell_parse_argv (exec, &argc, &argv, &local_error))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("Exec '%s' cannot be parsed: %s"), exec, local_error->message);
      return NULL;
    }
  if (argv[0][0] == '\0' || argv[0][0] == '-' || strchr (argv[0], '%') != NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("Exec program '%s' is empty, starts with '-' or holds a field code"),
                   argv[0]);
      return NULL;
    }

  command = g_strconcat ("--command=", argv[0], NULL);
  append_quoted (out, command);
  g_string_append (out, " --");
  append_quoted (out, app_id);

  for (int i = 1; i < argc; i++)
    {
      if (!desktop)
        {
          /* D-Bus does not expand field codes: every '%' is literal, and
           * a quoted argument keeps it so. */
          append_quoted (out, argv[i]);
          continue;
        }
      if (is_deprecated_field_code (argv[i]))
        continue;
      if (is_field_code (argv[i]))
        {
          g_string_append_c (out, ' ');
          g_string_append (out, argv[i]);
          continue;
        }
      if (!percent_signs_are_literal (argv[i]))
        {
          g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                       _("Exec argument '%s' holds a field code that is not a whole argument"),
                       argv[i]);
          return NULL;
        }
      append_quoted (out, argv[i]);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ------------------------------------------------------------------ */
/* Desktop files                                                      */

static gboolean
group_is_standard (const char *group)
{
  return strcmp (group, G_KEY_FILE_DESKTOP_GROUP) == 0 ||
         g_str_has_prefix (group, "Desktop Action ");
}

static gboolean
key_is_dropped (const char *key)
{
  return g_strv_contains (dropped_keys, key) ||
         /* Exec and TryExec are not localestrings; a launcher that looked
          * for "Exec[de]" would run the app's own command line. */
         g_str_has_prefix (key, "Exec[") ||
         g_str_has_prefix (key, "TryExec[") ||
         g_str_has_prefix (key, "X-Flatpak") ||       /* describes another sandbox */
         g_str_has_prefix (key, EXPORTS_MARKER_KEY);  /* ours to set */
}

static gboolean
key_is_icon (const char *key)
{
  return strcmp (key, G_KEY_FILE_DESKTOP_KEY_ICON) == 0 ||
         g_str_has_prefix (key, G_KEY_FILE_DESKTOP_KEY_ICON "[");
}

/* Every group and key name and every raw value must be clean text. */
static gboolean
keyfile_is_clean (GKeyFile  *keyfile,
                  GError   **error)
{
  g_auto(GStrv) groups = g_key_file_get_groups (keyfile, NULL);

  for (gsize i = 0; groups[i] != NULL; i++)
    {
      g_auto(GStrv) keys = g_key_file_get_keys (keyfile, groups[i], NULL, NULL);

      if (!text_is_clean (groups[i], FALSE))
        {
          g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                       _("a group name contains a control character"));
          return FALSE;
        }
      for (gsize j = 0; keys != NULL && keys[j] != NULL; j++)
        {
          g_autofree char *raw = g_key_file_get_value (keyfile, groups[i], keys[j], NULL);

          if (!text_is_clean (keys[j], FALSE) || raw == NULL || !text_is_clean (raw, TRUE))
            {
              g_autofree char *key = xa_escape_for_terminal (keys[j], -1);

              g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                           _("[%s] %s: not UTF-8 or contains a control character"),
                           groups[i], key);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* Drops the dangerous keys and rewrites Exec in one group. */
static gboolean
rewrite_desktop_group (GKeyFile    *keyfile,
                       const char  *app_id,
                       const char  *file_name,
                       const char  *group,
                       GPtrArray   *warnings,
                       GError     **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  g_autofree char *exec = NULL;
  g_autofree char *new_exec = NULL;

  for (gsize i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *icon = NULL;

      if (key_is_dropped (keys[i]))
        {
          (void) g_key_file_remove_key (keyfile, group, keys[i], NULL);
          continue;
        }
      if (!key_is_icon (keys[i]))
        continue;
      /* An icon is a name looked up in the icon theme, which holds only
       * what the app exported under its own id; a path would show any
       * file of the host. */
      icon = g_key_file_get_value (keyfile, group, keys[i], NULL);
      if (icon != NULL && (strchr (icon, '/') != NULL || icon[0] == '.'))
        {
          (void) g_key_file_remove_key (keyfile, group, keys[i], NULL);
          add_warning (warnings, _("'%s', [%s]: %s '%s' is a path, not an icon name; dropped"),
                       file_name, group, keys[i], icon);
        }
    }

  if (!group_is_standard (group))
    {
      /* Nothing standard runs these; nothing may run them on the host. */
      (void) g_key_file_remove_key (keyfile, group, G_KEY_FILE_DESKTOP_KEY_EXEC, NULL);
      return TRUE;
    }

  exec = g_key_file_get_string (keyfile, group, G_KEY_FILE_DESKTOP_KEY_EXEC, NULL);
  if (exec == NULL && strcmp (group, G_KEY_FILE_DESKTOP_GROUP) != 0)
    return TRUE;

  new_exec = rewrite_exec (app_id, exec, TRUE, error);
  if (new_exec == NULL)
    {
      g_prefix_error (error, "[%s]: ", group);
      return FALSE;
    }
  g_key_file_set_string (keyfile, group, G_KEY_FILE_DESKTOP_KEY_EXEC, new_exec);
  return TRUE;
}

char *
xa_exports_rewrite_desktop_file (const char  *app_id,
                                 const char  *file_name,
                                 const char  *data,
                                 gsize        len,
                                 GPtrArray   *warnings,
                                 GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *type = NULL;
  g_auto(GStrv) groups = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (app_id != NULL && file_name != NULL && data != NULL, NULL);

  if (len > EXPORTS_MAX_KEYFILE_SIZE || memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': too large or not text"), file_name);
      return NULL;
    }
  if (!g_key_file_load_from_data (keyfile, data, len, G_KEY_FILE_KEEP_TRANSLATIONS,
                                  &local_error))
    {
      g_autofree char *why = xa_escape_for_terminal (local_error->message, -1);

      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   "'%s': %s", file_name, why);
      return NULL;
    }
  if (!keyfile_is_clean (keyfile, error))
    {
      g_prefix_error (error, "'%s', ", file_name);
      return NULL;
    }

  type = g_key_file_get_string (keyfile, G_KEY_FILE_DESKTOP_GROUP,
                                G_KEY_FILE_DESKTOP_KEY_TYPE, NULL);
  if (g_strcmp0 (type, G_KEY_FILE_DESKTOP_TYPE_APPLICATION) != 0)
    {
      /* Type=Link opens a URL on the host; nothing else is an app. */
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': [Desktop Entry] Type is '%s', not 'Application'"),
                   file_name, type != NULL ? type : "");
      return NULL;
    }

  groups = g_key_file_get_groups (keyfile, NULL);
  for (gsize i = 0; groups[i] != NULL; i++)
    if (!rewrite_desktop_group (keyfile, app_id, file_name, groups[i], warnings, error))
      {
        g_prefix_error (error, "'%s', ", file_name);
        return NULL;
      }

  /* Lets a desktop tell that this entry starts a sandbox, and which. */
  g_key_file_set_string (keyfile, G_KEY_FILE_DESKTOP_GROUP, EXPORTS_MARKER_KEY, app_id);

  return g_key_file_to_data (keyfile, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* D-Bus service files                                                */

/* Written anew from two checked values: the bus name and the command.
 * Nothing else of the app's file survives, so no SystemdService= or
 * User= can start something on the host. */
char *
xa_exports_rewrite_service_file (const char  *app_id,
                                 const char  *file_name,
                                 const char  *data,
                                 gsize        len,
                                 GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GKeyFile) out = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *name = NULL;
  g_autofree char *exec = NULL;
  g_autofree char *new_exec = NULL;
  const char *group = "D-BUS Service";

  g_return_val_if_fail (app_id != NULL && file_name != NULL && data != NULL, NULL);

  if (len > EXPORTS_MAX_KEYFILE_SIZE || memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': too large or not text"), file_name);
      return NULL;
    }
  if (!g_key_file_load_from_data (keyfile, data, len, G_KEY_FILE_NONE, &local_error))
    {
      g_autofree char *why = xa_escape_for_terminal (local_error->message, -1);

      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   "'%s': %s", file_name, why);
      return NULL;
    }
  if (!keyfile_is_clean (keyfile, error))
    {
      g_prefix_error (error, "'%s', ", file_name);
      return NULL;
    }

  expected = g_strndup (file_name, strlen (file_name) - MIN (strlen (file_name), strlen (".service")));
  name = g_key_file_get_string (keyfile, group, "Name", NULL);
  if (name == NULL || strcmp (name, expected) != 0 ||
      !xa_bus_name_is_well_known (name))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': [%s] Name must be the bus name '%s'"),
                   file_name, group, expected);
      return NULL;
    }

  exec = g_key_file_get_string (keyfile, group, "Exec", NULL);
  if (exec == NULL)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("'%s': [%s] has no Exec"), file_name, group);
      return NULL;
    }
  new_exec = rewrite_exec (app_id, exec, FALSE, error);
  if (new_exec == NULL)
    {
      g_prefix_error (error, "'%s', [%s]: ", file_name, group);
      return NULL;
    }

  g_key_file_set_string (out, group, "Name", name);
  g_key_file_set_string (out, group, "Exec", new_exec);
  return g_key_file_to_data (out, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Reading the deployment's export/ tree                              */

/* Opens @relpath below @dfd one component at a time, never following a
 * symlink: a commit's export/share may be a link to the host's /etc. */
static int
open_dir_nofollow (int          dfd,
                   const char  *relpath,
                   GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (relpath, "/", -1);
  xa_autofd int fd = fcntl (dfd, F_DUPFD_CLOEXEC, 3);

  if (fd < 0)
    {
      xa_set_error_from_errno (error, errno, "dup '%s'", relpath);
      return -1;
    }
  for (gsize i = 0; parts[i] != NULL; i++)
    {
      xa_autofd int parent = g_steal_fd (&fd);

      fd = openat (parent, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0)
        {
          xa_set_error_from_errno (error, errno, "open '%s'", relpath);
          return -1;
        }
    }
  return g_steal_fd (&fd);
}

static GBytes *
read_regular_at (int          dfd,
                 const char  *name,
                 gsize        max_size,
                 GError     **error)
{
  xa_autofd int fd = -1;
  struct stat st;
  g_autofree char *buf = NULL;
  gsize done = 0;

  /* O_NONBLOCK: a FIFO planted in the commit must not hang us. */
  fd = openat (dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      xa_set_error_from_errno (error, errno, "open '%s'", name);
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    {
      xa_set_error_from_errno (error, errno, "stat '%s'", name);
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("not a regular file"));
      return NULL;
    }
  if ((guint64) st.st_size > max_size)
    {
      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_COMMIT,
                   _("larger than %" G_GSIZE_FORMAT " bytes"), max_size);
      return NULL;
    }

  buf = g_malloc (st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      ssize_t n = read (fd, buf + done, st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          xa_set_error_from_errno (error, errno, "read '%s'", name);
          return NULL;
        }
      if (n == 0)
        break;
      done += n;
    }
  buf[done] = '\0';
  return g_bytes_new_take (g_steal_pointer (&buf), done);
}

static gboolean
write_generation_file (ExportRun   *run,
                       const char  *relpath,
                       const void  *data,
                       gsize        len,
                       GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (relpath);
  g_autofree char *abs_dir = g_build_filename (run->gen_path, dir, NULL);
  g_autofree char *abs_path = g_build_filename (run->gen_path, relpath, NULL);

  if (!mkdir_readable (abs_dir, error))
    return FALSE;
  if (!xa_atomic_file_write (abs_path, data, len, 0644, error))
    return FALSE;
  g_ptr_array_add (run->exported, g_strdup (relpath));
  return TRUE;
}

/* One regular file of export/@tree: checks its name, rewrites it, and
 * writes it into the new generation.  Only an I/O error on our side
 * fails the update; a bad file is a warning. */
static gboolean
export_one_file (ExportRun         *run,
                 const ExportTree  *tree,
                 int                dfd,
                 const char        *dir_relpath,
                 const char        *name,
                 GError           **error)
{
  g_autofree char *relpath = g_build_filename (dir_relpath, name, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *rewritten = NULL;
  const char *suffix = NULL;
  gconstpointer data;
  gsize len;

  for (gsize i = 0; tree->suffixes[i] != NULL && suffix == NULL; i++)
    if (g_str_has_suffix (name, tree->suffixes[i]))
      suffix = tree->suffixes[i];

  if (suffix == NULL ||
      !xa_exports_name_is_allowed (run->app_id, name, suffix, tree->kind == EXPORT_SERVICE))
    {
      add_warning (run->warnings, _("'%s': only files named after '%s' with a known suffix are exported; ignored"),
            relpath, run->app_id);
      return TRUE;
    }

  bytes = read_regular_at (dfd, name,
                           tree->kind == EXPORT_ICON ? EXPORTS_MAX_ICON_SIZE : EXPORTS_MAX_KEYFILE_SIZE,
                           &local_error);
  if (bytes == NULL)
    {
      add_warning (run->warnings, _("'%s': %s; ignored"), relpath, local_error->message);
      return TRUE;
    }
  data = g_bytes_get_data (bytes, &len);

  switch (tree->kind)
    {
    case EXPORT_DESKTOP:
      rewritten = xa_exports_rewrite_desktop_file (run->app_id, relpath, data, len,
                                                   run->warnings, &local_error);
      break;
    case EXPORT_SERVICE:
      rewritten = xa_exports_rewrite_service_file (run->app_id, name, data, len, &local_error);
      break;
    case EXPORT_ICON:
      return write_generation_file (run, relpath, data, len, error);
    default:
      g_assert_not_reached ();
    }

  if (rewritten == NULL)
    {
      add_warning (run->warnings, _("%s; not exported"), local_error->message);
      return TRUE;
    }
  return write_generation_file (run, relpath, rewritten, strlen (rewritten), error);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
export_dir_entries (ExportRun         *run,
                    const ExportTree  *tree,
                    int                dfd,
                    const char        *relpath,
                    guint              depth,
                    GError           **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  xa_autofd int iter_fd = -1;
  DIR *dir = NULL;
  struct dirent *dent;

  /* Names first, sorted: fdopendir takes the fd, and a stable order
   * gives stable warnings. */
  iter_fd = fcntl (dfd, F_DUPFD_CLOEXEC, 3);
  if (iter_fd < 0 || (dir = fdopendir (iter_fd)) == NULL)
    return xa_set_error_from_errno (error, errno, "opendir '%s'", relpath);
  iter_fd = -1;
  while ((dent = readdir (dir)) != NULL)
    if (strcmp (dent->d_name, ".") != 0 && strcmp (dent->d_name, "..") != 0)
      g_ptr_array_add (names, g_strdup (dent->d_name));
  closedir (dir);
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autofree char *child = g_build_filename (relpath, name, NULL);
      struct stat st;

      if (++run->n_seen > EXPORTS_MAX_FILES)
        {
          add_warning (run->warnings, _("more than %d exported files; the rest are ignored"),
                EXPORTS_MAX_FILES);
          return TRUE;
        }
      if (!text_is_clean (name, FALSE))
        {
          add_warning (run->warnings, _("a file name below '%s' is not clean text; ignored"), relpath);
          continue;
        }
      if (fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return xa_set_error_from_errno (error, errno, "stat '%s'", child);

      if (S_ISDIR (st.st_mode))
        {
          xa_autofd int child_fd = -1;

          if (!tree->recurse || depth >= EXPORTS_MAX_DEPTH || !path_component_is_safe (name))
            {
              add_warning (run->warnings, _("'%s': directory not exported; ignored"), child);
              continue;
            }
          child_fd = openat (dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (child_fd < 0)
            return xa_set_error_from_errno (error, errno, "open '%s'", child);
          if (!export_dir_entries (run, tree, child_fd, child, depth + 1, error))
            return FALSE;
        }
      else if (S_ISREG (st.st_mode) && path_component_is_safe (name))
        {
          if (!export_one_file (run, tree, dfd, relpath, name, error))
            return FALSE;
        }
      else
        add_warning (run->warnings, _("'%s': not a regular file or an unsafe name; ignored"), child);
    }

  return TRUE;
}

static gboolean
collect_exports (ExportRun   *run,
                 const char  *deploy_dir,
                 GError     **error)
{
  g_autofree char *export_path = g_build_filename (deploy_dir, "export", NULL);
  xa_autofd int export_fd = -1;

  export_fd = open (export_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (export_fd < 0 && errno == ENOENT)
    return TRUE;    /* an app with nothing to export */
  if (export_fd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", export_path);

  for (gsize i = 0; i < G_N_ELEMENTS (export_trees); i++)
    {
      const ExportTree *tree = &export_trees[i];
      g_autoptr(GError) local_error = NULL;
      xa_autofd int tree_fd = open_dir_nofollow (export_fd, tree->path, &local_error);

      if (tree_fd < 0)
        {
          if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            add_warning (run->warnings, _("'export/%s': %s; ignored"), tree->path, local_error->message);
          continue;
        }
      if (!export_dir_entries (run, tree, tree_fd, tree->path, 0, error))
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The exports tree                                                   */

static gboolean
fsync_dir (const char  *path,
           GError     **error)
{
  xa_autofd int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0 || fsync (fd) != 0)
    return xa_set_error_from_errno (error, errno, "fsync '%s'", path);
  return TRUE;
}

static gboolean
fsync_tree (const char  *path,
            GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) &&
          !g_file_test (child, G_FILE_TEST_IS_SYMLINK) &&
          !fsync_tree (child, error))
        return FALSE;
    }
  return fsync_dir (path, error);
}

/* Creates or replaces @dfd/@name as a symlink to @target with one rename. */
static gboolean
symlink_replace_at (int          dfd,
                    const char  *target,
                    const char  *name,
                    GError     **error)
{
  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *tmp = g_strdup_printf (".xa-link-%08x", g_random_int ());

      if (symlinkat (target, dfd, tmp) != 0)
        {
          if (errno == EEXIST)
            continue;
          return xa_set_error_from_errno (error, errno, "symlink '%s'", name);
        }
      if (renameat (dfd, tmp, dfd, name) != 0)
        {
          int errsv = errno;
          (void) unlinkat (dfd, tmp, 0);
          return xa_set_error_from_errno (error, errsv, "rename '%s'", name);
        }
      return TRUE;
    }
  return xa_set_error_from_errno (error, EEXIST, "symlink '%s'", name);
}

static gboolean
rm_rf_at (int          dfd,
          const char  *name,
          guint        depth,
          GError     **error)
{
  xa_autofd int fd = -1;
  DIR *dir;
  struct dirent *dent;

  if (unlinkat (dfd, name, 0) == 0 || errno == ENOENT)
    return TRUE;
  if (errno != EISDIR && errno != EPERM)
    return xa_set_error_from_errno (error, errno, "unlink '%s'", name);
  if (depth > EXPORTS_MAX_SWEEP_DEPTH)
    return xa_set_error_from_errno (error, ELOOP, "remove '%s'", name);

  fd = openat (dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", name);
  dir = fdopendir (fd);
  if (dir == NULL)
    return xa_set_error_from_errno (error, errno, "opendir '%s'", name);
  fd = -1;
  while ((dent = readdir (dir)) != NULL)
    {
      if (strcmp (dent->d_name, ".") == 0 || strcmp (dent->d_name, "..") == 0)
        continue;
      if (!rm_rf_at (dirfd (dir), dent->d_name, depth + 1, error))
        {
          closedir (dir);
          return FALSE;
        }
    }
  closedir (dir);
  if (unlinkat (dfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
    return xa_set_error_from_errno (error, errno, "rmdir '%s'", name);
  return TRUE;
}

/* "../../by-app/ID/current/share/applications/ID.desktop" for the link
 * exports/share/applications/ID.desktop. */
static char *
link_target (const char *app_id,
             const char *relpath)
{
  g_autoptr(GString) target = g_string_new ("");

  for (const char *p = relpath; *p != '\0'; p++)
    if (*p == '/')
      g_string_append (target, "../");
  g_string_append_printf (target, EXPORTS_BY_APP "/%s/" EXPORTS_CURRENT "/%s", app_id, relpath);
  return g_string_free (g_steal_pointer (&target), FALSE);
}

/* Whether a symlink's target is one of ours (into by-app/), for a link
 * @depth directories below exports/. */
static gboolean
target_is_ours (const char *target,
                guint       depth)
{
  for (guint i = 0; i < depth; i++)
    {
      if (!g_str_has_prefix (target, "../"))
        return FALSE;
      target += 3;
    }
  return g_str_has_prefix (target, EXPORTS_BY_APP "/");
}

static gboolean
add_link (const char  *exports_root,
          const char  *app_id,
          const char  *relpath,
          GPtrArray   *warnings,
          GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (relpath);
  g_autofree char *name = g_path_get_basename (relpath);
  g_autofree char *abs_dir = g_build_filename (exports_root, dir, NULL);
  g_autofree char *target = link_target (app_id, relpath);
  g_autofree char *existing = NULL;
  xa_autofd int dfd = -1;
  struct stat st;
  guint depth = 0;

  for (const char *p = relpath; *p != '\0'; p++)
    depth += (*p == '/');

  if (!mkdir_readable (abs_dir, error))
    return FALSE;
  dfd = open (abs_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", abs_dir);

  if (fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
    {
      char buf[PATH_MAX];
      ssize_t n = S_ISLNK (st.st_mode) ? readlinkat (dfd, name, buf, sizeof buf - 1) : -1;

      if (n >= 0)
        {
          buf[n] = '\0';
          existing = g_strdup (buf);
        }
      if (g_strcmp0 (existing, target) == 0)
        return TRUE;
      /* Another app's live link (org.x.Y may export org.x.Y.Z.desktop,
       * the main file of the app org.x.Y.Z), or a file that is not ours:
       * first come, first served. */
      if (existing == NULL || !target_is_ours (existing, depth) ||
          faccessat (dfd, name, F_OK, 0) == 0)
        {
          add_warning (warnings, _("'%s' is already exported by another app or the user; ignored"),
                relpath);
          return TRUE;
        }
    }
  else if (errno != ENOENT)
    return xa_set_error_from_errno (error, errno, "stat '%s'", relpath);

  return symlink_replace_at (dfd, target, name, error);
}

/* Removes every link of ours below @dfd that no longer resolves, and our
 * temporary links a crash left behind. */
static gboolean
sweep_dangling (int          dfd,
                const char  *relpath,
                guint        depth,
                GError     **error)
{
  xa_autofd int fd = -1;
  DIR *dir;
  struct dirent *dent;
  gboolean ok = TRUE;

  if (depth > EXPORTS_MAX_SWEEP_DEPTH)
    return TRUE;
  fd = fcntl (dfd, F_DUPFD_CLOEXEC, 3);
  if (fd < 0 || (dir = fdopendir (fd)) == NULL)
    return xa_set_error_from_errno (error, errno, "opendir '%s'", relpath);
  fd = -1;

  while (ok && (dent = readdir (dir)) != NULL)
    {
      const char *name = dent->d_name;
      struct stat st;

      if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0 ||
          fstatat (dirfd (dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        continue;

      if (S_ISDIR (st.st_mode))
        {
          g_autofree char *child = g_build_filename (relpath, name, NULL);
          xa_autofd int child_fd = openat (dirfd (dir), name,
                                                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (child_fd >= 0)
            ok = sweep_dangling (child_fd, child, depth + 1, error);
        }
      else if (S_ISLNK (st.st_mode))
        {
          char buf[PATH_MAX];
          ssize_t n = readlinkat (dirfd (dir), name, buf, sizeof buf - 1);

          if (n < 0)
            continue;
          buf[n] = '\0';
          if ((g_str_has_prefix (name, ".xa-link-") ||
               (target_is_ours (buf, depth + 1) &&
                faccessat (dirfd (dir), name, F_OK, 0) != 0 && errno == ENOENT)) &&
              unlinkat (dirfd (dir), name, 0) != 0 && errno != ENOENT)
            ok = xa_set_error_from_errno (error, errno, "unlink '%s'", name);
        }
    }
  closedir (dir);
  return ok;
}

static gboolean
sweep_exports (const char  *exports_root,
               GError     **error)
{
  g_autofree char *share = g_build_filename (exports_root, "share", NULL);
  xa_autofd int fd = open (share, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (fd < 0 && errno == ENOENT)
    return TRUE;
  if (fd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", share);
  /* Links below share/ are at depth 1 (share/NAME) and deeper. */
  return sweep_dangling (fd, "share", 0, error);
}

/* Removes every generation of the app but @keep (NULL: all of them). */
static gboolean
remove_old_generations (const char  *app_dir,
                        const char  *keep,
                        GError     **error)
{
  xa_autofd int fd = open (app_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (fd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", app_dir);
  dir = g_dir_open (app_dir, 0, error);
  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_strcmp0 (name, keep) == 0 || strcmp (name, EXPORTS_CURRENT) == 0)
        continue;
      if (!rm_rf_at (fd, name, 0, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_app_id (const char  *app_id,
              GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!xa_metadata_validate_id (app_id, &local_error))
    {
      g_autofree char *shown = xa_escape_for_terminal (app_id, -1);

      g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF,
                   _("invalid app id '%s'"), shown);
      return FALSE;
    }
  return TRUE;
}

gboolean
xa_exports_update_at (const char  *exports_root,
                      const char  *app_id,
                      const char  *deploy_dir,
                      GPtrArray  **out_warnings,
                      GError     **error)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) exported = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *app_dir = NULL;
  g_autofree char *gen_path = NULL;
  g_autofree char *gen_name = NULL;
  xa_autofd int app_fd = -1;
  ExportRun run = { 0 };

  g_return_val_if_fail (exports_root != NULL && app_id != NULL && deploy_dir != NULL, FALSE);

  if (!check_app_id (app_id, error))
    return FALSE;

  app_dir = g_build_filename (exports_root, EXPORTS_BY_APP, app_id, NULL);
  if (!mkdir_readable (app_dir, error))
    return FALSE;
  gen_path = g_build_filename (app_dir, "gen-XXXXXX", NULL);
  if (g_mkdtemp_full (gen_path, 0755) == NULL)
    return xa_set_error_from_errno (error, errno, "mkdir '%s'", gen_path);
  if (chmod (gen_path, 0755) != 0)
    return xa_set_error_from_errno (error, errno, "chmod '%s'", gen_path);
  gen_name = g_path_get_basename (gen_path);

  run.app_id = app_id;
  run.gen_path = gen_path;
  run.exported = exported;
  run.warnings = warnings;
  if (!collect_exports (&run, deploy_dir, error) ||
      !fsync_tree (gen_path, error))
    {
      g_prefix_error (error, _("exports of '%s': "), app_id);
      return FALSE;
    }

  /* The new names, dangling until the flip below. */
  for (guint i = 0; i < exported->len; i++)
    if (!add_link (exports_root, app_id, exported->pdata[i], warnings, error))
      return FALSE;

  /* The flip: from here on readers see the new set. */
  app_fd = open (app_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (app_fd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", app_dir);
  if (!symlink_replace_at (app_fd, gen_name, EXPORTS_CURRENT, error))
    return FALSE;
  if (fsync (app_fd) != 0)
    return xa_set_error_from_errno (error, errno, "fsync '%s'", app_dir);

  if (!sweep_exports (exports_root, error) ||
      !remove_old_generations (app_dir, gen_name, error))
    return FALSE;

  if (out_warnings != NULL)
    *out_warnings = g_steal_pointer (&warnings);
  return TRUE;
}

gboolean
xa_exports_remove_at (const char  *exports_root,
                      const char  *app_id,
                      GError     **error)
{
  g_autofree char *by_app = NULL;
  xa_autofd int by_app_fd = -1;
  xa_autofd int app_fd = -1;

  g_return_val_if_fail (exports_root != NULL && app_id != NULL, FALSE);

  if (!check_app_id (app_id, error))
    return FALSE;

  by_app = g_build_filename (exports_root, EXPORTS_BY_APP, NULL);
  by_app_fd = open (by_app, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (by_app_fd < 0 && errno == ENOENT)
    return sweep_exports (exports_root, error);
  if (by_app_fd < 0)
    return xa_set_error_from_errno (error, errno, "open '%s'", by_app);

  /* Dropping `current` makes every link of the app dangle at once. */
  app_fd = openat (by_app_fd, app_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (app_fd >= 0)
    {
      if (unlinkat (app_fd, EXPORTS_CURRENT, 0) != 0 && errno != ENOENT)
        return xa_set_error_from_errno (error, errno, "unlink '%s'", EXPORTS_CURRENT);
      if (fsync (app_fd) != 0)
        return xa_set_error_from_errno (error, errno, "fsync '%s'", app_id);
    }
  else if (errno != ENOENT)
    return xa_set_error_from_errno (error, errno, "open '%s'", app_id);

  if (!sweep_exports (exports_root, error) ||
      !rm_rf_at (by_app_fd, app_id, 0, error))
    return FALSE;
  if (fsync (by_app_fd) != 0)
    return xa_set_error_from_errno (error, errno, "fsync '%s'", by_app);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* On an installation                                                 */

char *
xa_exports_dir (XaInstallation *inst)
{
  g_autofree char *exports = NULL;

  g_return_val_if_fail (inst != NULL, NULL);

  exports = xa_installation_dup_exports_dir (inst);
  return g_build_filename (exports, "share", NULL);
}

gboolean
xa_exports_update_full (XaInstallation  *inst,
                        const char      *app_id,
                        const char      *deploy_dir,
                        GPtrArray      **out_warnings,
                        GError         **error)
{
  g_autofree char *exports = NULL;

  g_return_val_if_fail (inst != NULL, FALSE);

  exports = xa_installation_dup_exports_dir (inst);
  return xa_exports_update_at (exports, app_id, deploy_dir, out_warnings, error);
}

gboolean
xa_exports_update (XaInstallation  *inst,
                   const char      *app_id,
                   const char      *deploy_dir,
                   GError         **error)
{
  g_autoptr(GPtrArray) warnings = NULL;

  if (!xa_exports_update_full (inst, app_id, deploy_dir, &warnings, error))
    return FALSE;
  for (guint i = 0; i < warnings->len; i++)
    g_debug ("exports of '%s': %s", app_id, (const char *) warnings->pdata[i]);
  return TRUE;
}

gboolean
xa_exports_remove (XaInstallation  *inst,
                   const char      *app_id,
                   GError         **error)
{
  g_autofree char *exports = NULL;

  g_return_val_if_fail (inst != NULL, FALSE);

  exports = xa_installation_dup_exports_dir (inst);
  return xa_exports_remove_at (exports, app_id, error);
}
