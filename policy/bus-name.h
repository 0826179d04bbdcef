/* policy/bus-name.h — D-Bus names as the specification defines them
 * ("Valid Bus Names"), checked without GIO: `xdg-app run` and the
 * broker's filter use these, and neither links GIO's D-Bus code for it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether @name is a valid well-known bus name: at most 255 bytes, two
 * or more non-empty elements separated by '.', each of [A-Za-z0-9_-]
 * and not starting with a digit.  Unique names (":1.42") are not. */
gboolean xa_bus_name_is_well_known (const char *name);

G_END_DECLS
