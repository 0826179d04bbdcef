/* wire/message.h — D-Bus messages on the wire, as the specification
 * defines them ("Message Protocol"): the length of a message from its
 * first bytes, and a full check of one before anything is done with it.
 * GLib only, no allocation: the broker runs every message through here,
 * and `xdg-app run` uses it to talk to the broker. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XA_WIRE_ERROR (xa_wire_error_quark ())

typedef enum
{
  XA_WIRE_ERROR_INVALID,    /* the bytes break the specification */
  XA_WIRE_ERROR_TOO_LARGE,  /* longer than the limit the caller set */
} XaWireErrorCode;

typedef enum
{
  XA_WIRE_METHOD_CALL   = 1,
  XA_WIRE_METHOD_RETURN = 2,
  XA_WIRE_ERROR_REPLY   = 3,
  XA_WIRE_SIGNAL        = 4,
} XaWireType;

#define XA_WIRE_FLAG_NO_REPLY_EXPECTED 0x1
#define XA_WIRE_FLAG_NO_AUTO_START     0x2

/* Bytes that tell a message's length. */
#define XA_WIRE_FIXED_HEADER_SIZE 16
/* The specification's limits. */
#define XA_WIRE_MAX_MESSAGE (128 * 1024 * 1024)
#define XA_WIRE_MAX_ARRAY (64 * 1024 * 1024)

/* A checked message.  Strings point into the message's bytes (each is
 * NUL-terminated there) and are NULL when the field is absent. */
typedef struct
{
  gboolean    big_endian;
  XaWireType  type;
  guint8      flags;
  guint32     serial;
  guint32     reply_serial;      /* 0 when absent */
  const char *path;
  const char *interface;
  const char *member;
  const char *error_name;
  const char *destination;
  const char *sender;
  const char *signature;         /* "" when absent */
  guint32     n_unix_fds;
  gsize       body_offset;
  gsize       body_length;
  gsize       serial_offset;     /* where serial sits, to patch it */
  gsize       reply_serial_offset; /* 0 when absent */
} XaWireHeader;

GQuark   xa_wire_error_quark     (void);

/* The whole length of the message that starts at @data, from its first
 * XA_WIRE_FIXED_HEADER_SIZE bytes (@avail must be at least that).  Fails
 * on a bad byte order or a length above @max. */
gboolean xa_wire_peek_length     (const guint8  *data,
                                  gsize          avail,
                                  gsize          max,
                                  gsize         *out_length,
                                  GError       **error);
/* Checks the message of @length bytes at @data completely: header,
 * header fields, body against its signature; @n_fds is how many fds
 * came with it (UNIX_FDS may not claim more).  Fills @out. */
gboolean xa_wire_parse           (const guint8  *data,
                                  gsize          length,
                                  guint          n_fds,
                                  XaWireHeader  *out,
                                  GError       **error);

/* Whether @sig (@len bytes) is a valid signature: complete types only,
 * the nesting limits kept. */
gboolean xa_wire_signature_is_valid (const char *sig,
                                     gsize       len);
/* The boundary a value of type @c starts on (1, 2, 4 or 8). */
gsize    xa_wire_type_alignment  (char c);
/* Syntax checks of the specification's names. */
gboolean xa_wire_is_object_path  (const char *s);
gboolean xa_wire_is_interface    (const char *s);
gboolean xa_wire_is_member       (const char *s);
gboolean xa_wire_is_bus_name     (const char *s);

/* Rewrites the serial of the message at @data in place. */
void     xa_wire_set_serial      (guint8              *data,
                                  const XaWireHeader  *header,
                                  guint32              serial);

G_END_DECLS
