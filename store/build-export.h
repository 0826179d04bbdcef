/* store/build-export.h — commits a build directory to an OSTree
 * repository in the layout Flatpak 1.14 installs, and keeps the
 * repository's summary (with Flatpak's xa.cache) up to date. */
#pragma once

#include <gio/gio.h>
#include <ostree.h>

G_BEGIN_DECLS

/* Everything `xdg-app build-export` takes; NULL or FALSE members get the
 * default named beside them. */
typedef struct
{
  const char         *repo;              /* created (archive-z2) if missing or empty */
  const char         *dir;               /* the build directory */
  const char         *branch;            /* "master" */
  const char         *arch;              /* the arch of the metadata's runtime=, else this machine's */
  gboolean            runtime;           /* --runtime: commit runtime/ID/…, even for [Application] */
  const char         *files;             /* --files=SUBDIR: "files" */
  const char         *metadata;          /* --metadata=FILE: "metadata" */
  const char         *subject;           /* "Export ID" */
  const char         *body;              /* name, arch and branch */
  const char * const *gpg_key_ids;       /* --gpg-sign=KEYID…: the commit and the summary */
  const char         *gpg_homedir;       /* --gpg-homedir=DIR: gpg's default */
  gboolean            no_update_summary; /* --no-update-summary */
} XaBuildExportOptions;

gboolean xa_build_export                (const XaBuildExportOptions  *options,
                                         GCancellable                *cancellable,
                                         char                       **out_commit,
                                         GError                     **error);

gboolean xa_build_export_update_summary (OstreeRepo                  *repo,
                                         const char * const          *gpg_key_ids,
                                         const char                  *gpg_homedir,
                                         GCancellable                *cancellable,
                                         GError                     **error);

G_END_DECLS
