/* wire/builder.c — see builder.h.  Trusts: its caller for names and
 * values (they are ours, or were checked on their way in); the message it
 * writes is one that xa_wire_parse() accepts, which the tests hold it
 * to. */
#include <string.h>

#include <glib.h>

#include "wire/builder.h"

typedef enum
{
  FRAME_ARRAY,
  FRAME_STRUCT,
  FRAME_VARIANT,
} FrameKind;

typedef struct
{
  FrameKind kind;
  gsize     length_at;   /* arrays: where the length goes */
  gsize     start;       /* arrays: where the elements start */
  GString  *types;       /* structs: the types of the fields so far */
} Frame;

struct _XaWireBuilder
{
  XaWireType  type;
  guint8      flags;
  char       *path;
  char       *interface;
  char       *member;
  char       *error_name;
  char       *destination;
  char       *sender;
  guint32     reply_serial;
  guint32     n_unix_fds;
  GString    *signature;
  GByteArray *body;
  GArray     *frames;    /* Frame */
};

static XaWireBuilder *
builder_new (XaWireType type)
{
  XaWireBuilder *self = g_new0 (XaWireBuilder, 1);

  self->type = type;
  self->signature = g_string_new (NULL);
  self->body = g_byte_array_new ();
  self->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  return self;
}

XaWireBuilder *
xa_wire_builder_new_method_call (const char *destination,
                                 const char *path,
                                 const char *interface,
                                 const char *member)
{
  XaWireBuilder *self = builder_new (XA_WIRE_METHOD_CALL);

  self->destination = g_strdup (destination);
  self->path = g_strdup (path);
  self->interface = g_strdup (interface);
  self->member = g_strdup (member);
  return self;
}

XaWireBuilder *
xa_wire_builder_new_method_return (guint32 reply_serial)
{
  XaWireBuilder *self = builder_new (XA_WIRE_METHOD_RETURN);

  self->reply_serial = reply_serial;
  return self;
}

XaWireBuilder *
xa_wire_builder_new_error (guint32 reply_serial,
                           const char *error_name)
{
  XaWireBuilder *self = builder_new (XA_WIRE_ERROR_REPLY);

  self->reply_serial = reply_serial;
  self->error_name = g_strdup (error_name);
  return self;
}

XaWireBuilder *
xa_wire_builder_new_signal (const char *path,
                            const char *interface,
                            const char *member)
{
  XaWireBuilder *self = builder_new (XA_WIRE_SIGNAL);

  self->path = g_strdup (path);
  self->interface = g_strdup (interface);
  self->member = g_strdup (member);
  return self;
}

void
xa_wire_builder_free (XaWireBuilder *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->frames->len; i++)
    {
      Frame *f = &g_array_index (self->frames, Frame, i);

      if (f->types != NULL)
        g_string_free (f->types, TRUE);
    }
  g_array_unref (self->frames);
  g_byte_array_unref (self->body);
  g_string_free (self->signature, TRUE);
  g_free (self->path);
  g_free (self->interface);
  g_free (self->member);
  g_free (self->error_name);
  g_free (self->destination);
  g_free (self->sender);
  g_free (self);
}

void
xa_wire_builder_set_destination (XaWireBuilder *self,
                                 const char *destination)
{
  g_free (self->destination);
  self->destination = g_strdup (destination);
}

void
xa_wire_builder_set_sender (XaWireBuilder *self,
                            const char *sender)
{
  g_free (self->sender);
  self->sender = g_strdup (sender);
}

void
xa_wire_builder_set_flags (XaWireBuilder *self,
                           guint8 flags)
{
  self->flags = flags;
}

void
xa_wire_builder_set_unix_fds (XaWireBuilder *self,
                              guint32 n_fds)
{
  self->n_unix_fds = n_fds;
}

/* ------------------------------------------------------ raw writes */

static void
pad (GByteArray *out,
     gsize boundary)
{
  static const guint8 zeros[8] = { 0, };
  gsize n = ((out->len + boundary - 1) & ~(boundary - 1)) - out->len;

  g_byte_array_append (out, zeros, n);
}

static void
put_u32 (GByteArray *out,
         guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);

  pad (out, 4);
  g_byte_array_append (out, (const guint8 *) &le, 4);
}

static void
put_string (GByteArray *out,
            const char *s)
{
  gsize len = strlen (s);

  put_u32 (out, len);
  g_byte_array_append (out, (const guint8 *) s, len + 1);
}

static void
put_signature (GByteArray *out,
               const char *s)
{
  guint8 len = strlen (s);

  g_byte_array_append (out, &len, 1);
  g_byte_array_append (out, (const guint8 *) s, len + 1);
}

/* ---------------------------------------------------------- values */

/* Records @type for the signature of the body or of the open struct;
 * inside arrays and variants the type was given up front. */
static void
note_type (XaWireBuilder *self,
           const char *type)
{
  Frame *top;

  if (self->frames->len == 0)
    {
      g_string_append (self->signature, type);
      return;
    }
  top = &g_array_index (self->frames, Frame, self->frames->len - 1);
  if (top->kind == FRAME_STRUCT)
    g_string_append (top->types, type);
}

void
xa_wire_builder_add_byte (XaWireBuilder *self,
                          guint8 value)
{
  note_type (self, "y");
  g_byte_array_append (self->body, &value, 1);
}

void
xa_wire_builder_add_boolean (XaWireBuilder *self,
                             gboolean value)
{
  note_type (self, "b");
  put_u32 (self->body, value ? 1 : 0);
}

void
xa_wire_builder_add_uint32 (XaWireBuilder *self,
                            guint32 value)
{
  note_type (self, "u");
  put_u32 (self->body, value);
}

void
xa_wire_builder_add_int64 (XaWireBuilder *self,
                           gint64 value)
{
  guint64 le = GUINT64_TO_LE ((guint64) value);

  note_type (self, "x");
  pad (self->body, 8);
  g_byte_array_append (self->body, (const guint8 *) &le, 8);
}

void
xa_wire_builder_add_handle (XaWireBuilder *self,
                            guint32 index)
{
  note_type (self, "h");
  put_u32 (self->body, index);
}

void
xa_wire_builder_add_string (XaWireBuilder *self,
                            const char *value)
{
  note_type (self, "s");
  put_string (self->body, value);
}

void
xa_wire_builder_add_object_path (XaWireBuilder *self,
                                 const char *value)
{
  note_type (self, "o");
  put_string (self->body, value);
}

void
xa_wire_builder_add_signature (XaWireBuilder *self,
                               const char *value)
{
  note_type (self, "g");
  put_signature (self->body, value);
}

void
xa_wire_builder_add_bytes (XaWireBuilder *self,
                           const guint8 *data,
                           gsize len)
{
  note_type (self, "ay");
  put_u32 (self->body, len);
  g_byte_array_append (self->body, data, len);
}


void
xa_wire_builder_open_array (XaWireBuilder *self,
                            const char *element_type)
{
  g_autofree char *type = g_strconcat ("a", element_type, NULL);
  Frame frame = { FRAME_ARRAY, 0, 0, NULL };

  note_type (self, type);
  put_u32 (self->body, 0);
  frame.length_at = self->body->len - 4;
  pad (self->body, xa_wire_type_alignment (element_type[0]));
  frame.start = self->body->len;
  g_array_append_val (self->frames, frame);
}

void
xa_wire_builder_close_array (XaWireBuilder *self)
{
  Frame *f = &g_array_index (self->frames, Frame, self->frames->len - 1);
  guint32 len = GUINT32_TO_LE (self->body->len - f->start);

  g_return_if_fail (f->kind == FRAME_ARRAY);
  memcpy (self->body->data + f->length_at, &len, 4);
  g_array_set_size (self->frames, self->frames->len - 1);
}

void
xa_wire_builder_open_struct (XaWireBuilder *self)
{
  Frame frame = { FRAME_STRUCT, 0, 0, g_string_new (NULL) };

  pad (self->body, 8);
  g_array_append_val (self->frames, frame);
}

void
xa_wire_builder_close_struct (XaWireBuilder *self)
{
  Frame f = g_array_index (self->frames, Frame, self->frames->len - 1);
  g_autofree char *type = NULL;

  g_return_if_fail (f.kind == FRAME_STRUCT);
  g_array_set_size (self->frames, self->frames->len - 1);
  type = g_strdup_printf ("(%s)", f.types->str);
  g_string_free (f.types, TRUE);
  note_type (self, type);
}

void
xa_wire_builder_open_variant (XaWireBuilder *self,
                              const char *type)
{
  Frame frame = { FRAME_VARIANT, 0, 0, NULL };

  note_type (self, "v");
  put_signature (self->body, type);
  g_array_append_val (self->frames, frame);
}

void
xa_wire_builder_close_variant (XaWireBuilder *self)
{
  g_return_if_fail (g_array_index (self->frames, Frame, self->frames->len - 1).kind == FRAME_VARIANT);
  g_array_set_size (self->frames, self->frames->len - 1);
}

/* ---------------------------------------------------------- finish */

static void
put_field (GByteArray *out,
           guint8 code,
           const char *type,
           const char *string,
           guint32 number)
{
  pad (out, 8);
  g_byte_array_append (out, &code, 1);
  put_signature (out, type);
  if (type[0] == 'u')
    put_u32 (out, number);
  else if (type[0] == 'g')
    put_signature (out, string);
  else
    put_string (out, string);
}

GBytes *
xa_wire_builder_finish (XaWireBuilder *self,
                        guint32 serial)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 fixed[4] = { 'l', self->type, self->flags, 1 };
  gsize fields_start;
  guint32 fields_len;

  g_return_val_if_fail (self->frames->len == 0, NULL);

  g_byte_array_append (out, fixed, 4);
  put_u32 (out, self->body->len);
  put_u32 (out, serial);
  put_u32 (out, 0);
  fields_start = out->len;
  if (self->path != NULL)
    put_field (out, 1, "o", self->path, 0);
  if (self->interface != NULL)
    put_field (out, 2, "s", self->interface, 0);
  if (self->member != NULL)
    put_field (out, 3, "s", self->member, 0);
  if (self->error_name != NULL)
    put_field (out, 4, "s", self->error_name, 0);
  if (self->reply_serial != 0)
    put_field (out, 5, "u", NULL, self->reply_serial);
  if (self->destination != NULL)
    put_field (out, 6, "s", self->destination, 0);
  if (self->sender != NULL)
    put_field (out, 7, "s", self->sender, 0);
  if (self->signature->len > 0)
    put_field (out, 8, "g", self->signature->str, 0);
  if (self->n_unix_fds > 0)
    put_field (out, 9, "u", NULL, self->n_unix_fds);
  fields_len = GUINT32_TO_LE (out->len - fields_start);
  memcpy (out->data + 12, &fields_len, 4);
  pad (out, 8);
  g_byte_array_append (out, self->body->data, self->body->len);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
