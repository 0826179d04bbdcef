/* sandbox/status.c — the --info-fd and --json-status-fd documents.
 * Trusts: nothing; it only writes numbers the kernel gave it and what the
 * plan decided (the Landlock ABI in use and the features applied). */
#include "sandbox/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/landlock.h"

static bool
sb_write_all (int fd, const char *s)
{
  size_t len = strlen (s);

  while (len > 0)
    {
      ssize_t n = write (fd, s, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      s += n;
      len -= (size_t) n;
    }
  return true;
}

/* Appends ", \"<ns>-namespace\": INODE" for each namespace the sandbox
 * got a new one of, as bubblewrap lists them. */
static void
sb_append_namespaces (const SbPlan *plan, pid_t child, char *buf, size_t size,
                      const char *sep)
{
  const struct
  {
    const char *name;
    bool        unshared;
  } ns[] = {
    { "cgroup", plan->unshare_cgroup },
    { "ipc", plan->unshare_ipc },
    { "mnt", true },
    { "net", plan->unshare_net },
    { "pid", plan->unshare_pid },
    { "uts", plan->unshare_uts },
  };
  char dir[64];
  sb_autofd int dfd = -1;

  snprintf (dir, sizeof dir, "/proc/%d/ns", (int) child);
  dfd = open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return;
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
    {
      struct stat st;
      size_t used = strlen (buf);

      if (!ns[i].unshared || fstatat (dfd, ns[i].name, &st, 0) != 0)
        continue;
      snprintf (buf + used, size - used, ",%s\"%s-namespace\": %ju",
                sep, ns[i].name, (uintmax_t) st.st_ino);
    }
}

/* Appends one JSON list of the names of the SbLandlockFeature bits in
 * FEATURES. */
static void
sb_append_landlock_list (unsigned int features, char *buf, size_t size)
{
  const char *sep = "";

  strncat (buf, "[", size - strlen (buf) - 1);
  for (unsigned int bit = 1; bit != 0 && bit <= features; bit <<= 1)
    {
      const char *name = sb_landlock_feature_name (bit);
      size_t used = strlen (buf);

      if ((features & bit) == 0 || name == NULL)
        continue;
      snprintf (buf + used, size - used, "%s\"%s\"", sep, name);
      sep = ", ";
    }
  strncat (buf, "]", size - strlen (buf) - 1);
}

/* When the plan uses Landlock: ", \"landlock-abi\": N" (the ABI in use,
 * 0 for none), then the features applied and those left out by
 * --landlock-best-effort, so that a caller can tell what holds. */
static void
sb_append_landlock (const SbPlan *plan, char *buf, size_t size,
                    const char *sep)
{
  size_t used = strlen (buf);

  if (plan->landlock_wanted == 0)
    return;
  snprintf (buf + used, size - used, ",%s\"landlock-abi\": %d,%s\"landlock-applied\": ",
            sep, plan->landlock_abi, sep);
  sb_append_landlock_list (plan->landlock_applied, buf, size);
  used = strlen (buf);
  snprintf (buf + used, size - used, ",%s\"landlock-skipped\": ", sep);
  sb_append_landlock_list (plan->landlock_wanted & ~plan->landlock_applied,
                           buf, size);
}

void
sb_status_report_start (SbPlan *plan, pid_t child)
{
  char buf[1024];

  if (plan->info_fd != -1)
    {
      snprintf (buf, sizeof buf, "{\n    \"child-pid\": %d", (int) child);
      sb_append_namespaces (plan, child, buf, sizeof buf, "\n    ");
      sb_append_landlock (plan, buf, sizeof buf, "\n    ");
      strncat (buf, "\n}\n", sizeof buf - strlen (buf) - 1);
      if (!sb_write_all (plan->info_fd, buf))
        sb_die_errno ("write to --info-fd %d", plan->info_fd);
      (void) close (plan->info_fd);
      plan->info_fd = -1;
    }
  if (plan->json_status_fd != -1)
    {
      snprintf (buf, sizeof buf, "{ \"child-pid\": %d", (int) child);
      sb_append_namespaces (plan, child, buf, sizeof buf, " ");
      sb_append_landlock (plan, buf, sizeof buf, " ");
      strncat (buf, " }\n", sizeof buf - strlen (buf) - 1);
      if (!sb_write_all (plan->json_status_fd, buf))
        sb_die_errno ("write to --json-status-fd %d", plan->json_status_fd);
    }
}

void
sb_status_report_exit (SbPlan *plan, int exit_code)
{
  char buf[64];

  if (plan->json_status_fd == -1)
    return;
  snprintf (buf, sizeof buf, "{ \"exit-code\": %d }\n", exit_code);
  /* The caller may have gone; the exit status still goes out. */
  (void) sb_write_all (plan->json_status_fd, buf);
  (void) close (plan->json_status_fd);
  plan->json_status_fd = -1;
}
