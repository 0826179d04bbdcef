/* sandbox/die.h — how the launcher fails: one line on stderr naming the
 * step, the object and the errno text, then exit status 1 (bubblewrap's
 * status for a setup failure).  Nothing else in sandbox/ prints. */
#pragma once

#include <stddef.h>

/* "xdg-app-sandbox: MESSAGE" */
__attribute__ ((noreturn, format (printf, 1, 2)))
void sb_die (const char *fmt, ...);

/* "xdg-app-sandbox: MESSAGE: strerror (errno)" */
__attribute__ ((noreturn, format (printf, 1, 2)))
void sb_die_errno (const char *fmt, ...);

/* Allocation that cannot fail: dies with "out of memory". */
void *sb_xmalloc (size_t size);
void *sb_xcalloc (size_t n, size_t size);
void *sb_xrealloc (void *p, size_t size);
char *sb_xstrdup (const char *s);
__attribute__ ((format (printf, 1, 2)))
char *sb_xasprintf (const char *fmt, ...);

/* The status the launcher exits with when a step fails. */
#define SB_EXIT_SETUP_FAILED 1
