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
 * Threads: the clients live in a thread of the proxy's own, which waits
 * on one epoll set for all their sockets and nothing else, so that a
 * message crosses the broker in three system calls (epoll_wait, recvmsg,
 * sendmsg) without the main loop's bookkeeping, and a slow call of the
 * broker's D-Bus service never holds up the traffic.  The main thread
 * hands new clients over (ADD) and has an instance's clients closed
 * before the instance is freed (END, which waits); of the rest of the
 * broker the proxy's thread touches only the connection table (locked,
 * broker/broker.c), the instances' client counts (atomic) and their
 * immutable ids and callers.
 *
 * Trusts: the bus daemon (framing of what it sends is still checked:
 * the client must never see a message we could not parse); the filter's
 * decisions. */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
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
/* Sockets reported ready per epoll_wait(). */
#define MAX_EVENTS 64

typedef struct _Client Client;

/* A message on its way out: one allocation with its link and, for a
 * copy, its bytes. */
typedef struct
{
  GList         link;         /* in the side's queue; data is itself */
  GBytes       *bytes;        /* NULL when the bytes are in copy[] */
  const guint8 *data;
  gsize         len;
  gsize         offset;       /* sent already */
  int          *fds;
  guint         n_fds;
  guint8        copy[];
} OutMessage;

typedef struct
{
  Client     *client;
  int         fd;
  guint32     watching;       /* epoll events asked for; 0: not in the set */
  GByteArray *in;             /* bytes read, not yet a whole message */
  GArray     *in_fds;         /* int: fds received, not yet claimed */
  GQueue      out;            /* OutMessage */
  gsize       out_bytes;
  gboolean    reading;        /* not paused by the other side's queue */
  gint64      full_since;     /* when out_bytes passed the high mark; 0 if not */
} Side;

struct _Client
{
  XaBusProxy   *proxy;
  XaInstance   *instance;     /* outlives the client: END waits for it */
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

typedef enum
{
  COMMAND_ADD,                /* start serving a client */
  COMMAND_END,                /* close an instance's clients */
  COMMAND_STOP,               /* close every client and leave */
} CommandKind;

typedef struct
{
  CommandKind kind;
  Client     *client;         /* ADD: taken */
  XaInstance *instance;       /* END */
  gboolean    done;           /* END, STOP: under the lock */
} Command;

struct _XaBusProxy
{
  XaBroker        *broker;
  XaBusProxyLimits limits;
  int              epoll_fd;
  int              wake_fd;     /* eventfd: commands are waiting */
  GThread         *thread;
  GMutex           lock;        /* commands and their done */
  GCond            done_cond;
  GQueue           commands;    /* Command */
  /* The proxy's thread only: */
  GHashTable      *clients;     /* Client *, a set */
  GPtrArray       *closed;      /* Client *, freed after the events at hand */
  gint64           next_stall_check;  /* 0: no client's queue is full */
  gboolean         stopping;
};

static void client_close (Client *client, const char *why);

static OutMessage *
out_message_new_bytes (GBytes *bytes)
{
  OutMessage *m = g_new0 (OutMessage, 1);

  m->link.data = m;
  m->bytes = bytes;
  m->data = g_bytes_get_data (bytes, &m->len);
  return m;
}

static OutMessage *
out_message_new_copy (const guint8 *data,
                      gsize len)
{
  OutMessage *m = g_malloc (sizeof (OutMessage) + len);

  memset (m, 0, sizeof *m);
  m->link.data = m;
  memcpy (m->copy, data, len);
  m->data = m->copy;
  m->len = len;
  return m;
}

static void
out_message_free (OutMessage *m)
{
  for (guint i = 0; i < m->n_fds; i++)
    (void) close (m->fds[i]);
  g_free (m->fds);
  g_clear_pointer (&m->bytes, g_bytes_unref);
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
  if (side->watching != 0)
    (void) epoll_ctl (side->client->proxy->epoll_fd, EPOLL_CTL_DEL, side->fd, NULL);
  side->watching = 0;
  for (guint i = 0; side->in_fds != NULL && i < side->in_fds->len; i++)
    (void) close (g_array_index (side->in_fds, int, i));
  g_clear_pointer (&side->in_fds, g_array_unref);
  g_clear_pointer (&side->in, g_byte_array_unref);
  while (!g_queue_is_empty (&side->out))
    out_message_free (g_queue_pop_head_link (&side->out)->data);
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

/* Asks epoll for what each side waits for now.  A side that waits for
 * nothing leaves the set: epoll reports a hang-up even unasked, and a
 * paused side must not spin the loop. */
static void
update_conditions (Client *client)
{
  Side *sides[] = { &client->app, &client->bus_side };

  for (gsize i = 0; i < G_N_ELEMENTS (sides); i++)
    {
      Side *side = sides[i];
      struct epoll_event event = { .data.ptr = side };
      int op;

      if (side->reading)
        event.events |= EPOLLIN;
      if (!g_queue_is_empty (&side->out))
        event.events |= EPOLLOUT;
      if (event.events == side->watching)
        continue;
      if (event.events == 0)
        op = EPOLL_CTL_DEL;
      else
        op = side->watching == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
      if (epoll_ctl (client->proxy->epoll_fd, op, side->fd, &event) != 0)
        {
          client_close (client, g_strerror (errno));
          return;
        }
      side->watching = event.events;
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
      /* A client that stops reading is checked on after the stall time. */
      if (side == &side->client->app && side->client->proxy->next_stall_check == 0)
        side->client->proxy->next_stall_check =
          side->full_since + (gint64) limits->stall_seconds * G_USEC_PER_SEC;
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
      gsize left = m->len - m->offset;
      gsize used = MIN (n, left);

      m->offset += used;
      side->out_bytes -= used;
      n -= used;
      if (used == left)
        out_message_free (g_queue_pop_head_link (&side->out)->data);
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

          /* Fds travel with the first byte of their message, so a
           * message with fds starts a batch of its own. */
          if (msg.msg_iovlen > 0 && m->n_fds > 0)
            break;
          iov[msg.msg_iovlen].iov_base = (void *) (m->data + m->offset);
          iov[msg.msg_iovlen].iov_len = m->len - m->offset;
          total += m->len - m->offset;
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

/* Queues @m (taken) for @side and writes at once when it can and is
 * not collecting a batch: most messages never wait in a queue. */
static void
send_message (Side *side,
              OutMessage *m)
{
  g_queue_push_tail_link (&side->out, &m->link);
  side->out_bytes += m->len;
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
  send_message (side, out_message_new_copy (data, len));
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

/* Takes @n fds from the front of @side's received fds; NULL for none. */
static int *
take_fds (Side *side,
          guint n)
{
  int *fds;

  if (n == 0)
    return NULL;
  fds = g_new (int, n);
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
  OutMessage *out;
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
          out = out_message_new_bytes (g_byte_array_free_to_bytes (whole));
          took_buffer = TRUE;
        }
      else
        out = out_message_new_copy (data, len);
      out->fds = g_steal_pointer (&fds);
      out->n_fds = header->n_unix_fds;
      send_message (to, out);
      break;
    case XA_BUS_FILTER_REPLACE:
      send_message (to, out_message_new_bytes (g_steal_pointer (&replacement)));
      break;
    case XA_BUS_FILTER_ANSWER:
      send_message (from, out_message_new_bytes (g_steal_pointer (&replacement)));
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
    send_message (&client->bus_side, out_message_new_bytes (own));
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

/* --------------------------------------------------------- events */

/* What epoll reported for one side of a client. */
static void
client_ready (Client *client,
              Side *side,
              guint32 events)
{
  if ((events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) != 0 && !flush (side))
    {
      client_close (client, "write failed");
      return;
    }
  if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0 && side->reading)
    {
      if (!read_some (side))
        {
          client_close (client, side == &client->app ? "the client left" : "the bus left");
          return;
        }
      if (side == &client->bus_side && client->sasl_client != NULL)
        {
          if (!authenticate_upstream (client))
            return;
          if (client->sasl_client == NULL && client->sasl_server != NULL &&
              !authenticate_client (client))
            return;
        }
      else if (side == &client->app && client->sasl_server != NULL)
        {
          /* The client's handshake waits for ours with the bus. */
          if (client->sasl_client == NULL && !authenticate_client (client))
            return;
        }
      else if (!dispatch (side))
        return;
    }
  /* Messages held while the filter learned about names, now free. */
  if (client->sasl_server == NULL && client->app.in->len > 0 &&
      !xa_bus_filter_is_holding_client (client->filter) && !dispatch (&client->app))
    return;
  update_conditions (client);
}

static void
client_free (Client *client)
{
  side_clear (&client->app);
  side_clear (&client->bus_side);
  g_clear_pointer (&client->filter, xa_bus_filter_free);
  g_clear_pointer (&client->sasl_server, xa_sasl_server_free);
  g_clear_pointer (&client->sasl_client, xa_sasl_client_free);
  g_free (client);
}

/* Ends @client at once for everybody else; its memory goes after the
 * events at hand, some of which may still name it. */
static void
client_close (Client *client,
              const char *why)
{
  XaBusProxy *self = client->proxy;

  if (client->closing)
    return;
  client->closing = TRUE;
  g_debug ("instance %s: client closed: %s", xa_instance_get_id (client->instance), why);
  if (client->registered)
    xa_broker_remove_connection (self->broker, client->bus,
                                 xa_bus_filter_get_unique_name (client->filter));
  xa_instance_remove_client (client->instance);
  g_hash_table_remove (self->clients, client);
  g_ptr_array_add (self->closed, client);
}

/* Drops clients whose queue has been full for longer than the stall
 * time, and says when to look again. */
static void
check_stalls (XaBusProxy *self)
{
  gint64 stall = (gint64) self->limits.stall_seconds * G_USEC_PER_SEC;
  g_autoptr(GPtrArray) stalled = NULL;
  GHashTableIter iter;
  gpointer key;
  gint64 now;

  if (self->next_stall_check == 0)
    return;
  now = g_get_monotonic_time ();
  if (now < self->next_stall_check)
    return;
  self->next_stall_check = 0;
  stalled = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->clients);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      Client *client = key;
      gint64 due = client->app.full_since + stall;

      if (client->app.full_since == 0)
        continue;
      if (due <= now)
        g_ptr_array_add (stalled, client);
      else if (self->next_stall_check == 0 || due < self->next_stall_check)
        self->next_stall_check = due;
    }
  for (guint i = 0; i < stalled->len; i++)
    client_close (stalled->pdata[i], "stopped reading with a full queue");
}

/* -------------------------------------------------------- commands */

static void
command_done (XaBusProxy *self,
              Command *command)
{
  g_mutex_lock (&self->lock);
  command->done = TRUE;
  g_cond_broadcast (&self->done_cond);
  g_mutex_unlock (&self->lock);
}

static void
client_start (Client *client)
{
  XaBusProxy *self = client->proxy;
  g_autoptr(GByteArray) hello = g_byte_array_new ();

  g_hash_table_add (self->clients, client);
  /* Our handshake with the bus starts now; the client's waits for it. */
  xa_sasl_client_start (client->sasl_client, hello);
  send_bytes (&client->bus_side, hello->data, hello->len);
  if (!client->closing)
    update_conditions (client);
}

/* Closes the clients of @instance, or every client when it is NULL. */
static void
close_clients_of (XaBusProxy *self,
                  XaInstance *instance,
                  const char *why)
{
  g_autoptr(GPtrArray) doomed = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->clients);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (instance == NULL || ((Client *) key)->instance == instance)
      g_ptr_array_add (doomed, key);
  for (guint i = 0; i < doomed->len; i++)
    client_close (doomed->pdata[i], why);
}

static void
run_commands (XaBusProxy *self)
{
  guint64 count;
  Command *command;

  (void) read (self->wake_fd, &count, sizeof count);
  for (;;)
    {
      g_mutex_lock (&self->lock);
      command = g_queue_pop_head (&self->commands);
      g_mutex_unlock (&self->lock);
      if (command == NULL)
        return;
      switch (command->kind)
        {
        case COMMAND_ADD:
          client_start (command->client);
          g_free (command);
          break;
        case COMMAND_STOP:
          self->stopping = TRUE;
          close_clients_of (self, NULL, "the broker is stopping");
          command_done (self, command);
          break;
        case COMMAND_END:
        default:
          close_clients_of (self, command->instance, "the instance ended");
          command_done (self, command);
          break;
        }
    }
}

/* Queues @command for the proxy's thread; for END and STOP, returns
 * when it has been carried out. */
static void
post_command (XaBusProxy *self,
              Command *command)
{
  const guint64 one = 1;
  /* An ADD is the thread's as soon as it is queued. */
  gboolean wait = command->kind != COMMAND_ADD;

  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->commands, command);
  g_mutex_unlock (&self->lock);
  (void) write (self->wake_fd, &one, sizeof one);
  if (!wait)
    return;
  g_mutex_lock (&self->lock);
  while (!command->done)
    g_cond_wait (&self->done_cond, &self->lock);
  g_mutex_unlock (&self->lock);
}

/* ----------------------------------------------------------- thread */

static gpointer
proxy_thread (gpointer user_data)
{
  XaBusProxy *self = user_data;

  while (!self->stopping)
    {
      struct epoll_event events[MAX_EVENTS];
      int timeout = -1;
      int n;

      if (self->next_stall_check != 0)
        timeout = (int) CLAMP ((self->next_stall_check - g_get_monotonic_time () + 999) / 1000,
                               0, G_MAXINT);
      n = epoll_wait (self->epoll_fd, events, G_N_ELEMENTS (events), timeout);
      if (n < 0 && errno != EINTR)
        g_error ("epoll_wait: %s", g_strerror (errno));
      for (int i = 0; i < n; i++)
        {
          Side *side = events[i].data.ptr;

          if (side == NULL)
            run_commands (self);
          else if (!side->client->closing)
            client_ready (side->client, side, events[i].events);
        }
      check_stalls (self);
      for (guint i = 0; i < self->closed->len; i++)
        client_free (self->closed->pdata[i]);
      g_ptr_array_set_size (self->closed, 0);
    }
  return NULL;
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
  Command *command;
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

  client = g_new0 (Client, 1);
  client->proxy = self;
  client->instance = instance;
  client->bus = bus;
  client->filter = xa_bus_filter_new (rules);
  client->sasl_server = xa_sasl_server_new (getuid (), TRUE);
  client->sasl_client = xa_sasl_client_new (getuid (), TRUE);
  side_init (&client->app, client, fd);
  side_init (&client->bus_side, client, upstream);
  xa_instance_add_client (instance);

  command = g_new0 (Command, 1);
  command->kind = COMMAND_ADD;
  command->client = client;
  post_command (self, command);
}

static void
on_instance_ended (XaBroker *broker,
                   XaInstance *instance,
                   gpointer user_data)
{
  XaBusProxy *self = user_data;
  Command command = { .kind = COMMAND_END, .instance = instance };

  post_command (self, &command);
}

XaBusProxy *
xa_bus_proxy_new (XaBroker *broker,
                  const XaBusProxyLimits *limits)
{
  XaBusProxy *self = g_new0 (XaBusProxy, 1);
  struct epoll_event wake = { .events = EPOLLIN, .data.ptr = NULL };

  self->broker = broker;
  self->limits = *limits;
  self->clients = g_hash_table_new (NULL, NULL);
  self->closed = g_ptr_array_new ();
  g_mutex_init (&self->lock);
  g_cond_init (&self->done_cond);
  g_queue_init (&self->commands);
  self->epoll_fd = epoll_create1 (EPOLL_CLOEXEC);
  self->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (self->epoll_fd < 0 || self->wake_fd < 0 ||
      epoll_ctl (self->epoll_fd, EPOLL_CTL_ADD, self->wake_fd, &wake) != 0)
    g_error ("cannot make the proxy's epoll set: %s", g_strerror (errno));
  self->thread = g_thread_new ("xdg-app-bus", proxy_thread, self);
  xa_broker_set_accept_func (broker, on_accept, self);
  xa_broker_add_ended_func (broker, on_instance_ended, self);
  return self;
}

void
xa_bus_proxy_free (XaBusProxy *self)
{
  Command stop = { .kind = COMMAND_STOP };

  if (self == NULL)
    return;
  xa_broker_remove_ended_func (self->broker, on_instance_ended, self);
  xa_broker_set_accept_func (self->broker, NULL, NULL);
  post_command (self, &stop);
  g_thread_join (self->thread);
  for (guint i = 0; i < self->closed->len; i++)
    client_free (self->closed->pdata[i]);
  g_ptr_array_unref (self->closed);
  g_hash_table_unref (self->clients);
  (void) close (self->wake_fd);
  (void) close (self->epoll_fd);
  g_cond_clear (&self->done_cond);
  g_mutex_clear (&self->lock);
  g_free (self);
}
