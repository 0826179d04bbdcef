/* broker/bus-proxy.c — see bus-proxy.h.
 *
 * Enforces: the client speaks to the broker, never to the bus: the broker
 * ends the client's authentication itself (SASL EXTERNAL, the peer's uid
 * from SO_PEERCRED must be ours), opens its own connection to the bus,
 * and passes on only whole messages that wire/message.c found valid and
 * the client's XaBusFilter let through.  An invalid message, an fd count
 * that does not add up, a serial in the filter's range or a queue left
 * full for too long drops that client only.  The client's unique name
 * goes into the broker's table (caller identity, broker/identity.c) as
 * soon as the bus answers its Hello, before anything else of the
 * client's is forwarded, and leaves it when the client is closed.
 * Memory is bounded: past the high mark of a queue the proxy stops
 * reading the side that fills it, so a flood waits in the kernel and in
 * the bus daemon, not here.
 *
 * Trusts: the bus daemon (framing of what it sends is still checked:
 * the client must never see a message we could not parse); the filter's
 * decisions. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <glib.h>
#include <glib-unix.h>
#include <glib/gi18n.h>

#include "broker/bus-filter.h"
#include "broker/bus-proxy.h"
#include "broker/bus-rules.h"
#include "wire/address.h"
#include "wire/message.h"
#include "wire/sasl.h"

/* The largest message either side may send (the specification's). */
#define MAX_MESSAGE (128 * 1024 * 1024)
/* Fds in flight per side: the bus daemon's own default per message is
 * 16 and its maximum 253. */
#define MAX_FDS_QUEUED 1024
#define READ_CHUNK 65536
#define READ_BUDGET (4 * 1024 * 1024)
/* Messages per sendmsg(): a pipelining client's burst goes out in one
 * call instead of one per message. */
#define MAX_BATCH 64
#define SEND_BUFFER (1024 * 1024)

typedef struct _Client Client;

typedef struct
{
  GBytes *data;
  gsize   offset;
  int    *fds;
  guint   n_fds;
} OutMessage;

typedef struct
{
  Client     *client;
  int         fd;
  gpointer    tag;            /* in the client's GSource */
  GIOCondition watching;      /* what the tag asks for now */
  GByteArray *in;             /* bytes read, not yet a whole message */
  GArray     *in_fds;         /* int: fds received, not yet claimed */
  GQueue      out;            /* OutMessage */
  gsize       out_bytes;
  gboolean    reading;        /* not paused by the other side's queue */
  gint64      full_since;     /* when out_bytes passed the high mark; 0 if not */
} Side;

struct _Client
{
  GSource       source;
  XaBusProxy   *proxy;
  XaInstance   *instance;
  XaInstanceBus bus;
  XaBusFilter  *filter;
  XaSaslServer *sasl_server;  /* the client's authentication, until BEGIN */
  XaSaslClient *sasl_client;  /* ours to the bus, until it agreed */
  gboolean      unix_fds;     /* both sides agreed to pass fds */
  gboolean      registered;   /* its unique name is in the broker's table */
  gboolean      batching;     /* dispatching: writes wait for the end of it */
  Side          app;          /* the sandboxed client */
  Side          bus_side;     /* our connection to the real bus */
  gboolean      closing;
};

struct _XaBusProxy
{
  XaBroker        *broker;
  XaBusProxyLimits limits;
  GHashTable      *clients;   /* Client * → XaInstance * */
};

static void client_close (Client *client, const char *why);

static void
out_message_free (OutMessage *m)
{
  for (guint i = 0; i < m->n_fds; i++)
    (void) close (m->fds[i]);
  g_free (m->fds);
  g_bytes_unref (m->data);
  g_free (m);
}

static void
side_init (Side *side,
           Client *client,
           int fd)
{
  side->client = client;
  side->fd = fd;
  side->in = g_byte_array_new ();
  side->in_fds = g_array_new (FALSE, FALSE, sizeof (int));
  g_queue_init (&side->out);
  side->reading = TRUE;
}

static void
side_clear (Side *side)
{
  for (guint i = 0; side->in_fds != NULL && i < side->in_fds->len; i++)
    (void) close (g_array_index (side->in_fds, int, i));
  g_clear_pointer (&side->in_fds, g_array_unref);
  g_clear_pointer (&side->in, g_byte_array_unref);
  g_queue_clear_full (&side->out, (GDestroyNotify) out_message_free);
  if (side->fd >= 0)
    (void) close (side->fd);
  side->fd = -1;
}

static Side *
other_side (Side *side)
{
  Client *client = side->client;

  return side == &client->app ? &client->bus_side : &client->app;
}

/* ------------------------------------------------------------ output */

static void
update_conditions (Client *client)
{
  Side *sides[] = { &client->app, &client->bus_side };

  for (gsize i = 0; i < G_N_ELEMENTS (sides); i++)
    {
      Side *side = sides[i];
      GIOCondition want = 0;

      if (side->tag == NULL)
        continue;
      if (side->reading)
        want |= G_IO_IN;
      if (!g_queue_is_empty (&side->out))
        want |= G_IO_OUT;
      /* Each change wakes the loop up (GLib signals its eventfd):
       * only when something changed. */
      if (want != side->watching)
        {
          g_source_modify_unix_fd (&client->source, side->tag, want);
          side->watching = want;
        }
    }
}

/* Pauses or resumes reading the side that fills @side's queue. */
static void
apply_backpressure (Side *side)
{
  const XaBusProxyLimits *limits = &side->client->proxy->limits;
  Side *source = other_side (side);

  if (side->out_bytes > limits->queue_high_bytes)
    {
      source->reading = FALSE;
      if (side->full_since == 0)
        side->full_since = g_get_monotonic_time ();
    }
  else if (side->out_bytes <= limits->queue_low_bytes)
    {
      source->reading = TRUE;
      side->full_since = 0;
    }
}

/* Drops @n bytes that went out from the front of @side's queue. */
static void
consume (Side *side,
         gsize n)
{
  while (n > 0)
    {
      OutMessage *m = g_queue_peek_head (&side->out);
      gsize left = g_bytes_get_size (m->data) - m->offset;
      gsize used = MIN (n, left);

      m->offset += used;
      side->out_bytes -= used;
      n -= used;
      if (used == left)
        out_message_free (g_queue_pop_head (&side->out));
    }
}

/* Writes what it can of @side's queue, several messages per sendmsg();
 * FALSE when the socket failed. */
static gboolean
flush (Side *side)
{
  while (!g_queue_is_empty (&side->out))
    {
      OutMessage *first = g_queue_peek_head (&side->out);
      struct iovec iov[MAX_BATCH];
      union { struct cmsghdr align; char buf[CMSG_SPACE (sizeof (int) * 253)]; } control;
      struct msghdr msg = { .msg_iov = iov };
      gsize total = 0;
      ssize_t n;

      for (GList *l = side->out.head; l != NULL && msg.msg_iovlen < MAX_BATCH; l = l->next)
        {
          OutMessage *m = l->data;
          gsize len = 0;
          const guint8 *data = g_bytes_get_data (m->data, &len);

          /* Fds travel with the first byte of their message, so a
           * message with fds starts a batch of its own. */
          if (msg.msg_iovlen > 0 && m->n_fds > 0)
            break;
          iov[msg.msg_iovlen].iov_base = (void *) (data + m->offset);
          iov[msg.msg_iovlen].iov_len = len - m->offset;
          total += len - m->offset;
          msg.msg_iovlen++;
        }
      if (first->n_fds > 0 && first->offset == 0)
        {
          struct cmsghdr *cmsg;

          msg.msg_control = control.buf;
          msg.msg_controllen = CMSG_SPACE (sizeof (int) * first->n_fds);
          cmsg = CMSG_FIRSTHDR (&msg);
          cmsg->cmsg_level = SOL_SOCKET;
          cmsg->cmsg_type = SCM_RIGHTS;
          cmsg->cmsg_len = CMSG_LEN (sizeof (int) * first->n_fds);
          memcpy (CMSG_DATA (cmsg), first->fds, sizeof (int) * first->n_fds);
        }
      n = sendmsg (side->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      if (msg.msg_control != NULL)
        {
          for (guint i = 0; i < first->n_fds; i++)
            (void) close (first->fds[i]);
          first->n_fds = 0;
        }
      consume (side, n);
      /* The socket is full: the rest waits for G_IO_OUT. */
      if ((gsize) n < total)
        break;
    }
  return TRUE;
}

/* Queues @data (and @fds, taken) for @side and writes at once when it
 * can: most messages never wait in a queue. */
static void
send_message (Side *side,
              GBytes *data,
              int *fds,
              guint n_fds)
{
  OutMessage *m = g_new0 (OutMessage, 1);

  m->data = data;
  m->fds = fds;
  m->n_fds = n_fds;
  g_queue_push_tail (&side->out, m);
  side->out_bytes += g_bytes_get_size (data);
  if (!side->client->batching && g_queue_get_length (&side->out) == 1 && !flush (side))
    {
      client_close (side->client, "write failed");
      return;
    }
  apply_backpressure (side);
}

static void
send_bytes (Side *side,
            const guint8 *data,
            gsize len)
{
  send_message (side, g_bytes_new (data, len), NULL, 0);
}

/* ------------------------------------------------------------- input */

/* How much to ask for: the rest of the message being read when its
 * length is known (one large message, one read), else a chunk. */
static gsize
wanted (Side *side)
{
  gsize total = 0;

  if (side->client->sasl_server == NULL && side->client->sasl_client == NULL &&
      side->in->len >= XA_WIRE_FIXED_HEADER_SIZE &&
      xa_wire_peek_length (side->in->data, side->in->len, MAX_MESSAGE, &total, NULL) &&
      total > side->in->len + READ_CHUNK)
    return total - side->in->len;
  return READ_CHUNK;
}

/* Reads what the socket has, up to a few MiB so that one busy client
 * cannot starve the others; FALSE at end of file or on error. */
static gboolean
read_some (Side *side)
{
  gsize budget = READ_BUDGET;

  while (budget > 0)
    {
      union { struct cmsghdr align; char buf[CMSG_SPACE (sizeof (int) * 253)]; } control;
      guint old_len = side->in->len;
      gsize want = MIN (wanted (side), budget);
      struct iovec iov;
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                            .msg_control = control.buf, .msg_controllen = sizeof control.buf };
      ssize_t n;

      g_byte_array_set_size (side->in, old_len + want);
      iov.iov_base = side->in->data + old_len;
      iov.iov_len = want;
      n = recvmsg (side->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
      g_byte_array_set_size (side->in, old_len + MAX (n, 0));
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      if (n == 0)
        return FALSE;
      for (struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg); cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
          {
            guint count = (cmsg->cmsg_len - CMSG_LEN (0)) / sizeof (int);

            g_array_append_vals (side->in_fds, CMSG_DATA (cmsg), count);
          }
      if (side->in_fds->len > MAX_FDS_QUEUED || (msg.msg_flags & MSG_CTRUNC) != 0)
        return FALSE;
      /* Fds arrive with the first byte of their message: stop there, so
       * that they are matched with the right one. */
      if ((gsize) n < want || side->in_fds->len > 0)
        break;
      budget -= n;
    }
  return TRUE;
}

/* Takes @n fds from the front of @side's received fds. */
static int *
take_fds (Side *side,
          guint n)
{
  int *fds = g_new (int, MAX (n, 1));

  memcpy (fds, side->in_fds->data, n * sizeof (int));
  g_array_remove_range (side->in_fds, 0, n);
  return fds;
}

/* Runs one message past the filter and on; TRUE when @from's buffer
 * itself went out with it (and @from has a fresh one). */
static gboolean
handle_message (Side *from,
                const guint8 *data,
                gsize len,
                const XaWireHeader *header)
{
  Client *client = from->client;
  Side *to = other_side (from);
  g_autoptr(GBytes) replacement = NULL;
  g_autoptr(GError) error = NULL;
  XaBusFilterAction action;
  gboolean took_buffer = FALSE;
  GBytes *own;
  int *fds;

  if (from == &client->app)
    action = xa_bus_filter_from_client (client->filter, data, header, &replacement, &error);
  else
    {
      action = xa_bus_filter_from_bus (client->filter, data, header, &replacement);
      /* The answer to Hello: from now on the name is this instance's. */
      if (!client->registered && xa_bus_filter_get_unique_name (client->filter) != NULL)
        {
          xa_broker_add_connection (client->proxy->broker, client->instance, client->bus,
                                    xa_bus_filter_get_unique_name (client->filter));
          client->registered = TRUE;
        }
    }

  fds = take_fds (from, header->n_unix_fds);
  switch (action)
    {
    case XA_BUS_FILTER_FORWARD:
      /* A large message that fills the buffer changes hands uncopied. */
      if (len >= READ_CHUNK && len == from->in->len && data == from->in->data)
        {
          GByteArray *whole = g_steal_pointer (&from->in);

          from->in = g_byte_array_new ();
          send_message (to, g_byte_array_free_to_bytes (whole), fds, header->n_unix_fds);
          took_buffer = TRUE;
        }
      else
        send_message (to, g_bytes_new (data, len), fds, header->n_unix_fds);
      fds = NULL;
      break;
    case XA_BUS_FILTER_REPLACE:
      send_message (to, g_steal_pointer (&replacement), NULL, 0);
      break;
    case XA_BUS_FILTER_ANSWER:
      send_message (from, g_steal_pointer (&replacement), NULL, 0);
      break;
    case XA_BUS_FILTER_DISCONNECT:
      client_close (client, error != NULL ? error->message : "refused");
      break;
    case XA_BUS_FILTER_DROP:
    default:
      break;
    }
  if (fds != NULL)
    {
      for (guint i = 0; i < header->n_unix_fds; i++)
        (void) close (fds[i]);
      g_free (fds);
    }
  while (!client->closing && (own = xa_bus_filter_pop_outgoing (client->filter)) != NULL)
    send_message (&client->bus_side, own, NULL, 0);
  return took_buffer;
}

/* Every whole message in @side's buffer, while the side may be read. */
static gboolean
dispatch (Side *side)
{
  Client *client = side->client;
  gsize start = 0;

  client->batching = TRUE;
  while (!client->closing)
    {
      g_autoptr(GError) error = NULL;
      const guint8 *data = side->in->data + start;
      gsize avail = side->in->len - start;
      XaWireHeader header;
      gsize total = 0;

      if (side == &client->app && xa_bus_filter_is_holding_client (client->filter))
        break;
      if (avail < XA_WIRE_FIXED_HEADER_SIZE)
        break;
      if (!xa_wire_peek_length (data, avail, MAX_MESSAGE, &total, &error))
        {
          client_close (client, error->message);
          return FALSE;
        }
      if (avail < total)
        break;
      if (!xa_wire_parse (data, total, side->in_fds->len, &header, &error))
        {
          client_close (client, error->message);
          return FALSE;
        }
      /* When the buffer itself went out with the message, the side
       * reads on into a fresh one. */
      start = handle_message (side, data, total, &header) ? 0 : start + total;
    }
  if (start > 0 && side->in != NULL)
    g_byte_array_remove_range (side->in, 0, start);
  /* What the messages of this read produced goes out together. */
  client->batching = FALSE;
  if (!client->closing && (!flush (&client->app) || !flush (&client->bus_side)))
    client_close (client, "write failed");
  return !client->closing;
}

/* --------------------------------------------------- authentication */

/* Our side of the handshake with the bus; once it agreed, the client's
 * own handshake may go on. */
static gboolean
authenticate_upstream (Client *client)
{
  g_autoptr(GByteArray) reply = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  gsize consumed = 0;
  XaSaslStatus status;

  status = xa_sasl_client_feed (client->sasl_client, client->bus_side.in->data,
                                client->bus_side.in->len, &consumed, reply, &error);
  g_byte_array_remove_range (client->bus_side.in, 0, consumed);
  if (reply->len > 0)
    send_bytes (&client->bus_side, reply->data, reply->len);
  if (status == XA_SASL_FAILED)
    {
      client_close (client, error->message);
      return FALSE;
    }
  if (status == XA_SASL_DONE)
    {
      client->unix_fds = xa_sasl_client_get_unix_fds (client->sasl_client);
      g_clear_pointer (&client->sasl_client, xa_sasl_client_free);
      client->app.reading = TRUE;
    }
  return TRUE;
}

static gboolean
authenticate_client (Client *client)
{
  g_autoptr(GByteArray) reply = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  gsize consumed = 0;
  XaSaslStatus status;

  status = xa_sasl_server_feed (client->sasl_server, client->app.in->data,
                                client->app.in->len, &consumed, reply, &error);
  g_byte_array_remove_range (client->app.in, 0, consumed);
  if (reply->len > 0)
    send_bytes (&client->app, reply->data, reply->len);
  if (status == XA_SASL_FAILED)
    {
      client_close (client, error->message);
      return FALSE;
    }
  if (status == XA_SASL_DONE)
    g_clear_pointer (&client->sasl_server, xa_sasl_server_free);
  return TRUE;
}

/* -------------------------------------------------------- the source */

static gboolean
handle_side (Client *client,
             Side *side)
{
  GIOCondition cond = g_source_query_unix_fd (&client->source, side->tag);

  if ((cond & G_IO_OUT) != 0 && !flush (side))
    {
      client_close (client, "write failed");
      return FALSE;
    }
  if ((cond & (G_IO_IN | G_IO_HUP | G_IO_ERR)) != 0 && side->reading)
    {
      if (!read_some (side))
        {
          client_close (client, side == &client->app ? "the client left" : "the bus left");
          return FALSE;
        }
      if (side == &client->bus_side && client->sasl_client != NULL)
        return authenticate_upstream (client) && (client->sasl_client != NULL ||
                                                  (client->sasl_server == NULL || authenticate_client (client)));
      if (side == &client->app && client->sasl_server != NULL)
        {
          /* The client's handshake waits for ours with the bus. */
          if (client->sasl_client != NULL)
            return TRUE;
          if (!authenticate_client (client))
            return FALSE;
          if (client->sasl_server != NULL)
            return TRUE;
        }
      if (!dispatch (side))
        return FALSE;
    }
  return TRUE;
}

static gboolean
client_dispatch (GSource *source,
                 GSourceFunc callback,
                 gpointer user_data)
{
  Client *client = (Client *) source;
  const XaBusProxyLimits *limits = &client->proxy->limits;
  gint64 now = g_get_monotonic_time ();

  if (!handle_side (client, &client->app) || !handle_side (client, &client->bus_side))
    return G_SOURCE_REMOVE;
  /* Messages held while the filter learned about names, now free. */
  if (client->sasl_server == NULL && client->app.in->len > 0 &&
      !xa_bus_filter_is_holding_client (client->filter) && !dispatch (&client->app))
    return G_SOURCE_REMOVE;
  if (client->app.full_since != 0 &&
      now - client->app.full_since > (gint64) limits->stall_seconds * G_USEC_PER_SEC)
    {
      client_close (client, "stopped reading with a full queue");
      return G_SOURCE_REMOVE;
    }
  update_conditions (client);
  /* While a queue is full, wake up to check the stall time. */
  g_source_set_ready_time (source, client->app.full_since != 0 ? now + G_USEC_PER_SEC : -1);
  return G_SOURCE_CONTINUE;
}

static void
client_finalize (GSource *source)
{
  Client *client = (Client *) source;

  side_clear (&client->app);
  side_clear (&client->bus_side);
  g_clear_pointer (&client->filter, xa_bus_filter_free);
  g_clear_pointer (&client->sasl_server, xa_sasl_server_free);
  g_clear_pointer (&client->sasl_client, xa_sasl_client_free);
}

static GSourceFuncs client_funcs = {
  .dispatch = client_dispatch,
  .finalize = client_finalize,
};

static void
client_close (Client *client,
              const char *why)
{
  if (client->closing)
    return;
  client->closing = TRUE;
  g_debug ("instance %s: client closed: %s", xa_instance_get_id (client->instance), why);
  xa_instance_remove_client (client->instance);
  if (client->registered)
    xa_broker_remove_connection (client->proxy->broker, client->bus,
                                 xa_bus_filter_get_unique_name (client->filter));
  g_hash_table_remove (client->proxy->clients, client);
  g_source_destroy (&client->source);
}

/* ---------------------------------------------------------- accepting */

static const char *
bus_address (XaBusProxy *self,
             XaInstanceBus bus)
{
  const XaBrokerOptions *options = xa_broker_get_options (self->broker);

  return bus == XA_INSTANCE_BUS_SYSTEM ? options->system_address : options->session_address;
}

/* A unix socket's sender holds the bytes in flight: with a larger send
 * buffer a large message crosses the broker in fewer turns of the loop.
 * The kernel caps it at net.core.wmem_max; failing is harmless. */
static void
grow_send_buffer (int fd)
{
  int size = SEND_BUFFER;

  (void) setsockopt (fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
}

static gboolean
peer_is_us (int fd)
{
  struct ucred cred;
  socklen_t len = sizeof cred;

  return getsockopt (fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == getuid ();
}

static void
on_accept (XaInstance *instance,
           XaInstanceBus bus,
           int fd,
           gpointer user_data)
{
  XaBusProxy *self = user_data;
  g_autoptr(XaBusRules) rules = NULL;
  g_autoptr(GError) error = NULL;
  Client *client;
  int upstream;

  /* The socket is in a 0700 directory of ours; a peer of another user
   * got it from us by mistake, and gets nothing. */
  if (!peer_is_us (fd))
    {
      (void) close (fd);
      return;
    }
  rules = xa_bus_rules_new_for_context (xa_instance_get_context (instance),
                                        bus == XA_INSTANCE_BUS_SYSTEM ? XA_BUS_SYSTEM : XA_BUS_SESSION,
                                        xa_instance_get_app_id (instance), &error);
  upstream = rules != NULL ? xa_wire_address_connect (bus_address (self, bus), &error) : -1;
  if (upstream < 0)
    {
      g_warning ("instance %s: %s", xa_instance_get_id (instance), error->message);
      (void) close (fd);
      return;
    }
  g_unix_set_fd_nonblocking (upstream, TRUE, NULL);
  grow_send_buffer (fd);
  grow_send_buffer (upstream);

  client = (Client *) g_source_new (&client_funcs, sizeof (Client));
  client->proxy = self;
  client->instance = instance;
  client->bus = bus;
  client->filter = xa_bus_filter_new (rules);
  client->sasl_server = xa_sasl_server_new (getuid (), TRUE);
  client->sasl_client = xa_sasl_client_new (getuid (), TRUE);
  side_init (&client->app, client, fd);
  side_init (&client->bus_side, client, upstream);
  client->app.tag = g_source_add_unix_fd (&client->source, fd, G_IO_IN);
  client->app.watching = G_IO_IN;
  client->bus_side.tag = g_source_add_unix_fd (&client->source, upstream, G_IO_IN);
  client->bus_side.watching = G_IO_IN;
  g_source_set_name (&client->source, "xdg-app bus client");
  /* GLib blocks a source that may not recurse while it dispatches: it
   * takes its fds out of the poll set and puts them back, four wakeups
   * of the loop per message.  Dispatch never runs the loop, so nothing
   * can recurse. */
  g_source_set_can_recurse (&client->source, TRUE);
  g_source_attach (&client->source, NULL);
  g_hash_table_insert (self->clients, client, instance);
  xa_instance_add_client (instance);

  /* Our handshake with the bus starts now; the client's waits for it. */
  {
    g_autoptr(GByteArray) hello = g_byte_array_new ();

    xa_sasl_client_start (client->sasl_client, hello);
    send_bytes (&client->bus_side, hello->data, hello->len);
  }
  g_source_unref (&client->source);
}

static void
on_instance_ended (XaBroker *broker,
                   XaInstance *instance,
                   gpointer user_data)
{
  XaBusProxy *self = user_data;
  g_autoptr(GPtrArray) doomed = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer client, owner;

  g_hash_table_iter_init (&iter, self->clients);
  while (g_hash_table_iter_next (&iter, &client, &owner))
    if (owner == instance)
      g_ptr_array_add (doomed, client);
  for (guint i = 0; i < doomed->len; i++)
    client_close (doomed->pdata[i], "the instance ended");
}

XaBusProxy *
xa_bus_proxy_new (XaBroker *broker,
                  const XaBusProxyLimits *limits)
{
  XaBusProxy *self = g_new0 (XaBusProxy, 1);

  self->broker = broker;
  self->limits = *limits;
  self->clients = g_hash_table_new (NULL, NULL);
  xa_broker_set_accept_func (broker, on_accept, self);
  xa_broker_add_ended_func (broker, on_instance_ended, self);
  return self;
}

void
xa_bus_proxy_free (XaBusProxy *self)
{
  g_autoptr(GList) clients = NULL;

  if (self == NULL)
    return;
  clients = g_hash_table_get_keys (self->clients);
  for (GList *l = clients; l != NULL; l = l->next)
    client_close (l->data, "the broker is stopping");
  xa_broker_remove_ended_func (self->broker, on_instance_ended, self);
  xa_broker_set_accept_func (self->broker, NULL, NULL);
  g_hash_table_unref (self->clients);
  g_free (self);
}
