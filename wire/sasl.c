/* wire/sasl.c — see sasl.h.
 *
 * Enforces (server side): the connection starts with one NUL byte; the
 * only mechanism is EXTERNAL, and the identity it names, if any, must be
 * the uid the kernel gave for the peer; a line is at most 16 KiB and a
 * handshake at most 64 commands, so a client cannot make us buffer or
 * loop for ever; nothing is taken as a message before BEGIN.
 *
 * Trusts: the caller for the peer's uid (from SO_PEERCRED). */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "wire/message.h"
#include "wire/sasl.h"

#define MAX_LINE 16384
#define MAX_COMMANDS 64

typedef enum
{
  SERVER_WAIT_NUL,
  SERVER_WAIT_AUTH,
  SERVER_WAIT_DATA,
  SERVER_WAIT_BEGIN,
  SERVER_DONE,
} ServerState;

struct _XaSaslServer
{
  ServerState state;
  uid_t       peer_uid;
  gboolean    allow_unix_fds;
  gboolean    unix_fds;
  guint       n_commands;
  char        guid[33];
};

typedef enum
{
  CLIENT_WAIT_OK,
  CLIENT_WAIT_AGREE,
  CLIENT_DONE,
} ClientState;

struct _XaSaslClient
{
  ClientState state;
  uid_t       uid;
  gboolean    want_unix_fds;
  gboolean    unix_fds;
};

static void
append (GByteArray *out,
        const char *text)
{
  g_byte_array_append (out, (const guint8 *) text, strlen (text));
}

/* The next "\r\n"-terminated line at @data + *@pos, NUL-terminated in a
 * new string; NULL when it is not complete yet.  *@too_long for a line
 * past the limit. */
static char *
next_line (const guint8 *data,
           gsize len,
           gsize *pos,
           gboolean *too_long)
{
  const guint8 *start = data + *pos;
  gsize avail = len - *pos;

  *too_long = FALSE;
  for (gsize i = 0; i + 1 < avail; i++)
    if (start[i] == '\r' && start[i + 1] == '\n')
      {
        *pos += i + 2;
        return g_strndup ((const char *) start, i);
      }
  *too_long = avail > MAX_LINE;
  return NULL;
}

static XaSaslStatus
line_too_long (GError **error)
{
  g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_TOO_LARGE,
               _("authentication: a line longer than %d bytes"), MAX_LINE);
  return XA_SASL_FAILED;
}

/* The uid that hex-encoded decimal @hex names, or -1. */
static gint64
decode_uid (const char *hex)
{
  gsize len = strlen (hex);
  char digits[32];

  if (len == 0 || len % 2 != 0 || len / 2 >= sizeof digits)
    return -1;
  for (gsize i = 0; i < len / 2; i++)
    {
      int hi = g_ascii_xdigit_value (hex[2 * i]);
      int lo = g_ascii_xdigit_value (hex[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return -1;
      digits[i] = (char) (hi * 16 + lo);
      if (!g_ascii_isdigit (digits[i]))
        return -1;
    }
  digits[len / 2] = '\0';
  return g_ascii_strtoll (digits, NULL, 10);
}

/* ---------------------------------------------------------- server */

XaSaslServer *
xa_sasl_server_new (uid_t peer_uid,
                    gboolean allow_unix_fds)
{
  XaSaslServer *self = g_new0 (XaSaslServer, 1);

  self->peer_uid = peer_uid;
  self->allow_unix_fds = allow_unix_fds;
  for (int i = 0; i < 4; i++)
    g_snprintf (self->guid + 8 * i, 9, "%08x", g_random_int ());
  return self;
}

void
xa_sasl_server_free (XaSaslServer *self)
{
  g_free (self);
}

gboolean
xa_sasl_server_get_unix_fds (XaSaslServer *self)
{
  return self->unix_fds;
}

/* An identity given with AUTH EXTERNAL or DATA: "" means "the one you
 * see", anything else must be the peer's uid. */
static void
check_identity (XaSaslServer *self,
                const char *response,
                GByteArray *reply)
{
  if (response[0] == '\0' || decode_uid (response) == (gint64) self->peer_uid)
    {
      g_autofree char *ok = g_strdup_printf ("OK %s\r\n", self->guid);

      append (reply, ok);
      self->state = SERVER_WAIT_BEGIN;
      return;
    }
  append (reply, "REJECTED EXTERNAL\r\n");
  self->state = SERVER_WAIT_AUTH;
}

static void
server_command (XaSaslServer *self,
                const char *line,
                GByteArray *reply)
{
  g_auto(GStrv) words = g_strsplit (line, " ", 3);
  const char *command = words[0] != NULL ? words[0] : "";
  const char *arg1 = command[0] != '\0' ? words[1] : NULL;
  const char *arg2 = arg1 != NULL ? words[2] : NULL;

  if (strcmp (command, "AUTH") == 0 && self->state == SERVER_WAIT_AUTH)
    {
      if (arg1 == NULL || strcmp (arg1, "EXTERNAL") != 0)
        append (reply, "REJECTED EXTERNAL\r\n");
      else if (arg2 == NULL)
        {
          append (reply, "DATA\r\n");
          self->state = SERVER_WAIT_DATA;
        }
      else
        check_identity (self, arg2, reply);
    }
  else if (strcmp (command, "DATA") == 0 && self->state == SERVER_WAIT_DATA)
    check_identity (self, arg1 != NULL ? arg1 : "", reply);
  else if ((strcmp (command, "CANCEL") == 0 || strcmp (command, "ERROR") == 0) &&
           self->state != SERVER_WAIT_BEGIN)
    {
      append (reply, "REJECTED EXTERNAL\r\n");
      self->state = SERVER_WAIT_AUTH;
    }
  else if (strcmp (command, "NEGOTIATE_UNIX_FD") == 0 && self->state == SERVER_WAIT_BEGIN)
    {
      if (self->allow_unix_fds)
        {
          append (reply, "AGREE_UNIX_FD\r\n");
          self->unix_fds = TRUE;
        }
      else
        append (reply, "ERROR \"fd passing is not offered here\"\r\n");
    }
  else if (strcmp (command, "BEGIN") == 0 && self->state == SERVER_WAIT_BEGIN)
    self->state = SERVER_DONE;
  else
    append (reply, "ERROR \"unexpected command\"\r\n");
}

XaSaslStatus
xa_sasl_server_feed (XaSaslServer *self,
                     const guint8 *data,
                     gsize len,
                     gsize *out_consumed,
                     GByteArray *reply,
                     GError **error)
{
  gsize pos = 0;

  while (self->state != SERVER_DONE)
    {
      g_autofree char *line = NULL;
      gboolean too_long;

      if (self->state == SERVER_WAIT_NUL)
        {
          if (pos >= len)
            break;
          if (data[pos++] != '\0')
            {
              g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                           _("authentication: no NUL byte first"));
              return XA_SASL_FAILED;
            }
          self->state = SERVER_WAIT_AUTH;
          continue;
        }
      line = next_line (data, len, &pos, &too_long);
      if (too_long)
        return line_too_long (error);
      if (line == NULL)
        break;
      if (++self->n_commands > MAX_COMMANDS)
        {
          g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_TOO_LARGE,
                       _("authentication: more than %d commands"), MAX_COMMANDS);
          return XA_SASL_FAILED;
        }
      server_command (self, line, reply);
    }
  *out_consumed = pos;
  return self->state == SERVER_DONE ? XA_SASL_DONE : XA_SASL_CONTINUE;
}

/* ---------------------------------------------------------- client */

XaSaslClient *
xa_sasl_client_new (uid_t uid,
                    gboolean want_unix_fds)
{
  XaSaslClient *self = g_new0 (XaSaslClient, 1);

  self->uid = uid;
  self->want_unix_fds = want_unix_fds;
  return self;
}

void
xa_sasl_client_free (XaSaslClient *self)
{
  g_free (self);
}

gboolean
xa_sasl_client_get_unix_fds (XaSaslClient *self)
{
  return self->unix_fds;
}

void
xa_sasl_client_start (XaSaslClient *self,
                      GByteArray *out)
{
  char decimal[32];
  g_autoptr(GString) line = g_string_new ("AUTH EXTERNAL ");
  const guint8 nul = 0;

  g_snprintf (decimal, sizeof decimal, "%u", (unsigned) self->uid);
  for (const char *p = decimal; *p != '\0'; p++)
    g_string_append_printf (line, "%02x", (guint8) *p);
  g_string_append (line, "\r\n");
  g_byte_array_append (out, &nul, 1);
  g_byte_array_append (out, (const guint8 *) line->str, line->len);
}

XaSaslStatus
xa_sasl_client_feed (XaSaslClient *self,
                     const guint8 *data,
                     gsize len,
                     gsize *out_consumed,
                     GByteArray *reply,
                     GError **error)
{
  gsize pos = 0;

  while (self->state != CLIENT_DONE)
    {
      g_autofree char *line = NULL;
      gboolean too_long;

      line = next_line (data, len, &pos, &too_long);
      if (too_long)
        return line_too_long (error);
      if (line == NULL)
        break;
      if (self->state == CLIENT_WAIT_OK && g_str_has_prefix (line, "OK "))
        {
          if (self->want_unix_fds)
            {
              append (reply, "NEGOTIATE_UNIX_FD\r\n");
              self->state = CLIENT_WAIT_AGREE;
              continue;
            }
        }
      else if (self->state == CLIENT_WAIT_AGREE && strcmp (line, "AGREE_UNIX_FD") == 0)
        self->unix_fds = TRUE;
      else if (self->state == CLIENT_WAIT_AGREE && g_str_has_prefix (line, "ERROR"))
        self->unix_fds = FALSE;
      else
        {
          g_autofree char *shown = g_strescape (line, NULL);

          g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                       _("authentication refused: \"%s\""), shown);
          return XA_SASL_FAILED;
        }
      append (reply, "BEGIN\r\n");
      self->state = CLIENT_DONE;
    }
  *out_consumed = pos;
  return self->state == CLIENT_DONE ? XA_SASL_DONE : XA_SASL_CONTINUE;
}
