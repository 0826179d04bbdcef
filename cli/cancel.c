/* cli/cancel.c — see cancel.h. */
#include <signal.h>

#include <gio/gio.h>
#include <glib-unix.h>

#include "cli/cancel.h"

/* Returning G_SOURCE_REMOVE drops GLib's handler, and with it the last
 * watch of SIGINT, so GLib puts back the default disposition: a second
 * Ctrl-C ends the process at once. */
static gboolean
on_sigint (gpointer user_data)
{
  GCancellable *cancellable = user_data;

  g_cancellable_cancel (cancellable);
  return G_SOURCE_REMOVE;
}

/* A blocking pull iterates a main context of its own, never the default
 * one, so the signal is watched from a context that this thread runs. */
static gpointer
signal_thread (gpointer user_data)
{
  GMainContext *context = user_data;

  for (;;)
    g_main_context_iteration (context, TRUE);
  return NULL;
}

GCancellable *
xa_cli_get_cancellable (void)
{
  /* The signal thread runs until the process ends and keeps using its
   * context and the cancellable: both are left to it. */
  static GCancellable *cancellable;
  GMainContext *signal_context;
  g_autoptr(GSource) source = NULL;

  if (cancellable != NULL)
    return cancellable;

  cancellable = g_cancellable_new ();
  signal_context = g_main_context_new ();
  /* The handler is installed here, before this returns: no window in
   * which Ctrl-C would still kill the process outright. */
  source = g_unix_signal_source_new (SIGINT);
  g_source_set_callback (source, on_sigint, g_object_ref (cancellable), g_object_unref);
  g_source_attach (source, signal_context);
  g_thread_unref (g_thread_new ("sigint", signal_thread, signal_context));
  return cancellable;
}
