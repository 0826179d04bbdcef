/* cli/progress.h — XaProgress: the progress line of a pull, on stderr,
 * only when stderr is a terminal (STYLE.md §5): bytes, objects and rate
 * on one line rewritten with '\r'.  On a pipe or a file it prints
 * nothing at all. */
#pragma once

#include <glib.h>

#include "store/pull.h"

G_BEGIN_DECLS

typedef struct _XaProgress XaProgress;

/* @what names what is pulled ("app/org.example.Notes/x86_64/master"). */
XaProgress           *xa_progress_new               (const char  *what);
void                  xa_progress_free              (XaProgress  *self);

/* What to give xa_pull_ref(): NULL when stderr is not a terminal.
 * Borrowed; valid while @self is. */
const XaPullProgress *xa_progress_get_pull_progress (XaProgress  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaProgress, xa_progress_free)

G_END_DECLS
