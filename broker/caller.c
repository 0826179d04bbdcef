/* broker/caller.c — see caller.h.  A value: made once, never changed,
 * shared by reference. */
#include <glib.h>

#include "broker/caller.h"

struct _XaCaller
{
  gatomicrefcount ref;
  char           *app_id;        /* NULL: the host */
  char           *instance_id;
  XaContext      *context;
};

XaCaller *
xa_caller_new_host (void)
{
  XaCaller *self = g_new0 (XaCaller, 1);

  g_atomic_ref_count_init (&self->ref);
  return self;
}

XaCaller *
xa_caller_new_app (const char *app_id,
                   const char *instance_id,
                   const XaContext *context)
{
  XaCaller *self = xa_caller_new_host ();

  self->app_id = g_strdup (app_id);
  self->instance_id = g_strdup (instance_id);
  self->context = xa_context_dup (context);
  return self;
}

XaCaller *
xa_caller_ref (XaCaller *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
xa_caller_unref (XaCaller *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_free (self->app_id);
  g_free (self->instance_id);
  g_clear_pointer (&self->context, xa_context_free);
  g_free (self);
}

gboolean
xa_caller_is_host (XaCaller *self)
{
  return self->app_id == NULL;
}

const char *
xa_caller_get_app_id (XaCaller *self)
{
  return self->app_id;
}

const char *
xa_caller_get_instance_id (XaCaller *self)
{
  return self->instance_id;
}

const XaContext *
xa_caller_get_context (XaCaller *self)
{
  return self->context;
}
