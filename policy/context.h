/* policy/context.h — the permission context: what an app may reach outside
 * its sandbox.  One context is one layer (an app's metadata, an override
 * file, the flags of one `xdg-app run`); layers are combined with
 * xa_context_merge() in that order, each overriding the one before.
 *
 * The keys and values are Flatpak's ([Context] shared, sockets, devices,
 * features, filesystems, persistent, unset-environment; [Environment];
 * [Session Bus Policy]; [System Bus Policy]), so metadata and overrides
 * interoperate.  Deny by default: an empty context grants nothing. */
#pragma once

#include <glib.h>

#include "policy/filesystem.h"

G_BEGIN_DECLS

/* [Context] shared= */
typedef enum
{
  XA_SHARE_NETWORK,
  XA_SHARE_IPC,
} XaShare;

/* [Context] sockets=.  x11 and fallback-x11 are read but never granted:
 * they have no value here (DESIGN.md: X11 is never exposed). */
typedef enum
{
  XA_SOCKET_WAYLAND,
  XA_SOCKET_PULSEAUDIO,
  XA_SOCKET_SESSION_BUS,
  XA_SOCKET_SYSTEM_BUS,
  XA_SOCKET_SSH_AUTH,
  XA_SOCKET_PCSC,
  XA_SOCKET_CUPS,
  XA_SOCKET_GPG_AGENT,
} XaSocket;

/* [Context] devices= */
typedef enum
{
  XA_DEVICE_DRI,
  XA_DEVICE_INPUT,
  XA_DEVICE_USB,
  XA_DEVICE_KVM,
  XA_DEVICE_SHM,
  XA_DEVICE_ALL,
} XaDevice;

/* [Context] features= */
typedef enum
{
  XA_FEATURE_DEVEL,
  XA_FEATURE_MULTIARCH,
  XA_FEATURE_BLUETOOTH,
  XA_FEATURE_CANBUS,
  XA_FEATURE_PER_APP_DEV_SHM,
} XaFeature;

typedef enum
{
  XA_BUS_SESSION,   /* [Session Bus Policy], --talk-name… */
  XA_BUS_SYSTEM,    /* [System Bus Policy], --system-talk-name… */
} XaBus;

/* Ordered: each level includes the ones before it. */
typedef enum
{
  XA_BUS_POLICY_NONE,   /* "none": explicitly nothing (overrides a lower layer) */
  XA_BUS_POLICY_SEE,    /* "see": the name is visible, no calls */
  XA_BUS_POLICY_TALK,   /* "talk": calls and signals to and from it */
  XA_BUS_POLICY_OWN,    /* "own": may own the name */
} XaBusPolicy;

typedef struct _XaContext XaContext;

XaContext  *xa_context_new              (void);
XaContext  *xa_context_dup              (const XaContext  *self);
void        xa_context_free             (XaContext        *self);

/* Reads a layer from @keyfile and merges it into @self (see
 * xa_context_merge()).  Groups and keys that are not about permissions
 * are ignored, as Flatpak does, for forward compatibility; an unknown
 * value of a known key is refused: XA_POLICY_ERROR_UNKNOWN_PERMISSION or
 * _INVALID_VALUE, with a message that names @origin, the group and the
 * valid values ("metadata of 'org.example.Notes', [Context]: unknown socket
 * 'x12' (valid: wayland, …)").  @origin says where @keyfile came from and
 * is used as is.  On error @self is unchanged.  x11 sockets become a
 * warning (xa_context_get_warnings()). */
gboolean    xa_context_load_keyfile     (XaContext        *self,
                                         GKeyFile         *keyfile,
                                         const char       *origin,
                                         GError          **error);

/* Writes @self into @keyfile in the form xa_context_load_keyfile() reads,
 * negations included ("sockets=!pulseaudio;"), replacing the permission
 * keys and groups and keeping every other group and key. */
void        xa_context_save_keyfile     (const XaContext  *self,
                                         GKeyFile         *keyfile);

/* Layers @other over @self: what @other mentions replaces what @self says
 * about it, its negations ("!pulseaudio", --nosocket, "!home",
 * --no-talk-name) remove grants, "!host:reset" drops all of @self's
 * filesystems first, persistent paths add up, and @other's warnings are
 * kept.  The order is metadata, then overrides (global, then the app's),
 * then the run's flags. */
void        xa_context_merge            (XaContext        *self,
                                         const XaContext  *other);

/* Applies one command-line flag, named with or without its leading "--":
 * share, unshare, socket, nosocket, device, nodevice, allow, disallow,
 * filesystem, nofilesystem, persist, env (VAR=VALUE), unset-env,
 * own-name, talk-name, see-name, no-talk-name, system-own-name,
 * system-talk-name, system-see-name, system-no-talk-name.  Refuses other
 * names (XA_POLICY_ERROR_UNKNOWN_OPTION) and bad values as load does. */
gboolean    xa_context_parse_option     (XaContext        *self,
                                         const char       *option_name,
                                         const char       *value,
                                         GError          **error);
/* The names xa_context_parse_option() takes, without "--". */
const char *const *xa_context_get_option_names (void);

void        xa_context_allow_share      (XaContext        *self,
                                         XaShare           share);
void        xa_context_deny_share       (XaContext        *self,
                                         XaShare           share);
void        xa_context_allow_socket     (XaContext        *self,
                                         XaSocket          socket);
void        xa_context_deny_socket      (XaContext        *self,
                                         XaSocket          socket);
void        xa_context_allow_device     (XaContext        *self,
                                         XaDevice          device);
void        xa_context_deny_device      (XaContext        *self,
                                         XaDevice          device);
void        xa_context_allow_feature    (XaContext        *self,
                                         XaFeature         feature);
void        xa_context_deny_feature     (XaContext        *self,
                                         XaFeature         feature);

gboolean    xa_context_has_share        (const XaContext  *self,
                                         XaShare           share);
gboolean    xa_context_has_socket       (const XaContext  *self,
                                         XaSocket          socket);
gboolean    xa_context_has_device       (const XaContext  *self,
                                         XaDevice          device);
gboolean    xa_context_has_feature      (const XaContext  *self,
                                         XaFeature         feature);

/* The granted filesystems (negations left out), sorted by spec: a
 * borrowed array of const XaFilesystem *, valid until @self changes. */
const GPtrArray *xa_context_get_filesystems (XaContext    *self);
/* The mode @self gives @spec (a normalized spec, as in XaFilesystem);
 * XA_FILESYSTEM_MODE_NONE when absent or negated. */
XaFilesystemMode xa_context_get_filesystem_mode (const XaContext *self,
                                                 const char      *spec);
/* Paths below the home directory kept per app (--persist), relative,
 * sorted; borrowed, NULL-terminated, valid until @self changes. */
const char *const *xa_context_get_persistent (XaContext   *self);
/* Variable name → value; a NULL value means "unset it".  Borrowed. */
GHashTable *xa_context_get_env          (const XaContext  *self);
/* Bus name (well-known, or a "prefix.*" pattern) → XaBusPolicy as
 * GINT_TO_POINTER.  XA_BUS_POLICY_NONE entries are explicit refusals
 * from a layer and grant nothing, unless the name has call or broadcast
 * rules (xa_context_get_bus_rules()).  Borrowed. */
GHashTable *xa_context_get_bus_policy   (const XaContext  *self,
                                         XaBus             bus);
/* The call and broadcast rules of @name (a key of
 * xa_context_get_bus_policy()), each "call=RULE" or "broadcast=RULE"
 * (policy/method-rule.h), NULL-terminated; NULL when it has none.
 * Borrowed. */
const char *const *xa_context_get_bus_rules (const XaContext *self,
                                             XaBus            bus,
                                             const char      *name);
/* Non-fatal problems met while loading, one line each, already escaped
 * for a terminal ("…: sockets=x11: X11 is never exposed, ignoring").
 * Borrowed, NULL-terminated, never NULL. */
const char *const *xa_context_get_warnings (const XaContext *self);

/* What the context grants, in keyfile form, for `xdg-app info
 * --show-permissions`: negations and "none" bus entries left out, every
 * name and value escaped for the terminal (CVE-2023-28101), and a "note:"
 * line when the whole session bus is granted.  "" when nothing is. */
char       *xa_context_to_text          (const XaContext  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaContext, xa_context_free)

G_END_DECLS
