/* store/ref.h — a ref, "app/ID/ARCH/BRANCH" or "runtime/ID/ARCH/BRANCH",
 * the branch naming scheme Flatpak uses, so repositories interoperate. */
#pragma once

#include <glib.h>

#include "policy/metadata.h"

G_BEGIN_DECLS

typedef struct _XaRef XaRef;

XaRef      *xa_ref_new               (XaMetadataKind   kind,
                                      const char      *id,
                                      const char      *arch,
                                      const char      *branch,
                                      GError         **error);
XaRef      *xa_ref_parse             (const char      *ref,
                                      GError         **error);
XaRef      *xa_ref_parse_runtime     (const char      *spec,
                                      GError         **error);
XaRef      *xa_ref_dup               (const XaRef     *self);
void        xa_ref_free              (XaRef           *self);

XaMetadataKind xa_ref_get_kind       (const XaRef     *self);
const char *xa_ref_get_kind_name     (const XaRef     *self);
const char *xa_ref_get_id            (const XaRef     *self);
const char *xa_ref_get_arch          (const XaRef     *self);
const char *xa_ref_get_branch        (const XaRef     *self);
const char *xa_ref_get_string        (const XaRef     *self);
char       *xa_ref_dup_runtime_spec  (const XaRef     *self);
gboolean    xa_ref_equal             (const XaRef     *a,
                                      const XaRef     *b);

const char *xa_ref_kind_to_string    (XaMetadataKind   kind);
const char *xa_ref_get_default_arch  (void);
/* Whether @name is a commit checksum as OSTree writes it: 64 lowercase
 * hex digits (the names of deployment directories). */
gboolean    xa_ref_is_commit         (const char      *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaRef, xa_ref_free)

G_END_DECLS
