/* cli/ref-match.h — finds the ref a user means by ID [BRANCH] among the
 * refs of a remote or of an installation, and words what is wrong when
 * there is none, or more than one. */
#pragma once

#include <glib.h>

#include "store/installation.h"
#include "store/ref.h"

G_BEGIN_DECLS

/* Which kinds a command looks at: `install-app` only apps, `install`
 * both unless --app or --runtime. */
typedef enum
{
  XA_REF_MATCH_APP     = 1 << 0,
  XA_REF_MATCH_RUNTIME = 1 << 1,
  XA_REF_MATCH_ANY     = XA_REF_MATCH_APP | XA_REF_MATCH_RUNTIME,
} XaRefMatchKinds;

/* Sorts @refs (XaRef *) by their strings. */
void       xa_ref_match_sort           (GPtrArray        *refs);

/* The installed refs of @inst, apps first, each sorted. */
GPtrArray *xa_ref_match_list_installed (XaInstallation   *inst,
                                        GError          **error);

/* The refs of @refs with @id, of @kinds, and of @branch unless NULL;
 * borrowed from @refs. */
GPtrArray *xa_ref_match_filter         (GPtrArray        *refs,
                                        XaRefMatchKinds   kinds,
                                        const char       *id,
                                        const char       *branch);

/* The one ref of @refs that ID [BRANCH] names.  @where says where
 * @refs came from, for the messages: "remote 'NAME'", or NULL for an
 * installation.  Errors: XA_STORE_ERROR_REF_NOT_FOUND (remote) or
 * _NOT_INSTALLED (installation) for none, _AMBIGUOUS for an app and a
 * runtime of that id ("use --app or --runtime") or several branches
 * ("name one", with the list). */
XaRef     *xa_ref_match_pick           (GPtrArray        *refs,
                                        XaRefMatchKinds   kinds,
                                        const char       *id,
                                        const char       *branch,
                                        const char       *where,
                                        GError          **error);

G_END_DECLS
