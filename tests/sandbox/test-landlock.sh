#!/bin/bash
# tests/sandbox/test-landlock.sh — tries to get past the namespaces through
# the holes that Landlock closes, from inside real sandboxes, with and
# without xdg-app-sandbox's Landlock options, and with bubblewrap 0.8 under
# the same plan (which has no such options):
#
#   - with the host's network shared (--share-net), the X server's abstract
#     socket (@/tmp/.X11-unix/XN, a real Xvfb) and a D-Bus daemon's
#     (unix:abstract=…) are reachable; --scope-abstract-unix-sockets closes
#     both while TCP to 127.0.0.1 keeps working;
#   - with the host's pid namespace shared, a host process of the same user
#     can be signalled; --scope-signals stops that;
#   - a directory fd handed in from outside (inherited `3</`, --keep-fd)
#     reaches files outside the view; --landlock-fs stops that and leaves
#     the view usable;
#   - --landlock-abi-max stands for an older kernel: without
#     --landlock-best-effort the launcher fails with one line naming the
#     ABI needed and found, with it the sandbox runs and --info-fd says
#     what was left out.
#
# Each "without the option" and each bubblewrap check shows that the hole
# is really there, so that the check with the option is not vacuous:
# bubblewrap leaving it open passes (it is what we compare against).
# Runs as root and as nobody when started as root; SANDBOX_AS=nobody or
# SANDBOX_AS= (empty: the caller) picks one, as tests/sandbox/meson.build
# does.  XDG_APP_SANDBOX must be xdg-app-sandbox; BWRAP (default
# /usr/bin/bwrap) is the bubblewrap to compare with.
#
# Trusts: the host's /proc/net/unix to see that the services listen.

# Scripts for inside the sandbox are single-quoted on purpose; checks are
# called through the CHECKS array.
# shellcheck disable=SC2016,SC2317
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

OURS=$XDG_APP_SANDBOX
BWRAP=${BWRAP:-/usr/bin/bwrap}
# sandbox/die.c names the launcher so, whatever its file is called.
PROG=xdg-app-sandbox
PY=/usr/bin/python3

CHECKS=(
  check_x11_reachable_without_scope
  check_x11_abstract_refused
  check_x11_client_fails
  check_dbus_abstract_refused
  check_tcp_loopback_works
  check_own_abstract_socket_works
  check_bwrap_x11_open
  check_bwrap_dbus_open
  check_signal_reaches_host_without_scope
  check_signal_to_host_refused
  check_signal_inside_works
  check_bwrap_signal_open
  check_fd_reaches_host_without_landlock_fs
  check_inherited_root_fd_confined
  check_dotdot_from_bound_dir_refused
  check_keep_fd_confined
  check_create_through_fd_refused
  check_ro_bind_source_unwritable_through_fd
  check_remounted_ro_unwritable_through_fd
  check_bwrap_fd_open
  check_view_runs_programs
  check_view_tmp_writable
  check_view_stdio_reopen
  check_view_binds_keep_access
  check_view_dir_writable_skeleton_not
  check_info_fd_reports_abi
  check_json_status_reports_abi
  check_old_abi_fails
  check_old_abi_fs_fails
  check_old_abi_best_effort
  check_no_landlock_best_effort
  check_bad_abi_max
)

if [ -n "${SANDBOX_AS+set}" ]; then
  case $SANDBOX_AS in
    '') IDENTITIES=("$(id -un)") ;;
    nobody)
      is_root || skip_all "SANDBOX_AS=nobody needs the test to run as root"
      IDENTITIES=(nobody)
      ;;
    *) bail_out "SANDBOX_AS='$SANDBOX_AS': only 'nobody' or empty" ;;
  esac
  unset SANDBOX_AS
elif is_root; then
  IDENTITIES=(root nobody)
else
  IDENTITIES=("$(id -un)")
fi

is_ours || bail_out "XDG_APP_SANDBOX must be xdg-app-sandbox: bubblewrap has no Landlock options"
[ -x "$PY" ] || skip_all "/usr/bin/python3 is not installed (the clients inside)"

plan $(( ${#CHECKS[@]} * ${#IDENTITIES[@]} ))

# ---------------------------------------------------------------- helpers

WHO=
SWITCH=
# The words that run a command as the identity under test.
AS=()

# ours ARGS… -- CMD…, bwrap ARGS… -- CMD…: the launcher with the standard
# plan of tests/lib/tap.sh (every namespace unshared) plus ARGS.
ours ()
{
  SANDBOX_AS=$SWITCH XDG_APP_SANDBOX=$OURS sandbox_run "$@"
}

bwrap ()
{
  SANDBOX_AS=$SWITCH XDG_APP_SANDBOX=$BWRAP sandbox_run "$@"
}

# sharing_pids LAUNCHER ARGS… -- CMD…: a plan that keeps the host's pid
# namespace.  No /proc: bubblewrap cannot mount one there unprivileged.
# No /dev: for nobody, ours then fails to map the nested user namespace
# that --dev needs, since it writes /proc/self/uid_map inside the view.
sharing_pids ()
{
  local launcher=$1
  shift
  timeout -k 2 20 "${AS[@]}" "$launcher" \
    --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
    --symlink usr/lib64 /lib64 --tmpfs /tmp \
    --unshare-user-try --unshare-ipc --unshare-uts --unshare-net \
    --die-with-parent "$@"
}

have_bwrap ()
{
  [ -x "$BWRAP" ] && ! "$BWRAP" --version 2>/dev/null | grep -q xdg-app
}

# The abstract socket NAME (without its leading NUL) from inside: prints
# "connected" or the error, exits 0 only when connected.
PY_CONNECT='
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect("\0" + sys.argv[1])
except OSError as e:
    print(e.strerror)
    sys.exit(1)
print("connected")'

# connect_via LAUNCHER-FUNCTION ARGS… NAME: the sandbox shares the host's
# network; sets $out and returns the client's status.
connect_via ()
{
  local run=$1 name=${*: -1}
  set -- "${@:2:$#-2}"
  out=$("$run" --share-net "$@" -- "$PY" -c "$PY_CONNECT" "$name" 2>&1)
}

# Refused by Landlock, not by a missing server: EPERM.
is_eperm ()
{
  grep -q "Operation not permitted" <<<"$out"
}

# The landlock fields of a --info-fd document: "ABI APPLIED SKIPPED" with
# comma-separated names ("-" for none).
landlock_fields ()
{
  "$PY" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["landlock-abi"], ",".join(d["landlock-applied"]) or "-",
      ",".join(d["landlock-skipped"]) or "-")
EOF
}

need_scopes ()
{
  if [ "$KERNEL_ABI" -lt 6 ]; then
    skip "the kernel's Landlock ABI is $KERNEL_ABI; scopes need 6"
    return 1
  fi
}

need_fs ()
{
  if [ "$KERNEL_ABI" -lt 3 ]; then
    skip "the kernel's Landlock ABI is $KERNEL_ABI; --landlock-fs needs 3"
    return 1
  fi
}

need_x11 ()
{
  if [ -z "$DISPLAY_N" ]; then
    skip "Xvfb is not installed (apt-get install xvfb)"
    return 1
  fi
}

# ------------------------------------------------------------- fixtures

mkdir -m 0755 "$T/view"
echo "in the view" >"$T/view/file"
echo "host secret" >"$T/secret"
mkdir -m 0777 "$T/open" "$T/shared"
chmod 0777 "$T/open" "$T/shared"
echo "stdin from the host" >"$T/stdin"
X11_SOCKET=
DISPLAY_N=

# An X server on the host: Xvfb picks a free display and says which.
if command -v Xvfb >/dev/null 2>&1; then
  start_xvfb 2>"$T/err" || bail_out "Xvfb did not start: $(cat "$T/err")"
  DISPLAY_N=$XVFB_DISPLAY
  X11_SOCKET=/tmp/.X11-unix/X$DISPLAY_N
  grep -q " @$X11_SOCKET\$" /proc/net/unix \
    || bail_out "Xvfb :$DISPLAY_N does not listen on @$X11_SOCKET"
fi

# A bus listening on an abstract socket only.
DBUS_SOCKET=/tmp/xa-test-landlock-dbus-$$-$RANDOM
dbus-daemon --session --nofork --address="unix:abstract=$DBUS_SOCKET" \
  --print-address=1 >"$T/dbus.address" 2>"$T/dbus.log" &
on_exit "kill $!"
for _ in $(seq 100); do
  [ -s "$T/dbus.address" ] && break
  sleep 0.05
done
grep -q " @$DBUS_SOCKET\$" /proc/net/unix \
  || bail_out "dbus-daemon does not listen on @$DBUS_SOCKET: $(cat "$T/dbus.log")"

# An HTTP server on the host's 127.0.0.1.
mkdir "$T/www"
echo "tcp works" >"$T/www/marker"
"$PY" -u -m http.server --bind 127.0.0.1 --directory "$T/www" 0 >"$T/http.log" 2>&1 &
on_exit "kill $!"
HTTP_PORT=
for _ in $(seq 100); do
  HTTP_PORT=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$T/http.log")
  [ -n "$HTTP_PORT" ] && break
  sleep 0.05
done
[ -n "$HTTP_PORT" ] || bail_out "python3 -m http.server did not start: $(cat "$T/http.log")"

# The kernel's ABI, as the launcher reports it.
ours --scope-signals --landlock-best-effort --info-fd 9 -- /usr/bin/true \
  9>"$T/abi.json" 2>"$T/err" || bail_out "the launcher does not run: $(cat "$T/err")"
read -r KERNEL_ABI _ <<<"$(landlock_fields "$T/abi.json")"
diag "the kernel's Landlock ABI: $KERNEL_ABI"

# ------------------------------------------- abstract unix sockets (ABI 6)

check_x11_reachable_without_scope ()
{
  local d="$WHO: without --scope-abstract-unix-sockets, the host's X server is reachable over @$X11_SOCKET (the hole)"
  need_x11 || return
  if connect_via ours "$X11_SOCKET"; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_x11_abstract_refused ()
{
  local d="$WHO: --scope-abstract-unix-sockets refuses the host's X server's abstract socket"
  need_x11 && need_scopes || return
  if connect_via ours --scope-abstract-unix-sockets "$X11_SOCKET"; then
    fail "$d" "connected to @$X11_SOCKET"
  elif is_eperm; then
    ok "$d"
  else
    fail "$d" "refused, but not by Landlock: $out"
  fi
}

check_x11_client_fails ()
{
  local d="$WHO: --scope-abstract-unix-sockets: an X client cannot open the host's display"
  need_x11 && need_scopes || return
  if ! command -v xdpyinfo >/dev/null 2>&1; then
    skip "xdpyinfo is not installed (apt-get install x11-utils)"
  elif ! ours --share-net -- env DISPLAY=":$DISPLAY_N" xdpyinfo >/dev/null 2>"$T/err"; then
    fail "$d" "control: xdpyinfo does not reach :$DISPLAY_N even without the option" "$(cat "$T/err")"
  elif ours --share-net --scope-abstract-unix-sockets \
         -- env DISPLAY=":$DISPLAY_N" xdpyinfo >/dev/null 2>&1; then
    fail "$d" "xdpyinfo opened :$DISPLAY_N"
  else
    ok "$d"
  fi
}

check_dbus_abstract_refused ()
{
  local d="$WHO: --scope-abstract-unix-sockets refuses a host bus on unix:abstract="
  need_scopes || return
  if ! connect_via ours "$DBUS_SOCKET"; then
    fail "$d" "control: the bus is not reachable even without the option: $out"
  elif connect_via ours --scope-abstract-unix-sockets "$DBUS_SOCKET"; then
    fail "$d" "connected to @$DBUS_SOCKET"
  elif is_eperm; then
    ok "$d"
  else
    fail "$d" "refused, but not by Landlock: $out"
  fi
}

check_tcp_loopback_works ()
{
  local d="$WHO: --scope-abstract-unix-sockets: TCP to a server on the host's 127.0.0.1 still works"
  need_scopes || return
  out=$(ours --share-net --scope-abstract-unix-sockets -- "$PY" -c '
import socket, sys
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
c.sendall(b"GET /marker HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
data = b""
while True:
    chunk = c.recv(4096)
    if not chunk:
        break
    data += chunk
print(data.split(b"\r\n\r\n", 1)[1].decode().strip())' "$HTTP_PORT" 2>&1)
  if [ "$out" = "tcp works" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_own_abstract_socket_works ()
{
  local d="$WHO: --scope-abstract-unix-sockets: an abstract socket bound inside the sandbox still works"
  need_scopes || return
  out=$(ours --share-net --scope-abstract-unix-sockets -- "$PY" -c '
import os, socket
srv = socket.socket(socket.AF_UNIX)
srv.bind("\0xa-test-landlock-inside-%d" % os.getpid())
srv.listen(1)
c = socket.socket(socket.AF_UNIX)
c.connect(srv.getsockname())
print("connected")' 2>&1)
  if [ "$out" = connected ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_bwrap_x11_open ()
{
  local d="$WHO: bubblewrap 0.8 with --share-net leaves the host's X server reachable (the hole we close)"
  need_x11 || return
  if ! have_bwrap; then
    skip "no bubblewrap at $BWRAP"
  elif connect_via bwrap "$X11_SOCKET"; then
    ok "$d"
  else
    skip "bubblewrap refused it itself: $out"
  fi
}

check_bwrap_dbus_open ()
{
  local d="$WHO: bubblewrap 0.8 with --share-net leaves a host bus on unix:abstract= reachable (the hole we close)"
  if ! have_bwrap; then
    skip "no bubblewrap at $BWRAP"
  elif connect_via bwrap "$DBUS_SOCKET"; then
    ok "$d"
  else
    skip "bubblewrap refused it itself: $out"
  fi
}

# ---------------------------------------------------- signals (ABI 6)

check_signal_reaches_host_without_scope ()
{
  local d="$WHO: without --scope-signals, a sandbox sharing the host's pids signals a host process of its user (the hole)"
  if sharing_pids "$OURS" -- sh -c "kill -0 $SLEEPER_PID" 2>"$T/err"; then
    ok "$d"
  else
    fail "$d" "$(cat "$T/err")"
  fi
}

check_signal_to_host_refused ()
{
  local d="$WHO: --scope-signals refuses to signal a host process of the same user"
  need_scopes || return
  if sharing_pids "$OURS" --scope-signals -- sh -c "kill -0 $SLEEPER_PID" 2>"$T/err"; then
    fail "$d" "kill -0 $SLEEPER_PID succeeded"
  elif grep -q "Operation not permitted" "$T/err"; then
    ok "$d"
  else
    fail "$d" "refused, but not by Landlock: $(cat "$T/err")"
  fi
}

check_signal_inside_works ()
{
  local d="$WHO: --scope-signals: the sandbox's own processes can still be signalled"
  need_scopes || return
  # A subshell signals its parent: no background job, whose stdin dash
  # would take from /dev/null, which this plan does not have.
  out=$(sharing_pids "$OURS" --scope-signals -- sh -c \
          'trap "echo caught; exit 0" TERM; (kill -TERM $$); echo "not caught"' \
          2>"$T/err")
  if [ "$out" = "caught" ]; then
    ok "$d"
  else
    fail "$d" "$out" "$(cat "$T/err")"
  fi
}

check_bwrap_signal_open ()
{
  local d="$WHO: bubblewrap 0.8 sharing the host's pids lets the sandbox signal a host process (the hole we close)"
  if ! have_bwrap; then
    skip "no bubblewrap at $BWRAP"
  elif sharing_pids "$BWRAP" -- sh -c "kill -0 $SLEEPER_PID" 2>"$T/err"; then
    ok "$d"
  else
    skip "bubblewrap refused it itself: $(cat "$T/err")"
  fi
}

# --------------------------------------- the file system view (ABI 3)

check_fd_reaches_host_without_landlock_fs ()
{
  local d="$WHO: without --landlock-fs, an inherited fd of the host's / reads a file outside the view (the hole)"
  out=$(ours -- cat "/proc/self/fd/3$T/secret" 2>&1 3</)
  if [ "$out" = "host secret" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_inherited_root_fd_confined ()
{
  local d="$WHO: --landlock-fs: an inherited fd of the host's / reaches no file outside the view"
  need_fs || return
  out=$(ours --landlock-fs -- cat "/proc/self/fd/3$T/secret" 2>&1 3</)
  if [ "$out" = "host secret" ]; then
    fail "$d" "read $T/secret"
  elif grep -q "Permission denied" <<<"$out"; then
    ok "$d"
  else
    fail "$d" "refused, but not by Landlock: $out"
  fi
}

check_dotdot_from_bound_dir_refused ()
{
  local d="$WHO: --landlock-fs: openat(fd, \"../secret\") from an outside fd of a bound directory is refused"
  need_fs || return
  out=$(ours --ro-bind "$T/view" /view --landlock-fs -- "$PY" -c '
import os
print(open(os.open("file", os.O_RDONLY, dir_fd=3)).read().strip())
try:
    os.open("../secret", os.O_RDONLY, dir_fd=3)
    print("escaped")
except PermissionError:
    print("refused")' 2>&1 3<"$T/view")
  if [ "$out" = "in the view"$'\n'"refused" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_keep_fd_confined ()
{
  local d="$WHO: --landlock-fs --close-fds --keep-fd 3: the kept fd of the host's / reaches no file outside the view"
  need_fs || return
  out=$(ours --landlock-fs --close-fds --keep-fd 3 -- sh -c \
          'test -d /proc/self/fd/3 || echo "fd 3 not kept"; cat "/proc/self/fd/3$1"' \
          sh "$T/secret" 2>&1 3</)
  if grep -q "Permission denied" <<<"$out" && ! grep -q "not kept\|host secret" <<<"$out"; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_create_through_fd_refused ()
{
  local d="$WHO: --landlock-fs: nothing can be created outside the view through an outside fd"
  need_fs || return
  rm -f "$T/open/created"
  if ! ours -- sh -c 'echo x >/proc/self/fd/3/created' 3<"$T/open" 2>"$T/err"; then
    fail "$d" "control: cannot create through the fd even without --landlock-fs" "$(cat "$T/err")"
  else
    rm -f "$T/open/created"
    if ours --landlock-fs -- sh -c 'echo x >/proc/self/fd/3/created' 3<"$T/open" 2>/dev/null \
       || [ -e "$T/open/created" ]; then
      fail "$d" "created $T/open/created"
    else
      ok "$d"
    fi
  fi
  rm -f "$T/open/created"
}

check_ro_bind_source_unwritable_through_fd ()
{
  local d="$WHO: --landlock-fs: a --ro-bind directory cannot be written through an outside fd of its source"
  need_fs || return
  rm -f "$T/shared/probe"
  if ! ours --ro-bind "$T/shared" /shared -- sh -c 'echo x >/proc/self/fd/3/probe' 3<"$T/shared" 2>"$T/err"; then
    fail "$d" "control: the fd cannot write even without --landlock-fs" "$(cat "$T/err")"
  else
    rm -f "$T/shared/probe"
    if ours --ro-bind "$T/shared" /shared --landlock-fs \
         -- sh -c 'echo x >/proc/self/fd/3/probe' 3<"$T/shared" 2>/dev/null \
       || [ -e "$T/shared/probe" ]; then
      fail "$d" "wrote $T/shared/probe"
    else
      ok "$d"
    fi
  fi
  rm -f "$T/shared/probe"
}

check_remounted_ro_unwritable_through_fd ()
{
  local d="$WHO: --landlock-fs: a --bind made read-only by --remount-ro cannot be written through an outside fd"
  need_fs || return
  rm -f "$T/shared/probe"
  if ours --bind "$T/shared" /shared --remount-ro /shared --landlock-fs \
       -- sh -c 'echo x >/proc/self/fd/3/probe' 3<"$T/shared" 2>/dev/null \
     || [ -e "$T/shared/probe" ]; then
    fail "$d" "wrote $T/shared/probe"
  else
    ok "$d"
  fi
  rm -f "$T/shared/probe"
}

check_bwrap_fd_open ()
{
  local d="$WHO: bubblewrap 0.8 lets an inherited fd of the host's / read a file outside the view (the hole we close)"
  if ! have_bwrap; then
    skip "no bubblewrap at $BWRAP"
    return
  fi
  out=$(bwrap -- cat "/proc/self/fd/3$T/secret" 2>&1 3</)
  if [ "$out" = "host secret" ]; then
    ok "$d"
  else
    skip "bubblewrap refused it itself: $out"
  fi
}

check_view_runs_programs ()
{
  local d="$WHO: --landlock-fs: programs from /usr run, / lists and /proc/self reads"
  need_fs || return
  out=$(ours --landlock-fs -- sh -c \
          'ls / >/dev/null && /usr/bin/true && grep -c "^NoNewPrivs:" /proc/self/status && cat /proc/self/comm' 2>&1)
  if [ "$out" = "1"$'\n'"cat" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_view_tmp_writable ()
{
  local d="$WHO: --landlock-fs: /tmp takes writes, renames across directories, truncation and removal"
  need_fs || return
  out=$(ours --landlock-fs -- sh -c '
    echo data >/tmp/a && mkdir /tmp/d && mv /tmp/a /tmp/d/b && ln -s b /tmp/d/l &&
    truncate -s 2 /tmp/d/b && cat /tmp/d/l && rm -r /tmp/d && echo done' 2>&1)
  if [ "$out" = "dadone" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

check_view_stdio_reopen ()
{
  local d="$WHO: --landlock-fs: /dev/null is writable and /dev/stdin, /dev/stderr reopen files from outside"
  need_fs || return
  # Writable by nobody too: reopening by path checks the file's mode.
  : >"$T/open/stderr"
  chmod 0666 "$T/open/stderr"
  out=$(ours --landlock-fs -- sh -c \
          'echo x >/dev/null && echo to-stderr >>/dev/stderr && cat /dev/stdin' \
          <"$T/stdin" 2>"$T/open/stderr")
  if [ "$out" = "stdin from the host" ] && [ "$(cat "$T/open/stderr")" = to-stderr ]; then
    ok "$d"
  else
    fail "$d" "stdout: $out" "stderr: $(cat "$T/open/stderr")"
  fi
}

check_view_binds_keep_access ()
{
  local d="$WHO: --landlock-fs: a --bind stays writable, a --ro-bind readable and read-only"
  need_fs || return
  rm -f "$T/shared/probe"
  out=$(ours --bind "$T/shared" /rw --ro-bind "$T/view" /ro --landlock-fs -- sh -c \
          'echo x >/rw/probe && cat /ro/file && ! touch /ro/new 2>/dev/null && echo done' 2>&1)
  if [ "$out" = "in the view"$'\n'"done" ] && [ -e "$T/shared/probe" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
  rm -f "$T/shared/probe"
}

check_view_dir_writable_skeleton_not ()
{
  local d="$WHO: --landlock-fs: a --dir takes files, the bare root that holds mount points does not"
  need_fs || return
  out=$(ours --dir /run/app --landlock-fs -- sh -c \
          'echo x >/run/app/f && cat /run/app/f && ! touch /run/new 2>/dev/null && ! mkdir /new 2>/dev/null && echo done' 2>&1)
  if [ "$out" = "x"$'\n'"done" ]; then
    ok "$d"
  else
    fail "$d" "$out"
  fi
}

# ------------------------------------------------------ ABI and reports

check_info_fd_reports_abi ()
{
  local d="$WHO: --info-fd reports the Landlock ABI in use and what was applied" got
  need_scopes || return
  if ! ours --scope-abstract-unix-sockets --scope-signals --landlock-fs --info-fd 9 \
         -- /usr/bin/true 9>"$T/info.json" 2>"$T/err"; then
    fail "$d" "$(cat "$T/err")"
    return
  fi
  got=$(landlock_fields "$T/info.json" 2>&1)
  if [ "$got" = "$KERNEL_ABI scope-abstract-unix-sockets,scope-signals,fs,fs-truncate -" ]; then
    ok "$d"
  else
    fail "$d" "got: $got" "$(cat "$T/info.json")"
  fi
}

check_json_status_reports_abi ()
{
  local d="$WHO: --json-status-fd's first document reports the Landlock ABI" got
  need_scopes || return
  ours --scope-signals --json-status-fd 9 -- /usr/bin/true 9>"$T/status.json" 2>"$T/err"
  head -n1 "$T/status.json" >"$T/status-first.json"
  got=$(landlock_fields "$T/status-first.json" 2>&1)
  if [ "$got" = "$KERNEL_ABI scope-signals -" ] && grep -q '"exit-code": 0' "$T/status.json"; then
    ok "$d"
  else
    fail "$d" "got: $got" "$(cat "$T/status.json" "$T/err")"
  fi
}

# bad_start DESC PATTERN ARGS…: the launcher refuses ARGS before running
# anything, with one line on stderr matching PATTERN.
bad_start ()
{
  local d=$1 pattern=$2 rc lines
  shift 2
  out=$(ours "$@" -- echo ran 2>"$T/err")
  rc=$?
  lines=$(wc -l <"$T/err")
  if [ "$rc" -eq 1 ] && [ -z "$out" ] && [ "$lines" -eq 1 ] \
     && grep -q "^$PROG: $pattern" "$T/err"; then
    ok "$d"
  else
    fail "$d" "status $rc, stdout: $out" "stderr ($lines lines): $(cat "$T/err")"
  fi
}

check_old_abi_fails ()
{
  need_scopes || return
  bad_start "$WHO: --scope-abstract-unix-sockets on a kernel with ABI 5 fails with one line naming ABI 6 and 5" \
    "--scope-abstract-unix-sockets needs Landlock ABI 6, found 5" \
    --share-net --scope-abstract-unix-sockets --landlock-abi-max 5
}

check_old_abi_fs_fails ()
{
  need_fs || return
  bad_start "$WHO: --landlock-fs on a kernel with ABI 2 fails with one line naming ABI 3 and 2" \
    "--landlock-fs needs Landlock ABI 3 .*found 2" \
    --landlock-fs --landlock-abi-max 2
}

check_old_abi_best_effort ()
{
  local d="$WHO: --landlock-best-effort on ABI 5 runs without the scope, says so in --info-fd, and the hole stays" got
  need_x11 && need_scopes || return
  if ! ours --share-net --scope-abstract-unix-sockets --landlock-abi-max 5 --landlock-best-effort \
         --info-fd 9 -- "$PY" -c "$PY_CONNECT" "$X11_SOCKET" 9>"$T/info.json" >"$T/out" 2>&1; then
    fail "$d" "$(cat "$T/out")"
    return
  fi
  got=$(landlock_fields "$T/info.json" 2>&1)
  if [ "$got" = "5 - scope-abstract-unix-sockets" ] && [ "$(cat "$T/out")" = connected ]; then
    ok "$d"
  else
    fail "$d" "got: $got" "$(cat "$T/info.json")"
  fi
}

check_no_landlock_best_effort ()
{
  local d="$WHO: --landlock-best-effort without Landlock (ABI 0) runs and reports \"landlock-abi\": 0" got
  out=$(ours --landlock-fs --scope-signals --landlock-abi-max 0 --landlock-best-effort \
          --info-fd 9 -- cat "/proc/self/fd/3$T/secret" 9>"$T/info.json" 2>&1 3</)
  got=$(landlock_fields "$T/info.json" 2>&1)
  if [ "$out" = "host secret" ] && [ "$got" = "0 - scope-signals,fs,fs-truncate" ]; then
    ok "$d"
  else
    fail "$d" "output: $out" "got: $got"
  fi
}

check_bad_abi_max ()
{
  bad_start "$WHO: --landlock-abi-max refuses what is not an ABI version" \
    "--landlock-abi-max takes a Landlock ABI version" \
    --landlock-fs --landlock-abi-max -1
}

# ------------------------------------------------------------------ main

for WHO in "${IDENTITIES[@]}"; do
  SWITCH=
  AS=()
  if is_root && [ "$WHO" = nobody ]; then
    SWITCH=nobody
    AS=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  fi
  if [ -n "$SWITCH" ] && ! nobody_can_run "$OURS"; then
    for c in "${CHECKS[@]}"; do
      skip "nobody cannot execute $OURS"
    done
    continue
  fi
  # A host process of the checks' identity (setpriv execs: $! is sleep).
  "${AS[@]}" sleep 1000 &
  SLEEPER_PID=$!
  on_exit "kill -KILL $SLEEPER_PID"
  for c in "${CHECKS[@]}"; do
    before=$_tap_n
    "$c"
    if [ "$_tap_n" -ne $((before + 1)) ]; then
      bail_out "$c reported $((_tap_n - before)) results instead of 1"
    fi
  done
  kill -KILL "$SLEEPER_PID" 2>/dev/null
  wait "$SLEEPER_PID" 2>/dev/null
done
exit 0
