#!/bin/bash
# tests/sandbox/test-confinement.sh — tries to get out of, or past, a sandbox
# built by "$XDG_APP_SANDBOX", and checks that each bubblewrap-compatible
# option does what bubblewrap documents.
#
# Every check runs once per identity: as root and as nobody when the test
# runs as root, else as the calling user; SANDBOX_AS=nobody or SANDBOX_AS=
# (empty: the caller) picks one.  The same file runs against
# bubblewrap (XDG_APP_SANDBOX=/usr/bin/bwrap); where DESIGN.md asks more of
# us than bubblewrap gives, a bwrap failure is reported as TODO (expected),
# never as a pass:
#   - root keeps its capabilities under bwrap (no --cap-drop ALL);
#   - bwrap leaves /proc/sys writable for root;
#   - bwrap does not forward SIGTERM from the launcher to the app;
#   - refusing to run setuid is only required of xdg-app-sandbox.
#
# Trusts: the host's /proc for what runs and what is mounted on the host.

# Scripts for inside the sandbox, and for eval, are single-quoted on purpose.
# Checks are called through the CHECKS array.
# shellcheck disable=SC2016,SC2317
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

PROG=$(basename "$XDG_APP_SANDBOX")

if [ -x /usr/bin/python3 ]; then
  PY=/usr/bin/python3
elif command -v python3 >/dev/null 2>&1; then
  PY=python3
else
  PY=
fi

CHECKS=(
  check_no_capabilities
  check_no_new_privs
  check_host_process_invisible
  check_host_process_unkillable
  check_net_only_lo
  check_lo_is_up
  check_ro_bind_unwritable
  check_setuid_gains_nothing
  check_proc_sys_read_only
  check_host_paths_absent
  check_test_dir_absent_unless_bound
  check_host_tmp_invisible
  check_host_tmp_unwritable
  check_nothing_left_mounted
  check_exit_status
  check_signal_status
  check_as_pid_1
  check_pid_2_without_as_pid_1
  check_zombies_reaped
  check_die_with_parent
  check_sigterm_forwarded
  check_env_order
  check_chdir
  check_hostname
  check_uid_gid
  check_file_perms
  check_bind_data_perms
  check_ro_bind_data
  check_tmpfs_size
  check_symlink
  check_dir_perms
  check_chmod
  check_remount_ro
  check_info_fd
  check_json_status_fd
  check_lock_file
  check_sync_fd
  check_block_fd
  check_args_fd
  check_unknown_option
  check_missing_argument
  check_missing_bind_source
)

# WHO names the identity in descriptions; SWITCH says whether the checks
# switch to nobody (from root) or run as the caller.  SANDBOX_AS, when set
# (meson registers one test per identity), picks one: empty for the caller,
# "nobody" for nobody.
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
SWITCH=
# The setuid check is about a non-root caller: it runs with nobody.
WITH_SETUID_CHECK=0
[[ " ${IDENTITIES[*]} " == *" nobody "* ]] && is_root && WITH_SETUID_CHECK=1

plan $(( ${#CHECKS[@]} * ${#IDENTITIES[@]} + WITH_SETUID_CHECK ))

# ---------------------------------------------------------------- helpers

# The identity the current checks run as, and how.
WHO=
as_who ()
{
  if [ -n "$SWITCH" ]; then
    as_nobody "$@"
  else
    "$@"
  fi
}

sb ()
{
  SANDBOX_AS=$SWITCH sandbox_run "$@"
}

sb_bg ()
{
  SANDBOX_AS=$SWITCH sandbox_exec "$@"
}

# The mount points of the host, for before/after comparisons.
host_mounts ()
{
  awk '{ print $5, $4, $9 }' /proc/self/mountinfo | sort
}

# Host pids whose command line is exactly the words given.  Builtins
# only: this runs in polling loops.
host_pids_running ()
{
  local f pid want args IFS=$'\n'
  want="$*"
  for f in /proc/[0-9]*/cmdline; do
    { mapfile -d '' -t args <"$f"; } 2>/dev/null || continue
    if [ "${args[*]}" = "$want" ]; then
      pid=${f#/proc/}
      echo "${pid%/cmdline}"
    fi
  done
}

# wait_for SECONDS CMD…: polls CMD every 20 ms until it succeeds.
wait_for ()
{
  local deadline=$((SECONDS + $1 + 1)) n=$(( $1 * 50 ))
  shift
  while [ "$n" -gt 0 ]; do
    "$@" && return 0
    sleep 0.02
    n=$((n - 1))
    [ "$SECONDS" -ge "$deadline" ] && break
  done
  "$@"
}

# True once pid $1 has exited (a zombie counts: only `wait` removes it).
is_gone ()
{
  local st
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 0
  [ -z "$st" ] || [ "${st%% *}" = Z ]
}

file_has ()
{
  grep -q -- "$2" "$1" 2>/dev/null
}

# Ends a background launcher that a check started, whatever state it is in.
reap ()
{
  kill -KILL "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}

# expect DESC EXPECTED ARGS… -- CMD…: the sandboxed CMD exits 0 and prints
# exactly EXPECTED.
expect ()
{
  local desc=$1 want=$2 got rc
  shift 2
  got=$(sb "$@" 2>"$T/err")
  rc=$?
  if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
    ok "$desc"
  else
    fail "$desc" "status $rc" "expected: $want" "got: $got" "stderr: $(cat "$T/err")"
  fi
}

# A failure that bwrap is documented to have: TODO for bwrap, else fail.
fail_unless_bwrap_known ()
{
  local desc=$1 why=$2
  shift 2
  if is_ours; then
    fail "$desc" "$@"
  else
    todo "$desc" "bwrap: $why"
  fi
}

status_field ()
{
  awk -v k="$1:" '$1 == k { print $2 }'
}

# json_check FILE info|status [EXIT]: FILE holds what --info-fd (one JSON
# object with an integer child-pid) or --json-status-fd (JSON objects, the
# first with child-pid, the last with exit-code EXIT) promise.
json_check ()
{
  if [ -n "$PY" ]; then
    "$PY" - "$@" <<'EOF'
import json, sys
path, kind = sys.argv[1], sys.argv[2]
text = open(path).read()
dec = json.JSONDecoder()
docs, i = [], 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    doc, i = dec.raw_decode(text, i)
    docs.append(doc)
def die(msg):
    sys.exit("%s: %s (got %r)" % (kind, msg, text))
if not docs or not all(isinstance(d, dict) for d in docs):
    die("not a sequence of JSON objects")
pid = docs[0].get("child-pid")
if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
    die("no positive integer child-pid in the first object")
if kind == "info" and len(docs) != 1:
    die("more than one JSON document")
if kind == "status":
    if len(docs) < 2 or docs[-1].get("exit-code") != int(sys.argv[3]):
        die("last object has no exit-code %s" % sys.argv[3])
EOF
  elif command -v jq >/dev/null 2>&1; then
    case $2 in
      info) jq -es 'length == 1 and (.[0]["child-pid"] | type == "number" and . > 0)' "$1" >/dev/null ;;
      status) jq -es --argjson e "$3" 'length >= 2 and (.[0]["child-pid"] | type == "number" and . > 0) and .[-1]["exit-code"] == $e' "$1" >/dev/null ;;
    esac
  else
    return 77
  fi
}

# bad_input DESC ARGS…: the launcher refuses ARGS with one line on stderr
# that starts with its name, a non-zero status, nothing run and nothing
# left mounted.
bad_input ()
{
  local desc=$1 before after out rc lines
  shift
  before=$(host_mounts)
  out=$(sb "$@" 2>"$T/err")
  rc=$?
  after=$(host_mounts)
  lines=$(wc -l <"$T/err")
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -lt 128 ] \
     && [ "$lines" -eq 1 ] && head -n1 "$T/err" | grep -q "^$PROG: " \
     && [ -z "$out" ] && [ "$before" = "$after" ]; then
    ok "$desc"
  else
    fail "$desc" "want: non-zero status, one line on stderr starting '$PROG: ', no output" \
      "got: status $rc, $lines line(s) on stderr:" "$(cat "$T/err")" \
      "stdout: $out" "mounts before/after differ: $([ "$before" = "$after" ] && echo no || echo yes)"
  fi
}

# ------------------------------------------------------------- fixtures

# A directory that only a read-only mount keeps nobody from writing to.
mkdir -m 0777 "$T/shared"
chmod 0777 "$T/shared"
echo "data from the host" >"$T/data"
printf 'hello' >"$T/hello"
: >"$T/lock"
mkdir "$T/suid"
cp /usr/bin/cat "$T/suid/cat"
chown 0:0 "$T/suid/cat" 2>/dev/null && chmod 4755 "$T/suid/cat"

HOST_TMP_MARK=/tmp/xa-confinement-visible.$$
: >"$HOST_TMP_MARK"
on_exit "rm -f '$HOST_TMP_MARK' /tmp/xa-confinement-probe.$$.*"

# ----------------------------------------------------------------- checks

check_no_capabilities ()
{
  local d="$WHO: the app holds no capabilities" st c bad=
  st=$(sb -- cat /proc/self/status 2>"$T/err")
  for c in CapInh CapPrm CapEff CapAmb; do
    [ "$(status_field "$c" <<<"$st")" = 0000000000000000 ] || bad="$bad $c=$(status_field "$c" <<<"$st")"
  done
  if [ -n "$st" ] && [ -z "$bad" ]; then
    ok "$d"
  elif [ "$WHO" = root ]; then
    fail_unless_bwrap_known "$d" "keeps root's capabilities without --cap-drop ALL" "$bad" "$(cat "$T/err")"
  else
    fail "$d" "$bad" "$(cat "$T/err")"
  fi
}

check_no_new_privs ()
{
  local st
  st=$(sb -- cat /proc/self/status)
  if [ "$(status_field NoNewPrivs <<<"$st")" = 1 ]; then
    ok "$WHO: the app runs with no_new_privs"
  else
    fail "$WHO: the app runs with no_new_privs" "$(grep NoNewPrivs <<<"$st")"
  fi
}

check_host_process_invisible ()
{
  local d="$WHO: a host process is not in the sandbox's /proc" seen
  if [ -z "$(host_pids_running sleep "$SLEEPER_MARK")" ]; then
    fail "$d" "the host sleeper $SLEEPER_PID is not running"
    return
  fi
  seen=$(sb -- sh -c 'for f in /proc/[0-9]*/cmdline; do tr "\0" " " <$f; echo; done')
  if [ -n "$seen" ] && ! grep -qF -- "$SLEEPER_MARK" <<<"$seen"; then
    ok "$d"
  else
    fail "$d" "processes inside:" "$seen"
  fi
}

check_host_process_unkillable ()
{
  local d="$WHO: a host process of the same user cannot be signalled"
  if [ "$SLEEPER_PID" -lt 10 ]; then
    skip "host pid $SLEEPER_PID could exist in the sandbox's pid namespace"
  elif ! as_who kill -0 "$SLEEPER_PID"; then
    fail "$d" "even the host cannot signal $SLEEPER_PID"
  elif sb -- kill -0 "$SLEEPER_PID" 2>/dev/null; then
    fail "$d" "kill -0 $SLEEPER_PID succeeded inside"
  else
    ok "$d"
  fi
}

check_net_only_lo ()
{
  local ifs
  ifs=$(sb --unshare-net -- cat /proc/net/dev | awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }')
  if [ "$ifs" = lo ]; then
    ok "$WHO: --unshare-net leaves only lo"
  else
    fail "$WHO: --unshare-net leaves only lo" "interfaces: $ifs"
  fi
}

check_lo_is_up ()
{
  local d="$WHO: --unshare-net brings lo up" out ip=
  [ -x /usr/sbin/ip ] && ip=/usr/sbin/ip
  [ -x /usr/bin/ip ] && ip=/usr/bin/ip
  if [ -n "$ip" ]; then
    out=$(sb --unshare-net -- "$ip" -o link show lo 2>&1)
    if grep -qE '<([^>]*,)?UP(,[^>]*)?>' <<<"$out"; then
      ok "$d"
    else
      fail "$d" "$out"
    fi
  elif [ -n "$PY" ] && [ "$PY" = /usr/bin/python3 ]; then
    # No ip(8): a TCP connection to 127.0.0.1 needs lo up with its address.
    if sb --unshare-net -- /usr/bin/python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
socket.create_connection(s.getsockname(), timeout=2)'; then
      ok "$d"
    else
      fail "$d" "cannot connect to 127.0.0.1"
    fi
  else
    skip "neither ip(8) nor /usr/bin/python3 in /usr to inspect lo"
  fi
}

check_ro_bind_unwritable ()
{
  local d="$WHO: a --ro-bind directory cannot be written, even by its owner"
  rm -f "$T/shared/probe"
  if ! sb --bind "$T/shared" /xa/shared -- touch /xa/shared/probe 2>"$T/err"; then
    fail "$d" "control: the same directory with --bind is not writable" "$(cat "$T/err")"
  elif sb --ro-bind "$T/shared" /xa/shared -- sh -c 'rm /xa/shared/probe || touch /xa/shared/new' 2>/dev/null \
       || [ ! -e "$T/shared/probe" ] || [ -e "$T/shared/new" ]; then
    fail "$d" "changed through --ro-bind"
  else
    ok "$d"
  fi
  rm -f "$T/shared/probe" "$T/shared/new"
}

check_setuid_gains_nothing ()
{
  local d="$WHO: a setuid-root binary gains nothing inside" st ids bad='' r e s f
  if [ ! -u "$T/suid/cat" ]; then
    skip "cannot make a setuid-root file (not root)"
    return
  fi
  st=$(sb --ro-bind "$T/suid" /xa/suid -- /xa/suid/cat /proc/self/status 2>"$T/err")
  ids=$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' <<<"$st")
  # real, effective, saved and fs uid all stay the caller's.
  read -r r e s f <<<"$ids"
  [ -n "$r" ] && [ "$r" = "$e" ] && [ "$e" = "$s" ] && [ "$s" = "$f" ] || bad="uids: $ids"
  [ "$(status_field CapEff <<<"$st")" = 0000000000000000 ] || bad="$bad CapEff=$(status_field CapEff <<<"$st")"
  [ "$(status_field CapPrm <<<"$st")" = 0000000000000000 ] || bad="$bad CapPrm=$(status_field CapPrm <<<"$st")"
  if [ -z "$bad" ]; then
    ok "$d"
  elif [ "$WHO" = root ] && [ -n "$r" ] && [ "$r" = "$e" ]; then
    fail_unless_bwrap_known "$d" "keeps root's capabilities without --cap-drop ALL" "$bad"
  else
    fail "$d" "$bad" "$(cat "$T/err")"
  fi
}

check_proc_sys_read_only ()
{
  local d="$WHO: /proc/sys cannot be written"
  # The sandbox has its own UTS namespace (--unshare-all): even a write
  # that gets through changes only the sandbox's hostname.
  if sb -- sh -c 'echo xa-procsys > /proc/sys/kernel/hostname' 2>/dev/null; then
    if [ "$WHO" = root ]; then
      fail_unless_bwrap_known "$d" "leaves /proc/sys writable for root" "wrote /proc/sys/kernel/hostname"
    else
      fail "$d" "wrote /proc/sys/kernel/hostname"
    fi
  else
    ok "$d"
  fi
}

check_host_paths_absent ()
{
  local d="$WHO: host paths that were not bound are absent" seen
  seen=$(sb -- sh -c 'for p in /home /root /etc/shadow /etc /var /run; do [ -e $p ] && echo $p; done; exit 0')
  if [ -z "$seen" ]; then
    ok "$d"
  else
    fail "$d" "present: $seen"
  fi
}

check_test_dir_absent_unless_bound ()
{
  local d="$WHO: the test's directory is absent unless bound"
  if sb -- test -e "$T/hello"; then
    fail "$d" "$T/hello is visible without a bind"
  elif [ "$(sb --ro-bind "$T" "$T" -- cat "$T/hello")" != hello ]; then
    fail "$d" "control: $T/hello is not visible with --ro-bind"
  else
    ok "$d"
  fi
}

check_host_tmp_invisible ()
{
  local out
  out=$(sb -- ls -A /tmp)
  if [ -z "$out" ]; then
    ok "$WHO: the host's /tmp is not visible"
  else
    fail "$WHO: the host's /tmp is not visible" "/tmp holds: $out"
  fi
}

check_host_tmp_unwritable ()
{
  local d="$WHO: a file written to /tmp does not reach the host" p=/tmp/xa-confinement-probe.$$.$WHO
  if ! sb -- touch "$p" 2>"$T/err"; then
    fail "$d" "cannot write the sandbox's own /tmp" "$(cat "$T/err")"
  elif [ -e "$p" ]; then
    fail "$d" "$p appeared on the host"
  else
    ok "$d"
  fi
}

check_nothing_left_mounted ()
{
  local before after
  before=$(host_mounts)
  sb --ro-bind "$T" /xa/t --bind "$T/shared" /xa/shared --tmpfs /xa/tmp \
    --ro-bind-data 5 /xa/data --remount-ro /xa/tmp -- true 5<"$T/data"
  after=$(host_mounts)
  if [ "$before" = "$after" ]; then
    ok "$WHO: nothing is left mounted on the host"
  else
    fail "$WHO: nothing is left mounted on the host" "$(diff <(echo "$before") <(echo "$after"))"
  fi
}

check_exit_status ()
{
  sb -- sh -c 'exit 7'
  local rc=$?
  if [ "$rc" -eq 7 ]; then
    ok "$WHO: the app's exit status passes through"
  else
    fail "$WHO: the app's exit status passes through" "status $rc, not 7"
  fi
}

check_signal_status ()
{
  sb -- sh -c 'kill -TERM $$'
  local rc=$?
  if [ "$rc" -eq 143 ]; then
    ok "$WHO: an app killed by SIGTERM gives status 128+15"
  else
    fail "$WHO: an app killed by SIGTERM gives status 128+15" "status $rc"
  fi
}

check_as_pid_1 ()
{
  expect "$WHO: --as-pid-1 makes the app pid 1" 1 --as-pid-1 -- sh -c 'echo $$'
}

check_pid_2_without_as_pid_1 ()
{
  expect "$WHO: without --as-pid-1 the app is pid 2" 2 -- sh -c 'echo $$'
}

check_zombies_reaped ()
{
  # The orphan outlives its parent, so pid 1 inherits it and must reap it.
  local out
  out=$(sb -- sh -c '(sleep 0.05 &); sleep 0.3
    for f in /proc/[0-9]*/stat; do read -r l <$f && echo "$l"; done' \
    | sed -n 's/^\([0-9]*\) (\([^)]*\)) \(.\).*/\1 \2 \3/p')
  if [ -n "$out" ] && ! grep -q ' Z$' <<<"$out"; then
    ok "$WHO: orphaned children are reaped"
  else
    fail "$WHO: orphaned children are reaped" "processes (pid comm state):" "$out"
  fi
}

check_die_with_parent ()
{
  local d="$WHO: --die-with-parent ends the sandbox when the launcher is killed"
  local mark="$RANDOM$RANDOM.5" pid app
  sb_bg --die-with-parent -- sleep "$mark" &
  pid=$!
  if ! wait_for 5 eval '[ -n "$(host_pids_running sleep "$mark")" ]'; then
    reap "$pid"
    fail "$d" "the app did not start"
    return
  fi
  app=$(host_pids_running sleep "$mark")
  reap "$pid"
  if wait_for 3 eval '[ -z "$(host_pids_running sleep "$mark")" ]'; then
    ok "$d"
  else
    fail "$d" "app pid(s) $app still alive after SIGKILL to $pid"
    # shellcheck disable=SC2086 # one word per pid
    kill -KILL $app 2>/dev/null
  fi
}

check_sigterm_forwarded ()
{
  local d="$WHO: SIGTERM sent to the launcher reaches the app" pid
  rm -f "$T/sig.out"
  sb_bg -- sh -c 'trap "echo got-term; exit 0" TERM; echo ready
    while :; do sleep 0.02; done' >"$T/sig.out" 2>&1 &
  pid=$!
  if ! wait_for 5 file_has "$T/sig.out" ready; then
    reap "$pid"
    fail "$d" "the app did not start: $(cat "$T/sig.out")"
    return
  fi
  kill -TERM "$pid"
  wait_for 3 is_gone "$pid"
  reap "$pid"
  if file_has "$T/sig.out" got-term; then
    ok "$d"
  elif is_ours; then
    fail "$d" "output: $(cat "$T/sig.out")"
  else
    todo "$d" "bwrap does not forward signals to the app"
  fi
}

check_env_order ()
{
  local got
  got=$(XA_INHERITED=1 sb --setenv A 1 --clearenv --setenv B 2 --setenv C 3 \
          --unsetenv C --setenv D 4 --unsetenv D --setenv D 5 -- /usr/bin/env \
        | grep -v '^PWD=' | sort)
  if [ "$got" = $'B=2\nD=5' ]; then
    ok "$WHO: --setenv, --unsetenv and --clearenv apply in order"
  else
    fail "$WHO: --setenv, --unsetenv and --clearenv apply in order" "environment: $got"
  fi
}

check_chdir ()
{
  expect "$WHO: --chdir sets the working directory" /usr/bin --chdir /usr/bin -- /usr/bin/pwd
}

check_hostname ()
{
  local host_before host_after
  host_before=$(uname -n)
  expect "$WHO: --hostname sets the hostname in a new UTS namespace" xa-sandbox \
    --unshare-uts --hostname xa-sandbox -- uname -n
  host_after=$(uname -n)
  [ "$host_before" = "$host_after" ] || diag "the host's hostname changed to $host_after"
}

check_uid_gid ()
{
  expect "$WHO: --uid and --gid set the ids in a new user namespace" $'1234\n5678' \
    --unshare-user --uid 1234 --gid 5678 -- sh -c 'id -u; id -g'
}

check_file_perms ()
{
  expect "$WHO: --file copies an fd to a file with --perms" $'640\ndata from the host' \
    --perms 0640 --file 5 /xa/file -- sh -c 'stat -c %a /xa/file; cat /xa/file' 5<"$T/data"
}

check_bind_data_perms ()
{
  expect "$WHO: --bind-data gives a writable file with --perms" $'604\ndata from the host\nmore' \
    --perms 0604 --bind-data 5 /xa/bd -- sh -c 'stat -c %a /xa/bd; echo more >>/xa/bd && cat /xa/bd' \
    5<"$T/data"
}

check_ro_bind_data ()
{
  expect "$WHO: --ro-bind-data gives a read-only file with --perms" $'644\ndata from the host\nread-only' \
    --perms 0644 --ro-bind-data 5 /xa/rbd \
    -- sh -c 'stat -c %a /xa/rbd; cat /xa/rbd; (echo more >>/xa/rbd) 2>/dev/null || echo read-only' \
    5<"$T/data"
}

check_tmpfs_size ()
{
  local line
  line=$(sb --size 1048576 --tmpfs /xa/small -- grep ' /xa/small ' /proc/self/mountinfo)
  if grep -q 'size=1024k' <<<"$line"; then
    ok "$WHO: --size limits a --tmpfs"
  else
    fail "$WHO: --size limits a --tmpfs" "mount: $line"
  fi
}

check_symlink ()
{
  expect "$WHO: --symlink makes a symbolic link" /usr/bin/env \
    --symlink /usr/bin/env /xa/link -- readlink /xa/link
}

check_dir_perms ()
{
  expect "$WHO: --dir makes a directory with --perms" 700 \
    --perms 0700 --dir /xa/dir -- stat -c %a /xa/dir
}

check_chmod ()
{
  expect "$WHO: --chmod changes a mode" 751 \
    --dir /xa/dir --chmod 0751 /xa/dir -- stat -c %a /xa/dir
}

check_remount_ro ()
{
  local d="$WHO: --remount-ro makes a writable bind read-only"
  rm -f "$T/shared/probe"
  if sb --bind "$T/shared" /xa/shared --remount-ro /xa/shared \
       -- touch /xa/shared/probe 2>/dev/null || [ -e "$T/shared/probe" ]; then
    fail "$d" "wrote through it"
  else
    ok "$d"
  fi
  rm -f "$T/shared/probe"
}

check_info_fd ()
{
  local d="$WHO: --info-fd writes JSON with child-pid" err
  rm -f "$T/info"
  sb --info-fd 5 -- true 5>"$T/info"
  err=$(json_check "$T/info" info 2>&1)
  case $? in
    0) ok "$d" ;;
    77) skip "no python3 or jq to read JSON" ;;
    *) fail "$d" "$err" ;;
  esac
}

check_json_status_fd ()
{
  local d="$WHO: --json-status-fd writes JSON with child-pid, then exit-code" err
  rm -f "$T/status"
  sb --json-status-fd 5 -- sh -c 'exit 3' 5>"$T/status"
  err=$(json_check "$T/status" status 3 2>&1)
  case $? in
    0) ok "$d" ;;
    77) skip "no python3 or jq to read JSON" ;;
    *) fail "$d" "$err" ;;
  esac
}

# True while some process holds a lock on the inode $1 (host /proc/locks).
inode_locked ()
{
  awk -v ino="$1" '{ n = split($6, a, ":"); if (a[n] == ino) found = 1 } END { exit !found }' /proc/locks
}

check_lock_file ()
{
  local d="$WHO: --lock-file holds a lock while the sandbox runs" ino pid
  ino=$(stat -c %i "$T/lock")
  if inode_locked "$ino"; then
    fail "$d" "control: $T/lock is locked before the run"
    return
  fi
  rm -f "$T/lock.out" "$T/lock.fifo"
  mkfifo -m 0600 "$T/lock.fifo"
  # The app runs until the host closes its stdin.
  sb_bg --ro-bind "$T/lock" /xa/lock --lock-file /xa/lock -- sh -c 'echo ready; cat >/dev/null' \
    <"$T/lock.fifo" >"$T/lock.out" 2>&1 &
  pid=$!
  exec 7>"$T/lock.fifo"
  if ! wait_for 5 file_has "$T/lock.out" ready; then
    exec 7>&-
    reap "$pid"
    fail "$d" "the app did not start: $(cat "$T/lock.out")"
  elif ! inode_locked "$ino"; then
    exec 7>&-
    reap "$pid"
    fail "$d" "no lock on inode $ino in /proc/locks"
  else
    exec 7>&-
    wait_for 5 is_gone "$pid"
    reap "$pid"
    if wait_for 3 eval '! inode_locked "$ino"'; then
      ok "$d"
    else
      fail "$d" "the lock outlives the sandbox"
    fi
  fi
}

check_sync_fd ()
{
  # EOF on the --sync-fd pipe must not come before the app has finished.
  local d="$WHO: --sync-fd stays open until the sandbox ends" pid
  rm -f "$T/sync" "$T/sync.out"
  mkfifo -m 0600 "$T/sync"
  sb_bg --sync-fd 5 -- sh -c 'sleep 0.3; echo done' >"$T/sync.out" 2>&1 5>"$T/sync" &
  pid=$!
  timeout 10 cat "$T/sync" >/dev/null
  if file_has "$T/sync.out" "done"; then
    ok "$d"
  else
    fail "$d" "EOF came before the app ended: $(cat "$T/sync.out")"
  fi
  wait_for 3 is_gone "$pid"
  reap "$pid"
}

check_block_fd ()
{
  local d="$WHO: --block-fd holds the app until data arrives" pid early
  rm -f "$T/block" "$T/block.out"
  mkfifo -m 0600 "$T/block"
  sb_bg --block-fd 5 -- sh -c 'echo ran' >"$T/block.out" 2>&1 5<"$T/block" &
  pid=$!
  exec 6>"$T/block"
  sleep 0.3
  early=$(cat "$T/block.out")
  # In a subshell: if the launcher is gone, SIGPIPE ends that, not the test.
  (echo x >&6) 2>/dev/null
  exec 6>&-
  wait_for 5 is_gone "$pid"
  reap "$pid"
  if [ -n "$early" ]; then
    fail "$d" "ran before data: $early"
  elif ! file_has "$T/block.out" ran; then
    fail "$d" "did not run after data: $(cat "$T/block.out")"
  else
    ok "$d"
  fi
}

check_args_fd ()
{
  printf '%s\0' --setenv XA_FROM_ARGS yes --chdir /usr >"$T/args"
  expect "$WHO: --args reads NUL-separated options from an fd" "yes /usr" \
    --args 5 -- sh -c 'echo "$XA_FROM_ARGS $PWD"' 5<"$T/args"
}

check_unknown_option ()
{
  bad_input "$WHO: an unknown option is refused with one line" \
    --xa-no-such-option -- sh -c 'echo ran'
}

check_missing_argument ()
{
  bad_input "$WHO: an option missing its argument is refused with one line" \
    --setenv XA_ONLY_A_NAME
}

check_missing_bind_source ()
{
  bad_input "$WHO: a --bind of a missing source is refused with one line" \
    --bind "$T/does-not-exist" /xa/x -- sh -c 'echo ran'
}

# Not per identity: a setuid launcher is only meaningful for a non-root
# caller.
check_refuses_setuid ()
{
  local d="the launcher refuses to run setuid-root" dir="$T/setuid-launcher" out rc plan_args
  if ! is_ours; then
    skip "only xdg-app-sandbox promises to refuse setuid; $PROG does not"
    return
  elif ! is_root; then
    skip "making a setuid-root copy needs root"
    return
  elif [ "$(as_nobody "$T/suid/cat" /proc/self/status | awk '$1 == "Uid:" { print $3 }')" != 0 ]; then
    skip "setuid bits have no effect under $T"
    return
  fi
  mkdir -p "$dir"
  cp "$XDG_APP_SANDBOX" "$dir/$PROG"
  mapfile -t plan_args < <(sandbox_plan)
  # Control: the same copy without the bit works for nobody.
  out=$(as_nobody "$dir/$PROG" "${plan_args[@]}" -- sh -c 'echo ran' 2>&1)
  if [ "$out" != ran ]; then
    fail "$d" "control: the copy does not run without setuid: $out"
    return
  fi
  chmod 4755 "$dir/$PROG"
  out=$(as_nobody "$dir/$PROG" "${plan_args[@]}" -- sh -c 'echo ran' 2>"$T/err")
  rc=$?
  if [ "$rc" -ne 0 ] && [ -z "$out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] \
     && grep -q "^$PROG: " "$T/err"; then
    ok "$d"
  else
    fail "$d" "status $rc, stdout: $out" "stderr: $(cat "$T/err")"
  fi
}

# ------------------------------------------------------------------ main

# A host process of the checks' identity, for the pid-namespace checks.
start_sleeper ()
{
  SLEEPER_MARK="$RANDOM$RANDOM.25"
  as_who sleep "$SLEEPER_MARK" &
  SLEEPER_JOB=$!
  on_exit "kill -KILL $SLEEPER_JOB"
  # $! may be a subshell that runs setpriv: find sleep itself.
  wait_for 2 eval '[ -n "$(host_pids_running sleep "$SLEEPER_MARK")" ]'
  SLEEPER_PID=$(host_pids_running sleep "$SLEEPER_MARK")
  SLEEPER_PID=${SLEEPER_PID:-0}
  on_exit "kill -KILL $SLEEPER_PID"
}

for WHO in "${IDENTITIES[@]}"; do
  SWITCH=
  is_root && [ "$WHO" = nobody ] && SWITCH=nobody
  if [ -n "$SWITCH" ] && ! nobody_can_run "$XDG_APP_SANDBOX"; then
    for c in "${CHECKS[@]}"; do
      skip "nobody cannot execute $XDG_APP_SANDBOX"
    done
    continue
  fi
  start_sleeper
  for c in "${CHECKS[@]}"; do
    before=$_tap_n
    "$c"
    if [ "$_tap_n" -ne $((before + 1)) ]; then
      bail_out "$c reported $((_tap_n - before)) results instead of 1"
    fi
  done
  kill -KILL "$SLEEPER_PID" "$SLEEPER_JOB" 2>/dev/null
  wait "$SLEEPER_JOB" 2>/dev/null
done

[ "$WITH_SETUID_CHECK" = 1 ] && check_refuses_setuid
exit 0
