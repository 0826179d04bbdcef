/* policy/override.h — per-app permission overrides, what `xdg-app
 * override` edits.  Flatpak's layout: in an installation's overrides/
 * directory, one keyfile per app named by its id, and "global" for every
 * app; the content is a context (policy/context.h), negations included.
 * The effective permissions of a run are: metadata, then global, then the
 * app's file, then the run's flags. */
#pragma once

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

/* Largest override file accepted. */
#define XA_OVERRIDE_MAX_SIZE (1024 * 1024)

typedef struct _XaOverride XaOverride;

/* Loads OVERRIDES_DIR/APP_ID, or OVERRIDES_DIR/global when @app_id is
 * NULL.  A missing file (or directory) is an empty override.  Refuses an
 * invalid @app_id (XA_POLICY_ERROR_INVALID_NAME), a file that is not a
 * regular file or is too large (G_FILE_ERROR), and bad content as
 * xa_context_load_keyfile() does. */
XaOverride *xa_override_load         (const char  *overrides_dir,
                                      const char  *app_id,
                                      GError     **error);
/* Writes the context back atomically (fsutil/atomic-file.h), mode 0644,
 * creating the overrides directory itself (not its parents) if needed.
 * Groups and keys that are not permissions are kept as they were. */
gboolean    xa_override_save         (XaOverride  *self,
                                      GError     **error);
void        xa_override_free         (XaOverride  *self);

/* The override's own layer, to query or change before saving; borrowed. */
XaContext  *xa_override_get_context  (XaOverride  *self);
/* NULL for the global override. */
const char *xa_override_get_app_id   (XaOverride  *self);
const char *xa_override_get_path     (XaOverride  *self);

/* `xdg-app override --reset`: deletes the file; a missing one is fine. */
gboolean    xa_override_remove       (const char  *overrides_dir,
                                      const char  *app_id,
                                      GError     **error);

/* The global override with the app's merged over it: the layer a run
 * puts over the app's metadata.  A new context. */
XaContext  *xa_override_load_merged  (const char  *overrides_dir,
                                      const char  *app_id,
                                      GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaOverride, xa_override_free)

G_END_DECLS
