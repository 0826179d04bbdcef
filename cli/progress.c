/* cli/progress.c — the pull progress line (see progress.h).  Writes only
 * to a terminal; the ref it names was checked by the store and is
 * escaped anyway. */
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "cli/progress.h"
#include "policy/escape.h"
#include "store/pull.h"

/* Used when the terminal does not say how wide it is. */
#define PROGRESS_DEFAULT_COLUMNS 80

struct _XaProgress
{
  char           *what;       /* escaped */
  XaPullProgress  callback;
  gboolean        shown;      /* a line is on the terminal, not yet ended */
};

static guint
terminal_columns (void)
{
  struct winsize ws;

  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
    return ws.ws_col;
  return PROGRESS_DEFAULT_COLUMNS;
}

static char *
format_line (XaProgress         *self,
             const XaPullStatus *status)
{
  g_autofree char *bytes = g_format_size (status->bytes_transferred);
  g_autofree char *rate = NULL;
  g_autofree char *parts = NULL;
  guint64 per_second = 0;

  if (status->elapsed_us > 0)
    per_second = status->bytes_transferred * G_USEC_PER_SEC / status->elapsed_us;
  rate = g_format_size (per_second);
  if (status->total_delta_parts > 0)
    parts = g_strdup_printf (_(", delta part %u/%u"), status->fetched_delta_parts,
                             status->total_delta_parts);

  if (status->done)
    return g_strdup_printf (_("Pulled %s: %u objects, %s in %.1f s%s"), self->what,
                            status->fetched, bytes,
                            (double) status->elapsed_us / G_USEC_PER_SEC,
                            parts != NULL ? parts : "");
  return g_strdup_printf (_("Pulling %s: %u/%u objects, %s, %s/s%s"), self->what,
                          status->fetched, status->requested, bytes, rate,
                          parts != NULL ? parts : "");
}

/* Called in the thread that pulls (store/pull.h). */
static void
on_status (const XaPullStatus *status,
           gpointer            user_data)
{
  XaProgress *self = user_data;
  g_autofree char *line = NULL;
  glong max_chars = (glong) terminal_columns () - 1;

  /* Nothing was fetched and nothing shown: an update with nothing to
   * do says so in its own words. */
  if (status->done && !self->shown && status->fetched == 0)
    return;

  line = format_line (self, status);
  if (g_utf8_strlen (line, -1) > max_chars)
    {
      /* One terminal row, or '\r' would not return to its start. */
      char *cut = g_utf8_offset_to_pointer (line, max_chars);

      *cut = '\0';
    }
  /* ESC [ K clears what a longer earlier line left to the right. */
  fprintf (stderr, "\r%s\033[K%s", line, status->done ? "\n" : "");
  fflush (stderr);
  self->shown = !status->done;
}

XaProgress *
xa_progress_new (const char *what)
{
  XaProgress *self = g_new0 (XaProgress, 1);

  self->what = xa_escape_for_terminal (what, -1);
  self->callback.func = on_status;
  self->callback.user_data = self;
  return self;
}

void
xa_progress_free (XaProgress *self)
{
  if (self == NULL)
    return;
  /* A pull that never reported done (it cannot happen, but a line left
   * open would run into the error that follows). */
  if (self->shown)
    {
      fputc ('\n', stderr);
      fflush (stderr);
    }
  g_free (self->what);
  g_free (self);
}

const XaPullProgress *
xa_progress_get_pull_progress (XaProgress *self)
{
  if (!isatty (STDERR_FILENO))
    return NULL;
  return &self->callback;
}
