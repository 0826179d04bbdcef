/* run/run-grants.h — XaRunGrants: what a merged permission context grants
 * one instance, flattened into host paths and booleans that the sandbox
 * plan (run/run-plan.c) turns into mounts. */
#pragma once

#include <sys/types.h>

#include <glib.h>

#include "policy/context.h"

G_BEGIN_DECLS

/* Filesystem grant modes, as the context lists them. */
typedef enum
{
  XA_RUN_FS_READ_ONLY,
  XA_RUN_FS_READ_WRITE,
  XA_RUN_FS_CREATE,      /* read-write, created on the host if missing */
} XaRunFsMode;

typedef struct
{
  char        *path;   /* absolute host path */
  char        *dest;   /* the path inside the sandbox */
  XaRunFsMode  mode;
} XaRunFsGrant;

typedef struct
{
  gboolean   network;
  gboolean   ipc;
  gboolean   wayland;
  gboolean   pulseaudio;
  gboolean   session_bus;   /* the whole host bus, unfiltered (until the broker) */
  gboolean   system_bus;
  gboolean   dri;
  gboolean   input;
  gboolean   usb;
  gboolean   kvm;
  gboolean   shm;
  gboolean   all_devices;
  gboolean   host_os;       /* the host's /usr at /run/host/usr, read-only */
  gboolean   host_etc;      /* the host's /etc at /run/host/etc, read-only */
  gboolean   devel;         /* features=devel: the devel seccomp profile */
  GPtrArray *filesystems;   /* XaRunFsGrant * */
  GPtrArray *persistent;    /* char *, relative to $HOME */
  GPtrArray *env;           /* char * "VAR=VALUE", applied last */
  GPtrArray *unset_env;     /* char * VAR */
  char      *context_keyfile; /* [Context] text for /.xdg-app-info */
} XaRunGrants;

XaRunGrants *xa_run_grants_new  (void);
void         xa_run_grants_free (XaRunGrants *self);
/* Adds a grant of host PATH, seen inside at DEST (NULL: the same path). */
void         xa_run_grants_add_filesystem (XaRunGrants *self,
                                           const char  *path,
                                           const char  *dest,
                                           XaRunFsMode  mode);

/* Flattens a merged context.  `home` is the user's home directory (the
 * same path inside), `host_runtime_dir` the host's $XDG_RUNTIME_DIR (for
 * xdg-run/…; NULL if unset) and `uid` the user's.  Grants that the
 * sandbox cannot give yet are named in out_warnings. */
XaRunGrants *xa_run_grants_new_from_context (XaContext   *context,
                                             const char  *home,
                                             const char  *host_runtime_dir,
                                             uid_t        uid,
                                             GPtrArray   *out_warnings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaRunGrants, xa_run_grants_free)

G_END_DECLS
