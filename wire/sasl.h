/* wire/sasl.h — the authentication that opens every D-Bus connection
 * (the specification's "Authentication Protocol"), EXTERNAL only, with
 * unix fd negotiation: the server side (the broker, facing a sandbox)
 * and the client side (the broker facing the bus; `xdg-app run` facing
 * the bus).  State machines without I/O: feed them the bytes read, send
 * the bytes they return. */
#pragma once

#include <sys/types.h>

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  XA_SASL_CONTINUE,   /* send the reply, feed more */
  XA_SASL_DONE,       /* authenticated; bytes after *out_consumed are messages */
  XA_SASL_FAILED,     /* close the connection */
} XaSaslStatus;

typedef struct _XaSaslServer XaSaslServer;
typedef struct _XaSaslClient XaSaslClient;

/* @peer_uid: the connecting process's uid (SO_PEERCRED); the only
 * identity EXTERNAL accepts. */
XaSaslServer *xa_sasl_server_new           (uid_t          peer_uid,
                                            gboolean       allow_unix_fds);
void          xa_sasl_server_free          (XaSaslServer  *self);
/* Consumes the handshake's bytes at the start of @data (*@out_consumed)
 * and appends the answers to @reply. */
XaSaslStatus  xa_sasl_server_feed          (XaSaslServer  *self,
                                            const guint8  *data,
                                            gsize          len,
                                            gsize         *out_consumed,
                                            GByteArray    *reply,
                                            GError       **error);
gboolean      xa_sasl_server_get_unix_fds  (XaSaslServer  *self);

XaSaslClient *xa_sasl_client_new           (uid_t          uid,
                                            gboolean       want_unix_fds);
void          xa_sasl_client_free          (XaSaslClient  *self);
/* The first bytes to send: the NUL and AUTH EXTERNAL. */
void          xa_sasl_client_start         (XaSaslClient  *self,
                                            GByteArray    *out);
XaSaslStatus  xa_sasl_client_feed          (XaSaslClient  *self,
                                            const guint8  *data,
                                            gsize          len,
                                            gsize         *out_consumed,
                                            GByteArray    *reply,
                                            GError       **error);
gboolean      xa_sasl_client_get_unix_fds  (XaSaslClient  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaSaslServer, xa_sasl_server_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaSaslClient, xa_sasl_client_free)

G_END_DECLS
