/* wire/reader.c — see reader.h.  Trusts: xa_wire_parse() to have
 * checked the message; still never reads outside it. */
#include <string.h>

#include <glib.h>

#include "wire/reader.h"

static guint32
get_u32 (const XaWireReader *r,
         gsize pos)
{
  guint32 v;

  memcpy (&v, r->data + pos, 4);
  return r->big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static gsize
aligned (gsize pos,
         gsize boundary)
{
  return (pos + boundary - 1) & ~(boundary - 1);
}

/* The end of the complete type at @sig. */
static const char *
type_end (const char *sig)
{
  int depth = 0;

  while (*sig == 'a')
    sig++;
  if (*sig != '(' && *sig != '{')
    return sig + 1;
  do
    {
      if (*sig == '(' || *sig == '{')
        depth++;
      else if (*sig == ')' || *sig == '}')
        depth--;
      sig++;
    }
  while (depth > 0);
  return sig;
}

gboolean
xa_wire_reader_init (XaWireReader *reader,
                     const guint8 *data,
                     const XaWireHeader *header)
{
  *reader = (XaWireReader) {
    .data = data,
    .pos = header->body_offset,
    .end = header->body_offset + header->body_length,
    .big_endian = header->big_endian,
    .sig = header->signature,
  };
  return TRUE;
}

char
xa_wire_reader_peek_type (const XaWireReader *r)
{
  if (r->element != NULL)
    return r->pos < r->end ? r->element[0] : '\0';
  if ((r->sig_end != NULL && r->sig >= r->sig_end) || r->sig[0] == '\0')
    return '\0';
  return r->sig[0];
}

/* Moves past the current type: the next element or field. */
static void
next_type (XaWireReader *r)
{
  if (r->element == NULL)
    r->sig = type_end (r->sig);
}

/* Skips the value of type @sig at *@pos; FALSE if it leaves the data. */
static gboolean
skip_at (const XaWireReader *r,
         const char **sig,
         gsize *pos,
         gsize end)
{
  char t = **sig;
  gsize p = aligned (*pos, xa_wire_type_alignment (t));
  guint32 len;

  if (p > end)
    return FALSE;
  switch (t)
    {
    case 'y': p += 1; (*sig)++; break;
    case 'n': case 'q': p += 2; (*sig)++; break;
    case 'b': case 'i': case 'u': case 'h': p += 4; (*sig)++; break;
    case 'x': case 't': case 'd': p += 8; (*sig)++; break;
    case 's': case 'o':
      if (end - p < 4)
        return FALSE;
      p += 4 + (gsize) get_u32 (r, p) + 1;
      (*sig)++;
      break;
    case 'g':
      p += 1 + (gsize) r->data[p] + 1;
      (*sig)++;
      break;
    case 'v':
      {
        const char *inner = (const char *) r->data + p + 1;

        p += 1 + (gsize) r->data[p] + 1;
        if (p > end || !skip_at (r, &inner, &p, end))
          return FALSE;
        (*sig)++;
        break;
      }
    case 'a':
      {
        const char *element = *sig + 1;

        if (end - p < 4)
          return FALSE;
        len = get_u32 (r, p);
        p = aligned (p + 4, xa_wire_type_alignment (element[0])) + len;
        *sig = type_end (element);
        break;
      }
    case '(':
    case '{':
      (*sig)++;
      while (**sig != ')' && **sig != '}')
        if (!skip_at (r, sig, &p, end))
          return FALSE;
      (*sig)++;
      break;
    default:
      return FALSE;
    }
  if (p > end)
    return FALSE;
  *pos = p;
  return TRUE;
}

gboolean
xa_wire_reader_skip (XaWireReader *r)
{
  const char *sig = r->element != NULL ? r->element : r->sig;

  if (xa_wire_reader_peek_type (r) == '\0' || !skip_at (r, &sig, &r->pos, r->end))
    return FALSE;
  next_type (r);
  return TRUE;
}

gboolean
xa_wire_reader_read_string (XaWireReader *r,
                            const char **out)
{
  char t = xa_wire_reader_peek_type (r);
  gsize p;

  if (t != 's' && t != 'o' && t != 'g')
    return FALSE;
  if (t == 'g')
    {
      p = r->pos;
      if (p >= r->end)
        return FALSE;
      *out = (const char *) r->data + p + 1;
    }
  else
    {
      p = aligned (r->pos, 4);
      if (p + 4 > r->end)
        return FALSE;
      *out = (const char *) r->data + p + 4;
    }
  return xa_wire_reader_skip (r);
}

gboolean
xa_wire_reader_read_uint32 (XaWireReader *r,
                            guint32 *out)
{
  gsize p = aligned (r->pos, 4);
  char t = xa_wire_reader_peek_type (r);

  if ((t != 'u' && t != 'b' && t != 'h' && t != 'i') || p + 4 > r->end)
    return FALSE;
  *out = get_u32 (r, p);
  return xa_wire_reader_skip (r);
}

gboolean
xa_wire_reader_read_boolean (XaWireReader *r,
                             gboolean *out)
{
  guint32 v;

  if (xa_wire_reader_peek_type (r) != 'b' || !xa_wire_reader_read_uint32 (r, &v))
    return FALSE;
  *out = v != 0;
  return TRUE;
}

gboolean
xa_wire_reader_enter_array (XaWireReader *r,
                            XaWireReader *out)
{
  const char *sig = r->element != NULL ? r->element : r->sig;
  const char *element = sig + 1;
  gsize p = aligned (r->pos, 4);
  gsize start;
  guint32 len;

  if (xa_wire_reader_peek_type (r) != 'a' || p + 4 > r->end)
    return FALSE;
  len = get_u32 (r, p);
  start = aligned (p + 4, xa_wire_type_alignment (element[0]));
  if (start > r->end || len > r->end - start)
    return FALSE;
  *out = (XaWireReader) {
    .data = r->data,
    .pos = start,
    .end = start + len,
    .big_endian = r->big_endian,
    .sig = element,
    .element = element,
    .element_len = type_end (element) - element,
  };
  return xa_wire_reader_skip (r);
}

gboolean
xa_wire_reader_read_bytes (XaWireReader *r,
                           const guint8 **out,
                           gsize *out_len)
{
  const char *sig = r->element != NULL ? r->element : r->sig;
  XaWireReader bytes;

  if (sig[0] != 'a' || sig[1] != 'y' || !xa_wire_reader_enter_array (r, &bytes))
    return FALSE;
  *out = bytes.data + bytes.pos;
  *out_len = bytes.end - bytes.pos;
  return TRUE;
}

gboolean
xa_wire_reader_enter_struct (XaWireReader *r,
                             XaWireReader *out)
{
  const char *sig = r->element != NULL ? r->element : r->sig;
  gsize p = aligned (r->pos, 8);
  char t = xa_wire_reader_peek_type (r);

  if ((t != '(' && t != '{') || p > r->end)
    return FALSE;
  *out = (XaWireReader) {
    .data = r->data,
    .pos = p,
    .end = r->end,
    .big_endian = r->big_endian,
    .sig = sig + 1,
    .sig_end = type_end (sig) - 1,
  };
  return xa_wire_reader_skip (r);
}

gboolean
xa_wire_reader_enter_variant (XaWireReader *r,
                              XaWireReader *out)
{
  gsize p = r->pos;
  const char *inner;

  if (xa_wire_reader_peek_type (r) != 'v' || p >= r->end)
    return FALSE;
  inner = (const char *) r->data + p + 1;
  *out = (XaWireReader) {
    .data = r->data,
    .pos = p + 1 + (gsize) r->data[p] + 1,
    .end = r->end,
    .big_endian = r->big_endian,
    .sig = inner,
    .sig_end = inner + r->data[p],
  };
  return xa_wire_reader_skip (r);
}
