#!/usr/bin/python3
# benchmarks/bus-clients.py — the Python ends of benchmarks/broker-bus:
#
#   bus-clients.py stall SOCKET      a client that subscribes to the
#                                    bench's broadcasts, then never reads;
#                                    prints "subscribed", waits to be killed
#   bus-clients.py register N CTX    registers N instances of org.bench.App
#                                    with the broker (this process's pidfd),
#                                    prints "registered", waits to be killed
import os
import socket
import sys
import time

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402


def call_blob(member, body, serial):
    m = Gio.DBusMessage.new_method_call('org.freedesktop.DBus', '/org/freedesktop/DBus',
                                        'org.freedesktop.DBus', member)
    if body is not None:
        m.set_body(body)
    m.set_serial(serial)
    return bytes(m.to_blob(Gio.DBusCapabilityFlags.NONE))


def stall(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    uid = str(os.getuid()).encode().hex().encode()
    s.sendall(b'\0AUTH EXTERNAL ' + uid + b'\r\n')
    # As every client does: BEGIN only once the server said OK.
    if not s.recv(4096).startswith(b'OK '):
        sys.exit('stall: authentication refused')
    s.sendall(b'BEGIN\r\n')
    s.sendall(call_blob('Hello', None, 1))
    s.sendall(call_blob('AddMatch', GLib.Variant('(s)', ("type='signal',interface='org.bench.Echo'",)), 2))
    time.sleep(0.5)
    print('subscribed', flush=True)
    while True:
        time.sleep(3600)


def register(n, context_file):
    with open(context_file) as f:
        context = f.read()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    pid_fd = os.pidfd_open(os.getpid())
    for _ in range(n):
        fds = Gio.UnixFDList.new_from_array([os.dup(pid_fd)])
        bus.call_with_unix_fd_list_sync(
            'org.freedesktop.XdgApp.Broker', '/org/freedesktop/XdgApp/Broker',
            'org.freedesktop.XdgApp.Broker1', 'RegisterInstance',
            GLib.Variant('(ssha{sv})', ('org.bench.App', context, 0, {})),
            GLib.VariantType('(sa{sv})'), Gio.DBusCallFlags.NONE, -1, fds, None)
    print('registered', flush=True)
    while True:
        time.sleep(3600)


if sys.argv[1] == 'stall':
    stall(sys.argv[2])
else:
    register(int(sys.argv[2]), sys.argv[3])
