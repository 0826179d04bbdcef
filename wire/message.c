/* wire/message.c — see message.h.
 *
 * Enforces, before a message is used or passed on: both byte orders,
 * message types 1–4, protocol version 1, lengths within the message and
 * the caller's limit, a non-zero serial, header fields of the right type
 * and none twice, the fields each type requires, the syntax of paths,
 * interfaces, members, error and bus names, and a body that matches its
 * signature: alignment with zero padding, booleans 0 or 1, UTF-8 strings
 * without NUL, valid object paths and signatures, arrays up to 64 MiB,
 * dict entries only in arrays with a basic key, one complete type in
 * each variant, nesting within the limits (32 arrays, 32 structs, 64 in
 * all with variants) and fd indexes below UNIX_FDS.
 *
 * Trusts: nothing in the bytes.  Never reads past @length. */
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "wire/message.h"

#define MAX_SIGNATURE 255
#define MAX_ARRAY_DEPTH 32
#define MAX_STRUCT_DEPTH 32
#define MAX_TOTAL_DEPTH 64

enum
{
  FIELD_PATH = 1,
  FIELD_INTERFACE,
  FIELD_MEMBER,
  FIELD_ERROR_NAME,
  FIELD_REPLY_SERIAL,
  FIELD_DESTINATION,
  FIELD_SENDER,
  FIELD_SIGNATURE,
  FIELD_UNIX_FDS,
};

G_DEFINE_QUARK (xa-wire-error-quark, xa_wire_error)

static guint32
read_u32 (const guint8 *p,
          gboolean big_endian)
{
  guint32 v;

  memcpy (&v, p, 4);
  return big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

gboolean
xa_wire_peek_length (const guint8 *data,
                     gsize avail,
                     gsize max,
                     gsize *out_length,
                     GError **error)
{
  gboolean big_endian;
  guint64 fields;
  guint64 body;
  guint64 total;

  g_return_val_if_fail (avail >= XA_WIRE_FIXED_HEADER_SIZE, FALSE);

  if (data[0] != 'l' && data[0] != 'B')
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                   _("invalid message: byte order '\\x%02x' at offset 0"), data[0]);
      return FALSE;
    }
  big_endian = data[0] == 'B';
  body = read_u32 (data + 4, big_endian);
  fields = read_u32 (data + 12, big_endian);
  total = 16 + ((fields + 7) & ~(guint64) 7) + body;
  if (fields > XA_WIRE_MAX_ARRAY || total > MIN (max, (gsize) XA_WIRE_MAX_MESSAGE))
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_TOO_LARGE,
                   _("invalid message: %" G_GUINT64_FORMAT " bytes, more than %" G_GSIZE_FORMAT),
                   total, MIN (max, (gsize) XA_WIRE_MAX_MESSAGE));
      return FALSE;
    }
  *out_length = total;
  return TRUE;
}

/* ---------------------------------------------------------- names */

static gboolean
is_name_char (char c,
              gboolean allow_dash)
{
  return g_ascii_isalnum (c) || c == '_' || (allow_dash && c == '-');
}

gboolean
xa_wire_is_object_path (const char *s)
{
  const char *p;

  if (s[0] != '/')
    return FALSE;
  if (s[1] == '\0')
    return TRUE;
  for (p = s + 1; *p != '\0'; p++)
    {
      if (*p == '/')
        {
          if (p[-1] == '/' || p[1] == '\0')
            return FALSE;
        }
      else if (!is_name_char (*p, FALSE))
        return FALSE;
    }
  return TRUE;
}

/* Dot-separated elements of [A-Za-z0-9_] (and '-' if @dash), none empty
 * and none starting with a digit unless @digits; at least @min and at
 * most @max of them, 255 bytes at most.  One pass over @s. */
static gboolean
is_dotted (const char *s,
           gboolean dash,
           gboolean digits,
           guint min,
           guint max)
{
  guint elements = 1;
  gboolean start = TRUE;
  const char *p;

  for (p = s; *p != '\0'; p++)
    {
      if (*p == '.')
        {
          if (start || ++elements > max)
            return FALSE;
          start = TRUE;
          continue;
        }
      if (!is_name_char (*p, dash) || (start && !digits && g_ascii_isdigit (*p)))
        return FALSE;
      start = FALSE;
    }
  return p - s <= 255 && !start && elements >= min;
}

gboolean
xa_wire_is_interface (const char *s)
{
  return is_dotted (s, FALSE, FALSE, 2, G_MAXUINT);
}

gboolean
xa_wire_is_member (const char *s)
{
  return is_dotted (s, FALSE, FALSE, 1, 1);
}

gboolean
xa_wire_is_bus_name (const char *s)
{
  /* The ':' counts toward the 255 bytes. */
  if (s[0] == ':')
    return strlen (s) <= 255 && is_dotted (s + 1, TRUE, TRUE, 2, G_MAXUINT);
  return is_dotted (s, TRUE, FALSE, 2, G_MAXUINT);
}

/* ------------------------------------------------------ signatures */

static gboolean
is_basic (char c)
{
  switch (c)
    {
    case 'y': case 'b': case 'n': case 'q': case 'i': case 'u': case 'x':
    case 't': case 'd': case 's': case 'o': case 'g': case 'h':
      return TRUE;
    default:
      return FALSE;
    }
}

/* Numbers whose every value is valid and whose size is their alignment. */
static gboolean
is_plain_number (char c)
{
  switch (c)
    {
    case 'y': case 'n': case 'q': case 'i': case 'u': case 'x': case 't': case 'd':
      return TRUE;
    default:
      return FALSE;
    }
}

/* Advances *@p over one complete type; FALSE if there is none. */
static gboolean
skip_type (const char **p,
           const char *end,
           guint arrays,
           guint structs)
{
  char c;

  if (*p >= end)
    return FALSE;
  c = **p;
  (*p)++;
  if (is_basic (c) || c == 'v')
    return TRUE;
  if (c == 'a')
    {
      if (arrays >= MAX_ARRAY_DEPTH)
        return FALSE;
      if (*p < end && **p == '{')
        {
          (*p)++;
          if (*p >= end || !is_basic (**p))
            return FALSE;
          (*p)++;
          if (!skip_type (p, end, arrays + 1, structs + 1))
            return FALSE;
          if (*p >= end || **p != '}')
            return FALSE;
          (*p)++;
          return structs + 1 <= MAX_STRUCT_DEPTH;
        }
      return skip_type (p, end, arrays + 1, structs);
    }
  if (c == '(')
    {
      if (structs >= MAX_STRUCT_DEPTH || *p >= end || **p == ')')
        return FALSE;
      while (*p < end && **p != ')')
        if (!skip_type (p, end, arrays, structs + 1))
          return FALSE;
      if (*p >= end)
        return FALSE;
      (*p)++;
      return TRUE;
    }
  return FALSE;
}

gboolean
xa_wire_signature_is_valid (const char *sig,
                            gsize len)
{
  const char *p = sig;

  if (len > MAX_SIGNATURE || memchr (sig, '\0', len) != NULL)
    return FALSE;
  while (p < sig + len)
    if (!skip_type (&p, sig + len, 0, 0))
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------ body */

typedef struct
{
  const guint8 *data;
  gsize         end;
  gsize         pos;
  gboolean      big_endian;
  guint32       n_fds;
  GError      **error;
} Cursor;

static gboolean
fail (Cursor *c,
      const char *what)
{
  g_set_error (c->error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
               _("invalid message: %s at offset %" G_GSIZE_FORMAT), what, c->pos);
  return FALSE;
}

static gboolean
align (Cursor *c,
       gsize boundary)
{
  gsize next = (c->pos + boundary - 1) & ~(boundary - 1);

  if (next > c->end)
    return fail (c, "truncated padding");
  for (; c->pos < next; c->pos++)
    if (c->data[c->pos] != 0)
      return fail (c, "non-zero padding");
  return TRUE;
}

static gboolean
take (Cursor *c,
      gsize n)
{
  if (n > c->end - c->pos)
    return fail (c, "truncated value");
  c->pos += n;
  return TRUE;
}

static gboolean
read_uint32 (Cursor *c,
             guint32 *out)
{
  if (!align (c, 4))
    return FALSE;
  if (c->end - c->pos < 4)
    return fail (c, "truncated value");
  *out = read_u32 (c->data + c->pos, c->big_endian);
  c->pos += 4;
  return TRUE;
}

/* A string of @len bytes at the cursor, then its NUL. */
static gboolean
check_string_bytes (Cursor *c,
                    gsize len,
                    const char **out)
{
  const char *s = (const char *) c->data + c->pos;

  if (len > c->end - c->pos || c->end - c->pos - len < 1)
    return fail (c, "truncated string");
  if (s[len] != '\0')
    return fail (c, "string with a NUL inside or none after it");
  /* g_utf8_validate_len() refuses a NUL among the bytes too: one pass
   * for both, a second only to say which. */
  if (!g_utf8_validate_len (s, len, NULL))
    return fail (c, memchr (s, '\0', len) != NULL ? "string with a NUL inside or none after it"
                                                   : "string that is not UTF-8");
  c->pos += len + 1;
  if (out != NULL)
    *out = s;
  return TRUE;
}

static gboolean
read_string (Cursor *c,
             const char **out)
{
  guint32 len;

  return read_uint32 (c, &len) && check_string_bytes (c, len, out);
}

static gboolean
read_signature (Cursor *c,
                const char **out)
{
  gsize len;

  if (c->pos >= c->end)
    return fail (c, "truncated signature");
  len = c->data[c->pos++];
  if (!check_string_bytes (c, len, out))
    return FALSE;
  if (!xa_wire_signature_is_valid (*out, len))
    return fail (c, "invalid signature");
  return TRUE;
}

gsize
xa_wire_type_alignment (char c)
{
  switch (c)
    {
    case 'y': case 'g': case 'v':
      return 1;
    case 'n': case 'q':
      return 2;
    case 'x': case 't': case 'd': case '(': case '{':
      return 8;
    default:
      return 4;
    }
}

static gboolean check_value (Cursor *c, const char **sig, guint arrays, guint structs, guint depth);

static gboolean
check_array (Cursor *c,
             const char **sig,
             guint arrays,
             guint structs,
             guint depth)
{
  const char *element = *sig;
  const char *after = element - 1;   /* the 'a' */
  guint32 len;
  gsize end;

  if (!skip_type (&after, element + strlen (element), arrays, structs))
    return fail (c, "invalid array signature");
  if (!read_uint32 (c, &len))
    return FALSE;
  if (len > XA_WIRE_MAX_ARRAY)
    return fail (c, "array longer than 64 MiB");
  /* The padding to the first element is not part of the length. */
  if (!align (c, xa_wire_type_alignment (element[0])))
    return FALSE;
  if (len > c->end - c->pos)
    return fail (c, "array longer than the message");
  /* Arrays of fixed-size numbers (each as large as its alignment):
   * nothing to check per element, and a 1 MiB "ay" must not cost a
   * million calls.  Booleans and fd indexes have values to check. */
  if (is_plain_number (element[0]))
    {
      if (len % xa_wire_type_alignment (element[0]) != 0)
        return fail (c, "array length not a multiple of its element's size");
      c->pos += len;
      *sig = after;
      return TRUE;
    }
  end = c->pos + len;
  while (c->pos < end)
    {
      const char *s = element;
      gsize saved_end = c->end;

      c->end = end;
      if (!check_value (c, &s, arrays + 1, structs, depth + 1))
        return FALSE;
      c->end = saved_end;
    }
  *sig = after;
  return TRUE;
}

static gboolean
check_value (Cursor *c,
             const char **sig,
             guint arrays,
             guint structs,
             guint depth)
{
  char t = **sig;
  guint32 u;

  if (depth > MAX_TOTAL_DEPTH)
    return fail (c, "values nested too deep");
  (*sig)++;
  switch (t)
    {
    case 'y':
      return take (c, 1);
    case 'n': case 'q':
      return align (c, 2) && take (c, 2);
    case 'i': case 'u':
      return align (c, 4) && take (c, 4);
    case 'x': case 't': case 'd':
      return align (c, 8) && take (c, 8);
    case 'b':
      if (!read_uint32 (c, &u))
        return FALSE;
      return u <= 1 || fail (c, "boolean that is neither 0 nor 1");
    case 'h':
      if (!read_uint32 (c, &u))
        return FALSE;
      return u < c->n_fds || fail (c, "fd index beyond UNIX_FDS");
    case 's':
      return read_string (c, NULL);
    case 'o':
      {
        const char *path;

        if (!read_string (c, &path))
          return FALSE;
        return xa_wire_is_object_path (path) || fail (c, "invalid object path");
      }
    case 'g':
      {
        const char *s;

        return read_signature (c, &s);
      }
    case 'v':
      {
        const char *inner;
        const char *p;

        if (!read_signature (c, &inner))
          return FALSE;
        p = inner;
        if (!skip_type (&p, inner + strlen (inner), 0, 0) || *p != '\0')
          return fail (c, "variant that is not one complete type");
        p = inner;
        return check_value (c, &p, arrays, structs, depth + 1);
      }
    case 'a':
      if (arrays >= MAX_ARRAY_DEPTH)
        return fail (c, "arrays nested too deep");
      return check_array (c, sig, arrays, structs, depth);
    case '(':
    case '{':
      if (structs >= MAX_STRUCT_DEPTH)
        return fail (c, "structs nested too deep");
      if (!align (c, 8))
        return FALSE;
      while (**sig != ')' && **sig != '}')
        if (!check_value (c, sig, arrays, structs + 1, depth + 1))
          return FALSE;
      (*sig)++;
      return TRUE;
    default:
      return fail (c, "unknown type in signature");
    }
}

/* ---------------------------------------------------------- header */

static gboolean
check_field (Cursor *c,
             XaWireHeader *h,
             guint32 *seen)
{
  guint8 code;
  const char *sig;
  const char *value = NULL;
  char expected;

  if (!align (c, 8))
    return FALSE;
  if (c->pos >= c->end)
    return fail (c, "truncated header field");
  code = c->data[c->pos++];
  if (code == 0)
    return fail (c, "header field 0");
  if (code < 32 && (*seen & (1u << code)) != 0)
    return fail (c, "header field given twice");
  if (code < 32)
    *seen |= 1u << code;
  if (!read_signature (c, &sig))
    return FALSE;
  switch (code)
    {
    case FIELD_PATH: expected = 'o'; break;
    case FIELD_INTERFACE: case FIELD_MEMBER: case FIELD_ERROR_NAME:
    case FIELD_DESTINATION: case FIELD_SENDER: expected = 's'; break;
    case FIELD_REPLY_SERIAL: case FIELD_UNIX_FDS: expected = 'u'; break;
    case FIELD_SIGNATURE: expected = 'g'; break;
    default:
      {
        /* Unknown fields are allowed and skipped, but still checked. */
        const char *p = sig;

        if (!skip_type (&p, sig + strlen (sig), 0, 0) || *p != '\0')
          return fail (c, "header field that is not one complete type");
        p = sig;
        return check_value (c, &p, 0, 0, 1);
      }
    }
  if (sig[0] != expected || sig[1] != '\0')
    return fail (c, "header field of the wrong type");
  if (expected == 'u')
    {
      guint32 v;
      gsize at;

      if (!align (c, 4))
        return FALSE;
      at = c->pos;
      if (!read_uint32 (c, &v))
        return FALSE;
      if (code == FIELD_REPLY_SERIAL)
        {
          if (v == 0)
            return fail (c, "reply serial 0");
          h->reply_serial = v;
          h->reply_serial_offset = at;
        }
      else
        h->n_unix_fds = v;
      return TRUE;
    }
  if (expected == 'g')
    return read_signature (c, &h->signature);
  if (!read_string (c, &value))
    return FALSE;
  switch (code)
    {
    case FIELD_PATH:
      h->path = value;
      return xa_wire_is_object_path (value) || fail (c, "invalid object path");
    case FIELD_INTERFACE:
      h->interface = value;
      return xa_wire_is_interface (value) || fail (c, "invalid interface name");
    case FIELD_MEMBER:
      h->member = value;
      return xa_wire_is_member (value) || fail (c, "invalid member name");
    case FIELD_ERROR_NAME:
      h->error_name = value;
      return xa_wire_is_interface (value) || fail (c, "invalid error name");
    case FIELD_DESTINATION:
      h->destination = value;
      return xa_wire_is_bus_name (value) || fail (c, "invalid destination");
    case FIELD_SENDER:
    default:
      h->sender = value;
      return xa_wire_is_bus_name (value) || fail (c, "invalid sender");
    }
}

static gboolean
check_required (Cursor *c,
                const XaWireHeader *h)
{
  switch (h->type)
    {
    case XA_WIRE_METHOD_CALL:
      return (h->path != NULL && h->member != NULL) || fail (c, "method call without path or member");
    case XA_WIRE_METHOD_RETURN:
      return h->reply_serial != 0 || fail (c, "method return without reply serial");
    case XA_WIRE_ERROR_REPLY:
      return (h->reply_serial != 0 && h->error_name != NULL) ||
             fail (c, "error without reply serial or name");
    case XA_WIRE_SIGNAL:
    default:
      return (h->path != NULL && h->interface != NULL && h->member != NULL) ||
             fail (c, "signal without path, interface or member");
    }
}

gboolean
xa_wire_parse (const guint8 *data,
               gsize length,
               guint n_fds,
               XaWireHeader *out,
               GError **error)
{
  Cursor c = { data, length, 0, FALSE, 0, error };
  XaWireHeader h = { 0, };
  gsize expected_length = 0;
  guint32 fields_len;
  gsize fields_end;
  guint32 seen = 0;
  const char *sig;

  if (length < XA_WIRE_FIXED_HEADER_SIZE)
    return fail (&c, "truncated header");
  if (!xa_wire_peek_length (data, length, XA_WIRE_MAX_MESSAGE, &expected_length, error))
    return FALSE;
  if (expected_length != length)
    return fail (&c, "length that does not add up");
  h.big_endian = c.big_endian = data[0] == 'B';
  h.type = data[1];
  h.flags = data[2];
  if (h.type < XA_WIRE_METHOD_CALL || h.type > XA_WIRE_SIGNAL)
    return fail (&c, "unknown message type");
  if (data[3] != 1)
    return fail (&c, "protocol version other than 1");
  h.body_length = read_u32 (data + 4, c.big_endian);
  h.serial = read_u32 (data + 8, c.big_endian);
  h.serial_offset = 8;
  if (h.serial == 0)
    return fail (&c, "serial 0");
  fields_len = read_u32 (data + 12, c.big_endian);
  c.pos = 16;
  fields_end = 16 + (gsize) fields_len;
  c.end = fields_end;
  while (c.pos < fields_end)
    if (!check_field (&c, &h, &seen))
      return FALSE;
  c.end = length;
  if (!align (&c, 8))
    return FALSE;
  if (!check_required (&c, &h))
    return FALSE;
  if (h.n_unix_fds > n_fds)
    return fail (&c, "UNIX_FDS above the fds that came with it");
  c.n_fds = h.n_unix_fds;

  h.body_offset = c.pos;
  if (h.signature == NULL)
    h.signature = "";
  sig = h.signature;
  while (*sig != '\0')
    if (!check_value (&c, &sig, 0, 0, 0))
      return FALSE;
  if (c.pos != length)
    return fail (&c, "body longer than its signature");
  *out = h;
  return TRUE;
}

void
xa_wire_set_serial (guint8 *data,
                    const XaWireHeader *header,
                    guint32 serial)
{
  guint32 v = header->big_endian ? GUINT32_TO_BE (serial) : GUINT32_TO_LE (serial);

  memcpy (data + header->serial_offset, &v, 4);
}
