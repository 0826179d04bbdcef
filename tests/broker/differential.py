#!/usr/bin/python3
# tests/broker/differential.py PROXY_ADDRESS BROKER_ADDRESS HOST_ADDRESS:
# runs one table of cases through xdg-dbus-proxy and through the broker,
# both given the same rules (test-differential.sh sets them up), and
# prints one line per case: PASS or FAIL, what, the proxy's outcome and
# the broker's, tab-separated.  PASS when both decide the same (the
# errors' names and the values, unique names aside), or when they differ
# where the README says the broker differs on purpose; a case expected to
# differ that does not fails too: the README would be wrong.
#
# Each case gets a fresh connection on each side, the proxy's first.
import re
import sys
import time

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

PROXY, BROKER, HOST = sys.argv[1:4]
BUS = 'org.freedesktop.DBus'
BUS_PATH = '/org/freedesktop/DBus'
PEER_PATH = '/org/example/Peer'
PEER = 'org.example.Peer'


def connect(address):
    return Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
        Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)


host = connect(HOST)


def normalize(text):
    return re.sub(r':\d+\.\d+', ':U', text)


def call(conn, dest, path, iface, method, args=None, timeout=5000):
    try:
        reply = conn.call_sync(dest, path, iface, method, args, None, Gio.DBusCallFlags.NONE,
                               timeout, None)
        return 'ok ' + normalize(str(reply.unpack() if reply else ()))
    except GLib.Error as e:
        return 'error ' + (Gio.DBusError.get_remote_error(e) or e.message)


def bus_call(conn, method, args=None):
    return call(conn, BUS, BUS_PATH, BUS, method, args)


def host_owner(name):
    return host.call_sync(BUS, BUS_PATH, BUS, 'GetNameOwner', GLib.Variant('(s)', (name,)),
                          None, 0, -1, None).unpack()[0]


def pump(seconds):
    end = time.monotonic() + seconds
    ctx = GLib.MainContext.default()
    while time.monotonic() < end:
        ctx.iteration(False)
        time.sleep(0.01)


def signals_seen(conn, rule, trigger):
    """Subscribes with RULE (an AddMatch rule), runs TRIGGER on the host,
    and returns the signals that reached the client, sorted."""
    seen = []

    def on_signal(c, sender, path, iface, member, params):
        # NameAcquired reaches a new connection whenever it likes: not a
        # decision of either filter.
        if member in ('NameAcquired', 'NameLost'):
            return
        seen.append('%s.%s%s' % (iface.split('.')[-1], member, normalize(str(params.unpack()))))

    conn.signal_subscribe(None, None, None, None, None, Gio.DBusSignalFlags.NONE, on_signal)
    result = bus_call(conn, 'AddMatch', GLib.Variant('(s)', (rule,)))
    if not result.startswith('ok'):
        return result
    pump(0.2)
    trigger()
    pump(0.6)
    return ' '.join(sorted(set(seen)))


def emit(name, method='Emit'):
    host.call_sync(name, PEER_PATH, PEER, method, None, None, 0, -1, None)


def ticks(conn):
    def trigger():
        for n in ('org.example.Talk', 'org.example.See', 'org.example.Hidden',
                  'org.example.Call', 'org.example.Cast'):
            emit(n)
        emit('org.example.Cast', 'EmitOther')
    return signals_seen(conn, "type='signal',interface='org.example.Peer'", trigger)


def name_changes(conn):
    def trigger():
        for n in ('org.example.Late', 'org.example.Hidden.Late'):
            host.call_sync(BUS, BUS_PATH, BUS, 'RequestName', GLib.Variant('(su)', (n, 4)),
                           None, 0, -1, None)
            host.call_sync(BUS, BUS_PATH, BUS, 'ReleaseName', GLib.Variant('(s)', (n,)),
                           None, 0, -1, None)
    return signals_seen(conn, "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'",
                        trigger)


def names(conn, method):
    result = bus_call(conn, method)
    if not result.startswith('ok'):
        return result
    found = re.findall(r"'(org\.example\.[A-Za-z.]+)'", result)
    return 'ok ' + ' '.join(sorted(found))


def s(value):
    return GLib.Variant('(s)', (value,))


CASES = [
    # (what, expected difference or None, case)
    ('ListNames shows talk, see and call names only', None,
     lambda c: names(c, 'ListNames')),
    ('NameHasOwner of a hidden name', None, lambda c: bus_call(c, 'NameHasOwner', s('org.example.Hidden'))),
    ('NameHasOwner of a seen name', None, lambda c: bus_call(c, 'NameHasOwner', s('org.example.See'))),
    ('GetNameOwner of a hidden name', None, lambda c: bus_call(c, 'GetNameOwner', s('org.example.Hidden'))),
    ('GetNameOwner of a talk name', None, lambda c: bus_call(c, 'GetNameOwner', s('org.example.Talk'))),
    ('GetConnectionUnixUser of a seen name', None,
     lambda c: bus_call(c, 'GetConnectionUnixUser', s('org.example.See'))),
    ('GetConnectionUnixUser of a hidden name', None,
     lambda c: bus_call(c, 'GetConnectionUnixUser', s('org.example.Hidden'))),
    ('call to a talk name', None, lambda c: call(c, 'org.example.Talk', PEER_PATH, PEER, 'Ping')),
    ('call to a seen name', None, lambda c: call(c, 'org.example.See', PEER_PATH, PEER, 'Ping')),
    ('call to a hidden name', None, lambda c: call(c, 'org.example.Hidden', PEER_PATH, PEER, 'Ping')),
    ('call to a name nobody owns', None, lambda c: call(c, 'org.example.Nobody', PEER_PATH, PEER, 'Ping')),
    ('call to a hidden peer by unique name', None,
     lambda c: call(c, host_owner('org.example.Hidden'), PEER_PATH, PEER, 'Ping')),
    ('call to a talk peer by unique name', None,
     lambda c: call(c, host_owner('org.example.Talk'), PEER_PATH, PEER, 'Ping')),
    ('call rule: the method and path it names', None,
     lambda c: call(c, 'org.example.Call', PEER_PATH, PEER, 'Ping')),
    ('call rule: another method', None, lambda c: call(c, 'org.example.Call', PEER_PATH, PEER, 'WhoCalls')),
    ('call rule: another path', None, lambda c: call(c, 'org.example.Call', '/org/example/Other', PEER, 'Ping')),
    ('call rule: another interface', None,
     lambda c: call(c, 'org.example.Call', PEER_PATH, 'org.freedesktop.DBus.Peer', 'Ping')),
    ('broadcast rule name: a call', None, lambda c: call(c, 'org.example.Cast', PEER_PATH, PEER, 'Ping')),
    ('RequestName below the app id', None,
     lambda c: bus_call(c, 'RequestName', GLib.Variant('(su)', ('org.example.App.Sub', 4)))),
    ('RequestName of a talk name', None,
     lambda c: bus_call(c, 'RequestName', GLib.Variant('(su)', ('org.example.Talk', 4)))),
    ('RequestName of a hidden name',
     'AccessDenied for any name the app may not own, seen or not; the proxy says ServiceUnknown',
     lambda c: bus_call(c, 'RequestName', GLib.Variant('(su)', ('org.example.Hidden.Mine', 4)))),
    ('ReleaseName of a hidden name',
     'AccessDenied for any name the app may not own, seen or not; the proxy says ServiceUnknown',
     lambda c: bus_call(c, 'ReleaseName', s('org.example.Other'))),
    ('a call without a destination',
     'refused; the proxy passes it to the bus, which answers UnknownMethod',
     lambda c: call(c, None, PEER_PATH, PEER, 'Ping', timeout=1000)),
    ('StartServiceByName of a hidden name', None,
     lambda c: bus_call(c, 'StartServiceByName', GLib.Variant('(su)', ('org.example.Hidden', 0)))),
    ('BecomeMonitor', None,
     lambda c: call(c, BUS, BUS_PATH, 'org.freedesktop.DBus.Monitoring', 'BecomeMonitor',
                    GLib.Variant('(asu)', ([], 0)))),
    ('UpdateActivationEnvironment', None,
     lambda c: bus_call(c, 'UpdateActivationEnvironment', GLib.Variant('(a{ss})', ({'X': 'y'},)))),
    ('AddMatch that eavesdrops', None,
     lambda c: bus_call(c, 'AddMatch', s("type='method_call',eavesdrop=true"))),
    ('the bus\'s Properties interface', None,
     lambda c: call(c, BUS, BUS_PATH, 'org.freedesktop.DBus.Properties', 'GetAll', s(BUS))),
    ('broadcasts from talk, see, hidden, call and broadcast-rule names', None, ticks),
    ('NameOwnerChanged for a seen and a hidden name', None, name_changes),
]

failed = 0
for what, expected, case in CASES:
    outcomes = []
    for address in (PROXY, BROKER):
        conn = connect(address)
        try:
            outcomes.append(case(conn))
        finally:
            conn.close_sync(None)
        pump(0.05)
    same = outcomes[0] == outcomes[1]
    good = same if expected is None else not same
    note = '' if expected is None else ' (differs on purpose: %s)' % expected
    print('\t'.join(('PASS' if good else 'FAIL', what + note, outcomes[0], outcomes[1])), flush=True)
