/* sandbox/namespaces.c — creates the sandbox's namespaces.
 *
 * Enforces: the command never shares a namespace the plan unshared; an
 * unprivileged caller gets a user namespace in which only its own uid and
 * gid are mapped (setgroups denied, so it cannot drop supplementary groups
 * to get past a "deny group" permission); `lo` is the only interface in a
 * new network namespace.  Trusts: the kernel's namespace rules, and the
 * --userns/--pidns fds, which only a caller allowed to ptrace their owner
 * can hold.  The launcher is never setuid (refused in main.c), so every
 * namespace it creates belongs to the caller. */
#include "sandbox/namespaces.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cleanup.h"
#include "sandbox/die.h"
#include "sandbox/monitor.h"

static bool
sb_plan_needs_devpts (const SbPlan *plan)
{
  for (size_t i = 0; i < plan->n_ops; i++)
    if (plan->ops[i].kind == SB_OP_DEV)
      return true;
  return false;
}

/* The uid the first user namespace maps the caller to.  A new devpts
 * instance can only be mounted where uid 0 is mapped, so with --dev the
 * caller is root in the first namespace and the requested uid comes from a
 * second, nested one (sb_namespaces_finish), as in bubblewrap. */
static uid_t
sb_first_ns_uid (const SbPlan *plan)
{
  return sb_plan_needs_devpts (plan) ? 0 : plan->sandbox_uid;
}

static gid_t
sb_first_ns_gid (const SbPlan *plan)
{
  return sb_plan_needs_devpts (plan) ? 0 : plan->sandbox_gid;
}

/* Writes PATH below the host's /proc (`proc_fd`): the nested user
 * namespace is made after the pivot, when the sandbox may have no /proc
 * of its own. */
static void
sb_write_file (int proc_fd, const char *path, const char *data)
{
  sb_autofd int fd = openat (proc_fd, path, O_WRONLY | O_CLOEXEC);
  size_t len = strlen (data);

  if (fd < 0)
    sb_die_errno ("open '/proc/%s'", path);
  if (write (fd, data, len) != (ssize_t) len)
    sb_die_errno ("write '/proc/%s'", path);
}

/* Maps one uid and one gid: ours, the only ones an unprivileged process
 * may map.  setgroups must be denied before gid_map can be written
 * (CVE-2014-8989). */
static void
sb_write_id_maps (int proc_fd, uid_t inside_uid, uid_t outside_uid,
                  gid_t inside_gid, gid_t outside_gid, bool deny_setgroups)
{
  char line[64];

  if (deny_setgroups)
    sb_write_file (proc_fd, "self/setgroups", "deny");
  snprintf (line, sizeof line, "%u %u 1\n", inside_uid, outside_uid);
  sb_write_file (proc_fd, "self/uid_map", line);
  snprintf (line, sizeof line, "%u %u 1\n", inside_gid, outside_gid);
  sb_write_file (proc_fd, "self/gid_map", line);
}

/* A new network namespace has only `lo`, down; the kernel gives it
 * 127.0.0.1 and ::1 as soon as it is up. */
static void
sb_loopback_up (void)
{
  struct ifreq ifr = { .ifr_name = "lo" };
  sb_autofd int sock = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  if (sock < 0)
    sb_die_errno ("bring up 'lo': socket");
  if (ioctl (sock, SIOCGIFFLAGS, &ifr) < 0)
    sb_die_errno ("bring up 'lo': get flags");
  ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
  if (ioctl (sock, SIOCSIFFLAGS, &ifr) < 0)
    sb_die_errno ("bring up 'lo'");
}

static int
sb_clone_flags (const SbPlan *plan)
{
  int flags = CLONE_NEWNS;

  if (plan->unshare_user)
    flags |= CLONE_NEWUSER;
  /* After setns (--pidns) the kernel refuses CLONE_NEWPID in the same
   * call; the child makes the nested namespace (sb_enter_given_pidns). */
  if (plan->unshare_pid && plan->pidns_fd == -1)
    flags |= CLONE_NEWPID;
  if (plan->unshare_net)
    flags |= CLONE_NEWNET;
  if (plan->unshare_ipc)
    flags |= CLONE_NEWIPC;
  if (plan->unshare_uts)
    flags |= CLONE_NEWUTS;
  if (plan->unshare_cgroup)
    flags |= CLONE_NEWCGROUP;
  return flags;
}

/* With --pidns the sandbox's first process is a grandchild of the
 * monitor (see sb_enter_given_pidns), which must be told its pid. */
static bool
sb_needs_pid_report (const SbPlan *plan)
{
  return plan->pidns_fd != -1;
}

static void
sb_link_open (const SbPlan *plan, SbLink *link)
{
  link->go_read = link->go_write = -1;
  link->exit_event = -1;
  link->setup_read = link->setup_write = -1;
  link->monitor_pidfd = -1;
  link->pid_read = link->pid_write = -1;
  link->proc_fd = -1;

  /* The child waits for the monitor only when the caller must see its
   * pid first: --userns-block-fd lets the caller write the id maps. */
  if (plan->userns_block_fd != -1)
    {
      int go[2];

      if (pipe2 (go, O_CLOEXEC) < 0)
        sb_die_errno ("pipe");
      link->go_read = go[0];
      link->go_write = go[1];
    }
  if (plan->unshare_pid && !plan->as_pid_1)
    {
      link->exit_event = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
      if (link->exit_event < 0)
        sb_die_errno ("eventfd");
    }
  if (sb_needs_pid_report (plan))
    {
      int sv[2];
      int one = 1;

      if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        sb_die_errno ("socketpair");
      if (setsockopt (sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0)
        sb_die_errno ("setsockopt (SO_PASSCRED)");
      link->pid_read = sv[0];
      link->pid_write = sv[1];
    }
  if (plan->die_with_parent)
    {
      link->monitor_pidfd = (int) syscall (SYS_pidfd_open, getpid (), 0);
      if (link->monitor_pidfd < 0)
        sb_die_errno ("pidfd_open");
    }
  if (plan->json_status_fd != -1)
    {
      int setup[2];

      if (pipe2 (setup, O_CLOEXEC) < 0)
        sb_die_errno ("pipe");
      link->setup_read = setup[0];
      link->setup_write = setup[1];
    }
}

static void
sb_join_given_namespaces (const SbPlan *plan)
{
  /* Joining the caller's user namespace first gives the child the
   * capabilities that joining its pid namespace needs.  The pid namespace
   * is joined by the child: joining it here would put every later child
   * of the monitor in it too. */
  if (plan->userns_fd != -1 && setns (plan->userns_fd, CLONE_NEWUSER) < 0)
    {
      if (errno == EINVAL)
        sb_die ("--userns: the namespace is not a descendant of ours");
      sb_die_errno ("--userns: join user namespace");
    }
}

static void
sb_die_clone (const SbPlan *plan)
{
  if (plan->unshare_user && (errno == EPERM || errno == EINVAL || errno == EUSERS))
    sb_die_errno ("create namespaces: user namespaces are not available to this user "
                  "(kernel.unprivileged_userns_clone or user.max_user_namespaces)");
  if (errno == ENOSPC)
    sb_die ("create namespaces: nesting depth or a max_*_namespaces limit exceeded");
  sb_die_errno ("create namespaces");
}

/* setns() and unshare() of a pid namespace only move the caller's
 * future children, so fork.  The parent stays as a go-between: it passes
 * the exit status up, and with --die-with-parent it dies with its parent
 * and so takes its child along (each link sets PR_SET_PDEATHSIG before it
 * forks the next, so no death goes unnoticed). */
static void
sb_fork_intermediate (const SbPlan *plan)
{
  pid_t pid;
  int status;

  if (plan->die_with_parent && prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
    sb_die_errno ("prctl (PR_SET_PDEATHSIG)");
  pid = fork ();
  if (pid < 0)
    sb_die_errno ("fork into the pid namespace");
  if (pid == 0)
    return;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      _exit (SB_EXIT_SETUP_FAILED);
  _exit (sb_monitor_exit_code (status));
}

/* --pidns: the child joins the given pid namespace (and, with
 * --unshare-pid, makes a nested one in it), forking into each, and the
 * intermediates exit.  The resulting process sends its own pid with
 * SCM_CREDENTIALS, which the kernel translates into the monitor's pid
 * namespace. */
static void
sb_enter_given_pidns (const SbPlan *plan, SbLink *link)
{
  struct ucred cred;
  union
  {
    char buf[CMSG_SPACE (sizeof cred)];
    struct cmsghdr align;
  } control = { 0 };
  struct iovec iov = { .iov_base = "p", .iov_len = 1 };
  struct msghdr msg = {
    .msg_iov = &iov, .msg_iovlen = 1,
    .msg_control = control.buf, .msg_controllen = sizeof control.buf,
  };
  struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg);

  (void) close (link->pid_read);
  link->pid_read = -1;
  if (setns (plan->pidns_fd, CLONE_NEWPID) < 0)
    sb_die_errno ("--pidns: join pid namespace");
  sb_fork_intermediate (plan);
  if (plan->unshare_pid)
    {
      if (unshare (CLONE_NEWPID) < 0)
        sb_die_errno ("create pid namespace in --pidns");
      sb_fork_intermediate (plan);
    }

  cred = (struct ucred) { .pid = getpid (), .uid = geteuid (), .gid = getegid () };
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_CREDENTIALS;
  cmsg->cmsg_len = CMSG_LEN (sizeof cred);
  memcpy (CMSG_DATA (cmsg), &cred, sizeof cred);
  if (sendmsg (link->pid_write, &msg, 0) < 0)
    sb_die_errno ("send pid to the monitor");
  (void) close (link->pid_write);
  link->pid_write = -1;
}

/* The monitor's side of sb_enter_given_pidns. */
static pid_t
sb_receive_nested_pid (SbLink *link)
{
  char data;
  union
  {
    char buf[CMSG_SPACE (sizeof (struct ucred))];
    struct cmsghdr align;
  } control = { 0 };
  struct iovec iov = { .iov_base = &data, .iov_len = 1 };
  struct msghdr msg = {
    .msg_iov = &iov, .msg_iovlen = 1,
    .msg_control = control.buf, .msg_controllen = sizeof control.buf,
  };
  struct cmsghdr *cmsg;
  struct ucred cred;
  ssize_t n;

  (void) close (link->pid_write);
  link->pid_write = -1;
  do
    n = recvmsg (link->pid_read, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  (void) close (link->pid_read);
  link->pid_read = -1;
  cmsg = CMSG_FIRSTHDR (&msg);
  if (n != 1 || cmsg == NULL || cmsg->cmsg_type != SCM_CREDENTIALS)
    sb_die ("--pidns: the sandbox did not report its pid");
  memcpy (&cred, CMSG_DATA (cmsg), sizeof cred);
  return cred.pid;
}

/* The child's side: everything before the mounts. */
static void
sb_namespaces_child (const SbPlan *plan, SbLink *link)
{
  if (sb_needs_pid_report (plan))
    sb_enter_given_pidns (plan, link);

  link->proc_fd = open ("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (link->proc_fd < 0)
    sb_die_errno ("open '/proc'");

  /* With --die-with-parent, the monitor's death kills the sandbox; the
   * check after the prctl closes the window where it died before. */
  if (plan->die_with_parent)
    {
      struct pollfd pfd = { .fd = link->monitor_pidfd, .events = POLLIN };

      if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        sb_die_errno ("prctl (PR_SET_PDEATHSIG)");
      if (poll (&pfd, 1, 0) != 0)
        _exit (SB_EXIT_SETUP_FAILED);
      (void) close (link->monitor_pidfd);
      link->monitor_pidfd = -1;
    }

  if (link->go_read != -1)
    {
      char c;
      ssize_t n;

      (void) close (link->go_write);
      link->go_write = -1;
      do
        n = read (link->go_read, &c, 1);
      while (n < 0 && errno == EINTR);
      (void) close (link->go_read);
      link->go_read = -1;
    }
  if (link->setup_read != -1)
    {
      (void) close (link->setup_read);
      link->setup_read = -1;
    }

  if (plan->unshare_user && plan->userns_block_fd == -1)
    sb_write_id_maps (link->proc_fd, sb_first_ns_uid (plan), plan->real_uid,
                      sb_first_ns_gid (plan), plan->real_gid, true);

  /* Lowering the limit in the first namespace, which the nested one will
   * use up, is what makes --disable-userns stick: the sandbox cannot raise
   * a limit set in a namespace it has no capabilities in. */
  if (plan->disable_userns)
    sb_write_file (link->proc_fd, "sys/user/max_user_namespaces", "1");

  if (plan->unshare_net)
    sb_loopback_up ();

  if (plan->hostname != NULL && sethostname (plan->hostname, strlen (plan->hostname)) < 0)
    sb_die_errno ("set hostname '%s'", plan->hostname);
}

pid_t
sb_namespaces_enter (SbPlan *plan, SbLink *link)
{
  struct clone_args args = { 0 };
  pid_t pid;

  sb_link_open (plan, link);
  sb_join_given_namespaces (plan);

  args.flags = (uint64_t) sb_clone_flags (plan);
  args.exit_signal = SIGCHLD;
  pid = (pid_t) syscall (SYS_clone3, &args, sizeof args);
  if (pid < 0 && errno == ENOSYS)
    pid = (pid_t) syscall (SYS_clone, (unsigned long) (sb_clone_flags (plan) | SIGCHLD),
                           NULL, NULL, NULL, NULL);
  if (pid < 0)
    sb_die_clone (plan);

  if (pid == 0)
    {
      sb_namespaces_child (plan, link);
      return 0;
    }

  if (link->go_read != -1)
    {
      (void) close (link->go_read);
      link->go_read = -1;
    }
  if (link->setup_write != -1)
    {
      (void) close (link->setup_write);
      link->setup_write = -1;
    }
  if (link->monitor_pidfd != -1)
    {
      (void) close (link->monitor_pidfd);
      link->monitor_pidfd = -1;
    }
  link->sandbox_pid = pid;
  if (link->pid_read != -1)
    link->sandbox_pid = sb_receive_nested_pid (link);
  return pid;
}

void
sb_namespaces_finish (const SbPlan *plan, SbLink *link)
{
  uid_t ns_uid = sb_first_ns_uid (plan);
  gid_t ns_gid = sb_first_ns_gid (plan);

  if (plan->userns2_fd != -1 && setns (plan->userns2_fd, CLONE_NEWUSER) < 0)
    sb_die_errno ("--userns2: join user namespace");

  /* The nested namespace: it gives the command the uid it asked for when
   * the first one had to map root (devpts), and, with --disable-userns,
   * puts the command below the limit set in the first one. */
  if (plan->unshare_user && plan->userns_block_fd == -1
      && (ns_uid != plan->sandbox_uid || ns_gid != plan->sandbox_gid
          || plan->disable_userns))
    {
      if (unshare (CLONE_NEWUSER) < 0)
        sb_die_errno ("create nested user namespace");
      sb_write_id_maps (link->proc_fd, plan->sandbox_uid, ns_uid, plan->sandbox_gid, ns_gid, false);
    }

  if (plan->disable_userns || plan->assert_userns_disabled)
    {
      if (unshare (CLONE_NEWUSER) == 0)
        sb_die ("user namespaces are still allowed inside the sandbox; refusing to go on");
    }
  (void) close (link->proc_fd);
  link->proc_fd = -1;
}
