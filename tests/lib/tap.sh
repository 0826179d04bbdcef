# tests/lib/tap.sh — TAP output and sandbox helpers for shell tests
# (STYLE.md §8).  Source it first thing:
#
#   . "$(dirname "$0")/../lib/tap.sh"
#   plan 2
#   if sandbox_run -- touch /usr/probe 2>/dev/null; then
#     fail "/usr is writable"
#   else
#     ok "/usr is read-only"
#   fi
#
# POSIX sh (dash and bash both work).  What it gives a test:
#
#   plan N              "1..N"; the script fails if it ends with another count
#   skip_all REASON     "1..0 # SKIP REASON" and exit 0
#   ok DESC             a passing case
#   fail DESC [DIAG…]   a failing case (the script goes on; it exits 1 at end)
#   skip REASON         a case not run here, and why
#   todo DESC REASON    a known failure ("not ok … # TODO"): reported, not
#                       counted, for documented differences from bubblewrap
#   check DESC CMD…     ok if CMD succeeds, else fail with its stderr
#   diag MSG…           a "# " comment line
#   bail_out REASON     "Bail out!" and exit 1
#   on_exit CMD         run CMD (a shell string) when the script ends
#   $T                  a fresh directory (mode 0755, so that nobody can
#                       reach it), removed when the script ends
#
#   is_root             true when the script runs as uid 0
#   as_nobody CMD…      run CMD as uid/gid 65534 with no groups (needs root),
#                       through setpriv (or su); in `as_nobody CMD &`, $! is
#                       a subshell, not CMD
#   nobody_can_run PATH true if nobody can execute PATH
#
#   sandbox_run ARGS… -- CMD…    run "$XDG_APP_SANDBOX" with the standard
#                       minimal plan (below) plus ARGS, then CMD; as nobody
#                       when SANDBOX_AS=nobody; bounded by SANDBOX_TIMEOUT
#                       seconds (default 20) so that a hang fails one case
#   sandbox_exec ARGS… -- CMD…   the same without the timeout, by exec: use it
#                       in the background (`sandbox_exec … &`) so that $! is
#                       the launcher's own pid
#   sandbox_plan        prints the standard plan, one argument per line
#   is_ours             true if $XDG_APP_SANDBOX is xdg-app-sandbox rather
#                       than bubblewrap (tests against /usr/bin/bwrap too)
#
# The standard plan: host /usr read-only at /usr, /bin /lib /lib64 /sbin as
# symlinks into usr/, a new /proc, a minimal /dev, a tmpfs /tmp, every
# namespace unshared, and --die-with-parent.  Nothing of the host's HOME,
# /etc, /tmp or installations is in it.

umask 022

_tap_planned=
_tap_n=0
_tap_failed=0
_tap_on_exit=

plan ()
{
  _tap_planned=$1
  echo "1..$1"
}

skip_all ()
{
  echo "1..0 # SKIP $*"
  _tap_planned=0
  exit 0
}

diag ()
{
  for _tap_line in "$@"; do
    [ -n "$_tap_line" ] || continue
    printf '%s\n' "$_tap_line" | sed 's/^/# /'
  done
}

ok ()
{
  _tap_n=$((_tap_n + 1))
  echo "ok $_tap_n - $1"
}

fail ()
{
  _tap_n=$((_tap_n + 1))
  _tap_failed=$((_tap_failed + 1))
  echo "not ok $_tap_n - $1"
  shift
  diag "$@"
}

skip ()
{
  _tap_n=$((_tap_n + 1))
  echo "ok $_tap_n # SKIP $1"
}

todo ()
{
  _tap_n=$((_tap_n + 1))
  echo "not ok $_tap_n - $1 # TODO $2"
}

check ()
{
  _tap_desc=$1
  shift
  if _tap_err=$("$@" 2>&1 >/dev/null); then
    ok "$_tap_desc"
  else
    fail "$_tap_desc" "command: $*" "$_tap_err"
  fi
}

bail_out ()
{
  echo "Bail out! $*"
  exit 1
}

on_exit ()
{
  _tap_on_exit="$_tap_on_exit
$1"
}

_tap_end ()
{
  _tap_status=$?
  eval "$_tap_on_exit" >/dev/null 2>&1 || true
  if [ -n "${T:-}" ] && [ -d "$T" ]; then
    rm -rf "$T"
  fi
  if [ -z "$_tap_planned" ]; then
    echo "# no plan was given"
    exit 1
  fi
  if [ "$_tap_n" -ne "$_tap_planned" ]; then
    echo "# planned $_tap_planned tests but ran $_tap_n"
    exit 1
  fi
  if [ "$_tap_failed" -gt 0 ]; then
    echo "# $_tap_failed of $_tap_n failed"
    exit 1
  fi
  exit "$_tap_status"
}

trap _tap_end EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

T=$(mktemp -d "${TMPDIR:-/tmp}/xa-test.XXXXXXXX") || bail_out "cannot create a temporary directory"
chmod 0755 "$T"

# start_xvfb: an X server on the host on a display it picks itself (a
# fixed number collides with other tests running at the same time); sets
# XVFB_DISPLAY to the number, or leaves it empty and returns 1 with the
# server's log on stderr.
start_xvfb ()
{
  XVFB_DISPLAY=
  Xvfb -displayfd 9 -nolisten tcp 9>"$T/xvfb.display" >"$T/xvfb.log" 2>&1 &
  on_exit "kill $!"
  for _ in $(seq 400); do
    [ -s "$T/xvfb.display" ] && break
    sleep 0.05
  done
  XVFB_DISPLAY=$(tr -dc 0-9 <"$T/xvfb.display")
  if [ -z "$XVFB_DISPLAY" ]; then
    cat "$T/xvfb.log" >&2
    return 1
  fi
}

is_root ()
{
  [ "$(id -u)" -eq 0 ]
}

# setpriv execs; as a root process that changes uid, CMD starts with no
# capabilities, like a login of an ordinary user.
_tap_setpriv="setpriv --reuid=65534 --regid=65534 --clear-groups --"

as_nobody ()
{
  if ! is_root; then
    echo "as_nobody: needs root" >&2
    return 125
  fi
  if command -v setpriv >/dev/null 2>&1; then
    $_tap_setpriv "$@"
  else
    # su forks: $! is su's pid, not CMD's.
    _tap_cmd=
    for _tap_a in "$@"; do
      _tap_cmd="$_tap_cmd '$(printf '%s' "$_tap_a" | sed "s/'/'\\\\''/g")'"
    done
    su -s /bin/sh nobody -c "exec $_tap_cmd"
  fi
}

nobody_can_run ()
{
  is_root && as_nobody test -x "$1" 2>/dev/null
}

sandbox_plan ()
{
  printf '%s\n' \
    --ro-bind /usr /usr \
    --symlink usr/bin /bin \
    --symlink usr/lib /lib \
    --symlink usr/lib64 /lib64 \
    --symlink usr/sbin /sbin \
    --proc /proc \
    --dev /dev \
    --tmpfs /tmp \
    --unshare-all \
    --die-with-parent
}

_tap_need_sandbox ()
{
  case ${XDG_APP_SANDBOX:-} in
    /*) ;;
    *) bail_out "XDG_APP_SANDBOX must be the absolute path of the launcher" ;;
  esac
  [ -x "$XDG_APP_SANDBOX" ] || bail_out "'$XDG_APP_SANDBOX' is not executable"
}

# Checks that the launcher and the identity asked for are usable.
_tap_sandbox_check ()
{
  _tap_need_sandbox
  case ${SANDBOX_AS:-} in
    '') ;;
    nobody)
      is_root || bail_out "SANDBOX_AS=nobody needs root"
      command -v setpriv >/dev/null 2>&1 || bail_out "SANDBOX_AS=nobody needs setpriv"
      ;;
    *) bail_out "SANDBOX_AS='$SANDBOX_AS': only 'nobody' or empty" ;;
  esac
}

sandbox_exec ()
{
  _tap_sandbox_check
  _tap_as=
  [ "${SANDBOX_AS:-}" = nobody ] && _tap_as=$_tap_setpriv
  # shellcheck disable=SC2046,SC2086 # no spaces in these words
  exec $_tap_as "$XDG_APP_SANDBOX" $(sandbox_plan) "$@"
}

sandbox_run ()
{
  _tap_sandbox_check
  _tap_as=
  [ "${SANDBOX_AS:-}" = nobody ] && _tap_as=$_tap_setpriv
  # timeout(1) kills a hung sandbox, so that it fails one case (status 124)
  # rather than the whole file.
  # shellcheck disable=SC2046,SC2086
  timeout -k 2 "${SANDBOX_TIMEOUT:-20}" \
    $_tap_as "$XDG_APP_SANDBOX" $(sandbox_plan) "$@"
}

_tap_ours=
is_ours ()
{
  if [ -z "$_tap_ours" ]; then
    _tap_need_sandbox
    if "$XDG_APP_SANDBOX" --version 2>/dev/null | grep -q xdg-app; then
      _tap_ours=yes
    else
      _tap_ours=no
    fi
  fi
  [ "$_tap_ours" = yes ]
}
