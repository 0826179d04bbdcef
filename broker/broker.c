/* broker/broker.c — see broker.h.  The instance table: an instance is in
 * it from registration until its monitor exits or it is killed; nothing
 * else removes one.  The connection table: one XaCaller per proxied
 * connection, per bus (unique names of two buses may be equal).  The
 * table is the only part shared with the proxy's threads
 * (broker/bus-proxy.c), under its own lock; the rest belongs to the
 * main thread. */
#include <glib.h>

#include "broker/broker.h"

struct _XaBroker
{
  XaBrokerOptions options;     /* strings owned */
  GHashTable     *instances;   /* id → XaInstance, owned */
  GPtrArray      *order;       /* XaInstance, borrowed, oldest first */
  XaInstanceAcceptFunc      accept;
  gpointer                  accept_data;
  GArray                   *ended;     /* EndedHook, in the order added */
  GMutex                    connections_lock;
  GHashTable               *connections[XA_INSTANCE_N_BUSES];  /* unique name → XaCaller */
};

typedef struct
{
  XaBrokerInstanceEndedFunc func;
  gpointer                  user_data;
} EndedHook;

XaBroker *
xa_broker_new (const XaBrokerOptions *options)
{
  XaBroker *self = g_new0 (XaBroker, 1);

  self->options.runtime_dir = g_strdup (options->runtime_dir);
  self->options.session_address = g_strdup (options->session_address);
  self->options.system_address = g_strdup (options->system_address);
  self->instances = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                           (GDestroyNotify) xa_instance_free);
  self->order = g_ptr_array_new ();
  self->ended = g_array_new (FALSE, FALSE, sizeof (EndedHook));
  g_mutex_init (&self->connections_lock);
  for (gsize i = 0; i < G_N_ELEMENTS (self->connections); i++)
    self->connections[i] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                  (GDestroyNotify) xa_caller_unref);
  return self;
}

void
xa_broker_free (XaBroker *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->order);
  g_hash_table_unref (self->instances);
  g_array_unref (self->ended);
  for (gsize i = 0; i < G_N_ELEMENTS (self->connections); i++)
    g_hash_table_unref (self->connections[i]);
  g_mutex_clear (&self->connections_lock);
  g_free ((char *) self->options.runtime_dir);
  g_free ((char *) self->options.session_address);
  g_free ((char *) self->options.system_address);
  g_free (self);
}

const XaBrokerOptions *
xa_broker_get_options (XaBroker *self)
{
  return &self->options;
}

void
xa_broker_set_accept_func (XaBroker *self,
                           XaInstanceAcceptFunc func,
                           gpointer user_data)
{
  self->accept = func;
  self->accept_data = user_data;
}

void
xa_broker_add_ended_func (XaBroker *self,
                          XaBrokerInstanceEndedFunc func,
                          gpointer user_data)
{
  EndedHook hook = { func, user_data };

  g_array_append_val (self->ended, hook);
}

void
xa_broker_remove_ended_func (XaBroker *self,
                             XaBrokerInstanceEndedFunc func,
                             gpointer user_data)
{
  for (guint i = 0; i < self->ended->len; i++)
    {
      EndedHook *hook = &g_array_index (self->ended, EndedHook, i);

      if (hook->func == func && hook->user_data == user_data)
        {
          g_array_remove_index (self->ended, i);
          return;
        }
    }
}

static void
on_accept (XaInstance *instance,
           XaInstanceBus bus,
           int fd,
           gpointer user_data)
{
  XaBroker *self = user_data;

  self->accept (instance, bus, fd, self->accept_data);
}

static void
on_ended (XaInstance *instance,
          gpointer user_data)
{
  XaBroker *self = user_data;

  for (guint i = 0; i < self->ended->len; i++)
    {
      EndedHook *hook = &g_array_index (self->ended, EndedHook, i);

      hook->func (self, instance, hook->user_data);
    }
  g_ptr_array_remove (self->order, instance);
  g_hash_table_remove (self->instances, xa_instance_get_id (instance));
}

XaInstance *
xa_broker_add_instance (XaBroker *self,
                        const char *app_id,
                        XaContext *context,
                        int pid_fd,
                        GError **error)
{
  const XaInstanceHooks hooks = {
    .runtime_dir = self->options.runtime_dir,
    .accept = on_accept,
    .ended = on_ended,
    .user_data = self,
  };
  XaInstance *instance;

  g_return_val_if_fail (self->accept != NULL, NULL);
  instance = xa_instance_new (&hooks, app_id, context, pid_fd, error);
  if (instance == NULL)
    return NULL;
  g_hash_table_insert (self->instances, (gpointer) xa_instance_get_id (instance), instance);
  g_ptr_array_add (self->order, instance);
  return instance;
}

XaInstance *
xa_broker_lookup_instance (XaBroker *self,
                           const char *id)
{
  return g_hash_table_lookup (self->instances, id);
}

GPtrArray *
xa_broker_list_instances (XaBroker *self)
{
  GPtrArray *list = g_ptr_array_new ();

  for (guint i = 0; i < self->order->len; i++)
    g_ptr_array_add (list, self->order->pdata[i]);
  return list;
}

void
xa_broker_add_connection (XaBroker *self,
                          XaInstance *instance,
                          XaInstanceBus bus,
                          const char *unique_name)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_if_fail (bus < XA_INSTANCE_N_BUSES);
  locker = g_mutex_locker_new (&self->connections_lock);
  g_hash_table_replace (self->connections[bus], g_strdup (unique_name),
                        xa_caller_ref (xa_instance_get_caller (instance)));
}

void
xa_broker_remove_connection (XaBroker *self,
                             XaInstanceBus bus,
                             const char *unique_name)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_if_fail (bus < XA_INSTANCE_N_BUSES);
  locker = g_mutex_locker_new (&self->connections_lock);
  g_hash_table_remove (self->connections[bus], unique_name);
}

XaCaller *
xa_broker_lookup_connection (XaBroker *self,
                             XaInstanceBus bus,
                             const char *unique_name)
{
  g_autoptr(GMutexLocker) locker = NULL;
  XaCaller *caller;

  g_return_val_if_fail (bus < XA_INSTANCE_N_BUSES, NULL);
  locker = g_mutex_locker_new (&self->connections_lock);
  caller = g_hash_table_lookup (self->connections[bus], unique_name);
  return caller != NULL ? xa_caller_ref (caller) : NULL;
}
