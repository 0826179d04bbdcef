/* cli/cmd-build-export.c — `xdg-app build-export`: commits a finished
 * build directory to an OSTree repository and updates its summary
 * (store/build-export.h). */
#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cli/cancel.h"
#include "cli/commands.h"
#include "cli/usage.h"
#include "store/build-export.h"

typedef struct
{
  gboolean   runtime;
  gboolean   no_update_summary;
  char     **gpg_sign;
  char      *gpg_homedir;
  char      *files;
  char      *metadata;
  char      *arch;
  char      *subject;
  char      *body;
} XaBuildExportCliOptions;

static void
xa_build_export_cli_options_clear (XaBuildExportCliOptions *o)
{
  g_clear_pointer (&o->gpg_sign, g_strfreev);
  g_clear_pointer (&o->gpg_homedir, g_free);
  g_clear_pointer (&o->files, g_free);
  g_clear_pointer (&o->metadata, g_free);
  g_clear_pointer (&o->arch, g_free);
  g_clear_pointer (&o->subject, g_free);
  g_clear_pointer (&o->body, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XaBuildExportCliOptions, xa_build_export_cli_options_clear)

int
xa_cmd_build_export (int            argc,
                     char         **argv,
                     XaCliGlobals  *globals,
                     GError       **error)
{
  g_auto(XaBuildExportCliOptions) o = { 0 };
  const GOptionEntry entries[] = {
    { "runtime", 0, 0, G_OPTION_ARG_NONE, &o.runtime,
      N_("Commit as runtime/ID/ARCH/BRANCH"), NULL },
    { "gpg-sign", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.gpg_sign,
      N_("Sign the commit and the summary with KEYID (may be repeated)"), N_("KEYID") },
    { "gpg-homedir", 0, 0, G_OPTION_ARG_FILENAME, &o.gpg_homedir,
      N_("The GPG home directory to find the keys in"), N_("DIR") },
    { "files", 0, 0, G_OPTION_ARG_FILENAME, &o.files,
      N_("Commit SUBDIR of DIR as files/ (default: files)"), N_("SUBDIR") },
    { "metadata", 0, 0, G_OPTION_ARG_FILENAME, &o.metadata,
      N_("Use FILE of DIR as the metadata (default: metadata)"), N_("FILE") },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &o.arch,
      N_("The architecture (default: the metadata's runtime's, or this machine's)"),
      N_("ARCH") },
    { "subject", 's', 0, G_OPTION_ARG_STRING, &o.subject,
      N_("The commit's subject"), N_("SUBJECT") },
    { "body", 'b', 0, G_OPTION_ARG_STRING, &o.body,
      N_("The commit's body"), N_("BODY") },
    { "no-update-summary", 0, 0, G_OPTION_ARG_NONE, &o.no_update_summary,
      N_("Do not update the repository's summary"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(XaUsage) usage =
    xa_usage_new ("build-export", _("REPO DIR [BRANCH]"),
                  _("Commit a build directory to an OSTree repository."),
                  _("Commits DIR (finished with build-finish; a runtime needs only\n"
                    "metadata and files/) as app/ID/ARCH/BRANCH, or runtime/… with\n"
                    "--runtime, to REPO (created if missing), and updates its summary.\n"
                    "BRANCH is \"master\" by default.  Prints the commit.\n"
                    "\n"
                    "Example: xdg-app build-export --runtime /srv/repo runtime-dir 3.16"));
  XaBuildExportOptions options = { 0 };
  g_autofree char *commit = NULL;

  xa_usage_add_entries (usage, entries);
  if (!xa_usage_parse (usage, globals, &argc, &argv, 2, 3, error))
    return EXIT_FAILURE;

  options.repo = argv[1];
  options.dir = argv[2];
  options.branch = argc > 3 ? argv[3] : NULL;
  options.arch = o.arch;
  options.runtime = o.runtime;
  options.files = o.files;
  options.metadata = o.metadata;
  options.subject = o.subject;
  options.body = o.body;
  options.gpg_key_ids = (const char *const *) o.gpg_sign;
  options.gpg_homedir = o.gpg_homedir;
  options.no_update_summary = o.no_update_summary;
  if (!xa_build_export (&options, xa_cli_get_cancellable (), &commit, error))
    return EXIT_FAILURE;
  g_print ("Commit: %s\n", commit);
  return EXIT_SUCCESS;
}
