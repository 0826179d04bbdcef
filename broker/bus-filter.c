/* broker/bus-filter.c — decides, per message, what a sandboxed client may
 * send and receive on its bus.
 *
 * Enforces (bus-rules.h gives the levels their meaning, after
 * xdg-dbus-proxy):
 * - calls and unicast signals go only to names (and to the unique names
 *   owning them) the client may talk to, and only as call rules allow;
 *   to a name it may only see it gets AccessDenied; to a name it may not
 *   see, the bus's own "does not exist" error, word for word;
 * - of the bus's own methods, only those that neither leak nor change
 *   the host: no BecomeMonitor, no eavesdropping match rules, no
 *   UpdateActivationEnvironment, no other interface of the bus; names
 *   are requested, released, queried and started only at the level
 *   they need;
 * - names it may not see are absent from ListNames,
 *   ListActivatableNames, NameHasOwner, GetNameOwner and NameOwnerChanged;
 * - a reply reaches the client only for a call it made, and leaves it
 *   only for a call it received; a broadcast reaches it only from a peer
 *   it may talk to, or as a broadcast rule allows;
 * - what the filter must remember is bounded: pending calls, peers.
 *
 * Trusts: the bus daemon for the sender field and for routing; the
 * message parser (wire/message.c) for the message's validity; the rules
 * it is given.  Trusts nothing the client sends. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "broker/bus-filter.h"
#include "wire/builder.h"
#include "wire/reader.h"

#define BUS_NAME "org.freedesktop.DBus"
#define BUS_PATH "/org/freedesktop/DBus"

/* A client waiting on more replies than this is flooding. */
#define MAX_PENDING_CALLS 8192
/* Calls from peers the client has not answered yet. */
#define MAX_PENDING_INCOMING 8192
/* Peers the filter remembers (levels, names owned). */
#define MAX_PEERS 65536

typedef enum
{
  EXPECT_NORMAL = 1,       /* forward the reply */
  EXPECT_HELLO,            /* forward, and learn the client's unique name */
  EXPECT_LIST_NAMES,       /* forward with hidden names removed */
  EXPECT_OWN_DROP,         /* the filter's AddMatch: drop the reply */
  EXPECT_OWN_GET_OWNER,    /* the filter's GetNameOwner: learn, drop */
  EXPECT_OWN_LIST_NAMES,   /* the filter's ListNames: ask owners, drop */
} Expect;

struct _XaBusFilter
{
  XaBusRules *rules;
  char *unique_name;
  GHashTable *expected;          /* serial → Expect, replies from the bus */
  GHashTable *owner_queries;     /* serial → name, for EXPECT_OWN_GET_OWNER */
  GHashTable *incoming;          /* "SERIAL SENDER" → TRUE, calls to answer */
  GHashTable *peer_levels;       /* unique name → XaBusPolicy */
  GHashTable *peer_names;        /* unique name → GPtrArray of well-known names */
  GQueue outgoing;               /* GBytes: the filter's calls to send */
  guint32 next_own_serial;       /* for calls to the bus */
  guint32 next_answer_serial;    /* for answers made up for the client */
  gboolean holding;
  gboolean awaiting_hello;       /* Hello went out, its reply has not come */
};

XaBusFilter *
xa_bus_filter_new (XaBusRules *rules)
{
  XaBusFilter *self = g_new0 (XaBusFilter, 1);

  self->rules = xa_bus_rules_ref (rules);
  self->expected = g_hash_table_new (NULL, NULL);
  self->owner_queries = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->incoming = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->peer_levels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->peer_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) g_ptr_array_unref);
  g_queue_init (&self->outgoing);
  self->next_own_serial = XA_BUS_FILTER_MAX_CLIENT_SERIAL + 1;
  self->next_answer_serial = 1;
  return self;
}

void
xa_bus_filter_free (XaBusFilter *self)
{
  if (self == NULL)
    return;
  xa_bus_rules_unref (self->rules);
  g_free (self->unique_name);
  g_hash_table_unref (self->expected);
  g_hash_table_unref (self->owner_queries);
  g_hash_table_unref (self->incoming);
  g_hash_table_unref (self->peer_levels);
  g_hash_table_unref (self->peer_names);
  g_queue_clear_full (&self->outgoing, (GDestroyNotify) g_bytes_unref);
  g_free (self);
}

GBytes *
xa_bus_filter_pop_outgoing (XaBusFilter *self)
{
  return g_queue_pop_head (&self->outgoing);
}

gboolean
xa_bus_filter_is_holding_client (XaBusFilter *self)
{
  return self->holding || self->awaiting_hello;
}

const char *
xa_bus_filter_get_unique_name (XaBusFilter *self)
{
  return self->unique_name;
}

guint
xa_bus_filter_get_n_pending (XaBusFilter *self)
{
  return g_hash_table_size (self->expected);
}

/* ------------------------------------------------------------ levels */

static void
collect (XaBusFilter *self,
         const char *name,
         XaBusMatch *match)
{
  GPtrArray *owned;

  if (name == NULL)
    {
      /* No destination: the bus itself, as under xdg-dbus-proxy. */
      xa_bus_match_add_level (match, XA_BUS_POLICY_TALK);
      return;
    }
  if (name[0] != ':')
    {
      xa_bus_rules_collect (self->rules, name, match);
      return;
    }
  /* A unique name: what it was given outright (the client itself, a
   * peer that called), and everything the names it owns are given. */
  xa_bus_match_add_level (match, GPOINTER_TO_INT (g_hash_table_lookup (self->peer_levels, name)));
  owned = g_hash_table_lookup (self->peer_names, name);
  for (guint i = 0; owned != NULL && i < owned->len; i++)
    xa_bus_rules_collect (self->rules, owned->pdata[i], match);
}

static XaBusPolicy
level_of (XaBusFilter *self,
          const char *name)
{
  g_auto(XaBusMatch) match = { 0, };

  xa_bus_match_init (&match);
  collect (self, name, &match);
  return match.level;
}

static gboolean
has_room_for_peer (XaBusFilter *self)
{
  return g_hash_table_size (self->peer_levels) + g_hash_table_size (self->peer_names) < MAX_PEERS;
}

static void
raise_peer_level (XaBusFilter *self,
                  const char *unique,
                  XaBusPolicy level)
{
  XaBusPolicy old = GPOINTER_TO_INT (g_hash_table_lookup (self->peer_levels, unique));

  if (level > old && (old != XA_BUS_POLICY_NONE || has_room_for_peer (self)))
    g_hash_table_replace (self->peer_levels, g_strdup (unique), GINT_TO_POINTER (level));
}

static void
add_peer_name (XaBusFilter *self,
               const char *unique,
               const char *name)
{
  GPtrArray *names = g_hash_table_lookup (self->peer_names, unique);

  if (names == NULL)
    {
      if (!has_room_for_peer (self))
        return;
      names = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->peer_names, g_strdup (unique), names);
    }
  for (guint i = 0; i < names->len; i++)
    if (strcmp (names->pdata[i], name) == 0)
      return;
  g_ptr_array_add (names, g_strdup (name));
}

/* ------------------------------------------------- messages it makes */

static guint32
next_answer_serial (XaBusFilter *self)
{
  guint32 serial = self->next_answer_serial++;

  if (self->next_answer_serial == 0)
    self->next_answer_serial = 1;
  return serial;
}

/* An error from the bus to the client, for its call @header. */
static GBytes *
make_error (XaBusFilter *self,
            const XaWireHeader *header,
            const char *error_name,
            const char *text)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_error (header->serial, error_name);

  xa_wire_builder_set_sender (b, BUS_NAME);
  if (self->unique_name != NULL)
    xa_wire_builder_set_destination (b, self->unique_name);
  xa_wire_builder_add_string (b, text);
  return xa_wire_builder_finish (b, next_answer_serial (self));
}

static GBytes *
make_bool_reply (XaBusFilter *self,
                 const XaWireHeader *header,
                 gboolean value)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_return (header->serial);

  xa_wire_builder_set_sender (b, BUS_NAME);
  if (self->unique_name != NULL)
    xa_wire_builder_set_destination (b, self->unique_name);
  xa_wire_builder_add_boolean (b, value);
  return xa_wire_builder_finish (b, next_answer_serial (self));
}

/* A call of the filter's own to the bus, with one string argument. */
static void
queue_own_call (XaBusFilter *self,
                const char *member,
                const char *arg,
                Expect expect)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_call (BUS_NAME, BUS_PATH, BUS_NAME, member);
  guint32 serial = self->next_own_serial++;

  if (self->next_own_serial == 0)
    self->next_own_serial = XA_BUS_FILTER_MAX_CLIENT_SERIAL + 1;
  if (arg != NULL)
    xa_wire_builder_add_string (b, arg);
  g_hash_table_insert (self->expected, GUINT_TO_POINTER (serial), GINT_TO_POINTER (expect));
  if (expect == EXPECT_OWN_GET_OWNER)
    g_hash_table_insert (self->owner_queries, GUINT_TO_POINTER (serial), g_strdup (arg));
  g_queue_push_tail (&self->outgoing, xa_wire_builder_finish (b, serial));
}

/* After Hello: learn who owns the names the rules cover, and follow
 * their owners from now on (xdg-dbus-proxy does the same). */
static void
queue_initial_name_queries (XaBusFilter *self)
{
  g_autoptr(GList) names = xa_bus_rules_get_names (self->rules);
  gboolean any_subtree = FALSE;

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      gboolean subtree = xa_bus_rules_is_subtree (self->rules, name);
      g_autofree char *rule = NULL;

      if (strcmp (name, BUS_NAME) == 0)
        continue;
      rule = g_strdup_printf ("type='signal',sender='" BUS_NAME "',interface='" BUS_NAME "',"
                              "member='NameOwnerChanged',%s='%s'",
                              subtree ? "arg0namespace" : "arg0", name);
      queue_own_call (self, "AddMatch", rule, EXPECT_OWN_DROP);
      if (subtree)
        any_subtree = TRUE;
      else
        queue_own_call (self, "GetNameOwner", name, EXPECT_OWN_GET_OWNER);
    }
  /* Owners under a NAME.* rule can only be found in the list of all
   * names; the client waits meanwhile, so that a broadcast from such an
   * owner is not dropped for want of knowing it. */
  if (any_subtree)
    {
      queue_own_call (self, "ListNames", NULL, EXPECT_OWN_LIST_NAMES);
      self->holding = TRUE;
    }
}

/* ---------------------------------------------------------- the body */

static const char *
read_string_arg (const guint8 *data,
                 const XaWireHeader *header,
                 guint index)
{
  XaWireReader reader;
  const char *value = NULL;

  if (!xa_wire_reader_init (&reader, data, header))
    return NULL;
  for (guint i = 0; i <= index; i++)
    if (!xa_wire_reader_read_string (&reader, &value))
      return NULL;
  return value;
}

/* Matches "eavesdrop=" with blanks before the "=", as the bus parses
 * match rules: the session bus's default policy lets any connection
 * eavesdrop, which would show the sandbox messages for other peers. */
static gboolean
is_eavesdrop_rule (const char *rule)
{
  for (const char *p = strstr (rule, "eavesdrop"); p != NULL; p = strstr (p, "eavesdrop"))
    {
      p += strlen ("eavesdrop");
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
      if (*p == '=')
        return TRUE;
    }
  return FALSE;
}

/* The ListNames reply @data with the names the client may not see left
 * out. */
static GBytes *
filter_name_list (XaBusFilter *self,
                  const guint8 *data,
                  const XaWireHeader *header)
{
  g_autoptr(XaWireBuilder) b = xa_wire_builder_new_method_return (header->reply_serial);
  XaWireReader reader;
  XaWireReader array;
  const char *name;

  if (!xa_wire_reader_init (&reader, data, header) ||
      !xa_wire_reader_enter_array (&reader, &array))
    return NULL;
  if (header->sender != NULL)
    xa_wire_builder_set_sender (b, header->sender);
  if (header->destination != NULL)
    xa_wire_builder_set_destination (b, header->destination);
  xa_wire_builder_open_array (b, "s");
  while (xa_wire_reader_read_string (&array, &name))
    if (level_of (self, name) >= XA_BUS_POLICY_SEE)
      xa_wire_builder_add_string (b, name);
  xa_wire_builder_close_array (b);
  return xa_wire_builder_finish (b, header->serial);
}

/* -------------------------------------------------- client → the bus */

static gboolean
wants_reply (const XaWireHeader *header)
{
  return header->type == XA_WIRE_METHOD_CALL &&
         (header->flags & XA_WIRE_FLAG_NO_REPLY_EXPECTED) == 0;
}

/* Refuses @header's call as if the name did not exist (hide) or with
 * AccessDenied. */
static XaBusFilterAction
refuse (XaBusFilter *self,
        const XaWireHeader *header,
        gboolean hide,
        const char *name,
        GBytes **out_message)
{
  g_autofree char *text = NULL;

  if (!wants_reply (header))
    return XA_BUS_FILTER_DROP;
  if (!hide)
    {
      text = g_strdup_printf (_("Access to '%s' is not allowed to this sandbox"),
                              name != NULL ? name : BUS_NAME);
      *out_message = make_error (self, header, "org.freedesktop.DBus.Error.AccessDenied", text);
    }
  else if ((name != NULL && name[0] == ':') ||
           (header->flags & XA_WIRE_FLAG_NO_AUTO_START) != 0)
    {
      /* dbus-daemon's own words for a name nobody owns, and below for
       * one nothing can be started for. */
      text = g_strdup_printf ("Name \"%s\" does not exist", name);
      *out_message = make_error (self, header, "org.freedesktop.DBus.Error.NameHasNoOwner", text);
    }
  else
    {
      text = g_strdup_printf ("The name %s was not provided by any .service files", name);
      *out_message = make_error (self, header, "org.freedesktop.DBus.Error.ServiceUnknown", text);
    }
  return XA_BUS_FILTER_ANSWER;
}

static XaBusFilterAction
expect_reply (XaBusFilter *self,
              const XaWireHeader *header,
              Expect expect,
              GError **error)
{
  if (!wants_reply (header))
    return XA_BUS_FILTER_FORWARD;
  if (g_hash_table_size (self->expected) >= MAX_PENDING_CALLS)
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_TOO_LARGE,
                   _("more than %d calls waiting for replies"), MAX_PENDING_CALLS);
      return XA_BUS_FILTER_DISCONNECT;
    }
  g_hash_table_insert (self->expected, GUINT_TO_POINTER (header->serial), GINT_TO_POINTER (expect));
  return XA_BUS_FILTER_FORWARD;
}

/* A method of the bus itself (destination org.freedesktop.DBus). */
static XaBusFilterAction
bus_method (XaBusFilter *self,
            const guint8 *data,
            const XaWireHeader *header,
            GBytes **out_message,
            GError **error)
{
  static const char *const see_methods[] = {
    "GetConnectionUnixProcessID", "GetConnectionCredentials", "GetAdtAuditSessionData",
    "GetConnectionSELinuxSecurityContext", "GetConnectionUnixUser",
  };
  const char *member = header->member;
  const char *arg0;
  XaBusPolicy needed = XA_BUS_POLICY_NONE;
  XaBusPolicy level;

  if (header->type != XA_WIRE_METHOD_CALL)
    return refuse (self, header, FALSE, NULL, out_message);
  if (g_strcmp0 (header->interface, "org.freedesktop.DBus.Introspectable") == 0)
    return expect_reply (self, header, EXPECT_NORMAL, error);
  /* Monitoring, Debug.Stats, Properties, Peer: none is for a sandbox. */
  if (g_strcmp0 (header->interface, BUS_NAME) != 0)
    return refuse (self, header, FALSE, NULL, out_message);

  if (strcmp (member, "Hello") == 0)
    {
      /* Nothing else of the client's reaches the bus before the broker
       * knows its unique name: a portal that gets a call from that name
       * must find it in the broker's table, never take it for the
       * host's (broker/identity.c). */
      if (!wants_reply (header))
        {
          g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                       _("Hello without asking for its reply"));
          return XA_BUS_FILTER_DISCONNECT;
        }
      self->awaiting_hello = TRUE;
      return expect_reply (self, header, EXPECT_HELLO, error);
    }
  if (strcmp (member, "RemoveMatch") == 0 || strcmp (member, "GetId") == 0)
    return expect_reply (self, header, EXPECT_NORMAL, error);
  if (strcmp (member, "ListNames") == 0 || strcmp (member, "ListActivatableNames") == 0)
    return expect_reply (self, header, EXPECT_LIST_NAMES, error);
  if (strcmp (member, "AddMatch") == 0)
    {
      arg0 = read_string_arg (data, header, 0);
      if (arg0 != NULL && is_eavesdrop_rule (arg0))
        return refuse (self, header, FALSE, NULL, out_message);
      return expect_reply (self, header, EXPECT_NORMAL, error);
    }

  arg0 = read_string_arg (data, header, 0);
  if (strcmp (member, "NameHasOwner") == 0 || strcmp (member, "GetNameOwner") == 0)
    {
      g_autofree char *text = NULL;

      if (arg0 != NULL && level_of (self, arg0) >= XA_BUS_POLICY_SEE)
        return expect_reply (self, header, EXPECT_NORMAL, error);
      if (!wants_reply (header))
        return XA_BUS_FILTER_DROP;
      if (strcmp (member, "NameHasOwner") == 0)
        *out_message = make_bool_reply (self, header, FALSE);
      else
        {
          text = g_strdup_printf ("Could not get owner of name '%s': no such name",
                                  arg0 != NULL ? arg0 : "");
          *out_message = make_error (self, header, "org.freedesktop.DBus.Error.NameHasNoOwner", text);
        }
      return XA_BUS_FILTER_ANSWER;
    }
  if (strcmp (member, "RequestName") == 0 || strcmp (member, "ReleaseName") == 0 ||
      strcmp (member, "ListQueuedOwners") == 0)
    needed = XA_BUS_POLICY_OWN;
  else if (strcmp (member, "StartServiceByName") == 0)
    needed = XA_BUS_POLICY_TALK;
  for (gsize i = 0; needed == XA_BUS_POLICY_NONE && i < G_N_ELEMENTS (see_methods); i++)
    if (strcmp (member, see_methods[i]) == 0)
      needed = XA_BUS_POLICY_SEE;
  /* BecomeMonitor, UpdateActivationEnvironment, and whatever a future
   * bus adds: refused. */
  if (needed == XA_BUS_POLICY_NONE || arg0 == NULL)
    return refuse (self, header, FALSE, NULL, out_message);

  level = level_of (self, arg0);
  if (level >= needed)
    return expect_reply (self, header, EXPECT_NORMAL, error);
  /* A name the app may not own is refused as the bus's own policy would
   * refuse it, seen or not; asking about a hidden one answers as for a
   * name nobody owns. */
  return refuse (self, header, needed != XA_BUS_POLICY_OWN && level < XA_BUS_POLICY_SEE,
                 arg0, out_message);
}

XaBusFilterAction
xa_bus_filter_from_client (XaBusFilter *self,
                           const guint8 *data,
                           const XaWireHeader *header,
                           GBytes **out_message,
                           GError **error)
{
  g_auto(XaBusMatch) match = { 0, };
  const char *dest = header->destination;

  if (header->serial > XA_BUS_FILTER_MAX_CLIENT_SERIAL)
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                   _("serial %u is above %u"), header->serial, XA_BUS_FILTER_MAX_CLIENT_SERIAL);
      return XA_BUS_FILTER_DISCONNECT;
    }

  /* A reply only for a call the client received, to the peer that made
   * it: it cannot answer in someone else's name. */
  if (header->type == XA_WIRE_METHOD_RETURN || header->type == XA_WIRE_ERROR_REPLY)
    {
      g_autofree char *key = g_strdup_printf ("%u %s", header->reply_serial,
                                              dest != NULL ? dest : "");

      return g_hash_table_remove (self->incoming, key) ? XA_BUS_FILTER_FORWARD
                                                       : XA_BUS_FILTER_DROP;
    }

  if (g_strcmp0 (dest, BUS_NAME) == 0)
    return bus_method (self, data, header, out_message, error);

  /* A broadcast signal: xdg-dbus-proxy lets every one through, and apps
   * rely on it (MPRIS, GApplication's actions); the bus delivers it only
   * to peers that asked for it. */
  if (header->type == XA_WIRE_SIGNAL && dest == NULL)
    return XA_BUS_FILTER_FORWARD;
  /* A call with no destination would reach every peer with a matching
   * rule: nothing a sandbox needs. */
  if (dest == NULL)
    return refuse (self, header, FALSE, NULL, out_message);

  xa_bus_match_init (&match);
  collect (self, dest, &match);
  if (match.level < XA_BUS_POLICY_SEE)
    return refuse (self, header, TRUE, dest, out_message);
  if (match.level < XA_BUS_POLICY_TALK ||
      !xa_bus_match_allows (&match, XA_BUS_RULE_CALL, header->path, header->interface,
                            header->member))
    return refuse (self, header, FALSE, dest, out_message);
  return expect_reply (self, header, EXPECT_NORMAL, error);
}

/* -------------------------------------------------- the bus → client */

static XaBusFilterAction
own_reply (XaBusFilter *self,
           const guint8 *data,
           const XaWireHeader *header,
           Expect expect)
{
  if (expect == EXPECT_OWN_GET_OWNER)
    {
      const char *name = g_hash_table_lookup (self->owner_queries,
                                              GUINT_TO_POINTER (header->reply_serial));
      const char *owner = header->type == XA_WIRE_METHOD_RETURN
                          ? read_string_arg (data, header, 0) : NULL;

      if (name != NULL && owner != NULL && owner[0] == ':')
        add_peer_name (self, owner, name);
      g_hash_table_remove (self->owner_queries, GUINT_TO_POINTER (header->reply_serial));
    }
  else if (expect == EXPECT_OWN_LIST_NAMES)
    {
      XaWireReader reader;
      XaWireReader array;
      const char *name;

      if (header->type == XA_WIRE_METHOD_RETURN &&
          xa_wire_reader_init (&reader, data, header) &&
          xa_wire_reader_enter_array (&reader, &array))
        while (xa_wire_reader_read_string (&array, &name))
          if (name[0] != ':' && xa_bus_rules_covers (self->rules, name))
            queue_own_call (self, "GetNameOwner", name, EXPECT_OWN_GET_OWNER);
      self->holding = FALSE;
    }
  return XA_BUS_FILTER_DROP;
}

static XaBusFilterAction
reply_from_bus (XaBusFilter *self,
                const guint8 *data,
                const XaWireHeader *header,
                GBytes **out_message)
{
  gpointer value;
  Expect expect;

  if (!g_hash_table_steal_extended (self->expected, GUINT_TO_POINTER (header->reply_serial),
                                    NULL, &value))
    return XA_BUS_FILTER_DROP;   /* no call of the client's: not for it */
  expect = GPOINTER_TO_INT (value);
  switch (expect)
    {
    case EXPECT_HELLO:
      self->awaiting_hello = FALSE;
      if (header->type == XA_WIRE_METHOD_RETURN && self->unique_name == NULL)
        {
          const char *name = read_string_arg (data, header, 0);

          /* The bus is trusted, but every message the filter makes names
           * the client: a name that is not a unique name would make them
           * invalid. */
          if (name == NULL || name[0] != ':' || !xa_wire_is_bus_name (name))
            return XA_BUS_FILTER_DISCONNECT;
          self->unique_name = g_strdup (name);
          raise_peer_level (self, name, XA_BUS_POLICY_TALK);
          queue_initial_name_queries (self);
        }
      return XA_BUS_FILTER_FORWARD;
    case EXPECT_LIST_NAMES:
      if (header->type != XA_WIRE_METHOD_RETURN)
        return XA_BUS_FILTER_FORWARD;
      *out_message = filter_name_list (self, data, header);
      return *out_message != NULL ? XA_BUS_FILTER_REPLACE : XA_BUS_FILTER_DROP;
    case EXPECT_OWN_DROP:
    case EXPECT_OWN_GET_OWNER:
    case EXPECT_OWN_LIST_NAMES:
      return own_reply (self, data, header, expect);
    case EXPECT_NORMAL:
    default:
      return XA_BUS_FILTER_FORWARD;
    }
}

/* NameOwnerChanged (name, old, new): shown only for names the client may
 * see; teaches the filter who owns what. */
static gboolean
name_owner_changed (XaBusFilter *self,
                    const guint8 *data,
                    const XaWireHeader *header)
{
  XaWireReader reader;
  const char *name = NULL;
  const char *old_owner = NULL;
  const char *new_owner = NULL;
  gboolean visible;

  if (!xa_wire_reader_init (&reader, data, header) ||
      !xa_wire_reader_read_string (&reader, &name) ||
      !xa_wire_reader_read_string (&reader, &old_owner) ||
      !xa_wire_reader_read_string (&reader, &new_owner))
    return FALSE;
  visible = level_of (self, name) >= XA_BUS_POLICY_SEE;
  if (name[0] != ':' && new_owner[0] == ':' && xa_bus_rules_covers (self->rules, name))
    add_peer_name (self, new_owner, name);
  /* A unique name never comes back: forget it, so that what the filter
   * remembers stays as small as the bus is. */
  if (name[0] == ':' && new_owner[0] == '\0')
    {
      g_hash_table_remove (self->peer_levels, name);
      g_hash_table_remove (self->peer_names, name);
    }
  return visible;
}

static gboolean
is_name_owner_changed (const XaWireHeader *header)
{
  return header->type == XA_WIRE_SIGNAL &&
         g_strcmp0 (header->sender, BUS_NAME) == 0 &&
         g_strcmp0 (header->interface, BUS_NAME) == 0 &&
         g_strcmp0 (header->member, "NameOwnerChanged") == 0;
}

XaBusFilterAction
xa_bus_filter_from_bus (XaBusFilter *self,
                        const guint8 *data,
                        const XaWireHeader *header,
                        GBytes **out_message)
{
  if (header->type == XA_WIRE_METHOD_RETURN || header->type == XA_WIRE_ERROR_REPLY)
    return reply_from_bus (self, data, header, out_message);

  if (is_name_owner_changed (header) && !name_owner_changed (self, data, header))
    return XA_BUS_FILTER_DROP;

  if (header->type == XA_WIRE_SIGNAL && header->destination == NULL)
    {
      g_auto(XaBusMatch) match = { 0, };

      xa_bus_match_init (&match);
      collect (self, header->sender, &match);
      if (!xa_bus_match_allows (&match, XA_BUS_RULE_BROADCAST, header->path,
                                header->interface, header->member))
        return XA_BUS_FILTER_DROP;
    }

  /* A peer that calls or signals the client becomes visible to it, so
   * that it can follow the caller's lifetime. */
  if (header->sender != NULL && header->sender[0] == ':')
    raise_peer_level (self, header->sender, XA_BUS_POLICY_SEE);

  if (header->type == XA_WIRE_METHOD_CALL &&
      (header->flags & XA_WIRE_FLAG_NO_REPLY_EXPECTED) == 0 && header->sender != NULL)
    {
      /* A client that never answers cannot make us remember for ever. */
      if (g_hash_table_size (self->incoming) >= MAX_PENDING_INCOMING)
        return XA_BUS_FILTER_DROP;
      g_hash_table_add (self->incoming, g_strdup_printf ("%u %s", header->serial, header->sender));
    }
  return XA_BUS_FILTER_FORWARD;
}
