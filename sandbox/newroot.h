/* sandbox/newroot.h — the new root while it is being built: a private
 * tmpfs, paths looked up inside it as the sandbox will see
 * them, missing directories and mount points created on the way, and at
 * the end the pivot into it.
 *
 * Every path given here is a sandbox path ("/usr/lib"); symlinks and ".."
 * in it resolve inside the new root, never outside it.  Failures are
 * reported as an SbFailure: what failed, on which path, with which errno;
 * sandbox/mounts.c words them. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum
{
  SB_FAIL_NONE = 0,
  SB_FAIL_SOURCE,     /* a host source path or fd could not be used */
  SB_FAIL_RESOLVE,    /* a sandbox path could not be looked up */
  SB_FAIL_MKDIR,      /* a directory could not be created */
  SB_FAIL_CREATE,     /* a file or symlink could not be created */
  SB_FAIL_MOUNT,      /* a new file system could not be mounted */
  SB_FAIL_RESTRICT,   /* nosuid/nodev/read-only could not be applied */
  SB_FAIL_ATTACH,     /* a bind could not be attached */
  SB_FAIL_NOT_MOUNT,  /* the path is not a mount point (no errno) */
  SB_FAIL_LINK_DIFFERS, /* an existing symlink points elsewhere (path: its target) */
  SB_FAIL_CHANGED,    /* a --bind-fd source changed while binding (no errno) */
  SB_FAIL_COPY,       /* data could not be copied from the plan's fd */
  SB_FAIL_CHMOD,      /* the mode could not be changed */
  SB_FAIL_PIVOT,      /* pivot_root or detaching the host failed */
  SB_FAIL_BASE,       /* the tmpfs that holds the new root failed */
} SbFailKind;

typedef struct
{
  SbFailKind kind;
  int        errsv;          /* 0 if the kind says it all */
  char       path[PATH_MAX];
} SbFailure;

/* Records KIND on PATH with the current errno; returns -1 so that a
 * function returning an fd can end with `return sb_fail (...)`. */
int sb_fail (SbFailure *f, SbFailKind kind, const char *path);

typedef struct
{
  int      host_root_fd; /* the host's /, detached after the pivot */
  int      base_fd;      /* the new root's own tmpfs */
  int      root_fd;      /* the topmost mount on the new root (O_PATH) */
  uint64_t root_mnt_id;  /* root_fd's identity, to notice a path that */
  ino_t    root_ino;     /* resolves to the root itself */
} SbNewRoot;

/* Makes the new root's tmpfs, detached: nothing can be put in it yet. */
int  sb_newroot_create (SbNewRoot *self, SbFailure *f);

/* Stacks the tmpfs on the host's "/", where it hides no host path from
 * absolute lookups.  Call once every host source has been opened: from
 * here on a host path that climbs to "/" with ".." lands on the tmpfs. */
int  sb_newroot_attach (SbNewRoot *self, SbFailure *f);

/* Re-reads which mount is on top of the new root; call after mounting
 * something on the root itself. */
int  sb_newroot_refresh (SbNewRoot *self, SbFailure *f);

/* Opens the existing PATH (O_PATH | FLAGS), following symlinks inside
 * the new root. */
int  sb_newroot_lookup (SbNewRoot *self, const char *path, int flags,
                        SbFailure *f);

/* Creates the missing parents of PATH with PARENT_MODE, bubblewrap's
 * mkdir_with_parents (…, create_last = false). */
int  sb_newroot_ensure_parents (SbNewRoot *self, const char *path,
                                mode_t parent_mode, SbFailure *f);

/* Opens the directory PATH (O_PATH), creating it with MODE and its
 * parents with PARENT_MODE if missing; an existing directory, or a
 * symlink to one, is used as it is.  *out_is_root tells whether PATH is
 * the new root itself, so that a mount on it needs sb_newroot_refresh. */
int  sb_newroot_ensure_dir (SbNewRoot *self, const char *path,
                            mode_t parent_mode, mode_t mode,
                            bool *out_is_root, SbFailure *f);

/* Opens PATH as a mount point for a non-directory: an existing file of
 * any type (never opened for I/O), or a new empty one (mode 0444). */
int  sb_newroot_ensure_file (SbNewRoot *self, const char *path,
                             mode_t parent_mode, SbFailure *f);

/* Opens PATH for writing, created with MODE or truncated (--file). */
int  sb_newroot_create_file (SbNewRoot *self, const char *path,
                             mode_t parent_mode, mode_t mode, SbFailure *f);

/* Makes PATH a symlink to TARGET; an existing symlink to exactly TARGET
 * is accepted. */
int  sb_newroot_symlink (SbNewRoot *self, const char *target,
                         const char *path, mode_t parent_mode, SbFailure *f);

/* chmod PATH to MODE, following symlinks inside the new root. */
int  sb_newroot_chmod (SbNewRoot *self, const char *path, mode_t mode,
                       SbFailure *f);

/* A new file with MODE for --bind-data, in the root directory of the new
 * root's tmpfs under a name (*out_name, relative to self->base_fd) that
 * the caller unlinks as soon as the file is bound. */
int  sb_newroot_data_file (SbNewRoot *self, mode_t mode, char **out_name,
                           SbFailure *f);

/* pivot_root into the new root, detach the host's mounts, chdir ("/").
 * Closes the fds held in SELF. */
int  sb_newroot_enter (SbNewRoot *self, SbFailure *f);
