/* cli/label.h — how the CLI names refs and installations in what it
 * prints: the same words in every command's messages and columns. */
#pragma once

#include <glib.h>

#include "store/installation.h"
#include "store/ref.h"

G_BEGIN_DECLS

/* "'org.example.Notes'" for an app, "runtime 'ID/ARCH/BRANCH'" for a
 * runtime (the form metadata files name runtimes with), quoted, as the
 * store's own messages name them. */
char       *xa_label_dup_ref   (const XaRef    *ref);

/* "user" or "system". */
const char *xa_label_get_scope (XaInstallation *inst);

G_END_DECLS
