#!/bin/sh
# tests/broker/test-differential.sh — the broker's filter next to
# xdg-dbus-proxy 0.1.4 from Debian, given the same rules, on a private
# dbus-daemon with the same peers: differential.py runs one table of
# cases through both and shows the same decisions, except where the
# README says the broker differs on purpose.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/xa-env.sh"

command -v dbus-daemon >/dev/null || skip_all "dbus-daemon is not installed (apt-get install dbus)"
command -v xdg-dbus-proxy >/dev/null || skip_all "xdg-dbus-proxy is not installed (apt-get install xdg-dbus-proxy)"
/usr/bin/python3 -c 'import gi' 2>/dev/null || skip_all "python3-gi is not installed"

BUILD=$XDG_APP_BUILD_ROOT
BROKER_TESTS=$SRC/tests/broker

mkdir -p "$XDG_DATA_HOME/dbus-1/services"
printf '[D-BUS Service]\nName=org.freedesktop.XdgApp.Broker\nExec=%s\n' \
  "$BUILD/broker/xdg-app-broker" >"$XDG_DATA_HOME/dbus-1/services/org.freedesktop.XdgApp.Broker.service"
dbus-daemon --session --fork --address="unix:path=$T/bus" --print-pid=1 >"$T/dbus.pid" 2>"$T/dbus.log" ||
  bail_out "dbus-daemon: $(cat "$T/dbus.log")"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$T/bus"
on_exit "kill $(cat "$T/dbus.pid")"

/usr/bin/python3 "$BROKER_TESTS/peer.py" org.example.Talk org.example.See org.example.Hidden \
  org.example.Call org.example.Cast >"$T/peers.out" 2>"$T/peers.err" &
on_exit "kill $!"
for _ in $(seq 100); do grep -q ready "$T/peers.out" && break; sleep 0.1; done
grep -q ready "$T/peers.out" || bail_out "peers did not start: $(cat "$T/peers.err")"

# One policy, written for each.  The broker adds the app's defaults
# (own APP_ID.*, talk to the portals): the proxy is given them too.
xdg-dbus-proxy "$DBUS_SESSION_BUS_ADDRESS" "$T/proxy" --filter \
  --own=org.example.App.* --talk=org.freedesktop.portal.* \
  --talk=org.example.Talk --see=org.example.See --see=org.example.Late \
  --call=org.example.Call=org.example.Peer.Ping@/org/example/Peer \
  --broadcast=org.example.Cast=org.example.Peer.Tick@/org/example/Peer \
  2>"$T/proxy.log" &
on_exit "kill $!"
for _ in $(seq 100); do [ -S "$T/proxy" ] && break; sleep 0.1; done
[ -S "$T/proxy" ] || bail_out "xdg-dbus-proxy did not start: $(cat "$T/proxy.log")"

cat >"$T/context" <<'CONTEXT'
[Session Bus Policy]
org.example.Talk=talk
org.example.See=see
org.example.Late=see
org.example.Call=call=org.example.Peer.Ping@/org/example/Peer
org.example.Cast=broadcast=org.example.Peer.Tick@/org/example/Peer
CONTEXT

"$BROKER_TESTS/register.py" org.example.App "$T/context" sh -c \
  "exec /usr/bin/python3 '$BROKER_TESTS/differential.py' 'unix:path=$T/proxy' \"\$DBUS_SESSION_BUS_ADDRESS\" '$DBUS_SESSION_BUS_ADDRESS'" \
  >"$T/cases" 2>"$T/cases.err"
[ -s "$T/cases" ] || bail_out "no case ran: $(cat "$T/cases.err")"
# The broker outlives its instance; ended by pid, found on the bus.
gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.XdgApp.Broker 2>/dev/null |
  sed -n 's/^(uint32 \([0-9]*\),)$/\1/p' >"$T/broker.pid"
on_exit 'kill $(cat "$T/broker.pid" 2>/dev/null) 2>/dev/null'

plan "$(wc -l <"$T/cases")"
while IFS='	' read -r verdict what proxy broker; do
  if [ "$verdict" = PASS ]; then
    ok "$what"
    echo "#   xdg-dbus-proxy: $proxy"
    echo "#   broker:         $broker"
  else
    fail "$what" "xdg-dbus-proxy: $proxy" "broker:         $broker"
  fi
done <"$T/cases"
