/* sandbox/caps.c — the capabilities the sandboxed command keeps, and
 * no_new_privs.
 *
 * Enforces: after sb_caps_drop_all the process holds exactly
 * sb_caps_kept (plan) — none unless the plan says --cap-add — in its
 * permitted, effective, inheritable and ambient sets, and, where it may
 * change it (it holds CAP_SETPCAP), in its bounding set; no_new_privs is
 * set, so no setuid binary and no file capability can raise it again after
 * exec.  This holds for real root without a user namespace too: unlike
 * bubblewrap, root's command keeps nothing it was not given (DESIGN.md).
 *
 * Where the bounding set cannot be shrunk (an unprivileged caller without
 * a user namespace), the empty permitted set plus no_new_privs still bound
 * what exec can grant: with no_new_privs the kernel caps the new permitted
 * set at the old one.
 *
 * Trusts: the plan (checked by sb_plan_parse) and the kernel.  Uses the
 * capget/capset system calls directly; no libcap. */
#include "sandbox/caps.h"

#include <ctype.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/die.h"

/* Capabilities newer than Debian 12's headers, by their kernel numbers. */
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#ifndef CAP_CHECKPOINT_RESTORE
#define CAP_CHECKPOINT_RESTORE 40
#endif

static const char *const sb_caps_names[] = {
  [CAP_CHOWN] = "CAP_CHOWN",
  [CAP_DAC_OVERRIDE] = "CAP_DAC_OVERRIDE",
  [CAP_DAC_READ_SEARCH] = "CAP_DAC_READ_SEARCH",
  [CAP_FOWNER] = "CAP_FOWNER",
  [CAP_FSETID] = "CAP_FSETID",
  [CAP_KILL] = "CAP_KILL",
  [CAP_SETGID] = "CAP_SETGID",
  [CAP_SETUID] = "CAP_SETUID",
  [CAP_SETPCAP] = "CAP_SETPCAP",
  [CAP_LINUX_IMMUTABLE] = "CAP_LINUX_IMMUTABLE",
  [CAP_NET_BIND_SERVICE] = "CAP_NET_BIND_SERVICE",
  [CAP_NET_BROADCAST] = "CAP_NET_BROADCAST",
  [CAP_NET_ADMIN] = "CAP_NET_ADMIN",
  [CAP_NET_RAW] = "CAP_NET_RAW",
  [CAP_IPC_LOCK] = "CAP_IPC_LOCK",
  [CAP_IPC_OWNER] = "CAP_IPC_OWNER",
  [CAP_SYS_MODULE] = "CAP_SYS_MODULE",
  [CAP_SYS_RAWIO] = "CAP_SYS_RAWIO",
  [CAP_SYS_CHROOT] = "CAP_SYS_CHROOT",
  [CAP_SYS_PTRACE] = "CAP_SYS_PTRACE",
  [CAP_SYS_PACCT] = "CAP_SYS_PACCT",
  [CAP_SYS_ADMIN] = "CAP_SYS_ADMIN",
  [CAP_SYS_BOOT] = "CAP_SYS_BOOT",
  [CAP_SYS_NICE] = "CAP_SYS_NICE",
  [CAP_SYS_RESOURCE] = "CAP_SYS_RESOURCE",
  [CAP_SYS_TIME] = "CAP_SYS_TIME",
  [CAP_SYS_TTY_CONFIG] = "CAP_SYS_TTY_CONFIG",
  [CAP_MKNOD] = "CAP_MKNOD",
  [CAP_LEASE] = "CAP_LEASE",
  [CAP_AUDIT_WRITE] = "CAP_AUDIT_WRITE",
  [CAP_AUDIT_CONTROL] = "CAP_AUDIT_CONTROL",
  [CAP_SETFCAP] = "CAP_SETFCAP",
  [CAP_MAC_OVERRIDE] = "CAP_MAC_OVERRIDE",
  [CAP_MAC_ADMIN] = "CAP_MAC_ADMIN",
  [CAP_SYSLOG] = "CAP_SYSLOG",
  [CAP_WAKE_ALARM] = "CAP_WAKE_ALARM",
  [CAP_BLOCK_SUSPEND] = "CAP_BLOCK_SUSPEND",
  [CAP_AUDIT_READ] = "CAP_AUDIT_READ",
  [CAP_PERFMON] = "CAP_PERFMON",
  [CAP_BPF] = "CAP_BPF",
  [CAP_CHECKPOINT_RESTORE] = "CAP_CHECKPOINT_RESTORE",
};

#define SB_CAPS_N_NAMES ((int) (sizeof sb_caps_names / sizeof sb_caps_names[0]))
#define SB_CAP_BIT(cap) (UINT64_C (1) << (cap))

int
sb_caps_parse (const char *name)
{
  int cap;

  if (strcasecmp (name, "ALL") == 0)
    return SB_CAP_ALL;

  /* A number, as libcap's cap_from_name (which bubblewrap uses) takes. */
  if (isdigit ((unsigned char) name[0]))
    {
      char *end = NULL;
      long n;

      errno = 0;
      n = strtol (name, &end, 10);
      if (errno != 0 || *end != '\0' || n < 0 || n >= SB_CAP_ALL)
        return -1;
      return (int) n;
    }

  for (cap = 0; cap < SB_CAPS_N_NAMES; cap++)
    if (sb_caps_names[cap] != NULL
        && strcasecmp (name, sb_caps_names[cap]) == 0)
      return cap;
  return -1;
}

const char *
sb_caps_name (int cap)
{
  if (cap < 0 || cap >= SB_CAPS_N_NAMES)
    return NULL;
  return sb_caps_names[cap];
}

/* Every capability this kernel knows: the bounding set answers for each
 * number up to the last one and EINVAL past it.  Asked each time rather
 * than read from /proc/sys/kernel/cap_last_cap, since the sandbox's /proc
 * may not be mounted (or may be another pid namespace's) by now. */
static SbCapSet
sb_caps_known (void)
{
  SbCapSet known = 0;
  int cap;

  for (cap = 0; cap < SB_CAP_ALL; cap++)
    {
      if (prctl (PR_CAPBSET_READ, (unsigned long) cap, 0, 0, 0) < 0)
        break;
      known |= SB_CAP_BIT (cap);
    }
  return known;
}

SbCapSet
sb_caps_kept (const SbPlan *plan)
{
  return plan->caps_add & sb_caps_known ();
}

/* The capability state of this process, in 64-bit sets. */
typedef struct
{
  SbCapSet effective;
  SbCapSet permitted;
  SbCapSet inheritable;
} SbCapState;

static void
sb_caps_get (SbCapState *out_state)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

  if (syscall (SYS_capget, &hdr, data) != 0)
    sb_die_errno ("drop capabilities: read the current sets");
  out_state->effective = data[0].effective | (SbCapSet) data[1].effective << 32;
  out_state->permitted = data[0].permitted | (SbCapSet) data[1].permitted << 32;
  out_state->inheritable =
    data[0].inheritable | (SbCapSet) data[1].inheritable << 32;
}

static void
sb_caps_set (const SbCapState *state,
             const char       *why)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {
    { (uint32_t) state->effective, (uint32_t) state->permitted,
      (uint32_t) state->inheritable },
    { (uint32_t) (state->effective >> 32), (uint32_t) (state->permitted >> 32),
      (uint32_t) (state->inheritable >> 32) },
  };

  if (syscall (SYS_capset, &hdr, data) != 0)
    sb_die_errno ("drop capabilities: %s", why);
}

/* The lowest capability in SET, for naming it in a message. */
static const char *
sb_caps_first_name (SbCapSet set)
{
  int cap;

  for (cap = 0; cap < SB_CAP_ALL; cap++)
    if (set & SB_CAP_BIT (cap))
      return sb_caps_name (cap) != NULL ? sb_caps_name (cap) : "(unnamed)";
  return "(none)";
}

/* Leaves the process with exactly KEEP (see the top of the file).  The
 * order matters: shrinking the bounding set needs CAP_SETPCAP, which the
 * capset below gives up, and ambient capabilities must already be both
 * permitted and inheritable when they are raised. */
static void
sb_caps_keep_only (SbCapSet keep)
{
  SbCapSet known = sb_caps_known ();
  SbCapSet bounding = 0;
  SbCapState state;
  int cap;

  sb_caps_get (&state);
  for (cap = 0; cap < SB_CAP_ALL; cap++)
    if ((known & SB_CAP_BIT (cap))
        && prctl (PR_CAPBSET_READ, (unsigned long) cap, 0, 0, 0) == 1)
      bounding |= SB_CAP_BIT (cap);

  if (keep & ~state.permitted)
    sb_die ("keep capability '%s': the launcher does not have it",
            sb_caps_first_name (keep & ~state.permitted));
  if (keep & ~bounding)
    sb_die ("keep capability '%s': not in the launcher's bounding set",
            sb_caps_first_name (keep & ~bounding));

  if (state.permitted & SB_CAP_BIT (CAP_SETPCAP))
    {
      /* It may be permitted but not effective (after a uid change). */
      if (!(state.effective & SB_CAP_BIT (CAP_SETPCAP)))
        {
          state.effective |= SB_CAP_BIT (CAP_SETPCAP);
          sb_caps_set (&state, "raise CAP_SETPCAP");
        }
      for (cap = 0; cap < SB_CAP_ALL; cap++)
        if ((bounding & ~keep) & SB_CAP_BIT (cap)
            && prctl (PR_CAPBSET_DROP, (unsigned long) cap, 0, 0, 0) != 0)
          sb_die_errno ("drop capability '%s' from the bounding set",
                        sb_caps_name (cap) != NULL ? sb_caps_name (cap)
                                                   : "(unnamed)");
    }

  state.effective = keep;
  state.permitted = keep;
  state.inheritable = keep;
  sb_caps_set (&state, "set the permitted, effective and inheritable sets");

  /* Ambient capabilities carry KEEP across exec for a non-root uid. */
  if (prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
    {
      /* Kernels before 4.3 have no ambient set, hence nothing to clear. */
      if (errno != EINVAL || keep != 0)
        sb_die_errno ("drop capabilities: clear the ambient set");
    }
  for (cap = 0; cap < SB_CAP_ALL; cap++)
    if ((keep & SB_CAP_BIT (cap))
        && prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE,
                  (unsigned long) cap, 0, 0) != 0)
      sb_die_errno ("keep capability '%s': raise it in the ambient set",
                    sb_caps_first_name (SB_CAP_BIT (cap)));
}

static void
sb_caps_set_no_new_privs (void)
{
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    sb_die_errno ("set no_new_privs");
}

void
sb_caps_drop_all (const SbPlan *plan)
{
  sb_caps_set_no_new_privs ();
  sb_caps_keep_only (sb_caps_kept (plan));
}

void
sb_caps_drop_everything (void)
{
  sb_caps_set_no_new_privs ();
  sb_caps_keep_only (0);
}
