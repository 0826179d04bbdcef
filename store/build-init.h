/* store/build-init.h — lays out a build directory: `metadata`, `files/`
 * and `var/`, as `flatpak build-init` does. */
#pragma once

#include <glib.h>

#include "store/installation.h"

G_BEGIN_DECLS

/* Everything `xdg-app build-init` takes; NULL or FALSE members get the
 * default named beside them. */
typedef struct
{
  const char      *dir;          /* DIR; created if missing, must not hold files/ yet */
  const char      *id;           /* the app's id, or the runtime's with is_runtime */
  const char      *sdk;          /* SDK id: its files are /usr while building */
  const char      *runtime;      /* PLATFORM id: /usr when the app runs */
  const char      *branch;       /* BRANCH of both: "master" */
  const char      *arch;         /* this machine's */
  const char      *var;          /* -v VAR: a runtime whose files/ become var/; an empty var/ */
  XaInstallation  *installation; /* where VAR is installed; needed with var */
  gboolean         is_runtime;   /* --type=runtime: [Runtime] instead of [Application] */
} XaBuildInitOptions;

gboolean xa_build_init (const XaBuildInitOptions  *options,
                        GError                   **error);

G_END_DECLS
