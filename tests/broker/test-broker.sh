#!/bin/sh
# tests/broker/test-broker.sh — the broker with real clients in real
# sandboxes on a private dbus-daemon: `xdg-app run` gets a filtered bus
# of its own (the broker started by D-Bus activation), and gdbus and
# dbus-send inside see, talk to and own exactly what the policy says;
# hidden names look like names that do not exist; monitoring and
# eavesdropping are refused; hostile messages, and connections past an
# instance's limit, drop only their client;
# `xdg-app ps` and `kill` see and end the instance.
# RUN_AS=nobody (tests/broker/meson.build) runs it all again as an
# ordinary user: bus, broker, sandboxes and clients.
. "$(dirname "$0")/../lib/run-as.sh"
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/xa-env.sh"

command -v dbus-daemon >/dev/null || skip_all "dbus-daemon is not installed (apt-get install dbus)"
/usr/bin/python3 -c 'import gi' 2>/dev/null || skip_all "python3-gi is not installed"
[ -x /usr/bin/gdbus ] || skip_all "gdbus is not installed (apt-get install libglib2.0-bin)"

plan 22
echo "# as uid $(id -u)"

BUILD=$XDG_APP_BUILD_ROOT
APP=org.test.BusApp
BROKER_TESTS=$SRC/tests/broker

# --- a bus, with the broker activatable -----------------------------------
mkdir -p "$XDG_DATA_HOME/dbus-1/services"
printf '[D-BUS Service]\nName=org.freedesktop.XdgApp.Broker\nExec=%s\n' \
  "$BUILD/broker/xdg-app-broker" >"$XDG_DATA_HOME/dbus-1/services/org.freedesktop.XdgApp.Broker.service"
BUS=$T/bus
dbus-daemon --session --fork --address="unix:path=$BUS" --print-pid=1 >"$T/dbus.pid" 2>"$T/dbus.log" ||
  bail_out "dbus-daemon: $(cat "$T/dbus.log")"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$BUS"
on_exit "kill $(cat "$T/dbus.pid")"
# The broker outlives the bus's children: ended by pid, found on the bus.
on_exit 'kill $(cat "$T/broker.pid" 2>/dev/null) 2>/dev/null'

# --- a runtime with D-Bus clients, an app that does what it is told -------
compose_runtime "$T/platform" \
  "platform  gdbus         /usr/bin/gdbus         libglib2.0-bin" \
  "platform  dbus-send     /usr/bin/dbus-send     dbus-bin" \
  "platform  dbus-monitor  /usr/bin/dbus-monitor  dbus-bin" \
  "platform  timeout       /usr/bin/timeout       coreutils"
compose_runtime --sdk "$T/sdk"
install_shell_app $APP --talk-name=org.example.Talk --see-name=org.example.See \
  --talk-name=org.example.Late

# --- peers on the host ------------------------------------------------------
/usr/bin/python3 "$BROKER_TESTS/peer.py" org.example.Talk org.example.See org.example.Hidden \
  >"$T/peers.out" 2>"$T/peers.err" &
on_exit "kill $!"
for _ in $(seq 100); do grep -q ready "$T/peers.out" && break; sleep 0.1; done
grep -q ready "$T/peers.out" || bail_out "peers did not start: $(cat "$T/peers.err")"

printf '[Session Bus Policy]\norg.example.Talk=talk\n' >"$T/talk.ctx"

# inside SCRIPT: runs SCRIPT in the app's sandbox; sets $out, $err, $rc.
inside ()
{
  xa run $APP "$1"
}

call_bus ()
{
  echo "gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.$*"
}

# --- the instance and its socket -------------------------------------------
if inside 'echo "$DBUS_SESSION_BUS_ADDRESS"' && [ "$out" = "unix:path=/run/user/$(id -u)/bus" ]; then
  ok "run: the app's bus is its own socket at /run/user/UID/bus"
else
  fail "run: the app's bus is its own socket at /run/user/UID/bus" "rc=$rc out=$out" "$err"
fi
gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.XdgApp.Broker 2>/dev/null |
  sed -n 's/^(uint32 \([0-9]*\),)$/\1/p' >"$T/broker.pid"
if [ -s "$T/broker.pid" ]; then
  ok "run: the bus started the broker (D-Bus activation)"
else
  fail "run: the bus started the broker (D-Bus activation)"
fi

# --- seeing ------------------------------------------------------------------
inside "$(call_bus ListNames)"
case $out in
  *org.example.Talk*org.example.See*|*org.example.See*org.example.Talk*)
    case $out in
      *org.example.Hidden*|*XdgApp*) fail "ListNames: talk and see names only" "$out" ;;
      *) ok "ListNames: talk and see names only" ;;
    esac ;;
  *) fail "ListNames: talk and see names only" "$out" "$err" ;;
esac

inside "$(call_bus NameHasOwner org.example.Hidden); $(call_bus NameHasOwner org.example.See)"
if [ "$out" = "$(printf '(false,)\n(true,)')" ]; then
  ok "NameHasOwner: false for a hidden name, true for a seen one"
else
  fail "NameHasOwner: false for a hidden name, true for a seen one" "$out" "$err"
fi

# The error for a hidden name is the bus's own for a name nobody owns.
inside "$(call_bus GetNameOwner org.example.Hidden) 2>&1; $(call_bus GetNameOwner org.example.Nobody) 2>&1"
hidden=$(printf '%s\n' "$out" | sed -n 1p | sed 's/org.example.Hidden/NAME/')
nobody=$(printf '%s\n' "$out" | sed -n 2p | sed 's/org.example.Nobody/NAME/')
if [ -n "$hidden" ] && [ "$hidden" = "$nobody" ]; then
  ok "GetNameOwner: a hidden name is answered as one nobody owns"
else
  fail "GetNameOwner: a hidden name is answered as one nobody owns" "$out"
fi

# --- talking -------------------------------------------------------------------
peer_call ()
{
  echo "gdbus call --session --dest $1 --object-path /org/example/Peer --method org.example.Peer.$2"
}
inside "$(peer_call org.example.Talk Ping)"
if [ "$out" = "('pong from org.example.Talk',)" ]; then
  ok "talk: a call to a talk name is answered"
else
  fail "talk: a call to a talk name is answered" "rc=$rc out=$out" "$err"
fi

inside "$(peer_call org.example.See Ping) 2>&1"
case $out in
  *org.freedesktop.DBus.Error.AccessDenied*) ok "see: a call to a seen name is refused (AccessDenied)" ;;
  *) fail "see: a call to a seen name is refused (AccessDenied)" "$out" ;;
esac

inside "$(peer_call org.example.Hidden Ping) 2>&1; $(peer_call org.example.Nobody Ping) 2>&1"
hidden=$(printf '%s\n' "$out" | sed -n 1p | sed 's/org.example.Hidden/NAME/g')
nobody=$(printf '%s\n' "$out" | sed -n 2p | sed 's/org.example.Nobody/NAME/g')
case $hidden in
  *ServiceUnknown*)
    if [ "$hidden" = "$nobody" ]; then
      ok "none: a call to a hidden name fails as for a name that does not exist"
    else
      fail "none: a call to a hidden name fails as for a name that does not exist" "$out"
    fi ;;
  *) fail "none: a call to a hidden name fails as for a name that does not exist" "$out" ;;
esac

# A call by unique name reaches a peer only at the level of what it owns.
hidden_owner=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetNameOwner org.example.Hidden | sed "s/^('\(.*\)',)$/\1/")
inside "$(peer_call "$hidden_owner" Ping) 2>&1"
case $out in
  *NameHasNoOwner*) ok "none: the hidden peer's unique name does not exist either" ;;
  *) fail "none: the hidden peer's unique name does not exist either" "$out" ;;
esac

# fds pass through the proxy.
inside "echo 'through the proxy' > /tmp/f; gdbus call --session --dest org.example.Talk \
  --object-path /org/example/Peer --method org.example.Peer.ReadFd 0 < /tmp/f"
case $out in
  *"through the proxy"*) ok "talk: a file descriptor travels with a call" ;;
  *) fail "talk: a file descriptor travels with a call" "rc=$rc out=$out" "$err" ;;
esac

# Large messages both ways, several in a row (they leave the proxy's
# buffers whole).
big='import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
for size in (1 << 20, 3 << 20, 70000, 1 << 20):
    data = bytes(range(256)) * (size // 256)
    r = bus.call_sync("org.example.Talk", "/org/example/Peer", "org.example.Peer", "Echo",
                      GLib.Variant.new_tuple(GLib.Variant.new_from_bytes(
                          GLib.VariantType("ay"), GLib.Bytes(data), True)), None, 0, -1, None)
    assert r.get_child_value(0).get_data_as_bytes().get_data() == data
print("echoed")'
if "$BROKER_TESTS/register.py" $APP "$T/talk.ctx" /usr/bin/python3 -c "$big" >"$T/big.out" 2>&1 &&
   [ "$(cat "$T/big.out")" = echoed ]; then
  ok "talk: messages of megabytes go through whole, one after the other"
else
  fail "talk: messages of megabytes go through whole, one after the other" "$(cat "$T/big.out")"
fi

# --- who calls ------------------------------------------------------------------
# A service of the host asks the broker who calls it (Broker1.IdentifyConnection).
inside "$(peer_call org.example.Talk WhoAmI)"
case $out in
  "('$APP "?*"',)") ok "identity: a host service learns which app and instance call it" ;;
  *) fail "identity: a host service learns which app and instance call it" "rc=$rc out=$out" "$err" ;;
esac

# A call in the same write as Hello is the instance's already.
if "$BROKER_TESTS/register.py" $APP "$T/talk.ctx" sh -c \
     "echo \"$APP \$XA_INSTANCE_ID\"; /usr/bin/python3 $BROKER_TESTS/pipelined.py \${DBUS_SESSION_BUS_ADDRESS#unix:path=}" \
     >"$T/pipelined.out" 2>&1 &&
   [ "$(sed -n 1p "$T/pipelined.out")" = "$(sed -n 2p "$T/pipelined.out")" ]; then
  ok "identity: a call right behind Hello is known as the instance's"
else
  fail "identity: a call right behind Hello is known as the instance's" "$(cat "$T/pipelined.out")"
fi

# A process of the host that fakes the files Flatpak's portals read, in
# mount, pid and user namespaces of its own, is still the host.
printf '[Application]\nname=%s\n\n[Instance]\ninstance-id=1\n' $APP >"$T/fake-info"
fake='import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib
print(open("/.flatpak-info").read().split()[1], open("/.xdg-app-info").read().split()[1])
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
print(bus.call_sync("org.freedesktop.XdgApp.Broker", "/org/freedesktop/XdgApp/Broker",
                    "org.freedesktop.XdgApp.Broker1", "IdentifyConnection",
                    GLib.Variant("(s)", (bus.get_unique_name(),)), None, 0, -1, None).unpack())'
if sandbox_run --ro-bind "$T/fake-info" /.flatpak-info --ro-bind "$T/fake-info" /.xdg-app-info \
     --bind "$T" "$T" -- /usr/bin/python3 -c "$fake" >"$T/fake.out" 2>&1 &&
   [ "$(cat "$T/fake.out")" = "$(printf 'name=%s name=%s\n%s' $APP $APP "('', '', {})")" ]; then
  ok "identity: a host process faking /.flatpak-info in its own namespaces is the host"
else
  fail "identity: a host process faking /.flatpak-info in its own namespaces is the host" "$(cat "$T/fake.out")"
fi

# --- owning -------------------------------------------------------------------
inside "$(call_bus RequestName $APP 4); $(call_bus RequestName $APP.Sub 4); \
$(call_bus RequestName org.example.Other 4) 2>&1"
if printf '%s\n' "$out" | sed -n 1,2p | grep -qx '(uint32 1,)' &&
   [ "$(printf '%s\n' "$out" | sed -n 1,2p | grep -cx '(uint32 1,)')" = 2 ] &&
   printf '%s\n' "$out" | sed -n 3p | grep -q 'AccessDenied'; then
  ok "own: the app owns its id and names below it, nothing else"
else
  fail "own: the app owns its id and names below it, nothing else" "$out" "$err"
fi

# --- what leaks or changes the host -------------------------------------------
inside "gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.Monitoring.BecomeMonitor '[]' 0 2>&1; \
$(call_bus AddMatch "\"type='signal',eavesdrop=true\"") 2>&1; \
$(call_bus UpdateActivationEnvironment "\"{'PATH': '/tmp'}\"") 2>&1"
if [ "$(printf '%s\n' "$out" | grep -c AccessDenied)" = 3 ]; then
  ok "bus: BecomeMonitor, eavesdropping and UpdateActivationEnvironment are refused"
else
  fail "bus: BecomeMonitor, eavesdropping and UpdateActivationEnvironment are refused" "$out"
fi

# While the host talks to itself, a monitor inside sees none of it.
( sleep 1; for _ in 1 2 3; do
    gdbus call --session --dest org.example.Talk --object-path /org/example/Peer \
      --method org.example.Peer.Ping >/dev/null
    gdbus call --session --dest org.example.Hidden --object-path /org/example/Peer \
      --method org.example.Peer.Emit >/dev/null
  done ) &
host_talk=$!
inside "timeout 3 dbus-monitor --session 2>&1"
case $out in
  *member=Ping*|*"string \"org.example.Hidden\""*)
    fail "bus: dbus-monitor inside sees nothing of the host" "$out" ;;
  *) ok "bus: dbus-monitor inside sees nothing of the host" ;;
esac
wait $host_talk

# --- broadcasts and name changes ----------------------------------------------
emit_all ()
{
  for n in org.example.Talk org.example.See org.example.Hidden; do
    gdbus call --session --dest $n --object-path /org/example/Peer --method org.example.Peer.Emit >/dev/null
  done
}
( sleep 1; emit_all; sleep 0.3; emit_all;
  /usr/bin/python3 "$BROKER_TESTS/peer.py" org.example.Late org.example.Hidden2 >"$T/late.out" 2>&1 &
  echo $! >"$T/late.pid" ) &
inside "timeout 4 gdbus monitor --session --dest org.freedesktop.DBus & \
timeout 4 gdbus monitor --session --dest org.example.Talk & \
timeout 4 gdbus monitor --session --dest org.example.See & wait"
on_exit 'kill $(cat "$T/late.pid" 2>/dev/null) 2>/dev/null'
case $out in
  *"Tick ('org.example.Talk',)"*)
    case $out in
      *"Tick ('org.example.See',)"*|*"Tick ('org.example.Hidden',)"*)
        fail "broadcast: only from names the app may talk to" "$out" ;;
      *) ok "broadcast: only from names the app may talk to" ;;
    esac ;;
  *) fail "broadcast: only from names the app may talk to" "$out" "$err" ;;
esac
case $out in
  *"NameOwnerChanged ('org.example.Late'"*)
    case $out in
      *Hidden2*) fail "NameOwnerChanged: only for names the app may see" "$out" ;;
      *) ok "NameOwnerChanged: only for names the app may see" ;;
    esac ;;
  *) fail "NameOwnerChanged: only for names the app may see" "$out" ;;
esac

# --- hostile messages ----------------------------------------------------------
if "$BROKER_TESTS/register.py" $APP /dev/null sh -c \
     "/usr/bin/python3 $BROKER_TESTS/hostile.py \${DBUS_SESSION_BUS_ADDRESS#unix:path=}" \
     >"$T/hostile.out" 2>&1 && kill -0 "$(cat "$T/broker.pid")"; then
  ok "hostile: a malformed message, or a connection past the limit, drops its client only; the broker lives"
else
  fail "hostile: a malformed message, or a connection past the limit, drops its client only; the broker lives" "$(cat "$T/hostile.out")"
fi

# --- ps and kill ----------------------------------------------------------------
"$XA" run $APP 'sleep 30' </dev/null >/dev/null 2>&1 &
running=$!
for _ in $(seq 50); do
  xa ps
  case $out in *"$APP"*) break ;; esac
  sleep 0.1
done
if printf '%s\n' "$out" | grep -q "	$running	$APP	"; then
  ok "ps: lists the running instance with its pid and app"
else
  fail "ps: lists the running instance with its pid and app" "$out" "pid $running"
fi
if xa kill $APP && wait $running; [ $? -eq 137 ]; then
  ok "kill: ends the instance"
else
  fail "kill: ends the instance" "$out" "$err"
fi
