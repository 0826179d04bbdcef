/* broker/caller.h — XaCaller: who sent a message to the broker, as the
 * broker itself knows it (broker/identity.c finds it): a process of the
 * host, or a connection of one instance of an app, with the permission
 * context that instance was started with.  Portals decide on this,
 * never on anything the caller says about itself. */
#pragma once

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

typedef struct _XaCaller XaCaller;

XaCaller        *xa_caller_new_host         (void);
/* Copies @context: a caller may outlive its instance. */
XaCaller        *xa_caller_new_app          (const char      *app_id,
                                             const char      *instance_id,
                                             const XaContext *context);
XaCaller        *xa_caller_ref              (XaCaller        *self);
void             xa_caller_unref            (XaCaller        *self);

gboolean         xa_caller_is_host          (XaCaller        *self);
/* Each NULL for the host. */
const char      *xa_caller_get_app_id       (XaCaller        *self);
const char      *xa_caller_get_instance_id  (XaCaller        *self);
const XaContext *xa_caller_get_context      (XaCaller        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaCaller, xa_caller_unref)

G_END_DECLS
