/* policy/metadata.h — the `metadata` keyfile of an app or a runtime, in
 * Flatpak's format: [Application] or [Runtime] (name, runtime, sdk,
 * command) and the permission groups that policy/context.h reads.
 * Metadata comes from repositories: every field is checked on load. */
#pragma once

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

typedef enum
{
  XA_METADATA_APP,
  XA_METADATA_RUNTIME,
} XaMetadataKind;

/* Largest metadata file accepted. */
#define XA_METADATA_MAX_SIZE (1024 * 1024)

typedef struct _XaMetadata XaMetadata;

/* Parses and checks a metadata file.  @origin names it in messages (a ref
 * or an id: "metadata of 'ORIGIN', [Context]: unknown socket 'x12' (valid:
 * …)"); NULL uses the path, or "metadata" for data.  Refuses, with
 * XA_POLICY_ERROR_INVALID_METADATA: more than XA_METADATA_MAX_SIZE bytes,
 * NUL bytes, invalid UTF-8, keyfile syntax errors, neither or both of
 * [Application] and [Runtime]; XA_POLICY_ERROR_INVALID_NAME: a bad name,
 * runtime or sdk; XA_POLICY_ERROR_INVALID_VALUE: a bad command; and what
 * xa_context_load_keyfile() refuses.  Unknown groups and keys are
 * ignored, for forward compatibility. */
XaMetadata *xa_metadata_load_data      (const char   *data,
                                        gsize         len,
                                        const char   *origin,
                                        GError      **error);
/* As xa_metadata_load_data(), from a regular file (not a symlink).  I/O
 * errors, a file over the size limit included, are G_FILE_ERROR
 * (G_FILE_ERROR_NOENT when it is missing). */
XaMetadata *xa_metadata_load_file      (const char   *path,
                                        const char   *origin,
                                        GError      **error);
void        xa_metadata_free           (XaMetadata   *self);

XaMetadataKind xa_metadata_get_kind    (XaMetadata   *self);
/* [Application] or [Runtime] name=, a valid id. */
const char *xa_metadata_get_name       (XaMetadata   *self);
/* "ID/ARCH/BRANCH", each part valid; for apps only, else NULL. */
const char *xa_metadata_get_runtime    (XaMetadata   *self);
/* "ID/ARCH/BRANCH" or NULL. */
const char *xa_metadata_get_sdk        (XaMetadata   *self);
/* command=: a program name looked up in PATH, or an absolute path inside
 * the sandbox; NULL when absent (and always for runtimes). */
const char *xa_metadata_get_command    (XaMetadata   *self);
/* The permissions the file asks for; borrowed. */
XaContext  *xa_metadata_get_context    (XaMetadata   *self);
/* The parsed file, for groups this module does not read; borrowed. */
GKeyFile   *xa_metadata_get_keyfile    (XaMetadata   *self);
/* Non-fatal problems, one line each, escaped for a terminal (the x11
 * one, say).  NULL-terminated, never NULL. */
const char *const *xa_metadata_get_warnings (XaMetadata *self);

/* App and runtime ids, Flatpak's rules: at most 255 characters, three or
 * more elements separated by '.', each non-empty, of [A-Za-z0-9_] and not
 * starting with a digit; '-' is allowed in the last element only.
 * XA_POLICY_ERROR_INVALID_NAME, with a message that can follow "invalid
 * ref 'X': ". */
gboolean    xa_metadata_validate_id     (const char  *id,
                                         GError     **error);
/* [A-Za-z0-9_.-], not empty, not starting with '.', at most 255. */
gboolean    xa_metadata_validate_branch (const char  *branch,
                                         GError     **error);
/* [A-Za-z0-9_], not empty, at most 255. */
gboolean    xa_metadata_validate_arch   (const char  *arch,
                                         GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaMetadata, xa_metadata_free)

G_END_DECLS
