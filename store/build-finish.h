/* store/build-finish.h — finishes a build directory: the command and the
 * permissions go into `metadata`, the app's desktop files, icons and
 * D-Bus service files into `export/`, as `flatpak build-finish` does. */
#pragma once

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

/* Everything `xdg-app build-finish` takes; NULL or FALSE members get the
 * default named beside them. */
typedef struct
{
  const char *dir;         /* the build directory, initialized and not finished */
  const char *command;     /* --command=: the metadata's, else the one program in files/bin */
  XaContext  *context;     /* --socket=, --share=, …, parsed by the caller: none */
  gboolean    no_exports;  /* --no-exports: an empty export/ */
} XaBuildFinishOptions;

gboolean xa_build_finish (const XaBuildFinishOptions  *options,
                          GPtrArray                  **out_messages,
                          GError                     **error);

G_END_DECLS
