/* cli/usage.h — XaUsage: one command's command line.  Its `--help` (a
 * summary, the options, a description), the global options after the
 * command name, and strict positional argument counts; every mistake is
 * one GError line that ends with the way to the help. */
#pragma once

#include <glib.h>

#include "cli/globals.h"
#include "policy/context.h"

G_BEGIN_DECLS

/* Positional arguments without an upper bound. */
#define XA_USAGE_ANY G_MAXUINT

typedef struct _XaUsage XaUsage;

/* @command is the name users type ("add-repo"); @params the positional
 * arguments as `--help` shows them ("NAME URL"); @summary one line;
 * @description may be NULL. */
XaUsage        *xa_usage_new          (const char          *command,
                                       const char          *params,
                                       const char          *summary,
                                       const char          *description);
void            xa_usage_free         (XaUsage             *self);

void            xa_usage_add_entries  (XaUsage             *self,
                                       const GOptionEntry  *entries);
GOptionContext *xa_usage_get_context  (XaUsage             *self);
/* Adds the permission options users know from `flatpak override` and
 * `flatpak build-finish` (--socket=…, --nosocket=…, --share=…,
 * --filesystem=…, --talk-name=…, …; policy/context.h has the list),
 * applied to @flags in the order given.  @flags must outlive the parse. */
void            xa_usage_add_permission_options (XaUsage   *self,
                                                 XaContext *flags);
/* How many permission options the parse applied. */
guint           xa_usage_get_permission_count   (XaUsage   *self);

/* Parses the options (the command's and the global ones), applies the
 * global ones, and checks that between @min_args and @max_args
 * positional arguments remain.  On success argv[1…argc-1] are they. */
gboolean        xa_usage_parse        (XaUsage             *self,
                                       XaCliGlobals        *globals,
                                       int                 *argc,
                                       char              ***argv,
                                       guint                min_args,
                                       guint                max_args,
                                       GError             **error);

/* A usage mistake found after parsing ("--show and --reset cannot be
 * used together"): "COMMAND: MESSAGE (see: xdg-app COMMAND --help)". */
gboolean        xa_usage_set_error    (XaUsage             *self,
                                       GError             **error,
                                       const char          *format,
                                       ...) G_GNUC_PRINTF (3, 4);

/* GOption's own message ("Unknown option --x"), escaped, starting with
 * a lower-case letter so that it can follow "COMMAND: ". */
char           *xa_usage_dup_option_message (const char    *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaUsage, xa_usage_free)

G_END_DECLS
