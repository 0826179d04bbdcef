#!/bin/bash
# tests/sandbox/test-flatpak-interop.sh — Flatpak 1.14's own tools, with
# FLATPAK_BWRAP="$XDG_APP_SANDBOX", build, install and run an app on the
# tiny test runtime: every bwrap call Flatpak makes (build, install
# triggers, ld.so.cache regeneration, the D-Bus proxy, run, run -d,
# --parent-pid with --pidns/--userns, ps and kill via --info-fd) goes
# through the launcher under test.  As root it also repeats install and run
# as nobody.
#
# Everything lives in $T: HOME, XDG dirs, the runtime dir (0700), the user
# and system installations, the OSTree repo (served by python3 -m
# http.server on 127.0.0.1) and private dbus-daemons with no activatable
# services.  Never the real HOME, bus or installations.
#
# Runs against bubblewrap too (XDG_APP_SANDBOX=/usr/bin/bwrap): Flatpak
# passes no --cap-drop ALL, so root's app keeps its capabilities under
# bwrap; DESIGN.md asks the launcher to drop them, so that case is a TODO
# for bwrap and a failure for ours.
#
# Trusts: flatpak, python3, dbus-daemon and the host's binaries that
# runtime/compose-host-runtime copies.

. "$(dirname "$0")/../lib/tap.sh"

command -v flatpak >/dev/null 2>&1 || skip_all "flatpak is not installed"
[ -x /usr/bin/python3 ] || skip_all "/usr/bin/python3 is not installed (serves the repo)"
is_root || command -v ostree >/dev/null 2>&1 ||
  skip_all "as non-root, needs ostree to create the test's system repo"
is_ours || true     # checks XDG_APP_SANDBOX is an absolute, executable path

SRC=${XDG_APP_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
COMPOSE=$SRC/runtime/compose-host-runtime
LAUNCHER=$XDG_APP_SANDBOX
APP=org.test.Hello
GREETING="Hello from $APP"
FP_TIMEOUT=${FP_TIMEOUT:-180}

plan 26

# ---------------------------------------------------------------------------
# An environment that points every Flatpak path into $T.

export HOME=$T/home
export XDG_DATA_HOME=$T/home/.local/share
export XDG_CONFIG_HOME=$T/home/.config
export XDG_CACHE_HOME=$T/home/.cache
export XDG_STATE_HOME=$T/home/.local/state
export XDG_RUNTIME_DIR=$T/run
export FLATPAK_USER_DIR=$T/user
export FLATPAK_SYSTEM_DIR=$T/system
export FLATPAK_CONFIG_DIR=$T/etc-flatpak
export LC_ALL=C.UTF-8
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY XDG_DATA_DIRS \
  FLATPAK_BWRAP FLATPAK_GL_DRIVERS
# A private "system bus" with nothing on it: non-root installs ask it about
# parental controls, and nothing may reach the host's.
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$T/no-system-bus
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$FLATPAK_SYSTEM_DIR" "$FLATPAK_CONFIG_DIR" "$T/log"
chmod 0700 "$XDG_RUNTIME_DIR"
if ! is_root; then
  ostree --repo="$FLATPAK_SYSTEM_DIR/repo" init --mode=bare-user-only ||
    bail_out "cannot create the test's system repo"
fi

# fp ARGS…: flatpak with the launcher as bwrap, bounded in time.
fp ()
{
  timeout -k 5 "$FP_TIMEOUT" env FLATPAK_BWRAP="$LAUNCHER" flatpak "$@"
}

# logged NAME CMD…: runs CMD with stdout+stderr in $T/log/NAME; on failure
# prints the tail as a diagnostic.
logged ()
{
  _name=$1
  shift
  "$@" >"$T/log/$_name" 2>&1
  _st=$?
  [ "$_st" -eq 0 ] && return 0
  diag "$(printf '%s ' "$@" | tr '\n' ' ' | cut -c1-100)… exited $_st:"
  diag "$(tail -n 15 "$T/log/$_name")"
  return $_st
}

# in_app SCRIPT [ARG…]: `sh -c SCRIPT sh ARG…` in the app; stdout in
# $T/in.out, stderr (with flatpak -v) in $T/in.err.
in_app ()
{
  _script=$1
  shift
  fp -v --user run --command=sh "$APP" -c "$_script" sh "$@" \
    >"$T/in.out" 2>"$T/in.err"
}

# used_launcher FILE: flatpak -v logged that it ran our launcher.
used_launcher ()
{
  grep -qF "Running '$LAUNCHER " "$1"
}

# start_bus NAME [as_nobody]: a dbus-daemon with no service directories, so
# that nothing is activated (activated services would outlive the test).
# Sets BUS_ADDRESS (no $(…): on_exit must run in this shell).
start_bus ()
{
  _dir=$T/bus-$1
  mkdir -p "$_dir"
  [ "${2:-}" = as_nobody ] && chown 65534:65534 "$_dir"
  cat >"$_dir/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$_dir/socket</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
  if [ "${2:-}" = as_nobody ]; then
    as_nobody dbus-daemon --config-file="$_dir/bus.conf" --fork --print-pid=1 >"$_dir/pid"
  else
    dbus-daemon --config-file="$_dir/bus.conf" --fork --print-pid=1 >"$_dir/pid"
  fi || return 1
  on_exit "kill $(cat "$_dir/pid")"
  BUS_ADDRESS=unix:path=$_dir/socket
}

have_bus=
command -v dbus-daemon >/dev/null 2>&1 && have_bus=yes
if [ -n "$have_bus" ]; then
  start_bus system || bail_out "cannot start a private dbus-daemon"
  DBUS_SYSTEM_BUS_ADDRESS=$BUS_ADDRESS
elif ! is_root; then
  bail_out "as non-root, flatpak install needs a (private) system bus: install dbus-daemon"
fi

# ---------------------------------------------------------------------------
# 1-3: the runtime, the repo, the remote.

composed=
if logged compose-platform "$COMPOSE" "$T/platform" &&
   logged compose-sdk "$COMPOSE" --sdk "$T/sdk" &&
   grep -qx 'name=org.test.Sdk' "$T/sdk/metadata" &&
   [ -x "$T/platform/files/bin/sh" ]; then
  composed=yes
  ok "compose-host-runtime composes org.test.Platform and org.test.Sdk"
else
  fail "compose-host-runtime composes org.test.Platform and org.test.Sdk"
fi

exported=
if [ -z "$composed" ]; then
  skip "no runtime to export"
elif logged export-platform fp build-export --no-update-summary --runtime --files=files "$T/repo" "$T/platform" test &&
     logged export-sdk fp build-export --no-update-summary --runtime --files=files "$T/repo" "$T/sdk" test &&
     logged update-repo fp build-update-repo "$T/repo"; then
  exported=yes
  ok "flatpak build-export commits the runtime and SDK; build-update-repo writes the summary"
else
  fail "flatpak build-export commits the runtime and SDK; build-update-repo writes the summary"
fi

# The repo over HTTP on 127.0.0.1; port 0 lets the kernel pick a free one.
/usr/bin/python3 -u -m http.server --bind 127.0.0.1 --directory "$T/repo" 0 \
  >"$T/http.log" 2>&1 &
http_pid=$!
on_exit "kill $http_pid"
port=
for _ in $(seq 50); do
  port=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$T/http.log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || bail_out "python3 -m http.server did not start: $(cat "$T/http.log")"
URL=http://127.0.0.1:$port/

remote=
if [ -z "$exported" ]; then
  skip "no repo to add"
elif logged remote-add fp --user remote-add --no-gpg-verify test "$URL"; then
  remote=yes
  ok "flatpak --user remote-add of the repo on $URL"
else
  fail "flatpak --user remote-add of the repo on $URL"
fi

# ---------------------------------------------------------------------------
# 4-8: install the runtime, build the app with Flatpak's tools, install it.

runtimes=
if [ -z "$remote" ]; then
  skip "no remote"
elif logged install-runtimes fp --user install -y --noninteractive test org.test.Platform//test org.test.Sdk//test; then
  runtimes=yes
  ok "flatpak --user install of the runtime and SDK"
else
  fail "flatpak --user install of the runtime and SDK"
fi

initialised=
if [ -z "$runtimes" ]; then
  skip "runtime and SDK are not installed"
elif logged build-init fp build-init "$T/app" "$APP" org.test.Sdk org.test.Platform test; then
  initialised=yes
  ok "flatpak build-init lays out the app directory"
else
  fail "flatpak build-init lays out the app directory"
fi

built=
if [ -z "$initialised" ]; then
  skip "no app directory"
elif logged build fp build "$T/app" sh -c '
       test -x /usr/bin/ldd || { echo "no SDK at /usr"; exit 1; }
       mkdir -p /app/bin /app/share/applications &&
       printf "#!/bin/sh\necho \"%s\"\n" "$1" >/app/bin/hello &&
       chmod 0755 /app/bin/hello &&
       printf "%s\n" "[Desktop Entry]" Type=Application Name=Hello Exec=hello \
         "MimeType=application/x-xdg-app-test;" >/app/share/applications/$2.desktop
     ' sh "$GREETING" "$APP" &&
     [ -x "$T/app/files/bin/hello" ]; then
  built=yes
  ok "flatpak build runs a command with the SDK at /usr and /app writable"
else
  fail "flatpak build runs a command with the SDK at /usr and /app writable" \
    "$(tail -n 5 "$T/log/build" 2>/dev/null)"
fi

app_exported=
if [ -z "$built" ]; then
  skip "nothing built"
elif logged build-finish fp build-finish --command=hello "$T/app" &&
     [ -f "$T/app/export/share/applications/$APP.desktop" ] &&
     logged export-app fp build-export --no-update-summary "$T/repo" "$T/app" test &&
     logged update-repo-app fp build-update-repo "$T/repo"; then
  app_exported=yes
  ok "flatpak build-finish and build-export publish the app and its desktop file"
else
  fail "flatpak build-finish and build-export publish the app and its desktop file"
fi

installed=
mimecache=$FLATPAK_USER_DIR/exports/share/applications/mimeinfo.cache
if [ -z "$app_exported" ]; then
  skip "app not published"
elif ! logged install-app fp -v --user install -y --noninteractive test "$APP//test"; then
  fail "flatpak --user install of the app runs its triggers through the launcher"
else
  installed=yes
  # Flatpak ignores a failed trigger: look for what the trigger did.
  if ! grep -q "Running '$LAUNCHER .*desktop-database.trigger" "$T/log/install-app"; then
    fail "flatpak --user install of the app runs its triggers through the launcher" \
      "flatpak -v shows no trigger run by '$LAUNCHER'"
  elif command -v update-desktop-database >/dev/null 2>&1 &&
       ! grep -q "$APP.desktop" "$mimecache" 2>/dev/null; then
    fail "flatpak --user install of the app runs its triggers through the launcher" \
      "the desktop-database trigger wrote no $mimecache naming $APP"
  else
    ok "flatpak --user install of the app runs its triggers through the launcher"
  fi
fi

# ---------------------------------------------------------------------------
# 9-19: run it.

if [ -z "$installed" ]; then
  for _ in $(seq 11); do skip "app not installed"; done
else
  if fp -v --user run "$APP" >"$T/run.out" 2>"$T/run.err" &&
     [ "$(cat "$T/run.out")" = "$GREETING" ] && used_launcher "$T/run.err"; then
    ok "flatpak run $APP prints its greeting through the launcher"
  else
    fail "flatpak run $APP prints its greeting through the launcher" \
      "stdout: $(cat "$T/run.out")" "$(tail -n 5 "$T/run.err")"
  fi

  # Flatpak ran "ldconfig -X -C /run/ld-so-cache-dir/…" in a sandbox of its
  # own before the app, and bound the result on /etc/ld.so.cache.
  cache=$(find "$HOME/.var/app/$APP/.ld.so/" -type f -name "*[0-9a-f]" 2>/dev/null | head -n 1)
  cache=${cache##*/}
  if [ -n "$cache" ] && [ -s "$HOME/.var/app/$APP/.ld.so/$cache" ] &&
     in_app 'head -c 16 /etc/ld.so.cache' && grep -q 'ld.so' "$T/in.out"; then
    ok "ldconfig run through the launcher builds the app's /etc/ld.so.cache"
  else
    fail "ldconfig run through the launcher builds the app's /etc/ld.so.cache" \
      "cache file: '${cache}'" "$(cat "$T/in.out" "$T/in.err" 2>/dev/null | tail -n 5)"
  fi

  if in_app 'cat /.flatpak-info' &&
     grep -qx "name=$APP" "$T/in.out" &&
     grep -qx "runtime=runtime/org.test.Platform/x86_64/test" "$T/in.out"; then
    ok "/.flatpak-info names the app and its runtime"
  else
    fail "/.flatpak-info names the app and its runtime" "$(head -n 5 "$T/in.out" "$T/in.err")"
  fi

  if in_app '. /etc/os-release && echo "$ID" && test -x /app/bin/hello && test ! -e /usr/bin/ldd && echo ok' &&
     [ "$(cat "$T/in.out")" = "xdg-app-test
ok" ]; then
    ok "/usr is the test runtime (not the SDK) and /app the app"
  else
    fail "/usr is the test runtime (not the SDK) and /app the app" "$(cat "$T/in.out" "$T/in.err" | tail -n 5)"
  fi

  # The repo and installations exist on the host, under $T; flatpak makes
  # an empty $HOME and $FLATPAK_USER_DIR inside, nothing more.
  if in_app 'for p in "$@"; do test -e "$p" && echo "visible: $p"; done; exit 0' \
       "$T/repo/config" "$FLATPAK_USER_DIR/repo/config" "$T/platform" /usr/bin/flatpak &&
     [ ! -s "$T/in.out" ]; then
    ok "the host's files (repo, installation, /usr/bin/flatpak) are absent"
  else
    fail "the host's files (repo, installation, /usr/bin/flatpak) are absent" "$(cat "$T/in.out")"
  fi

  if in_app 'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status' &&
     capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' "$T/in.out") && [ -n "$capeff" ]; then
    if [ "$capeff" = 0000000000000000 ]; then
      ok "the app has no effective capabilities"
    elif is_root && ! is_ours; then
      todo "the app has no effective capabilities (CapEff $capeff)" \
        "bwrap run by root keeps every capability: Flatpak 1.14 passes no --cap-drop ALL"
    else
      fail "the app has no effective capabilities" "CapEff: $capeff"
    fi
    if grep -qx 'NoNewPrivs:[[:space:]]*1' "$T/in.out" &&
       grep -qx 'Seccomp:[[:space:]]*2' "$T/in.out"; then
      ok "the app runs with no_new_privs and Flatpak's seccomp filter (--seccomp FD)"
    else
      fail "the app runs with no_new_privs and Flatpak's seccomp filter (--seccomp FD)" "$(cat "$T/in.out")"
    fi
  else
    fail "the app has no effective capabilities" "$(cat "$T/in.out" "$T/in.err" | tail -n 5)"
    fail "the app runs with no_new_privs and Flatpak's seccomp filter (--seccomp FD)"
  fi

  # No --share=network in the metadata: a network namespace with only lo.
  if in_app 'sed -n "3,\$s/^ *\([^:]*\):.*/\1/p" /proc/net/dev' &&
     [ "$(cat "$T/in.out")" = lo ]; then
    ok "without --share=network the app sees only lo"
  else
    fail "without --share=network the app sees only lo" "interfaces: $(tr '\n' ' ' <"$T/in.out")"
  fi

  # A new pid namespace: a handful of processes, none of them the host's.
  if in_app 'n=0; for d in /proc/[0-9]*; do n=$((n + 1)); done; echo "$n"; test ! -e /proc/$1 || echo "host pid $1 visible"' "$$" &&
     [ "$(head -n 1 "$T/in.out")" -le 6 ] && [ "$(wc -l <"$T/in.out")" -eq 1 ]; then
    ok "the app has its own pid namespace"
  else
    fail "the app has its own pid namespace" "$(cat "$T/in.out" "$T/in.err" | tail -n 5)"
  fi

  in_app 'printf "%s|" "$@"; exit 7' 'a b' '' '*' 'c'
  st=$?
  if [ "$st" -eq 7 ] && [ "$(cat "$T/in.out")" = "a b||*|c|" ]; then
    ok "arguments and the exit status pass through flatpak run --command"
  else
    fail "arguments and the exit status pass through flatpak run --command" \
      "status $st, output '$(cat "$T/in.out")'" "$(tail -n 3 "$T/in.err")"
  fi

  if fp --user run -d --command=sh "$APP" -c 'test -x /usr/bin/ldd' >"$T/sdk.out" 2>&1; then
    ok "flatpak run -d puts the SDK at /usr"
  else
    fail "flatpak run -d puts the SDK at /usr" "$(tail -n 5 "$T/sdk.out")"
  fi
fi

# ---------------------------------------------------------------------------
# 20: with a session bus, Flatpak starts xdg-dbus-proxy in a sandbox of its
# own (through the launcher, with fds it does not name: they must stay open)
# and hands the app the proxy's socket.

if [ -z "$installed" ]; then
  skip "app not installed"
elif [ -z "$have_bus" ] || ! command -v xdg-dbus-proxy >/dev/null 2>&1; then
  skip "needs dbus-daemon and xdg-dbus-proxy"
elif ! start_bus session; then
  fail "flatpak starts xdg-dbus-proxy through the launcher and the app gets its socket" \
    "cannot start a private session bus"
else
  DBUS_SESSION_BUS_ADDRESS=$BUS_ADDRESS in_app 'test -S /run/flatpak/bus && echo "$DBUS_SESSION_BUS_ADDRESS"'
  st=$?
  if [ "$st" -eq 0 ] && [ "$(cat "$T/in.out")" = unix:path=/run/flatpak/bus ] &&
     grep -qF "Running '$LAUNCHER --args " "$T/in.err" &&
     grep -q "Running '$LAUNCHER .*xdg-dbus-proxy" "$T/in.err"; then
    ok "flatpak starts xdg-dbus-proxy through the launcher and the app gets its socket"
  else
    fail "flatpak starts xdg-dbus-proxy through the launcher and the app gets its socket" \
      "status $st, output '$(cat "$T/in.out")'" "$(grep -v '^F: ' "$T/in.err" | tail -n 5)"
  fi
fi

# ---------------------------------------------------------------------------
# 21-23: a running instance.  flatpak ps reads the child pid from the
# launcher's --info-fd JSON; --parent-pid uses it to hand the next sandbox
# the instance's namespaces (--pidns, and as non-root --userns/--userns2;
# --parent-expose-pids adds --unshare-pid to nest a pid namespace there);
# flatpak kill uses it to stop the instance.

if [ -z "$installed" ]; then
  skip "app not installed"
  skip "app not installed"
  skip "app not installed"
else
  env FLATPAK_BWRAP="$LAUNCHER" flatpak --user run --command=sleep "$APP" 60 \
    >"$T/bg.out" 2>&1 &
  bg=$!
  on_exit "kill -KILL $bg"
  # flatpak run execs the launcher: the instance whose pid is $bg is ours.
  child=
  instance=
  for _ in $(seq 100); do
    # shellcheck disable=SC2034 # pid is matched, not used
    while read -r id pid cpid; do
      [ "$pid" = "$bg" ] && [ "${cpid:-0}" != 0 ] && { instance=$id; child=$cpid; }
    done < <(flatpak ps --columns=instance,pid,child-pid 2>/dev/null)
    [ -n "$child" ] && break
    kill -0 "$bg" 2>/dev/null || break
    sleep 0.1
  done
  # Lists the comm of every process the sandbox sees.
  comms='for d in /proc/[0-9]*; do cat "$d/comm"; done 2>/dev/null; exit 0'

  if [ -z "$child" ]; then
    skip "no instance listed by flatpak ps"
  elif fp --user run --parent-pid="$child" --parent-share-pids --command=sh "$APP" -c "$comms" \
         >"$T/share.out" 2>"$T/share.err" &&
       grep -qx sleep "$T/share.out"; then
    ok "flatpak run --parent-share-pids joins the instance's pid namespace"
  else
    fail "flatpak run --parent-share-pids joins the instance's pid namespace" \
      "sees: $(tr '\n' ' ' <"$T/share.out")" "$(grep -v '^F: ' "$T/share.err" | tail -n 3)"
  fi

  if [ -z "$child" ]; then
    skip "no instance listed by flatpak ps"
  elif fp --user run --parent-pid="$child" --parent-expose-pids --command=sh "$APP" -c "$comms" \
         >"$T/expose.out" 2>"$T/expose.err" &&
       [ -s "$T/expose.out" ] && ! grep -qx sleep "$T/expose.out"; then
    ok "flatpak run --parent-expose-pids nests a pid namespace in the instance's"
  else
    fail "flatpak run --parent-expose-pids nests a pid namespace in the instance's" \
      "sees: $(tr '\n' ' ' <"$T/expose.out")" "$(grep -v '^F: ' "$T/expose.err" | tail -n 3)"
  fi

  # By instance id, in a session of its own: a launch that failed leaves an
  # instance that flatpak ps lists with child-pid 0, and `flatpak kill APP`
  # then does kill (0, SIGKILL), which is the caller's process group.
  stopped=
  if [ -n "$instance" ] && setsid -w flatpak kill "$instance" >"$T/kill.out" 2>&1; then
    for _ in $(seq 100); do
      kill -0 "$bg" 2>/dev/null || { stopped=yes; break; }
      sleep 0.1
    done
  fi
  if [ -n "$stopped" ]; then
    ok "flatpak ps lists the running instance and flatpak kill stops it"
  else
    fail "flatpak ps lists the running instance and flatpak kill stops it" \
      "child pid: ${child:-none}; flatpak ps: $(flatpak ps 2>&1 | tr '\n' ' ')" \
      "$(cat "$T/kill.out" "$T/bg.out" 2>/dev/null | tail -n 5)"
    kill -KILL "$bg" 2>/dev/null
  fi
  wait "$bg" 2>/dev/null
fi

# ---------------------------------------------------------------------------
# 24-25: as nobody, from the same repo, into an installation nobody owns.

if ! is_root; then
  skip "nobody: the test does not run as root"
  skip "nobody: the test does not run as root"
elif [ -z "$app_exported" ] || [ -z "$remote" ]; then
  skip "nobody: app not published"
  skip "nobody: app not published"
elif ! nobody_can_run "$LAUNCHER"; then
  skip "nobody cannot execute '$LAUNCHER'"
  skip "nobody cannot execute '$LAUNCHER'"
elif [ -z "$have_bus" ]; then
  skip "nobody: needs dbus-daemon for a private system bus"
  skip "nobody: needs dbus-daemon for a private system bus"
else
  N=$T/nobody
  mkdir -p "$N"
  chown 65534:65534 "$N"
  # T is 0755: nobody can reach $N.
  nb_bus=
  start_bus nobody-system as_nobody && nb_bus=$BUS_ADDRESS
  nb ()
  {
    as_nobody env HOME="$N/home" XDG_DATA_HOME="$N/home/.local/share" \
      XDG_CONFIG_HOME="$N/home/.config" XDG_CACHE_HOME="$N/home/.cache" \
      XDG_STATE_HOME="$N/home/.local/state" XDG_RUNTIME_DIR="$N/run" \
      FLATPAK_USER_DIR="$N/user" FLATPAK_SYSTEM_DIR="$N/system" \
      FLATPAK_CONFIG_DIR="$N/etc-flatpak" DBUS_SYSTEM_BUS_ADDRESS="$nb_bus" \
      timeout -k 5 "$FP_TIMEOUT" env FLATPAK_BWRAP="$LAUNCHER" "$@"
  }
  if [ -n "$nb_bus" ] &&
     logged nb-setup nb sh -c 'mkdir -p "$HOME" "$FLATPAK_SYSTEM_DIR" "$FLATPAK_CONFIG_DIR" &&
       mkdir -m 0700 -p "$XDG_RUNTIME_DIR" &&
       ostree --repo="$FLATPAK_SYSTEM_DIR/repo" init --mode=bare-user-only' &&
     logged nb-remote-add nb flatpak --user remote-add --no-gpg-verify test "$URL" &&
     logged nb-install nb flatpak -v --user install -y --noninteractive test "$APP//test" &&
     used_launcher "$T/log/nb-install"; then
    nb_installed=yes
    ok "as nobody: flatpak --user install of the runtime and app through the launcher"
  else
    nb_installed=
    fail "as nobody: flatpak --user install of the runtime and app through the launcher"
  fi
  if [ -z "$nb_installed" ]; then
    skip "as nobody: app not installed"
  elif nb flatpak --user run --command=sh "$APP" -c 'hello; id -u; grep "^CapEff:" /proc/self/status' \
         >"$T/nb-run.out" 2>"$T/nb-run.err" &&
       [ "$(cat "$T/nb-run.out")" = "$GREETING
65534
CapEff:	0000000000000000" ]; then
    ok "as nobody: the app runs as uid 65534 with no capabilities"
  else
    fail "as nobody: the app runs as uid 65534 with no capabilities" \
      "$(cat "$T/nb-run.out")" "$(grep -v '^F: ' "$T/nb-run.err" | tail -n 5)"
  fi
fi

# ---------------------------------------------------------------------------
# 26: uninstall runs the triggers again, which drop the app's MIME entry.

if [ -z "$installed" ]; then
  skip "app not installed"
elif ! logged uninstall fp -v --user uninstall -y --noninteractive "$APP//test"; then
  fail "flatpak --user uninstall runs its triggers through the launcher"
elif ! grep -q "Running '$LAUNCHER .*desktop-database.trigger" "$T/log/uninstall"; then
  fail "flatpak --user uninstall runs its triggers through the launcher" \
    "flatpak -v shows no trigger run by '$LAUNCHER'"
elif command -v update-desktop-database >/dev/null 2>&1 &&
     grep -q "$APP.desktop" "$mimecache" 2>/dev/null; then
  fail "flatpak --user uninstall runs its triggers through the launcher" \
    "$mimecache still names $APP"
else
  ok "flatpak --user uninstall runs its triggers through the launcher"
fi
