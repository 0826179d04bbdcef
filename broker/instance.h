/* broker/instance.h — XaInstance: one running sandbox as the broker
 * knows it: its id, its app, the permission context it was started with,
 * the pidfd of its monitor, and the sockets its buses listen on. */
#pragma once

#include <glib.h>

#include "broker/caller.h"
#include "policy/context.h"

G_BEGIN_DECLS

typedef struct _XaInstance XaInstance;

/* Which of the instance's buses a socket serves. */
typedef enum
{
  XA_INSTANCE_BUS_SESSION,
  XA_INSTANCE_BUS_SYSTEM,
  XA_INSTANCE_N_BUSES,
} XaInstanceBus;

/* Called for every connection accepted on one of the instance's
 * sockets; takes @fd (connected, non-blocking, close-on-exec). */
typedef void (*XaInstanceAcceptFunc) (XaInstance    *instance,
                                      XaInstanceBus  bus,
                                      int            fd,
                                      gpointer       user_data);

/* Called once when the instance ends: its monitor exited or it was
 * killed.  The instance is still valid during the call. */
typedef void (*XaInstanceEndedFunc) (XaInstance *instance,
                                     gpointer    user_data);

typedef struct
{
  const char          *runtime_dir;   /* the broker's own 0700 directory */
  XaInstanceAcceptFunc accept;
  XaInstanceEndedFunc  ended;
  gpointer             user_data;
} XaInstanceHooks;

/* Makes an instance and its sockets: RUNTIME_DIR/ID/bus (always) and
 * RUNTIME_DIR/ID/system-bus (when @context grants sockets=system-bus).
 * Takes @context and @pid_fd (on success and on failure).  Watches
 * @pid_fd: when the process exits, hooks->ended runs. */
XaInstance     *xa_instance_new            (const XaInstanceHooks  *hooks,
                                            const char             *app_id,
                                            XaContext              *context,
                                            int                     pid_fd,
                                            GError                **error);
/* Closes the sockets, removes their directory, stops watching. */
void            xa_instance_free           (XaInstance             *self);

const char     *xa_instance_get_id         (XaInstance             *self);
const char     *xa_instance_get_app_id     (XaInstance             *self);
const XaContext *xa_instance_get_context   (XaInstance             *self);
/* The instance as a caller of portals: shared by its connections, and
 * kept by them after the instance ends. */
XaCaller       *xa_instance_get_caller     (XaInstance             *self);
int             xa_instance_get_pid        (XaInstance             *self);
gint64          xa_instance_get_started    (XaInstance             *self);
/* The path of the socket of @bus, or NULL if the instance has none. */
const char     *xa_instance_get_socket_path (XaInstance            *self,
                                             XaInstanceBus          bus);

/* Connections the proxy holds open for this instance, for ListInstances;
 * safe from any thread. */
void            xa_instance_add_client     (XaInstance             *self);
void            xa_instance_remove_client  (XaInstance             *self);
guint           xa_instance_get_n_clients  (XaInstance             *self);

/* The pid that @pid_fd refers to (from /proc/self/fdinfo), or -1 if
 * @pid_fd is not a pidfd. */
int             xa_instance_read_pidfd_pid (int                     pid_fd);

/* SIGKILL to the monitor, through the pidfd: never another process that
 * reused the pid. */
gboolean        xa_instance_kill           (XaInstance             *self,
                                            GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaInstance, xa_instance_free)

G_END_DECLS
