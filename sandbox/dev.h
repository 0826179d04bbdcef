/* sandbox/dev.h — the --dev tree: a minimal /dev on a fresh tmpfs. */
#pragma once

#include "sandbox/newroot.h"

/* Fills the empty tmpfs DEV_FD (mounted at the sandbox path DEST) the
 * way bubblewrap 0.8 does: the host's null, zero, full, random, urandom
 * and tty bound in; stdin/stdout/stderr, fd and core symlinks; shm/; a
 * private devpts instance on pts/ with ptmx pointing into it; and, when
 * stdout is a terminal, console bound to that terminal.  Must run before
 * the pivot: host device paths are looked up from the host's root. */
int sb_dev_populate (int dev_fd, const char *dest, SbFailure *f);
