/* sandbox/die.c — the launcher's single way to report a failure. */
#include "sandbox/die.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
sb_vreport (const char *fmt, va_list ap, int errsv)
{
  char buf[4096];
  int n = vsnprintf (buf, sizeof buf, fmt, ap);

  if (n < 0)
    buf[0] = '\0';
  if (errsv != 0)
    dprintf (STDERR_FILENO, "xdg-app-sandbox: %s: %s\n", buf, strerror (errsv));
  else
    dprintf (STDERR_FILENO, "xdg-app-sandbox: %s\n", buf);
}

void
sb_die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  sb_vreport (fmt, ap, 0);
  va_end (ap);
  _exit (SB_EXIT_SETUP_FAILED);
}

void
sb_die_errno (const char *fmt, ...)
{
  int errsv = errno;
  va_list ap;

  va_start (ap, fmt);
  sb_vreport (fmt, ap, errsv);
  va_end (ap);
  _exit (SB_EXIT_SETUP_FAILED);
}

void *
sb_xmalloc (size_t size)
{
  void *p = malloc (size ? size : 1);

  if (p == NULL)
    sb_die ("out of memory");
  return p;
}

void *
sb_xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size ? size : 1);

  if (p == NULL)
    sb_die ("out of memory");
  return p;
}

void *
sb_xrealloc (void *p, size_t size)
{
  void *q = realloc (p, size ? size : 1);

  if (q == NULL)
    sb_die ("out of memory");
  return q;
}

char *
sb_xstrdup (const char *s)
{
  char *p = strdup (s);

  if (p == NULL)
    sb_die ("out of memory");
  return p;
}

char *
sb_xasprintf (const char *fmt, ...)
{
  char *p = NULL;
  va_list ap;

  va_start (ap, fmt);
  if (vasprintf (&p, fmt, ap) < 0)
    sb_die ("out of memory");
  va_end (ap);
  return p;
}
