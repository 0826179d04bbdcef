/* policy/filesystem.h — one entry of a context's filesystems= list: which
 * part of the host an app sees, and how.  Spellings are Flatpak's, so
 * metadata and overrides written by either tool mean the same. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  XA_FILESYSTEM_MODE_NONE,        /* negated: "!home", removes a lower layer's grant */
  XA_FILESYSTEM_MODE_READ_ONLY,   /* ":ro" */
  XA_FILESYSTEM_MODE_READ_WRITE,  /* no suffix, or ":rw" */
  XA_FILESYSTEM_MODE_CREATE,      /* ":create": read-write, made if missing */
} XaFilesystemMode;

/* @spec is normalized: one of host, host-os, host-etc, home, host-reset
 * (only with MODE_NONE, written "!host:reset": drops every lower-layer
 * filesystem), xdg-NAME[/SUBPATH], ~/PATH or /PATH, with no "..", "." or
 * empty components and no trailing '/'.  "~" reads as home and "home/x"
 * as "~/x", as in Flatpak. */
typedef struct
{
  char             *spec;
  XaFilesystemMode  mode;
} XaFilesystem;

XaFilesystem *xa_filesystem_new       (const char          *spec,
                                       XaFilesystemMode     mode);
void          xa_filesystem_free      (XaFilesystem        *self);

/* Parses one filesystems= entry or --filesystem/--nofilesystem value,
 * without its leading '!' (say so with @negated): "xdg-download:ro",
 * "~/Games:create", "/media/usb", "host:reset" (negated only).  ':' and '\'
 * inside a path are escaped with '\'.  Refuses unknown locations and
 * suffixes (XA_POLICY_ERROR_UNKNOWN_PERMISSION), "..", "/", control
 * characters and non-UTF-8 (XA_POLICY_ERROR_INVALID_VALUE). */
XaFilesystem *xa_filesystem_parse     (const char          *text,
                                       gboolean             negated,
                                       GError             **error);

/* The keyfile spelling, which xa_filesystem_parse() reads back:
 * "xdg-download:ro", "!home", "!host:reset". */
char         *xa_filesystem_to_string (const XaFilesystem  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XaFilesystem, xa_filesystem_free)

G_END_DECLS
