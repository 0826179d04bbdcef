/* store/exports.h — an installation's exports: the desktop files, icons
 * and D-Bus service files of its apps, rewritten to launch through
 * `xdg-app run`, in one tree that the desktop finds through
 * XDG_DATA_DIRS. */
#pragma once

#include <glib.h>

#include "store/installation.h"

G_BEGIN_DECLS

/* The program an exported Exec= line starts; found in PATH, like any
 * launcher the desktop runs. */
#define XA_EXPORTS_PROGRAM "xdg-app"

char     *xa_exports_dir                  (XaInstallation  *inst);

gboolean  xa_exports_update               (XaInstallation  *inst,
                                           const char      *app_id,
                                           const char      *deploy_dir,
                                           GError         **error);
gboolean  xa_exports_update_full          (XaInstallation  *inst,
                                           const char      *app_id,
                                           const char      *deploy_dir,
                                           GPtrArray      **out_warnings,
                                           GError         **error);
gboolean  xa_exports_remove               (XaInstallation  *inst,
                                           const char      *app_id,
                                           GError         **error);

/* The same on an explicit exports directory (the installation's
 * "exports"), for tests and for callers without an XaInstallation. */
gboolean  xa_exports_update_at            (const char      *exports_root,
                                           const char      *app_id,
                                           const char      *deploy_dir,
                                           GPtrArray      **out_warnings,
                                           GError         **error);
gboolean  xa_exports_remove_at            (const char      *exports_root,
                                           const char      *app_id,
                                           GError         **error);

/* The checks and rewrites one exported file goes through.  A refused
 * file gets an error; a value that was dropped instead (a TryExec, an
 * Icon path) adds a line to @warnings when it is not NULL. */
gboolean  xa_exports_name_is_allowed      (const char      *app_id,
                                           const char      *file_name,
                                           const char      *suffix,
                                           gboolean         exact);
char     *xa_exports_rewrite_desktop_file (const char      *app_id,
                                           const char      *file_name,
                                           const char      *data,
                                           gsize            len,
                                           GPtrArray       *warnings,
                                           GError         **error);
char     *xa_exports_rewrite_service_file (const char      *app_id,
                                           const char      *file_name,
                                           const char      *data,
                                           gsize            len,
                                           GError         **error);

G_END_DECLS
