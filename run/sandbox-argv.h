/* run/sandbox-argv.h — XaSandboxArgv: the command line, and the data
 * descriptors it names, that run one instance in xdg-app-sandbox.
 *
 * The plan goes to the launcher in a sealed memfd (`--args FD`), as
 * Flatpak does it: no argv length limit, and the plan is not shown in
 * `ps`.  File contents (/etc/passwd, /.xdg-app-info…) go in sealed memfds
 * too, named with `--ro-bind-data FD DEST`. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _XaSandboxArgv XaSandboxArgv;

XaSandboxArgv *xa_sandbox_argv_new      (void);
void           xa_sandbox_argv_free     (XaSandboxArgv *self);

/* Appends arguments, up to a NULL. */
G_GNUC_NULL_TERMINATED
void           xa_sandbox_argv_add      (XaSandboxArgv *self,
                                         const char    *arg,
                                         ...);
/* Appends "OPTION FD DEST" for a sealed memfd holding `data`; OPTION is
 * --ro-bind-data, --bind-data or --file. */
gboolean       xa_sandbox_argv_add_data (XaSandboxArgv *self,
                                         const char    *option,
                                         const char    *dest,
                                         const char    *data,
                                         gsize          len,
                                         GError       **error);

/* Appends "OPTION FD DEST" for a descriptor the caller opened (say a
 * directory from xa_safe_dir_ensure, for --bind-fd); takes `fd`. */
void           xa_sandbox_argv_take_fd  (XaSandboxArgv *self,
                                         const char    *option,
                                         int            fd,
                                         const char    *dest);

/* The plan's arguments so far, for tests and --verbose. */
GPtrArray     *xa_sandbox_argv_get_args (XaSandboxArgv *self);

/* Execs LAUNCHER --args FD [--keep-fd N…] -- COMMAND…, handing over only
 * the plan's descriptors.  Returns only on failure. */
gboolean       xa_sandbox_argv_exec     (XaSandboxArgv      *self,
                                         const char         *launcher,
                                         const char *const  *command,
                                         GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaSandboxArgv, xa_sandbox_argv_free)

G_END_DECLS
