/* run/run-plan.h — XaRunSpec, everything that decides what one instance's
 * sandbox holds, and xa_run_plan_build(), which turns it into the
 * launcher's plan.
 *
 * The spec is computed by the caller from the store (which deployments)
 * and policy (the merged permission context); this file decides nothing
 * about what an app may do, it only says how each grant looks inside:
 *
 *   /usr   the runtime (or the SDK), read-only
 *   /self  the app, read-only (writable for `xdg-app build`); /app → /self
 *   /var   the app's data directory, which survives upgrades
 *   /etc   the runtime's /etc, with the user's own passwd/group lines
 *   /tmp   private;  /dev minimal;  /proc new
 *   $HOME  empty but for granted paths and persistent= directories
 *   /run/user/UID  the granted sockets only (Wayland, PulseAudio)
 *   /.xdg-app-info (also /.flatpak-info) describing the instance
 *
 * X11 is never there: no /tmp/.X11-unix, no DISPLAY. */
#pragma once

#include <glib.h>

#include "run/run-grants.h"
#include "run/sandbox-argv.h"
#include "run/user-net.h"
#include "run/user-db.h"

G_BEGIN_DECLS

typedef struct
{
  const char *app_id;          /* NULL to run a runtime alone */
  const char *arch;
  const char *branch;
  const char *app_files;       /* host path → /self; NULL without an app */
  const char *app_commit;
  gboolean    app_writable;    /* `xdg-app build`: /self read-write */
  const char *runtime_ref;     /* "runtime/ID/ARCH/BRANCH" */
  const char *runtime_files;   /* host path → /usr */
  const char *runtime_commit;
  const char *data_dir;        /* host path → /var; NULL for none */
  const char *instance_id;
  gboolean    devel;           /* -d: the SDK, seccomp profile devel */
  const XaRunGrants   *grants;
  const XaUserDbEntry *user;   /* home is also $HOME inside */
  const char *host_runtime_dir;     /* the host's $XDG_RUNTIME_DIR, or NULL */
  const char *host_wayland_display; /* the host's $WAYLAND_DISPLAY, or NULL */
  const char *host_session_bus;     /* path of the host bus socket, or NULL */
  const char *broker_session_bus;   /* the instance's filtered socket, or NULL */
  const char *broker_system_bus;    /* likewise for the system bus */
  const char *const *host_env;      /* the caller's environment */
  int         landlock_abi;         /* the kernel's, as xa_user_net_landlock_abi() says */
  int         landlock_abi_max;     /* passed on to the launcher; -1: none */
  XaUserNetMode net_mode;           /* how shared=network is given */
} XaRunSpec;

/* The launcher's plan for `spec`.  Non-fatal problems (a socket that was
 * granted but the host does not have) are appended to out_warnings. */
XaSandboxArgv *xa_run_plan_build (const XaRunSpec  *spec,
                                  GPtrArray        *out_warnings,
                                  GError          **error);

/* The /.xdg-app-info keyfile text for `spec`. */
char          *xa_run_plan_instance_info (const XaRunSpec *spec);

/* A fresh instance id: ten decimal digits, as Flatpak's. */
char          *xa_run_plan_new_instance_id (void);

G_END_DECLS
