#!/usr/bin/python3
# tests/broker/pipelined.py SOCKET: one write carries the whole start of a
# connection (authentication, BEGIN, Hello) and a call of
# org.example.Peer.WhoAmI to org.example.Talk, so that the call reaches
# the broker right behind Hello.  Prints WhoAmI's answer: the broker must
# already know the connection as its instance's (bus-filter.c holds the
# call until the bus has answered Hello).
import os
import socket
import sys

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio  # noqa: E402


def call(dest, path, iface, member, serial):
    m = Gio.DBusMessage.new_method_call(dest, path, iface, member)
    m.set_serial(serial)
    return bytes(m.to_blob(Gio.DBusCapabilityFlags.NONE))


s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
uid = str(os.getuid()).encode().hex().encode()
s.sendall(b'\0AUTH EXTERNAL ' + uid + b'\r\nBEGIN\r\n' +
          call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello', 1) +
          call('org.example.Talk', '/org/example/Peer', 'org.example.Peer', 'WhoAmI', 2))
data = b''
while b'\r\n' not in data:
    data += s.recv(4096)
if not data.startswith(b'OK '):
    sys.exit('not authenticated: %r' % data)
data = data[data.index(b'\r\n') + 2:]
while True:
    while len(data) < 16 or len(data) < Gio.DBusMessage.bytes_needed(data[:16]):
        chunk = s.recv(65536)
        if not chunk:
            sys.exit('closed')
        data += chunk
    need = Gio.DBusMessage.bytes_needed(data[:16])
    m = Gio.DBusMessage.new_from_blob(data[:need], Gio.DBusCapabilityFlags.NONE)
    data = data[need:]
    if m.get_reply_serial() == 2:
        if m.get_message_type() == Gio.DBusMessageType.ERROR:
            sys.exit('error: ' + m.get_error_name())
        print(m.get_body().unpack()[0])
        break
