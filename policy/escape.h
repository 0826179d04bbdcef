/* policy/escape.h — makes untrusted text safe to print on a terminal. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Returns @text (@len bytes, or up to its NUL when @len is -1) with every
 * byte that could act on a terminal written as \xNN: control characters
 * (C0, DEL, C1), other non-printing characters (bidi overrides, zero-width
 * marks…) and bytes that are not UTF-8.  Printable text, spaces included,
 * passes unchanged, so escaping twice changes nothing more. */
char *xa_escape_for_terminal (const char *text,
                              gssize      len);

G_END_DECLS
