/* wire/address.h — D-Bus server addresses ("unix:path=…",
 * "unix:abstract=…", several separated by ';'), and connecting to one.
 * GLib only: the `xdg-app` command connects with it too. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Connects to the first address of @address that works (unix transports
 * only: a bus of this machine).  Returns a blocking, close-on-exec
 * socket, or -1 with @error set. */
int xa_wire_address_connect (const char  *address,
                             GError     **error);

G_END_DECLS
