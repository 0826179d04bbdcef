/* sandbox/seccomp-profile.h — the project's seccomp profiles: one table of
 * refused system calls, a reason per row, and the compiler that turns a
 * profile into classic BPF with libseccomp.  Used at build time (by
 * sandbox/seccomp-gen) and by the tests; the launcher itself installs the
 * programs compiled then (sandbox/seccomp-compiled.h). */
#pragma once

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* Profiles, as bits: a rule lists the profiles that refuse the call. */
typedef enum
{
  SB_SECCOMP_PROFILE_DEFAULT = 1 << 0,
  SB_SECCOMP_PROFILE_DEVEL   = 1 << 1,
} SbSeccompProfile;

#define SB_SECCOMP_PROFILE_ALL \
  (SB_SECCOMP_PROFILE_DEFAULT | SB_SECCOMP_PROFILE_DEVEL)

/* Which calls of the system call a rule refuses. */
typedef enum
{
  SB_SECCOMP_MATCH_ANY,       /* every call */
  SB_SECCOMP_MATCH_MASKED_EQ, /* (args[arg] & mask) == value */
  SB_SECCOMP_MATCH_NOT_IN,    /* args[arg] is none of allowed[] */
} SbSeccompMatch;

#define SB_SECCOMP_MAX_ALLOWED 6

typedef struct
{
  const char     *syscall;  /* its name, for messages and tests */
  int             nr;       /* native number; < 0 if this arch has none */
  int             errnum;   /* what the refused call fails with */
  unsigned int    profiles; /* SbSeccompProfile bits that refuse it */
  SbSeccompMatch  match;
  unsigned int    arg;      /* MASKED_EQ, NOT_IN: argument index */
  uint64_t        mask;     /* MASKED_EQ */
  uint64_t        value;    /* MASKED_EQ */
  uint64_t        allowed[SB_SECCOMP_MAX_ALLOWED]; /* NOT_IN: ascending,
                                                    * each < 2^32 */
  size_t          n_allowed;
  const char     *reason;
} SbSeccompRule;

/* The table, in one piece; *out_n is its length. */
const SbSeccompRule *sb_seccomp_profile_rules (size_t *out_n);

/* Every profile by name, in the order --help lists them. */
typedef struct
{
  const char   *name;
  unsigned int  bit;   /* SbSeccompProfile */
} SbSeccompProfileName;

const SbSeccompProfileName *sb_seccomp_profile_list (size_t *out_n);

/* The SbSeccompProfile bit for NAME, or 0 if there is no such profile. */
unsigned int sb_seccomp_profile_lookup (const char *name);

/* Compiles the profile (a single SbSeccompProfile bit) for the native
 * architecture and returns it as a malloc'ed array of *out_len BPF
 * instructions.  Dies with one line on failure. */
struct sock_filter *sb_seccomp_profile_compile (unsigned int profile,
                                                size_t      *out_len);
