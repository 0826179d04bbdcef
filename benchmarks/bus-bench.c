/* benchmarks/bus-bench.c — the two ends of the bus benchmark
 * (benchmarks/broker-bus), on GDBus so that the direct, xdg-dbus-proxy
 * and broker paths all carry the very same client and server:
 *
 *   bus-bench serve NAME                         owns NAME; Echo (ay) → ay, Flood (uu)
 *   bus-bench latency NAME N ADDRESS...          N sequential small calls; median µs
 *   bus-bench pipelined NAME N D ADDRESS...      N calls, D in flight; calls/s
 *   bus-bench throughput NAME N S ADDRESS...     N sequential calls of S bytes; MiB/s
 *   bus-bench relay SOCKET BUS_SOCKET            the floor of any proxy: copies bytes
 *                                                between clients of SOCKET and the bus
 *
 * The client modes print one line per ADDRESS, in their order: all of
 * them are measured in one run, their calls interleaved.
 *
 * Flood (count, size) emits count broadcast signals Data (ay) of size bytes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gio/gio.h>

#define PATH "/org/bench/Echo"
#define IFACE "org.bench.Echo"

static const char xml[] =
  "<node><interface name='" IFACE "'>"
  "<method name='Echo'><arg type='ay' direction='in'/><arg type='ay' direction='out'/></method>"
  "<method name='Flood'><arg type='u' direction='in'/><arg type='u' direction='in'/></method>"
  "<signal name='Data'><arg type='ay'/></signal>"
  "</interface></node>";

static void
on_call (GDBusConnection *connection,
         const char *sender,
         const char *path,
         const char *interface,
         const char *method,
         GVariant *parameters,
         GDBusMethodInvocation *invocation,
         gpointer user_data)
{
  if (strcmp (method, "Echo") == 0)
    {
      g_dbus_method_invocation_return_value (invocation, parameters);
      return;
    }
  {
    guint32 count, size;
    g_autofree guint8 *data = NULL;

    g_variant_get (parameters, "(uu)", &count, &size);
    data = g_malloc0 (size);
    g_dbus_method_invocation_return_value (invocation, NULL);
    for (guint32 i = 0; i < count; i++)
      g_dbus_connection_emit_signal (connection, NULL, PATH, IFACE, "Data",
                                     g_variant_new ("(@ay)",
                                                    g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE,
                                                                               data, size, 1)),
                                     NULL);
  }
}

static void
on_acquired (GDBusConnection *connection,
             const char *name,
             gpointer user_data)
{
  g_print ("ready\n");
}

static int
serve (const char *name)
{
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (xml, NULL);
  const GDBusInterfaceVTable vtable = { on_call, NULL, NULL, { 0 } };
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  if (bus == NULL)
    return EXIT_FAILURE;
  g_dbus_connection_register_object (bus, PATH, info->interfaces[0], &vtable, NULL, NULL, NULL);
  g_bus_own_name_on_connection (bus, name, G_BUS_NAME_OWNER_FLAGS_NONE, on_acquired, NULL, NULL, NULL);
  g_main_loop_run (loop);
  return EXIT_SUCCESS;
}

static GVariant *
payload (gsize size)
{
  g_autofree guint8 *data = g_malloc0 (size);

  return g_variant_new ("(@ay)", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, size, 1));
}

static GDBusConnection *
connect_to (const char *address)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection *c =
    g_dbus_connection_new_for_address_sync (address,
                                            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                            G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                            NULL, NULL, &error);

  if (c == NULL)
    g_error ("cannot connect to %s: %s", address, error->message);
  return c;
}

static GVariant *
echo (GDBusConnection *c,
      const char *name,
      gsize size)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply = g_dbus_connection_call_sync (c, name, PATH, IFACE, "Echo", payload (size),
                                                 G_VARIANT_TYPE ("(ay)"), G_DBUS_CALL_FLAGS_NONE,
                                                 -1, NULL, &error);

  if (reply == NULL)
    g_error ("Echo: %s", error->message);
  return reply;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The paths are measured together: call i goes to each address in turn,
 * starting at another one each time, so that a change in the machine's
 * load falls on all of them alike. */
typedef struct
{
  guint              n;
  GDBusConnection  **c;
  double            *spent;   /* µs, per address */
} Paths;

static void
paths_open (Paths *paths,
            char **addresses,
            guint n)
{
  paths->n = n;
  paths->c = g_new0 (GDBusConnection *, n);
  paths->spent = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    paths->c[i] = connect_to (addresses[i]);
}

static void
paths_close (Paths *paths)
{
  for (guint i = 0; i < paths->n; i++)
    g_object_unref (paths->c[i]);
  g_free (paths->c);
  g_free (paths->spent);
}

static int
latency (const char *name,
         guint n,
         char **addresses,
         guint n_addresses)
{
  Paths paths;
  GArray **times = g_new0 (GArray *, n_addresses);

  paths_open (&paths, addresses, n_addresses);
  for (guint a = 0; a < n_addresses; a++)
    times[a] = g_array_sized_new (FALSE, FALSE, sizeof (double), n);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < n_addresses; k++)
      {
        guint a = (i + k) % n_addresses;
        gint64 start = g_get_monotonic_time ();
        double us;

        g_variant_unref (echo (paths.c[a], name, 8));
        us = g_get_monotonic_time () - start;
        g_array_append_val (times[a], us);
      }
  for (guint a = 0; a < n_addresses; a++)
    {
      g_array_sort (times[a], compare_doubles);
      g_print ("%.1f\n", g_array_index (times[a], double, n / 2));
      g_array_unref (times[a]);
    }
  g_free (times);
  paths_close (&paths);
  return EXIT_SUCCESS;
}

typedef struct
{
  GDBusConnection *c;
  const char *name;
  guint to_send;
  guint pending;
  GMainLoop *loop;
} Pipeline;

static void send_one (Pipeline *p);

static void
on_reply (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  Pipeline *p = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (p->c, result, &error);

  if (reply == NULL)
    g_error ("Echo: %s", error->message);
  p->pending--;
  if (p->to_send > 0)
    send_one (p);
  else if (p->pending == 0)
    g_main_loop_quit (p->loop);
}

static void
send_one (Pipeline *p)
{
  p->to_send--;
  p->pending++;
  g_dbus_connection_call (p->c, p->name, PATH, IFACE, "Echo", payload (8), G_VARIANT_TYPE ("(ay)"),
                          G_DBUS_CALL_FLAGS_NONE, -1, NULL, on_reply, p);
}

/* Calls in blocks of PIPELINE_BLOCK, each address's block in turn. */
#define PIPELINE_BLOCK 1000

static int
pipelined (const char *name,
           guint n,
           guint depth,
           char **addresses,
           guint n_addresses)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Paths paths;

  paths_open (&paths, addresses, n_addresses);
  for (guint done = 0, b = 0; done < n; done += PIPELINE_BLOCK, b++)
    for (guint k = 0; k < n_addresses; k++)
      {
        guint a = (b + k) % n_addresses;
        Pipeline p = { paths.c[a], name, MIN (PIPELINE_BLOCK, n - done), 0, loop };
        gint64 start = g_get_monotonic_time ();

        for (guint i = 0; i < depth && p.to_send > 0; i++)
          send_one (&p);
        g_main_loop_run (loop);
        paths.spent[a] += g_get_monotonic_time () - start;
      }
  for (guint a = 0; a < n_addresses; a++)
    g_print ("%.0f\n", n / (paths.spent[a] / 1e6));
  paths_close (&paths);
  return EXIT_SUCCESS;
}

static int
throughput (const char *name,
            guint n,
            gsize size,
            char **addresses,
            guint n_addresses)
{
  Paths paths;

  paths_open (&paths, addresses, n_addresses);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < n_addresses; k++)
      {
        guint a = (i + k) % n_addresses;
        gint64 start = g_get_monotonic_time ();

        g_variant_unref (echo (paths.c[a], name, size));
        paths.spent[a] += g_get_monotonic_time () - start;
      }
  /* Each call carries the payload there and back. */
  for (guint a = 0; a < n_addresses; a++)
    g_print ("%.1f\n", 2.0 * n * size / (1024 * 1024) / (paths.spent[a] / 1e6));
  paths_close (&paths);
  return EXIT_SUCCESS;
}

/* ------------------------------------------------------------ relay */

/* What every proxy must do at least: one more process on the way, one
 * more copy into it and out of it.  Bytes go on as they come, with no
 * parsing, no checking and no filter; a thread per direction, blocking. */
typedef struct
{
  int from;
  int to;
} Pump;

static gpointer
pump (gpointer data)
{
  Pump *p = data;
  gsize size = 1024 * 1024;
  g_autofree char *buffer = g_malloc (size);
  ssize_t n;

  while ((n = recv (p->from, buffer, size, 0)) > 0)
    for (ssize_t done = 0, w; done < n; done += w)
      if ((w = send (p->to, buffer + done, n - done, MSG_NOSIGNAL)) <= 0)
        goto out;
out:
  (void) shutdown (p->to, SHUT_WR);
  (void) shutdown (p->from, SHUT_RD);
  g_free (p);
  return NULL;
}

static int
unix_socket (const char *path,
             struct sockaddr_un *addr)
{
  memset (addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  if (strlen (path) >= sizeof addr->sun_path)
    g_error ("socket path '%s' is too long", path);
  strcpy (addr->sun_path, path);
  return socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

static int
relay (const char *path,
       const char *bus_path)
{
  struct sockaddr_un addr;
  int listener = unix_socket (path, &addr);

  if (listener < 0 || bind (listener, (struct sockaddr *) &addr, sizeof addr) != 0 ||
      listen (listener, 16) != 0)
    g_error ("cannot listen on '%s': %s", path, g_strerror (errno));
  g_print ("ready\n");
  for (;;)
    {
      int client = accept4 (listener, NULL, NULL, SOCK_CLOEXEC);
      int bus;
      Pump *up, *down;

      if (client < 0)
        continue;
      bus = unix_socket (bus_path, &addr);
      if (bus < 0 || connect (bus, (struct sockaddr *) &addr, sizeof addr) != 0)
        g_error ("cannot connect to '%s': %s", bus_path, g_strerror (errno));
      up = g_new (Pump, 1);
      *up = (Pump) { client, bus };
      down = g_new (Pump, 1);
      *down = (Pump) { bus, client };
      g_thread_unref (g_thread_new ("up", pump, up));
      g_thread_unref (g_thread_new ("down", pump, down));
    }
  return EXIT_SUCCESS;
}

int
main (int argc,
      char **argv)
{
  if (argc == 3 && strcmp (argv[1], "serve") == 0)
    return serve (argv[2]);
  if (argc >= 5 && strcmp (argv[1], "latency") == 0)
    return latency (argv[2], atoi (argv[3]), argv + 4, argc - 4);
  if (argc >= 6 && strcmp (argv[1], "pipelined") == 0)
    return pipelined (argv[2], atoi (argv[3]), atoi (argv[4]), argv + 5, argc - 5);
  if (argc >= 6 && strcmp (argv[1], "throughput") == 0)
    return throughput (argv[2], atoi (argv[3]), atoi (argv[4]), argv + 5, argc - 5);
  if (argc == 4 && strcmp (argv[1], "relay") == 0)
    return relay (argv[2], argv[3]);
  g_printerr ("usage: bus-bench serve NAME | latency NAME N ADDRESS... | "
              "pipelined NAME N DEPTH ADDRESS... | throughput NAME N SIZE ADDRESS... | "
              "relay SOCKET BUS_SOCKET\n");
  return EXIT_FAILURE;
}
