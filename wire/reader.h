/* wire/reader.h — reads the body of a message that xa_wire_parse()
 * checked: values in signature order, in either byte order, without
 * copying.  A read of the wrong type, or past the end, returns FALSE and
 * leaves the reader where it was. */
#pragma once

#include <glib.h>

#include "wire/message.h"

G_BEGIN_DECLS

typedef struct
{
  const guint8 *data;
  gsize         pos;
  gsize         end;
  gboolean      big_endian;
  const char   *sig;        /* the types still to read */
  const char   *sig_end;    /* NULL: up to the NUL */
  const char   *element;    /* in an array: the element type, repeated */
  gsize         element_len;
} XaWireReader;

/* The body of @header's message at @data. */
gboolean xa_wire_reader_init         (XaWireReader        *reader,
                                      const guint8        *data,
                                      const XaWireHeader  *header);
/* The type of the next value, or '\0' at the end. */
char     xa_wire_reader_peek_type    (const XaWireReader  *reader);
/* s, o or g; borrowed, NUL-terminated. */
gboolean xa_wire_reader_read_string  (XaWireReader        *reader,
                                      const char         **out);
gboolean xa_wire_reader_read_uint32  (XaWireReader        *reader,
                                      guint32             *out);
gboolean xa_wire_reader_read_boolean (XaWireReader        *reader,
                                      gboolean            *out);
/* ay: the bytes, borrowed. */
gboolean xa_wire_reader_read_bytes   (XaWireReader        *reader,
                                      const guint8       **out,
                                      gsize               *out_len);
/* An array: @out_elements then reads its elements one after the other. */
gboolean xa_wire_reader_enter_array  (XaWireReader        *reader,
                                      XaWireReader        *out_elements);
/* A struct or dict entry: @out_fields reads its fields. */
gboolean xa_wire_reader_enter_struct (XaWireReader        *reader,
                                      XaWireReader        *out_fields);
/* A variant: @out_value reads its one value. */
gboolean xa_wire_reader_enter_variant (XaWireReader       *reader,
                                       XaWireReader       *out_value);
/* Skips the next value, whatever its type. */
gboolean xa_wire_reader_skip         (XaWireReader        *reader);

G_END_DECLS
