/* sandbox/seccomp-compiled.h — the profiles of sandbox/seccomp-profile.c,
 * compiled to BPF at build time by sandbox/seccomp-gen (the generated
 * seccomp-compiled.c in the build tree).  The launcher installs these;
 * it neither links nor runs libseccomp. */
#pragma once

#include <linux/filter.h>
#include <stddef.h>

typedef struct
{
  const char               *name;   /* the --seccomp-profile NAME */
  const struct sock_filter *insns;
  size_t                    len;    /* instructions */
} SbSeccompCompiled;

/* Every profile, ended by an entry whose name is NULL. */
extern const SbSeccompCompiled sb_seccomp_compiled[];
