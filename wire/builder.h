/* wire/builder.h — XaWireBuilder: writes one message, little-endian,
 * header fields and body, and its signature as values are added.  The
 * caller adds values in the order of the types it means; containers are
 * opened and closed around their contents. */
#pragma once

#include <glib.h>

#include "wire/message.h"

G_BEGIN_DECLS

typedef struct _XaWireBuilder XaWireBuilder;

XaWireBuilder *xa_wire_builder_new_method_call   (const char     *destination,
                                                  const char     *path,
                                                  const char     *interface,
                                                  const char     *member);
XaWireBuilder *xa_wire_builder_new_method_return (guint32         reply_serial);
XaWireBuilder *xa_wire_builder_new_error         (guint32         reply_serial,
                                                  const char     *error_name);
XaWireBuilder *xa_wire_builder_new_signal        (const char     *path,
                                                  const char     *interface,
                                                  const char     *member);
void           xa_wire_builder_free              (XaWireBuilder  *self);

void           xa_wire_builder_set_destination   (XaWireBuilder  *self,
                                                  const char     *destination);
void           xa_wire_builder_set_sender        (XaWireBuilder  *self,
                                                  const char     *sender);
void           xa_wire_builder_set_flags         (XaWireBuilder  *self,
                                                  guint8          flags);

void           xa_wire_builder_add_byte          (XaWireBuilder  *self,
                                                  guint8          value);
void           xa_wire_builder_add_boolean       (XaWireBuilder  *self,
                                                  gboolean        value);
void           xa_wire_builder_add_uint32        (XaWireBuilder  *self,
                                                  guint32         value);
void           xa_wire_builder_add_int64         (XaWireBuilder  *self,
                                                  gint64          value);
void           xa_wire_builder_add_string        (XaWireBuilder  *self,
                                                  const char     *value);
void           xa_wire_builder_add_object_path   (XaWireBuilder  *self,
                                                  const char     *value);
void           xa_wire_builder_add_signature     (XaWireBuilder  *self,
                                                  const char     *value);
/* h: @index into the fds that travel with the message; the caller sets
 * their number with xa_wire_builder_set_unix_fds(). */
void           xa_wire_builder_add_handle        (XaWireBuilder  *self,
                                                  guint32         index);
void           xa_wire_builder_set_unix_fds      (XaWireBuilder  *self,
                                                  guint32         n_fds);
/* ay */
void           xa_wire_builder_add_bytes         (XaWireBuilder  *self,
                                                  const guint8   *data,
                                                  gsize           len);
/* An array of @element_type ("s", "{sv}"…) */
void           xa_wire_builder_open_array        (XaWireBuilder  *self,
                                                  const char     *element_type);
void           xa_wire_builder_close_array       (XaWireBuilder  *self);
/* A struct, or a dict entry inside an array of "{…}". */
void           xa_wire_builder_open_struct       (XaWireBuilder  *self);
void           xa_wire_builder_close_struct      (XaWireBuilder  *self);
/* A variant holding one value of @type. */
void           xa_wire_builder_open_variant      (XaWireBuilder  *self,
                                                  const char     *type);
void           xa_wire_builder_close_variant     (XaWireBuilder  *self);

/* The message so far, with @serial. */
GBytes        *xa_wire_builder_finish            (XaWireBuilder  *self,
                                                  guint32         serial);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaWireBuilder, xa_wire_builder_free)

G_END_DECLS
