/* tests/broker/test-bus-proxy.c — the proxy's threads and their limits,
 * on a real dbus-daemon (GTestDBus), with limits small enough to reach
 * in a test: an instance's clients are closed, and leave the connection
 * table, by the time the broker has let the instance go; a client that
 * stops reading while the bus floods it is dropped once the stall time
 * has passed, never before, while another instance's client goes on
 * talking through the same broker; stopping the proxy closes its
 * clients; an instance's connections past the limit are refused, and
 * only its own; a client with many calls in flight has its threads
 * batch, and one with a single call has them run at once again. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "broker/broker.h"
#include "broker/bus-proxy.h"

#define FLOOD_NAME "org.example.Flood"
#define STALL_SECONDS 1
#define MAX_CLIENTS 3
/* Past the proxy's BATCH_FROM_PENDING. */
#define IN_FLIGHT 16

typedef struct
{
  GTestDBus       *bus;
  GDBusConnection *host;          /* a peer on the real bus */
  char            *runtime_dir;
  XaBroker        *broker;
  XaBusProxy      *proxy;
  GArray          *children;      /* GPid: the instances' monitors */
} Fixture;

static GDBusConnection *
connect_to (const char *address)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection *c =
    g_dbus_connection_new_for_address_sync (address,
                                            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                            G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                            NULL, NULL, &error);

  g_assert_no_error (error);
  return c;
}

static void
setup (Fixture *f,
       gconstpointer data)
{
  const XaBusProxyLimits limits = { 256 * 1024, STALL_SECONDS, MAX_CLIENTS };
  g_autoptr(GError) error = NULL;
  XaBrokerOptions options = { 0 };

  f->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (f->bus);
  f->host = connect_to (g_test_dbus_get_bus_address (f->bus));
  f->runtime_dir = g_dir_make_tmp ("test-bus-proxy-XXXXXX", &error);
  g_assert_no_error (error);
  options.runtime_dir = f->runtime_dir;
  options.session_address = g_test_dbus_get_bus_address (f->bus);
  f->broker = xa_broker_new (&options);
  f->proxy = xa_bus_proxy_new (f->broker, &limits);
  f->children = g_array_new (FALSE, FALSE, sizeof (GPid));
}

static void
teardown (Fixture *f,
          gconstpointer data)
{
  xa_bus_proxy_free (f->proxy);
  xa_broker_free (f->broker);
  for (guint i = 0; i < f->children->len; i++)
    {
      GPid pid = g_array_index (f->children, GPid, i);

      (void) kill (pid, SIGKILL);
      (void) waitpid (pid, NULL, 0);
    }
  g_array_unref (f->children);
  (void) g_rmdir (f->runtime_dir);
  g_free (f->runtime_dir);
  g_dbus_connection_close_sync (f->host, NULL, NULL);
  g_object_unref (f->host);
  g_test_dbus_down (f->bus);
  g_object_unref (f->bus);
}

/* Runs the main loop (the instances' pidfds, the listeners) until
 * @done says so or @seconds have passed; whether it did. */
static gboolean
iterate_until (gboolean (*done) (gpointer),
               gpointer data,
               double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (!done (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  return TRUE;
}

/* An instance that may talk to FLOOD_NAME, watched through the pidfd of
 * a child of ours: killing the child ends it. */
static XaInstance *
add_instance (Fixture *f,
              GPid *out_pid)
{
  const char *argv[] = { "sleep", "600", NULL };
  g_autoptr(XaContext) context = xa_context_new ();
  g_autoptr(GError) error = NULL;
  XaInstance *instance;
  GPid pid;
  int pid_fd;

  g_assert_true (xa_context_parse_option (context, "talk-name", FLOOD_NAME, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  g_array_append_val (f->children, pid);
  pid_fd = (int) syscall (SYS_pidfd_open, pid, 0);
  g_assert_cmpint (pid_fd, >=, 0);
  instance = xa_broker_add_instance (f->broker, "org.example.App", g_steal_pointer (&context),
                                     pid_fd, &error);
  g_assert_no_error (error);
  if (out_pid != NULL)
    *out_pid = pid;
  return instance;
}

static void
on_connected (GObject *source,
              GAsyncResult *result,
              gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection **out = user_data;

  *out = g_dbus_connection_new_for_address_finish (result, &error);
  g_assert_no_error (error);
}

static gboolean
is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

/* A GDBus client of @instance.  The broker accepts in the main loop, so
 * the connection is made asynchronously while it runs; once made, its
 * traffic needs only the proxy's threads. */
static GDBusConnection *
connect_app (XaInstance *instance)
{
  g_autofree char *address =
    g_strconcat ("unix:path=", xa_instance_get_socket_path (instance, XA_INSTANCE_BUS_SESSION), NULL);
  GDBusConnection *app = NULL;

  g_dbus_connection_new_for_address (address,
                                     G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                     G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                     NULL, NULL, on_connected, &app);
  g_assert_true (iterate_until (is_set, &app, 10));
  return app;
}

/* Whether @app's calls get through, synchronously: the main loop does
 * not run meanwhile. */
static gboolean
talks (GDBusConnection *app)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply =
    g_dbus_connection_call_sync (app, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                 "org.freedesktop.DBus", "GetId", NULL, G_VARIANT_TYPE ("(s)"),
                                 G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);

  if (reply == NULL)
    g_test_message ("GetId: %s", error->message);
  return reply != NULL;
}

static gboolean
is_closed (gpointer data)
{
  return g_dbus_connection_is_closed (data);
}

typedef struct
{
  XaBroker   *broker;
  const char *id;
} Lookup;

static gboolean
instance_is_gone (gpointer data)
{
  Lookup *l = data;

  return xa_broker_lookup_instance (l->broker, l->id) == NULL;
}

static gboolean
has_no_clients (gpointer data)
{
  return xa_instance_get_n_clients (data) == 0;
}

static void
test_instance_end_closes_clients (Fixture *f,
                                  gconstpointer data)
{
  GPid pid;
  XaInstance *instance = add_instance (f, &pid);
  g_autofree char *id = g_strdup (xa_instance_get_id (instance));
  g_autoptr(GDBusConnection) app = connect_app (instance);
  g_autofree char *name = g_strdup (g_dbus_connection_get_unique_name (app));
  g_autoptr(XaCaller) caller = xa_broker_lookup_connection (f->broker, XA_INSTANCE_BUS_SESSION, name);
  Lookup lookup = { f->broker, id };

  g_assert_nonnull (caller);
  g_assert_cmpstr (xa_caller_get_instance_id (caller), ==, id);
  g_assert_cmpuint (xa_instance_get_n_clients (instance), ==, 1);
  g_assert_true (talks (app));

  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_true (iterate_until (instance_is_gone, &lookup, 10));
  /* By the time the instance is gone its name is nobody's... */
  g_assert_null (xa_broker_lookup_connection (f->broker, XA_INSTANCE_BUS_SESSION, name));
  /* ...and the client's connection is closed. */
  g_assert_true (iterate_until (is_closed, app, 10));
}

/* ------------------------------------------------- a client that stalls */

static void
send_all (int fd,
          const void *data,
          gsize len)
{
  const char *p = data;

  while (len > 0)
    {
      ssize_t n = send (fd, p, len, MSG_NOSIGNAL);

      g_assert_cmpint (n, >, 0);
      p += n;
      len -= n;
    }
}

static void
send_call (int fd,
           const char *member,
           GVariant *body,
           guint32 serial)
{
  g_autoptr(GDBusMessage) m = g_dbus_message_new_method_call ("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                              "org.freedesktop.DBus", member);
  g_autoptr(GError) error = NULL;
  g_autofree guchar *blob = NULL;
  gsize len = 0;

  if (body != NULL)
    g_dbus_message_set_body (m, body);
  g_dbus_message_set_serial (m, serial);
  blob = g_dbus_message_to_blob (m, &len, G_DBUS_CAPABILITY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  send_all (fd, blob, len);
}

/* A client written by hand: authenticates, says Hello, subscribes to
 * FLOOD_NAME's broadcasts, reads until the bus confirmed that, and
 * never reads again. */
/* A socket connected to @instance's session bus, and nothing more. */
static int
connect_socket (XaInstance *instance)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_strlcpy (addr.sun_path, xa_instance_get_socket_path (instance, XA_INSTANCE_BUS_SESSION),
             sizeof addr.sun_path);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  return fd;
}

static int
connect_stalling (XaInstance *instance)
{
  g_autofree char *auth = NULL;
  g_autofree char *uid = g_strdup_printf ("%u", getuid ());
  g_autoptr(GByteArray) in = g_byte_array_new ();
  gboolean subscribed = FALSE;
  int fd = connect_socket (instance);
  GString *hex = g_string_new (NULL);

  for (const char *c = uid; *c != '\0'; c++)
    g_string_append_printf (hex, "%02x", *c);
  auth = g_strdup_printf ("%cAUTH EXTERNAL %s\r\nBEGIN\r\n", 0, hex->str);
  g_string_free (hex, TRUE);
  send_all (fd, auth, 1 + strlen (auth + 1));
  send_call (fd, "Hello", NULL, 1);
  send_call (fd, "AddMatch", g_variant_new ("(s)", "type='signal',interface='" FLOOD_NAME "'"), 2);

  /* The broker accepts in the main loop: run it while waiting. */
  while (!subscribed)
    {
      guint8 chunk[4096];
      ssize_t n;
      const guint8 *line_end;

      while (g_main_context_iteration (NULL, FALSE))
        ;
      n = recv (fd, chunk, sizeof chunk, MSG_DONTWAIT);
      if (n < 0)
        {
          g_assert_cmpint (errno, ==, EAGAIN);
          g_usleep (5000);
          continue;
        }
      g_assert_cmpint (n, >, 0);
      g_byte_array_append (in, chunk, n);
      /* "OK <guid>\r\n" first, then messages. */
      if (in->len > 0 && in->data[0] == 'O')
        {
          line_end = memchr (in->data, '\n', in->len);
          if (line_end == NULL)
            continue;
          g_byte_array_remove_range (in, 0, line_end + 1 - in->data);
        }
      while (in->len >= 16)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GDBusMessage) m = NULL;
          gssize need = g_dbus_message_bytes_needed (in->data, 16, &error);

          g_assert_no_error (error);
          if ((gsize) need > in->len)
            break;
          m = g_dbus_message_new_from_blob (in->data, need, G_DBUS_CAPABILITY_FLAGS_NONE, &error);
          g_assert_no_error (error);
          g_assert_cmpint (g_dbus_message_get_message_type (m), !=, G_DBUS_MESSAGE_TYPE_ERROR);
          if (g_dbus_message_get_reply_serial (m) == 2)
            subscribed = TRUE;
          g_byte_array_remove_range (in, 0, need);
        }
    }
  return fd;
}

/* Reads what @fd still has; whether it ended within @seconds. */
static gboolean
reaches_end (int fd,
             double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  guint8 chunk[65536];

  while (g_get_monotonic_time () < end)
    {
      ssize_t n = recv (fd, chunk, sizeof chunk, MSG_DONTWAIT);

      if (n == 0 || (n < 0 && errno == ECONNRESET))
        return TRUE;
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        return FALSE;
      if (n < 0)
        {
          /* The broker accepts in the main loop. */
          while (g_main_context_iteration (NULL, FALSE))
            ;
          g_usleep (5000);
        }
    }
  return FALSE;
}

static void
test_stalled_client_is_dropped_alone (Fixture *f,
                                      gconstpointer data)
{
  XaInstance *stalled = add_instance (f, NULL);
  XaInstance *other = add_instance (f, NULL);
  g_autoptr(GDBusConnection) app = connect_app (other);
  g_autoptr(GVariant) owned = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *payload = g_malloc0 (64 * 1024);
  gint64 flood_start, dropped;
  int fd = connect_stalling (stalled);

  owned = g_dbus_connection_call_sync (f->host, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", FLOOD_NAME, 0), G_VARIANT_TYPE ("(u)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xa_instance_get_n_clients (stalled), ==, 1);

  /* 8 MiB of broadcasts: past the socket's buffer and the batch the
   * proxy reads at a time (256 KiB here). */
  flood_start = g_get_monotonic_time ();
  for (int i = 0; i < 128; i++)
    {
      g_dbus_connection_emit_signal (f->host, NULL, "/org/example/Flood", FLOOD_NAME, "Data",
                                     g_variant_new ("(@ay)",
                                                    g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE,
                                                                               payload, 64 * 1024, 1)),
                                     &error);
      g_assert_no_error (error);
    }
  g_dbus_connection_flush_sync (f->host, NULL, &error);
  g_assert_no_error (error);

  /* The other instance's client is served meanwhile. */
  g_assert_true (talks (app));
  g_assert_cmpuint (xa_instance_get_n_clients (stalled), ==, 1);

  g_assert_true (iterate_until (has_no_clients, stalled, 10 * STALL_SECONDS));
  dropped = g_get_monotonic_time ();
  g_test_message ("dropped %.2f s after the flood began", (dropped - flood_start) / 1e6);
  /* Not before its socket had been full for the stall time. */
  g_assert_cmpint (dropped - flood_start, >=, STALL_SECONDS * G_USEC_PER_SEC);
  g_assert_true (reaches_end (fd, 10));
  (void) close (fd);

  g_assert_true (talks (app));
  g_assert_cmpuint (xa_instance_get_n_clients (other), ==, 1);
}

typedef struct
{
  XaInstance *instance;
  guint       n;
} Count;

static gboolean
has_n_clients (gpointer data)
{
  Count *c = data;

  return xa_instance_get_n_clients (c->instance) == c->n;
}

static void
test_connections_past_limit_are_refused (Fixture *f,
                                         gconstpointer data)
{
  XaInstance *instance = add_instance (f, NULL);
  XaInstance *other = add_instance (f, NULL);
  GDBusConnection *apps[MAX_CLIENTS];
  g_autoptr(GDBusConnection) other_app = NULL;
  g_autoptr(GDBusConnection) again = NULL;
  Count one_gone = { instance, MAX_CLIENTS - 1 };
  int fd;

  for (guint i = 0; i < MAX_CLIENTS; i++)
    {
      apps[i] = connect_app (instance);
      g_assert_true (talks (apps[i]));
    }
  g_assert_cmpuint (xa_instance_get_n_clients (instance), ==, MAX_CLIENTS);

  /* One more is closed before it could say anything. */
  fd = connect_socket (instance);
  g_assert_true (reaches_end (fd, 10));
  (void) close (fd);
  g_assert_cmpuint (xa_instance_get_n_clients (instance), ==, MAX_CLIENTS);
  for (guint i = 0; i < MAX_CLIENTS; i++)
    g_assert_true (talks (apps[i]));

  /* The limit is the instance's, not the broker's. */
  other_app = connect_app (other);
  g_assert_true (talks (other_app));

  /* Once one has gone, another may come. */
  g_dbus_connection_close_sync (apps[0], NULL, NULL);
  g_clear_object (&apps[0]);
  g_assert_true (iterate_until (has_n_clients, &one_gone, 10));
  again = connect_app (instance);
  g_assert_true (talks (again));
  for (guint i = 1; i < MAX_CLIENTS; i++)
    g_object_unref (apps[i]);
}

/* How many of the proxy's threads are SCHED_BATCH now. */
static guint
count_batching_threads (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
      g_autofree char *comm = NULL;

      if (g_file_get_contents (path, &comm, NULL, NULL) && g_str_has_prefix (comm, "xdg-app-bus") &&
          sched_getscheduler ((pid_t) atoi (tid)) == SCHED_BATCH)
        n++;
    }
  return n;
}

/* A service on the host that answers nothing until told to. */
static void
hold_call (GDBusConnection *connection,
           const char *sender,
           const char *object_path,
           const char *interface_name,
           const char *method_name,
           GVariant *parameters,
           GDBusMethodInvocation *invocation,
           gpointer user_data)
{
  g_ptr_array_add (user_data, invocation);
}

static gboolean
has_n_held (gpointer data)
{
  return ((GPtrArray *) data)->len == IN_FLIGHT;
}

static void
on_reply (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, NULL);

  g_assert_nonnull (reply);
  (*(guint *) user_data)++;
}

static gboolean
all_replied (gpointer data)
{
  return *(guint *) data == IN_FLIGHT;
}

static void
test_many_calls_in_flight_are_batched (Fixture *f,
                                       gconstpointer data)
{
  static const GDBusInterfaceVTable vtable = { hold_call, NULL, NULL, { 0 } };
  g_autoptr(GDBusNodeInfo) node =
    g_dbus_node_info_new_for_xml ("<node><interface name='" FLOOD_NAME "'>"
                                  "<method name='Hold'/></interface></node>", NULL);
  g_autoptr(GPtrArray) held = g_ptr_array_new ();
  g_autoptr(GVariant) owned = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) app = NULL;
  XaInstance *instance = add_instance (f, NULL);
  guint replies = 0;
  guint id;

  id = g_dbus_connection_register_object (f->host, "/org/example/Flood", node->interfaces[0],
                                          &vtable, held, NULL, &error);
  g_assert_no_error (error);
  owned = g_dbus_connection_call_sync (f->host, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", FLOOD_NAME, 0), G_VARIANT_TYPE ("(u)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  app = connect_app (instance);
  g_assert_true (talks (app));
  g_assert_cmpuint (count_batching_threads (), ==, 0);

  for (guint i = 0; i < IN_FLIGHT; i++)
    g_dbus_connection_call (app, FLOOD_NAME, "/org/example/Flood", FLOOD_NAME, "Hold", NULL, NULL,
                            G_DBUS_CALL_FLAGS_NONE, 10000, NULL, on_reply, &replies);
  g_assert_true (iterate_until (has_n_held, held, 10));
  /* The thread that carried them saw many in flight. */
  g_assert_cmpuint (count_batching_threads (), >=, 1);

  for (guint i = 0; i < held->len; i++)
    g_dbus_method_invocation_return_value (held->pdata[i], NULL);
  g_assert_true (iterate_until (all_replied, &replies, 10));
  /* One call at a time: both threads run at once again. */
  g_assert_true (talks (app));
  g_assert_cmpuint (count_batching_threads (), ==, 0);
  g_dbus_connection_unregister_object (f->host, id);
}

static void
test_stopping_closes_clients (Fixture *f,
                              gconstpointer data)
{
  XaInstance *instance = add_instance (f, NULL);
  g_autoptr(GDBusConnection) app = connect_app (instance);

  g_assert_true (talks (app));
  g_clear_pointer (&f->proxy, xa_bus_proxy_free);
  g_assert_true (iterate_until (is_closed, app, 10));
  g_assert_cmpuint (xa_instance_get_n_clients (instance), ==, 0);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/bus-proxy/instance-end-closes-clients", Fixture, NULL, setup,
              test_instance_end_closes_clients, teardown);
  g_test_add ("/bus-proxy/stalled-client-is-dropped-alone", Fixture, NULL, setup,
              test_stalled_client_is_dropped_alone, teardown);
  g_test_add ("/bus-proxy/connections-past-limit-are-refused", Fixture, NULL, setup,
              test_connections_past_limit_are_refused, teardown);
  g_test_add ("/bus-proxy/many-calls-in-flight-are-batched", Fixture, NULL, setup,
              test_many_calls_in_flight_are_batched, teardown);
  g_test_add ("/bus-proxy/stopping-closes-clients", Fixture, NULL, setup,
              test_stopping_closes_clients, teardown);
  return g_test_run ();
}
