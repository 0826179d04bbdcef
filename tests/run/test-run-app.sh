#!/bin/sh
# tests/run/test-run-app.sh — `xdg-app run` and `xdg-app build` end to end:
# a runtime and an SDK composed from the host, an app built with
# build-init/build-finish/build-export, all served over HTTP on 127.0.0.1,
# installed, then run in real sandboxes; a Wayland client against a
# headless weston and an X11 client against Xvfb, both on the host.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/xa-env.sh"

plan 22

ARCH=$(uname -m)
APP=org.test.Hello

# --- repo: runtime (with a Wayland and an X11 client), SDK, app ----------
compose_runtime "$T/platform" \
  "platform  weston-info  /usr/bin/weston-info  weston  optional" \
  "platform  xdpyinfo     /usr/bin/xdpyinfo     x11-utils  optional"
compose_runtime --sdk "$T/sdk"
xa build-export --runtime "$T/repo" "$T/platform" test || bail_out "export platform: $err"
xa build-export --runtime "$T/repo" "$T/sdk" test || bail_out "export SDK: $err"

make_app ()
{
  rm -rf "$T/app"
  xa build-init "$T/app" $APP org.test.Sdk org.test.Platform test || return 1
  mkdir -p "$T/app/files/bin"
  printf '#!/bin/sh\necho "%s $*"\n' "$1" >"$T/app/files/bin/hello"
  chmod 0755 "$T/app/files/bin/hello"
  xa build-finish --command=hello --socket=wayland --persist=.hello "$T/app" &&
  # build-finish drops x11 itself; a bundle from elsewhere may still ask.
  sed -i 's/^sockets=wayland;$/sockets=wayland;x11;/' "$T/app/metadata" &&
  xa build-export "$T/repo" "$T/app"
}
make_app Hello || bail_out "cannot build the app: $err"

serve_repo "$T/repo"
xa add-repo --no-gpg-verify testrepo "$URL" &&
  xa install-runtime testrepo org.test.Platform test &&
  xa install-runtime testrepo org.test.Sdk test &&
  xa install-app testrepo $APP ||
  bail_out "cannot install: $err"

# --- running --------------------------------------------------------------
if xa run $APP a 'b c' && [ "$out" = "Hello a b c" ]; then
  ok "run: the app's command runs with its arguments"
else
  fail "run: the app's command runs with its arguments" "rc=$rc out=$out" "$err"
fi

case $err in
  *"X11 is never exposed"*) ok "run: sockets=x11 is reported and ignored" ;;
  *) fail "run: sockets=x11 is reported and ignored" "$err" ;;
esac

xa run --command=sh $APP -c 'exit 7'
if [ "$rc" -eq 7 ]; then ok "run: the exit status passes through"; else fail "run: the exit status passes through" "rc=$rc" "$err"; fi

"$XA" run --command=sleep $APP 30 </dev/null >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
if [ "$rc" -eq 143 ]; then ok "run: SIGTERM reaches the app (status 128+15)"; else fail "run: SIGTERM reaches the app" "rc=$rc"; fi

probe='
. /usr/etc/os-release; echo "os=$ID"
echo "self=$(ls /self/bin) app=$(readlink /app)"
echo "home=$(ls -A "$HOME")"
echo "display=${DISPLAY-unset} x11=$(ls -d /tmp/.X11-unix 2>/dev/null || echo absent)"
grep CapEff /proc/self/status
grep "^name=" /.flatpak-info
echo "host=$(ls -d /work /root /home/* 2>/dev/null | grep -v "^$HOME\$" | wc -l)"
touch /usr/x 2>/dev/null && echo usr-writable; touch /self/x 2>/dev/null && echo self-writable
echo "var=$XDG_CONFIG_HOME $(ls -d /var/config)"
ls /sys/class/net 2>/dev/null; cat /proc/net/dev | sed -n "3,\$p" | sed "s/:.*//;s/ //g"
'
xa run --command=sh $APP -c "$probe"
check_line ()
{
  if printf '%s\n' "$out" | grep -qx "$2"; then ok "$1"; else fail "$1" "want: $2" "$out" "$err"; fi
}
check_line "sandbox: /usr is the runtime" "os=xdg-app-test"
check_line "sandbox: /self is the app and /app points to it" "self=hello app=self"
check_line "sandbox: \$HOME holds only the persistent= directory" "home=.hello"
check_line "sandbox: no DISPLAY and no X11 socket directory" "display=unset x11=absent"
check_line "sandbox: the app holds no capabilities" "CapEff:	0000000000000000"
check_line "sandbox: /.flatpak-info names the app" "name=$APP"
check_line "sandbox: no host directory is visible" "host=0"
check_line "sandbox: XDG_CONFIG_HOME is in the app's data directory" "var=/var/config /var/config"
if printf '%s\n' "$out" | grep -q -- '-writable'; then
  fail "sandbox: /usr and /self are read-only" "$out"
else
  ok "sandbox: /usr and /self are read-only"
fi

# -d: the SDK as /usr.
xa run --command=sh $APP -c 'command -v ldd || echo none'
plain=$out
xa run -d --command=sh $APP -c 'command -v ldd || echo none'
if [ "$plain" = none ] && [ "$out" = /usr/bin/ldd ]; then
  ok "run -d: the SDK is /usr, and only then"
else
  fail "run -d: the SDK is /usr, and only then" "plain=$plain devel=$out" "$err"
fi

# --- Wayland against a headless weston; X11 against Xvfb ------------------
if command -v weston >/dev/null && [ -x "$T/platform/files/bin/weston-info" ]; then
  weston --backend=headless-backend.so --use-pixman --socket=wayland-xa \
    --width=320 --height=240 --idle-time=0 >"$T/weston.log" 2>&1 &
  on_exit "kill $!"
  for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/wayland-xa" ] && break; sleep 0.1; done
  export WAYLAND_DISPLAY=wayland-xa
  if xa run --command=weston-info $APP && printf '%s\n' "$out" | grep -q "interface: 'wl_compositor'"; then
    ok "wayland: a client in the sandbox talks to the host's compositor"
  else
    fail "wayland: a client in the sandbox talks to the host's compositor" "$err" "$(tail -3 "$T/weston.log")"
  fi
  if xa run --nosocket=wayland --command=weston-info $APP; then
    fail "wayland: --nosocket=wayland takes the socket away" "$out"
  else
    ok "wayland: --nosocket=wayland takes the socket away"
  fi
  unset WAYLAND_DISPLAY
else
  skip "weston or weston-info is not installed"
  skip "weston or weston-info is not installed"
fi

if command -v Xvfb >/dev/null && [ -x "$T/platform/files/bin/xdpyinfo" ]; then
  if ! start_xvfb 2>"$T/err" || ! DISPLAY=:$XVFB_DISPLAY xdpyinfo >/dev/null 2>>"$T/err"; then
    fail "x11: Xvfb runs on the host" "$(cat "$T/err")"
  elif xa run --env=DISPLAY=:$XVFB_DISPLAY --command=xdpyinfo $APP; then
    fail "x11: a client in the sandbox cannot reach the host's X server" "$out"
  else
    ok "x11: a client in the sandbox cannot reach the host's X server"
  fi
  # The host's network namespace holds the X server's abstract socket
  # @/tmp/.X11-unix/XN; Landlock's scope keeps it out of reach.
  if xa run --share=network --env=DISPLAY=:$XVFB_DISPLAY --command=xdpyinfo $APP; then
    fail "x11: not even with --share=network (abstract socket)" "$out"
  else
    ok "x11: not even with --share=network (abstract socket)"
  fi
else
  skip "Xvfb or xdpyinfo is not installed"
  skip "Xvfb or xdpyinfo is not installed"
fi

# --- update and uninstall while the app runs, then build ----------------
APP_BASE=$XDG_DATA_HOME/xdg-app/app/$APP/$ARCH/master

# wait_locked FILE: until some process holds a POSIX lock on FILE (a
# sandbox's reaper, for --lock-file), for at most 10 s.
wait_locked ()
{
  _inode=$(stat -c %i "$1") || return 1
  for _ in $(seq 200); do
    grep -q "POSIX .*:$_inode " /proc/locks && return 0
    sleep 0.05
  done
  return 1
}

# start_reader: the installed app, reading its own file after a while;
# its output goes to $T/reader.out.
start_reader ()
{
  "$XA" run --command=sh $APP -c 'read _; cat /self/bin/hello' \
    <"$T/reader.fifo" >"$T/reader.out" 2>&1 &
  reader=$!
  exec 7>"$T/reader.fifo"
}

mkfifo "$T/reader.fifo"
v1=$(readlink "$APP_BASE/active")
start_reader
make_app "Hello again" || bail_out "cannot rebuild the app: $err"
if ! wait_locked "$APP_BASE/$v1/files/.ref"; then
  fail "update-app: a running app keeps its files" "no lock on $APP_BASE/$v1/files/.ref"
elif ! xa update-app $APP; then
  fail "update-app: a running app keeps its files" "$err"
else
  echo >&7; exec 7>&-
  wait $reader
  if grep -q '"Hello \$\*"' "$T/reader.out" && [ -d "$APP_BASE/$v1" ]; then
    ok "update-app: a running app keeps its files"
  else
    fail "update-app: a running app keeps its files" "$(cat "$T/reader.out")" "$(ls "$APP_BASE")"
  fi
fi
if xa run $APP && [ "$out" = "Hello again " ] && xa update-app $APP &&
   [ ! -e "$APP_BASE/$v1" ]; then
  ok "update-app: the next run is the new version; the old one goes once unused"
else
  fail "update-app: the next run is the new version; the old one goes once unused" \
    "rc=$rc out=$out" "$err" "$(ls "$APP_BASE")"
fi

v2=$(readlink "$APP_BASE/active")
start_reader
if ! wait_locked "$APP_BASE/$v2/files/.ref"; then
  fail "uninstall-app: a running app keeps its files" "no lock on $APP_BASE/$v2/files/.ref"
elif ! xa uninstall-app $APP; then
  fail "uninstall-app: a running app keeps its files" "$err"
else
  xa run $APP; run_rc=$rc
  echo >&7; exec 7>&-
  wait $reader
  if grep -q '"Hello again \$\*"' "$T/reader.out" && [ "$run_rc" -ne 0 ]; then
    ok "uninstall-app: a running app keeps its files"
  else
    fail "uninstall-app: a running app keeps its files" "run rc=$run_rc" "$(cat "$T/reader.out")"
  fi
fi

xa build-init "$T/b" org.test.Built org.test.Sdk org.test.Platform test
if xa build "$T/b" sh -c 'echo built > /self/built; command -v ldd' &&
   [ "$out" = /usr/bin/ldd ] && [ "$(cat "$T/b/files/built")" = built ]; then
  ok "build: the SDK is /usr and files/ is writable at /self"
else
  fail "build: the SDK is /usr and files/ is writable at /self" "rc=$rc out=$out" "$err"
fi
