/* run/user-net.h — the network of an app with shared=network on a kernel
 * whose Landlock cannot keep it from the host's abstract sockets (ABI
 * below 6): instead of the host's network namespace, the sandbox gets
 * one of its own, connected by user-mode networking (pasta, from
 * Debian's passt), so that @/tmp/.X11-unix/X0 and every other abstract
 * socket of the host stay out of reach while TCP and UDP go out, and
 * the host's loopback services stay reachable at 127.0.0.1 (pasta's
 * -T auto, -U auto). */
#pragma once

#include <glib.h>

#include "run/sandbox-argv.h"

G_BEGIN_DECLS

/* Landlock ABI 6 brought the abstract-socket and signal scopes. */
#define XA_USER_NET_LANDLOCK_ABI_SCOPES 6

typedef enum
{
  XA_USER_NET_HOST,       /* the host's network namespace, Landlock scopes it */
  XA_USER_NET_PASTA,      /* a namespace of its own, through pasta */
  XA_USER_NET_EXPOSED,    /* the host's namespace, unscoped: abstract sockets reachable */
  XA_USER_NET_NONE,       /* no network: a namespace with loopback only */
} XaUserNetMode;

/* The kernel's Landlock ABI (0 without Landlock), capped at @abi_max when
 * that is not negative (tests act as on an older kernel with it). */
int            xa_user_net_landlock_abi  (int                abi_max);
/* How an app is connected, from whether it shares the network, the ABI,
 * and whether pasta is installed (*@out_pasta: its path, or NULL). */
XaUserNetMode  xa_user_net_choose        (gboolean           network,
                                          int                abi,
                                          char             **out_pasta);
/* One line for `xdg-app info --show-permissions` and the run's warning. */
char          *xa_user_net_describe      (XaUserNetMode      mode,
                                          int                abi);

/* For XA_USER_NET_PASTA, just before the launcher is exec'd: asks the
 * launcher (@argv) for --info-fd and --block-fd and starts a helper
 * process that, once the sandbox's namespaces exist, attaches @pasta to
 * them and lets the app start; if pasta fails the helper kills the
 * sandbox, so that it never runs with a network it was not meant to
 * have.  The helper is not a child of the launcher. */
gboolean       xa_user_net_start         (XaSandboxArgv     *argv,
                                          const char        *pasta,
                                          GError           **error);

G_END_DECLS
