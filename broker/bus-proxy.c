/* broker/bus-proxy.c — see bus-proxy.h.
 *
 * Enforces: the client speaks to the broker, never to the bus: the broker
 * ends the client's authentication itself (SASL EXTERNAL, the peer's uid
 * from SO_PEERCRED must be ours), opens its own connection to the bus,
 * and passes on only whole messages that wire/message.c found valid and
 * the client's XaBusFilter let through.  An invalid message, an fd count
 * that does not add up, a serial in the filter's range or a socket to
 * the client left full for too long drops that client only.  An
 * instance has at most the limits' number of connections at once, since
 * each costs two threads.  The client's unique name goes into the broker's table (caller identity,
 * broker/identity.c) as soon as the bus answers its Hello, before
 * anything else of the client's is forwarded, and leaves it when the
 * client is closed.  Memory is bounded: a thread reads at most one batch
 * (or one whole message) and passes it on before it reads again, so a
 * flood waits in the kernel and in the bus daemon, not here.
 *
 * Threads: every client has two threads of its own, one per direction,
 * each blocking in recvmsg() on the socket it reads: a message crosses
 * the broker in two system calls (recvmsg, sendmsg) and wakes one
 * thread, with no event loop in between (an epoll loop cost 5-12 µs
 * more per round trip on benchmarks/broker-bus), and one client's slow
 * peer never holds up another client.  The two threads share the
 * client's filter and output queues under the client's lock; a socket's
 * queue goes out in the order it was filled, written by whichever thread
 * holds that socket's write lock.  While the client has many calls in
 * flight its threads give way on wakeup and so batch (see
 * BATCH_FROM_PENDING); otherwise they run at once.  Closing a client
 * shuts both sockets down, which ends both threads' blocking calls; the
 * last thread out frees it.  Of the rest of the broker the threads touch only the
 * connection table (locked, broker/broker.c) and the instance (its ids
 * and client count), and those only under the client's lock while the
 * client is open: an instance's end closes its clients under that same
 * lock (END), so once it has returned no thread reaches the instance.
 *
 * Trusts: the bus daemon (framing of what it sends is still checked:
 * the client must never see a message we could not parse; a bus that
 * stops reading is waited for); the filter's decisions. */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <gio/gio.h>
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
/* Messages per sendmsg(): a pipelining client's burst goes out in one
 * call instead of one per message. */
#define MAX_BATCH 64
#define SEND_BUFFER (1024 * 1024)
/* The threads' stacks: the deepest they go is the parser's nesting
 * limit, a few KiB; the default would reserve 8 MiB each. */
#define THREAD_STACK (512 * 1024)
/* A client with this many calls in flight is not waiting on any one of
 * them: its two threads then leave the thread that woke them to run on
 * (SCHED_BATCH, which never preempts on a wakeup), and so take several
 * calls or replies per read and per write instead of one each.  With
 * at most BATCH_UNTIL_PENDING in flight the client is waiting, and the
 * threads run as soon as they can.  Measured with bus-bench on two
 * cores: batching always cost 7 µs per sequential round trip; never
 * batching, about 0.05-0.08 of the rate with 64 calls in flight. */
#define BATCH_FROM_PENDING 8
#define BATCH_UNTIL_PENDING 2

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
  /* The thread that reads this side only: */
  GByteArray *in;             /* bytes read, not yet a whole message */
  GArray     *in_fds;         /* int: fds received, not yet claimed */
  /* Under the client's lock; only the write lock's holder takes from
   * the front: */
  GQueue      out;            /* OutMessage */
  /* The write lock's holder only: */
  GMutex      write_lock;
  gint64      full_since;     /* the socket has been full since; 0 if not */
  /* The reading thread only: */
  gboolean    batching;       /* it is SCHED_BATCH now */
} Side;

struct _Client
{
  XaBusProxy   *proxy;
  XaInstance   *instance;     /* only under lock while !closing: END closes first */
  XaInstanceBus bus;
  gint          ref_count;    /* atomic: one per thread, and END's while it works */
  GMutex        lock;
  GCond         released;     /* the filter let go of the client, or it closed */
  /* Under lock: */
  XaBusFilter  *filter;
  gboolean      registered;   /* its unique name is in the broker's table */
  gboolean      closing;
  gboolean      waiting;      /* the client's thread waits on released */
  /* The client's thread, until both handshakes are done: */
  XaSaslServer *sasl_server;  /* the client's authentication, once ours is done */
  XaSaslClient *sasl_client;  /* ours to the bus */
  Side          app;          /* the sandboxed client */
  Side          bus_side;     /* our connection to the real bus */
};

struct _XaBusProxy
{
  XaBroker        *broker;
  XaBusProxyLimits limits;
  GMutex           lock;
  GCond            gone;      /* a client was freed */
  GHashTable      *clients;   /* Client *, a set: every one not yet freed */
};

/* ---------------------------------------------------------- messages */

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

/* ------------------------------------------------------------ clients */

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
  g_mutex_init (&side->write_lock);
}

static void
side_clear (Side *side)
{
  for (guint i = 0; i < side->in_fds->len; i++)
    (void) close (g_array_index (side->in_fds, int, i));
  g_array_unref (side->in_fds);
  g_byte_array_unref (side->in);
  while (!g_queue_is_empty (&side->out))
    out_message_free (g_queue_pop_head_link (&side->out)->data);
  g_mutex_clear (&side->write_lock);
  (void) close (side->fd);
}

static Side *
other_side (Side *side)
{
  Client *client = side->client;

  return side == &client->app ? &client->bus_side : &client->app;
}

/* A reference for END, unless the client's last thread is already
 * freeing it.  With the proxy's lock held. */
static gboolean
client_try_ref (Client *client)
{
  gint old;

  do
    {
      old = g_atomic_int_get (&client->ref_count);
      if (old == 0)
        return FALSE;
    }
  while (!g_atomic_int_compare_and_exchange (&client->ref_count, old, old + 1));
  return TRUE;
}

static void
client_unref (Client *client)
{
  XaBusProxy *self = client->proxy;

  if (!g_atomic_int_dec_and_test (&client->ref_count))
    return;
  side_clear (&client->app);
  side_clear (&client->bus_side);
  g_clear_pointer (&client->filter, xa_bus_filter_free);
  g_clear_pointer (&client->sasl_server, xa_sasl_server_free);
  g_clear_pointer (&client->sasl_client, xa_sasl_client_free);
  g_cond_clear (&client->released);
  g_mutex_clear (&client->lock);
  /* Last: once the set is empty the proxy may go. */
  g_mutex_lock (&self->lock);
  g_hash_table_remove (self->clients, client);
  g_cond_broadcast (&self->gone);
  g_mutex_unlock (&self->lock);
  g_free (client);
  /* malloc keeps a flood's and a large message's freed buffers unless
   * asked: a client that has gone leaves nothing behind. */
  malloc_trim (0);
}

/* Ends @client for everybody else: out of the connection table and the
 * instance's count, both sockets shut down so that its threads'
 * blocking calls return.  With the client's lock held. */
static void
client_close_locked (Client *client,
                     const char *why)
{
  if (client->closing)
    return;
  client->closing = TRUE;
  g_debug ("instance %s: client closed: %s", xa_instance_get_id (client->instance), why);
  if (client->registered)
    xa_broker_remove_connection (client->proxy->broker, client->bus,
                                 xa_bus_filter_get_unique_name (client->filter));
  xa_instance_remove_client (client->instance);
  (void) shutdown (client->app.fd, SHUT_RDWR);
  (void) shutdown (client->bus_side.fd, SHUT_RDWR);
  if (client->waiting)
    g_cond_broadcast (&client->released);
}

static void
client_close (Client *client,
              const char *why)
{
  g_mutex_lock (&client->lock);
  client_close_locked (client, why);
  g_mutex_unlock (&client->lock);
}

/* ------------------------------------------------------------ output */

/* Queues @m (taken) for @side.  With the client's lock held. */
static void
enqueue (Side *side,
         OutMessage *m)
{
  g_queue_push_tail_link (&side->out, &m->link);
}

/* Drops @n bytes that went out from the front of @side's queue.  With
 * the client's lock and @side's write lock held. */
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
      n -= used;
      if (used == left)
        out_message_free (g_queue_pop_head_link (&side->out)->data);
    }
}

/* Waits until @side's socket takes more.  The client's socket may stay
 * full for the stall time, counted from when it filled; the bus's as
 * long as it takes.  With @side's write lock held. */
static gboolean
wait_writable (Side *side,
               GError **error)
{
  Client *client = side->client;
  struct pollfd pfd = { .fd = side->fd, .events = POLLOUT };
  int timeout = -1;
  int n;

  if (side == &client->app)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 due;

      if (side->full_since == 0)
        side->full_since = now;
      due = side->full_since + (gint64) client->proxy->limits.stall_seconds * G_USEC_PER_SEC;
      if (now >= due)
        goto stalled;
      timeout = (int) MIN ((due - now + 999) / 1000, G_MAXINT);
    }
  n = poll (&pfd, 1, timeout);
  if (n == 0)
    goto stalled;
  if (n < 0 && errno != EINTR)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "poll: %s", g_strerror (errno));
      return FALSE;
    }
  if ((pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "write failed");
      return FALSE;
    }
  return TRUE;

stalled:
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "stopped reading with a full socket");
  return FALSE;
}

/* Writes @side's queue, in order, several messages per sendmsg(), until
 * it is empty; other threads may add to it meanwhile. */
static gboolean
flush (Side *side,
       GError **error)
{
  Client *client = side->client;
  gboolean ok = TRUE;

  g_mutex_lock (&side->write_lock);
  while (ok)
    {
      struct iovec iov[MAX_BATCH];
      union { struct cmsghdr align; char buf[CMSG_SPACE (sizeof (int) * 253)]; } control;
      struct msghdr msg = { .msg_iov = iov };
      OutMessage *first;
      ssize_t n;

      g_mutex_lock (&client->lock);
      first = g_queue_peek_head (&side->out);
      if (first == NULL)
        {
          g_mutex_unlock (&client->lock);
          side->full_since = 0;
          break;
        }
      for (GList *l = side->out.head; l != NULL && msg.msg_iovlen < MAX_BATCH; l = l->next)
        {
          OutMessage *m = l->data;

          /* Fds travel with the first byte of their message, so a
           * message with fds starts a batch of its own. */
          if (msg.msg_iovlen > 0 && m->n_fds > 0)
            break;
          iov[msg.msg_iovlen].iov_base = (void *) (m->data + m->offset);
          iov[msg.msg_iovlen].iov_len = m->len - m->offset;
          msg.msg_iovlen++;
        }
      g_mutex_unlock (&client->lock);
      /* The messages in iov[] stay: only this thread takes from the
       * front of the queue. */
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
        {
          if (errno == EAGAIN)
            ok = wait_writable (side, error);
          else if (errno != EINTR)
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "write failed");
              ok = FALSE;
            }
          continue;
        }
      g_mutex_lock (&client->lock);
      if (msg.msg_control != NULL)
        {
          for (guint i = 0; i < first->n_fds; i++)
            (void) close (first->fds[i]);
          first->n_fds = 0;
        }
      consume (side, n);
      g_mutex_unlock (&client->lock);
    }
  g_mutex_unlock (&side->write_lock);
  return ok;
}

/* Queues a copy of @data for @side and writes it out. */
static gboolean
send_bytes (Side *side,
            const guint8 *data,
            gsize len,
            GError **error)
{
  g_mutex_lock (&side->client->lock);
  enqueue (side, out_message_new_copy (data, len));
  g_mutex_unlock (&side->client->lock);
  return flush (side, error);
}

/* ------------------------------------------------------------- input */

/* How much to ask for: the rest of the message being read when its
 * length is known (one large message, one read), else a chunk. */
static gsize
wanted (Side *side)
{
  Client *client = side->client;
  gsize total = 0;

  if (client->sasl_server == NULL && client->sasl_client == NULL &&
      side->in->len >= XA_WIRE_FIXED_HEADER_SIZE &&
      xa_wire_peek_length (side->in->data, side->in->len, MAX_MESSAGE, &total, NULL) &&
      total > side->in->len + READ_CHUNK)
    return total - side->in->len;
  return READ_CHUNK;
}

/* Waits for bytes on @side and reads what there is, up to a batch (a
 * longer message takes several calls); FALSE at end of file or on
 * error. */
static gboolean
read_some (Side *side,
           GError **error)
{
  Client *client = side->client;
  gsize budget = MAX (client->proxy->limits.batch_bytes, 1);
  int flags = MSG_CMSG_CLOEXEC;

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
      n = recvmsg (side->fd, &msg, flags);
      g_byte_array_set_size (side->in, old_len + MAX (n, 0));
      if (n < 0 && errno == EINTR)
        continue;
      /* After the first read, only what is there already. */
      if (n < 0 && errno == EAGAIN && (flags & MSG_DONTWAIT) != 0)
        break;
      if (n <= 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                               side == &client->app ? "the client left" : "the bus left");
          return FALSE;
        }
      for (struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg); cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
          {
            guint count = (cmsg->cmsg_len - CMSG_LEN (0)) / sizeof (int);

            g_array_append_vals (side->in_fds, CMSG_DATA (cmsg), count);
          }
      if (side->in_fds->len > MAX_FDS_QUEUED || (msg.msg_flags & MSG_CTRUNC) != 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "too many fds");
          return FALSE;
        }
      /* Fds arrive with the first byte of their message: stop there, so
       * that they are matched with the right one. */
      if ((gsize) n < want || side->in_fds->len > 0)
        break;
      budget -= n;
      flags |= MSG_DONTWAIT;
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

/* Runs one message past the filter and queues what comes of it; TRUE
 * when @from's buffer itself went with it (and @from has a fresh one).
 * With the client's lock held. */
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
      enqueue (to, out);
      break;
    case XA_BUS_FILTER_REPLACE:
      enqueue (to, out_message_new_bytes (g_steal_pointer (&replacement)));
      break;
    case XA_BUS_FILTER_ANSWER:
      enqueue (from, out_message_new_bytes (g_steal_pointer (&replacement)));
      break;
    case XA_BUS_FILTER_DISCONNECT:
      client_close_locked (client, error != NULL ? error->message : "refused");
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
  while ((own = xa_bus_filter_pop_outgoing (client->filter)) != NULL)
    enqueue (&client->bus_side, out_message_new_bytes (own));
  return took_buffer;
}

/* Writes out what the messages of a batch queued, on both sides. */
static gboolean
flush_both (Client *client,
            GError **error)
{
  return flush (&client->bus_side, error) && flush (&client->app, error);
}

/* Batches @side's messages while the client has many calls in flight
 * (see BATCH_FROM_PENDING).  In the thread that reads @side. */
static void
pace (Side *side,
      guint pending)
{
  struct sched_param param = { 0 };
  gboolean batching = side->batching;

  if (pending >= BATCH_FROM_PENDING)
    batching = TRUE;
  else if (pending <= BATCH_UNTIL_PENDING)
    batching = FALSE;
  if (batching == side->batching)
    return;
  /* Either policy is open to any thread at the same nice value; should
   * the call fail all the same, it is not tried again on every read. */
  (void) pthread_setschedparam (pthread_self (), batching ? SCHED_BATCH : SCHED_OTHER, &param);
  side->batching = batching;
}

/* Passes on every whole message in @side's buffer.  The client's
 * messages wait while the filter waits for the bus's answers to
 * questions of its own, which go out first. */
static gboolean
dispatch (Side *side,
          GError **error)
{
  Client *client = side->client;
  gsize start = 0;
  gboolean ok = TRUE;
  guint pending;

  g_mutex_lock (&client->lock);
  while (ok && !client->closing)
    {
      const guint8 *data = side->in->data + start;
      gsize avail = side->in->len - start;
      XaWireHeader header;
      gsize total = 0;

      if (side == &client->app && xa_bus_filter_is_holding_client (client->filter))
        {
          g_mutex_unlock (&client->lock);
          ok = flush_both (client, error);
          g_mutex_lock (&client->lock);
          client->waiting = TRUE;
          while (ok && !client->closing && xa_bus_filter_is_holding_client (client->filter))
            g_cond_wait (&client->released, &client->lock);
          client->waiting = FALSE;
          continue;
        }
      if (avail < XA_WIRE_FIXED_HEADER_SIZE)
        break;
      if (!xa_wire_peek_length (data, avail, MAX_MESSAGE, &total, error))
        ok = FALSE;
      else if (avail < total)
        break;
      else if (!xa_wire_parse (data, total, side->in_fds->len, &header, error))
        ok = FALSE;
      /* When the buffer itself went out with the message, the side
       * reads on into a fresh one. */
      else
        start = handle_message (side, data, total, &header) ? 0 : start + total;
    }
  /* The client's thread may be waiting for what the bus just said. */
  if (side == &client->bus_side && client->waiting)
    g_cond_broadcast (&client->released);
  if (client->closing && ok)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, "closed");
      ok = FALSE;
    }
  pending = xa_bus_filter_get_n_pending (client->filter);
  g_mutex_unlock (&client->lock);
  if (start > 0)
    g_byte_array_remove_range (side->in, 0, start);
  pace (side, pending);
  return ok && flush_both (client, error);
}

/* ---------------------------------------------------------- threads */

/* Reads @side's handshake until it is done, answering as it goes: ours
 * with the bus on the bus's side, the client's with us on its own. */
static gboolean
handshake (Side *side,
           GError **error)
{
  Client *client = side->client;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  XaSaslStatus status;

  do
    {
      gsize consumed = 0;

      if (!read_some (side, error))
        return FALSE;
      g_byte_array_set_size (out, 0);
      if (side == &client->bus_side)
        status = xa_sasl_client_feed (client->sasl_client, side->in->data, side->in->len,
                                      &consumed, out, error);
      else
        status = xa_sasl_server_feed (client->sasl_server, side->in->data, side->in->len,
                                      &consumed, out, error);
      g_byte_array_remove_range (side->in, 0, consumed);
      if (out->len > 0 && !send_bytes (side, out->data, out->len, error))
        return FALSE;
    }
  while (status == XA_SASL_CONTINUE);
  return status == XA_SASL_DONE;
}

/* Both handshakes, in the client's thread: ours with the bus first; the
 * client's waits for it, so that it is not told yes before the bus
 * said so.  Bytes after either are messages, left in the side's buffer. */
static gboolean
authenticate (Client *client,
              GError **error)
{
  g_autoptr(GByteArray) hello = g_byte_array_new ();

  xa_sasl_client_start (client->sasl_client, hello);
  if (!send_bytes (&client->bus_side, hello->data, hello->len, error) ||
      !handshake (&client->bus_side, error))
    return FALSE;
  /* The client may pass fds only if the bus takes them from us. */
  client->sasl_server = xa_sasl_server_new (getuid (),
                                            xa_sasl_client_get_unix_fds (client->sasl_client));
  g_clear_pointer (&client->sasl_client, xa_sasl_client_free);
  if (!handshake (&client->app, error))
    return FALSE;
  g_clear_pointer (&client->sasl_server, xa_sasl_server_free);
  return TRUE;
}

/* Reads @side and passes its messages on until the client goes. */
static void
pass_on (Side *side,
         GError **error)
{
  /* Bytes that came with the end of a handshake go first. */
  while (dispatch (side, error) && read_some (side, error))
    ;
}

static gboolean start_thread (Client *client, void *(*func) (void *));

/* Ends the thread's part in @client, saying why it went. */
static void *
thread_done (Client *client,
             const GError *error)
{
  client_close (client, error != NULL ? error->message : "refused");
  client_unref (client);
  return NULL;
}

/* The bus's messages to the client. */
static void *
bus_thread (void *data)
{
  Client *client = data;
  g_autoptr(GError) error = NULL;

  (void) pthread_setname_np (pthread_self (), "xdg-app-bus");
  pass_on (&client->bus_side, &error);
  return thread_done (client, error);
}

/* The client's handshakes, then its messages to the bus. */
static void *
client_thread (void *data)
{
  Client *client = data;
  g_autoptr(GError) error = NULL;

  (void) pthread_setname_np (pthread_self (), "xdg-app-bus");
  if (!authenticate (client, &error))
    ;
  else if (!start_thread (client, bus_thread))
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot start a thread");
  else
    pass_on (&client->app, &error);
  return thread_done (client, error);
}

/* Starts @func on @client in a thread that holds a reference of its
 * own and takes no signals: they are the main loop's. */
static gboolean
start_thread (Client *client,
              void *(*func) (void *))
{
  pthread_attr_t attr;
  pthread_t thread;
  sigset_t all, old;
  int r;

  g_atomic_int_inc (&client->ref_count);
  sigfillset (&all);
  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, THREAD_STACK);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  pthread_sigmask (SIG_BLOCK, &all, &old);
  r = pthread_create (&thread, &attr, func, client);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_attr_destroy (&attr);
  if (r != 0)
    {
      g_warning ("cannot start a thread: %s", g_strerror (r));
      client_unref (client);
      return FALSE;
    }
  return TRUE;
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

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->clients);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if ((instance == NULL || ((Client *) key)->instance == instance) && client_try_ref (key))
      g_ptr_array_add (doomed, key);
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < doomed->len; i++)
    {
      client_close (doomed->pdata[i], why);
      client_unref (doomed->pdata[i]);
    }
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
 * buffer a large message crosses the broker in fewer turns.  The kernel
 * caps it at net.core.wmem_max; failing is harmless. */
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
  /* Every connection costs two threads: an app may not have the broker
   * start them without end.  Only this thread adds to the count. */
  if (xa_instance_get_n_clients (instance) >= self->limits.max_clients)
    {
      g_debug ("instance %s: a connection past %u refused", xa_instance_get_id (instance),
               self->limits.max_clients);
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
  /* The threads block in recvmsg(); their writes ask not to. */
  g_unix_set_fd_nonblocking (fd, FALSE, NULL);
  g_unix_set_fd_nonblocking (upstream, FALSE, NULL);
  grow_send_buffer (fd);
  grow_send_buffer (upstream);

  client = g_new0 (Client, 1);
  client->proxy = self;
  client->instance = instance;
  client->bus = bus;
  /* on_accept's own, until the thread holds one. */
  client->ref_count = 1;
  g_mutex_init (&client->lock);
  g_cond_init (&client->released);
  client->filter = xa_bus_filter_new (rules);
  client->sasl_client = xa_sasl_client_new (getuid (), TRUE);
  side_init (&client->app, client, fd);
  side_init (&client->bus_side, client, upstream);
  xa_instance_add_client (instance);
  /* In the set before its thread runs, so that END finds it. */
  g_mutex_lock (&self->lock);
  g_hash_table_add (self->clients, client);
  g_mutex_unlock (&self->lock);
  if (!start_thread (client, client_thread))
    client_close (client, "no thread");
  client_unref (client);
}

static void
on_instance_ended (XaBroker *broker,
                   XaInstance *instance,
                   gpointer user_data)
{
  close_clients_of (user_data, instance, "the instance ended");
}

XaBusProxy *
xa_bus_proxy_new (XaBroker *broker,
                  const XaBusProxyLimits *limits)
{
  XaBusProxy *self = g_new0 (XaBusProxy, 1);

  self->broker = broker;
  self->limits = *limits;
  self->clients = g_hash_table_new (NULL, NULL);
  g_mutex_init (&self->lock);
  g_cond_init (&self->gone);
  xa_broker_set_accept_func (broker, on_accept, self);
  xa_broker_add_ended_func (broker, on_instance_ended, self);
  return self;
}

void
xa_bus_proxy_free (XaBusProxy *self)
{
  if (self == NULL)
    return;
  xa_broker_remove_ended_func (self->broker, on_instance_ended, self);
  xa_broker_set_accept_func (self->broker, NULL, NULL);
  close_clients_of (self, NULL, "the broker is stopping");
  /* Every thread gone: none of them reaches the proxy after this. */
  g_mutex_lock (&self->lock);
  while (g_hash_table_size (self->clients) > 0)
    g_cond_wait (&self->gone, &self->lock);
  g_mutex_unlock (&self->lock);
  g_hash_table_unref (self->clients);
  g_cond_clear (&self->gone);
  g_mutex_clear (&self->lock);
  g_free (self);
}
