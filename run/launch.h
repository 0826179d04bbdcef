/* run/launch.h — XaLaunch: everything `xdg-app run` decides before it
 * execs the launcher.  It finds the app and the runtime it needs (or the
 * SDK with devel), merges the permission context (metadata, then
 * overrides, then the run's own flags), and builds the sandbox plan. */
#pragma once

#include <glib.h>

#include "policy/context.h"
#include "run/run-plan.h"
#include "store/installation.h"

G_BEGIN_DECLS

typedef struct
{
  XaInstallation *const *installations; /* searched in order, NULL-terminated */
  const char   *app_id;
  const char   *arch;          /* NULL: this machine's */
  const char   *branch;        /* NULL: the only installed one */
  const char   *command;       /* NULL: the app's command= */
  gboolean      devel;         /* -d: the SDK as /usr, seccomp devel */
  XaContext    *flags;         /* the run's --socket=… flags; may be NULL */
  const char *const *args;     /* arguments for the command; may be NULL */
  const char   *host_runtime_dir;      /* the caller's $XDG_RUNTIME_DIR */
  const char   *host_wayland_display;  /* the caller's $WAYLAND_DISPLAY */
  const char   *host_session_bus;      /* path of the caller's bus socket */
  const char   *host_session_address;  /* the caller's $DBUS_SESSION_BUS_ADDRESS */
  const char   *broker_program;        /* xdg-app-broker, to start it; NULL: no broker */
  const char *const *host_env;         /* the caller's environment */
  int           landlock_abi_max;      /* for tests: act as on a kernel with at most
                                        * this Landlock ABI; -1: the kernel's */
} XaLaunchOptions;

typedef struct _XaLaunch XaLaunch;

XaLaunch      *xa_launch_prepare      (const XaLaunchOptions  *options,
                                       GError                **error);
/* `xdg-app build DIR`: the app is the build directory (its `metadata`,
 * `files/` writable at /self, `var/` at /var) and /usr is its SDK.
 * options->app_id is ignored and options->command is required. */
XaLaunch      *xa_launch_prepare_build (const char            *build_dir,
                                        const XaLaunchOptions *options,
                                        GError               **error);
void           xa_launch_free         (XaLaunch               *self);

/* Non-fatal findings for the user: ignored permissions (X11), grants the
 * host cannot give, a whole session bus.  Borrowed. */
GPtrArray     *xa_launch_get_warnings (XaLaunch               *self);
/* The command line inside the sandbox.  Borrowed, NULL-terminated. */
const char *const *xa_launch_get_command (XaLaunch            *self);
XaSandboxArgv *xa_launch_get_argv     (XaLaunch               *self);

/* Execs LAUNCHER with the plan; returns only on failure. */
gboolean       xa_launch_exec         (XaLaunch               *self,
                                       const char             *launcher,
                                       GError                **error);

/* The session bus socket path in a D-Bus address ("unix:path=…"), or NULL
 * if the address names no such socket. */
char          *xa_launch_bus_socket_from_address (const char *address);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaLaunch, xa_launch_free)

G_END_DECLS
