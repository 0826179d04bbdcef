#!/bin/sh
# tests/run/test-user-net.sh — `xdg-app run --share=network` on a kernel
# whose Landlock cannot scope abstract sockets (forced with the hidden
# --landlock-abi-max=5): the app gets a network namespace of its own
# through pasta, so the host's Xvfb (@/tmp/.X11-unix/XN) and a
# dbus-daemon on unix:abstract= are out of reach, while TCP to a server on
# the host's 127.0.0.1 still works.  Without pasta the run warns once and
# the hole is there (recorded).  `info --show-permissions` names the
# protection in force.  RUN_AS=nobody (meson.build) runs it all again as
# an ordinary user.
. "$(dirname "$0")/../lib/run-as.sh"
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/xa-env.sh"

command -v pasta >/dev/null || skip_all "pasta is not installed (apt-get install passt)"
command -v Xvfb >/dev/null || skip_all "Xvfb is not installed (apt-get install xvfb)"
command -v dbus-daemon >/dev/null || skip_all "dbus-daemon is not installed"
# pasta opens /dev/net/tun inside the namespace as this user.
/usr/bin/python3 -c 'import os; os.close(os.open("/dev/net/tun", os.O_RDWR))' 2>/dev/null ||
  skip_all "/dev/net/tun cannot be opened by uid $(id -u) here, so pasta cannot work for it"

plan 10
echo "# as uid $(id -u)"
APP=org.test.Net

compose_runtime "$T/platform" \
  "platform  xdpyinfo   /usr/bin/xdpyinfo   x11-utils" \
  "platform  dbus-send  /usr/bin/dbus-send  dbus-bin" \
  "platform  bash       /usr/bin/bash       bash"
compose_runtime --sdk "$T/sdk"
install_shell_app $APP --share=network
PORT=${URL##*:}
PORT=${PORT%%/*}

# --- the host's abstract sockets ---------------------------------------------
start_xvfb || bail_out "Xvfb does not start"
ABSTRACT=xdg-app-test-$$-$(date +%s%N)
dbus-daemon --session --nofork --address="unix:abstract=$ABSTRACT" >"$T/abstract.log" 2>&1 &
on_exit "kill $!"
sleep 0.3

x11='xdpyinfo >/dev/null 2>&1 && echo x11-reached || echo x11-refused'
bus="dbus-send --address=unix:abstract=$ABSTRACT --print-reply --dest=org.freedesktop.DBus \
/org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1 && echo bus-reached || echo bus-refused"
tcp="bash -c 'exec 3<>/dev/tcp/127.0.0.1/$PORT && printf \"GET /config HTTP/1.0\\r\\n\\r\\n\" >&3 && head -1 <&3' 2>&1"

# --- the fallback ---------------------------------------------------------------
pastas ()
{
  ps -eo args | grep -c '^/usr/bin/pasta --config-net' || true
}
pastas_before=$(pastas)
sleep 60 &
host_pid=$!
on_exit "kill $host_pid"
signal="kill -0 $host_pid 2>/dev/null && echo signal-reached || echo signal-refused"
xa run --landlock-abi-max=5 --env=DISPLAY=:$XVFB_DISPLAY $APP "$x11; $bus; $signal; $tcp; cat /proc/net/dev"
fallback_out=$out
fallback_err=$err
case $fallback_out in
  *tap0*|*eth0*|*ens*|*enp*) ok "ABI 5: the app has an interface of its own besides lo (pasta)" ;;
  *) fail "ABI 5: the app has an interface of its own besides lo (pasta)" "rc=$rc $fallback_out" "$fallback_err" ;;
esac
case $fallback_out in
  *x11-refused*) ok "ABI 5 with pasta: the host's X server is out of reach" ;;
  *) fail "ABI 5 with pasta: the host's X server is out of reach" "$fallback_out" "$fallback_err" ;;
esac
case $fallback_out in
  *bus-refused*) ok "ABI 5 with pasta: an abstract D-Bus socket of the host is out of reach" ;;
  *) fail "ABI 5 with pasta: an abstract D-Bus socket of the host is out of reach" "$fallback_out" ;;
esac
case $fallback_out in
  *signal-refused*) ok "ABI 5 with pasta: a host process cannot be signalled (pid namespace)" ;;
  *) fail "ABI 5 with pasta: a host process cannot be signalled (pid namespace)" "$fallback_out" ;;
esac
case $fallback_out in
  *"HTTP/1.0 200"*) ok "ABI 5 with pasta: TCP to a server on the host's 127.0.0.1 works" ;;
  *) fail "ABI 5 with pasta: TCP to a server on the host's 127.0.0.1 works" "$fallback_out" "$fallback_err" ;;
esac
if [ -z "$fallback_err" ]; then
  ok "ABI 5 with pasta: no warning"
else
  fail "ABI 5 with pasta: no warning" "$fallback_err"
fi

# pasta alone would stay when the sandbox is gone (passt 2023-03 does).
for _ in $(seq 50); do [ "$(pastas)" = "$pastas_before" ] && break; sleep 0.1; done
if [ "$(pastas)" = "$pastas_before" ]; then
  ok "ABI 5 with pasta: pasta ends with the sandbox"
else
  fail "ABI 5 with pasta: pasta ends with the sandbox" "$(ps -eo pid,etime,args | grep '[p]asta --config-net')"
fi

# Without pasta: the hole, and one warning that names it.
env PATH=/nonexistent "$XA" run --landlock-abi-max=5 --env=DISPLAY=:$XVFB_DISPLAY $APP "$x11" \
  >"$T/out" 2>"$T/err" </dev/null
out=$(cat "$T/out") err=$(cat "$T/err")
case $out in
  *x11-reached*)
    if [ "$(printf '%s\n' "$err" | grep -c 'abstract sockets')" = 1 ]; then
      ok "ABI 5 without pasta: the hole is open and the run says so once"
    else
      fail "ABI 5 without pasta: the hole is open and the run says so once" "$err"
    fi ;;
  *) fail "ABI 5 without pasta: the hole is open and the run says so once" "$out" "$err" ;;
esac

# --- what info says ---------------------------------------------------------------
xa info --show-permissions --landlock-abi-max=5 $APP
case $out in
  *"# network: a network namespace of its own through pasta"*) ok "info: names pasta on ABI 5" ;;
  *) fail "info: names pasta on ABI 5" "$out" "$err" ;;
esac
xa info --show-permissions $APP
abi=$(/usr/bin/python3 -c 'import ctypes; print(max(0, ctypes.CDLL(None).syscall(444, None, 0, 1)))')
case $abi:$out in
  [6-9]:*"# network: the host's network; Landlock ABI $abi keeps abstract sockets"*|[0-5]:*"# network: a network namespace of its own through pasta"*)
    ok "info: names the protection of this kernel (Landlock ABI $abi)" ;;
  *) fail "info: names the protection of this kernel (Landlock ABI $abi)" "$out" "$err" ;;
esac
