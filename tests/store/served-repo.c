/* tests/store/served-repo.c — see served-repo.h.  The repository is made
 * with the ostree CLI, as a publisher without Flatpak's tools would:
 * archive mode, canonical permissions, the metadata file copied into the
 * commit as xa.metadata (what `flatpak build-export` writes), and a
 * summary. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <utime.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "tests/store/served-repo.h"

struct _ServedRepo
{
  char *path;           /* DIR/repo */
  char *url;
  guint16 port;
  GSubprocess *server;
  guint generation;     /* summaries published */
};

char *
test_run (const char *const *argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s: %s", argv[0], error->message, err);
  return g_steal_pointer (&out);
}

void
test_remove_tree (const char *path)
{
  const char *argv[] = { "rm", "-rf", path, NULL };
  g_free (test_run (argv));
}

void
test_tree_write (const char *tree,
                 const char *path,
                 const char *contents)
{
  g_autofree char *full = g_build_filename (tree, path, NULL);
  g_autofree char *dir = g_path_get_dirname (full);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (full, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (full, 0644), ==, 0);
}

const char *
test_runtime_metadata (void)
{
  return "[Runtime]\n"
         "name=org.test.Platform\n"
         "runtime=org.test.Platform/" TEST_ARCH "/stable\n"
         "sdk=org.test.Sdk/" TEST_ARCH "/stable\n";
}

const char *
test_app_metadata (void)
{
  return "[Application]\n"
         "name=org.test.App\n"
         "runtime=org.test.Platform/" TEST_ARCH "/stable\n"
         "command=hello\n";
}

void
test_tree_make_runtime (const char *tree)
{
  test_tree_write (tree, "metadata", test_runtime_metadata ());
  test_tree_write (tree, "files/bin/sh", "not really a shell\n");
  test_tree_write (tree, "files/lib/os-release", "ID=test\n");
}

/* An app with @n_files distinct data files and one desktop file. */
void
test_tree_make_app (const char *tree,
                    guint n_files)
{
  g_autofree char *hello = g_build_filename (tree, "files/bin/hello", NULL);

  test_tree_write (tree, "metadata", test_app_metadata ());
  test_tree_write (tree, "files/bin/hello", "#!/bin/sh\necho hello\n");
  g_assert_cmpint (g_chmod (hello, 0755), ==, 0);
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *name = g_strdup_printf ("files/share/data/file-%u.txt", i);
      g_autofree char *text = g_strdup_printf ("data file %u\n", i);

      test_tree_write (tree, name, text);
    }
  test_tree_write (tree, "export/share/applications/org.test.App.desktop",
                   "[Desktop Entry]\n"
                   "Type=Application\n"
                   "Name=Test App\n"
                   "Exec=hello\n"
                   "Icon=org.test.App\n");
}

ServedRepo *
served_repo_new (const char *dir)
{
  ServedRepo *self = g_new0 (ServedRepo, 1);
  g_autofree char *repo_arg = NULL;

  self->path = g_build_filename (dir, "repo", NULL);
  repo_arg = g_strconcat ("--repo=", self->path, NULL);
  {
    const char *argv[] = { "ostree", repo_arg, "init", "--mode=archive", NULL };
    g_free (test_run (argv));
  }
  return self;
}

void
served_repo_free (ServedRepo *self)
{
  if (self == NULL)
    return;
  served_repo_stop (self);
  g_free (self->path);
  g_free (self->url);
  g_free (self);
}

const char *
served_repo_get_path (ServedRepo *self)
{
  return self->path;
}

const char *
served_repo_get_url (ServedRepo *self)
{
  g_assert_nonnull (self->url);
  return self->url;
}

static guint16
pick_free_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, any, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
wait_for_port (ServedRepo *self)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();

  for (guint i = 0; i < 400; i++)
    {
      g_autoptr(GSocketConnection) connection = NULL;

      connection = g_socket_client_connect_to_host (client, "127.0.0.1", self->port, NULL, NULL);
      if (connection != NULL)
        return;
      /* NULL once the server has exited. */
      g_assert_nonnull (g_subprocess_get_identifier (self->server));
      g_usleep (25 * 1000);
    }
  g_error ("the HTTP server on port %u did not start", self->port);
}

/* A test that fails aborts without teardown: the server must not outlive
 * it. */
static void
die_with_parent (gpointer user_data)
{
  (void) prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
start (ServedRepo *self,
       const char *const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (self->server);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  self->server = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  wait_for_port (self);
}

static void
ensure_port (ServedRepo *self)
{
  if (self->port != 0)
    return;
  self->port = pick_free_port ();
  self->url = g_strdup_printf ("http://127.0.0.1:%u", self->port);
}

/* Serves the repository with `python3 -m http.server`; the port stays the
 * same across restarts, so remotes keep working. */
void
served_repo_start (ServedRepo *self)
{
  g_autofree char *port = NULL;

  ensure_port (self);
  port = g_strdup_printf ("%u", self->port);
  {
    const char *argv[] = { "/usr/bin/python3", "-m", "http.server", "--bind", "127.0.0.1",
                           "--directory", self->path, port, NULL };
    start (self, argv);
  }
}

/* A server that dies on request @n_requests + 1: a pull interrupted by
 * the network going away. */
void
served_repo_start_stopping_after (ServedRepo *self,
                                  guint n_requests)
{
  const char *src = g_getenv ("XDG_APP_SOURCE_ROOT");
  g_autofree char *script = NULL;
  g_autofree char *port = NULL;
  g_autofree char *limit = g_strdup_printf ("%u", n_requests);

  g_assert_nonnull (src);
  ensure_port (self);
  script = g_build_filename (src, "tests", "store", "httpd-stopping.py", NULL);
  port = g_strdup_printf ("%u", self->port);
  {
    const char *argv[] = { "/usr/bin/python3", script, self->path, port, limit, NULL };
    start (self, argv);
  }
}

void
served_repo_stop (ServedRepo *self)
{
  if (self->server == NULL)
    return;
  g_subprocess_send_signal (self->server, SIGKILL);
  (void) g_subprocess_wait (self->server, NULL, NULL);
  g_clear_object (&self->server);
}

/* http.server answers If-Modified-Since with one-second precision, and
 * libostree caches signed summaries by it: a summary rewritten within the
 * same second would be served as "304 Not Modified".  Every publication
 * gets a later mtime. */
static void
bump_summary_mtime (ServedRepo *self)
{
  const char *names[] = { "summary", "summary.sig" };
  gint64 when = g_get_real_time () / G_USEC_PER_SEC + ++self->generation;

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (self->path, names[i], NULL);
      struct utimbuf times = { when, when };

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        g_assert_cmpint (g_utime (path, &times), ==, 0);
    }
}

static void
update_summary (ServedRepo *self,
                const char *gpg_home,
                const char *key)
{
  g_autofree char *repo_arg = g_strconcat ("--repo=", self->path, NULL);
  g_autofree char *home_arg = gpg_home != NULL ? g_strconcat ("--gpg-homedir=", gpg_home, NULL) : NULL;
  g_autofree char *sign_arg = key != NULL ? g_strconcat ("--gpg-sign=", key, NULL) : NULL;
  const char *argv[] = { "ostree", repo_arg, "summary", "-u", home_arg, sign_arg, NULL };
  g_free (test_run (argv));

  bump_summary_mtime (self);
}

/* Signs the commit at @ref and the summary with @key from the GnuPG home
 * @gpg_home. */
void
served_repo_sign (ServedRepo *self,
                  const char *ref,
                  const char *gpg_home,
                  const char *key)
{
  g_autofree char *repo_arg = g_strconcat ("--repo=", self->path, NULL);
  g_autofree char *home_arg = g_strconcat ("--gpg-homedir=", gpg_home, NULL);
  const char *argv[] = { "ostree", repo_arg, "gpg-sign", home_arg, ref, key, NULL };
  g_free (test_run (argv));

  served_repo_sign_summary (self, gpg_home, key);
}

/* Rewrites the summary (after a static delta, say), signed with @key
 * when it is not NULL. */
void
served_repo_sign_summary (ServedRepo *self,
                          const char *gpg_home,
                          const char *key)
{
  update_summary (self, gpg_home, key);
}

/* Commits @tree as @ref and updates the summary.  @xa_metadata: NULL
 * copies the tree's metadata file into the commit as xa.metadata, as
 * `flatpak build-export` does; "" adds none; anything else is added as
 * is.  Returns the commit. */
char *
served_repo_commit (ServedRepo *self,
                    const char *ref,
                    const char *tree,
                    const char *xa_metadata)
{
  g_autofree char *repo_arg = g_strconcat ("--repo=", self->path, NULL);
  g_autofree char *branch_arg = g_strconcat ("--branch=", ref, NULL);
  g_autofree char *tree_arg = g_strconcat ("--tree=dir=", tree, NULL);
  g_autofree char *metadata = NULL;
  g_autofree char *metadata_arg = NULL;
  g_autofree char *commit = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  if (xa_metadata == NULL)
    {
      g_autofree char *path = g_build_filename (tree, "metadata", NULL);

      g_assert_true (g_file_get_contents (path, &metadata, NULL, NULL));
      xa_metadata = metadata;
    }
  g_ptr_array_add (argv, "ostree");
  g_ptr_array_add (argv, repo_arg);
  g_ptr_array_add (argv, "commit");
  g_ptr_array_add (argv, branch_arg);
  g_ptr_array_add (argv, tree_arg);
  g_ptr_array_add (argv, "--canonical-permissions");
  g_ptr_array_add (argv, "--subject=test");
  if (xa_metadata[0] != '\0')
    {
      metadata_arg = g_strconcat ("--add-metadata-string=xa.metadata=", xa_metadata, NULL);
      g_ptr_array_add (argv, metadata_arg);
    }
  g_ptr_array_add (argv, NULL);
  commit = test_run ((const char * const *) argv->pdata);
  g_strstrip (commit);
  g_assert_true (g_str_is_ascii (commit) && strlen (commit) == 64);
  update_summary (self, NULL, NULL);
  return g_steal_pointer (&commit);
}

/* Flips one byte in the middle of the object that holds @path of @ref, as
 * a broken mirror or disk would. */
void
served_repo_corrupt (ServedRepo *self,
                     const char *ref,
                     const char *path)
{
  g_autofree char *repo_arg = g_strconcat ("--repo=", self->path, NULL);
  const char *argv[] = { "ostree", repo_arg, "ls", "-C", ref, path, NULL };
  g_autofree char *line = test_run (argv);
  g_auto(GStrv) fields = g_strsplit_set (g_strstrip (line), " \t", -1);
  g_autoptr(GPtrArray) words = g_ptr_array_new ();
  g_autofree char *object = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  const char *checksum;
  gsize len = 0;

  for (guint i = 0; fields[i] != NULL; i++)
    if (fields[i][0] != '\0')
      g_ptr_array_add (words, fields[i]);
  g_assert_cmpuint (words->len, >=, 2);
  checksum = words->pdata[words->len - 2];
  g_assert_cmpuint (strlen (checksum), ==, 64);

  object = g_strdup_printf ("%s/objects/%.2s/%s.filez", self->path, checksum, checksum + 2);
  g_file_get_contents (object, &data, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 8);
  data[len / 2] ^= 0x5a;
  g_file_set_contents (object, data, len, &error);
  g_assert_no_error (error);
}
