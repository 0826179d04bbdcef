#!/usr/bin/python3
# tests/broker/hostile.py SOCKET: sends one malformed message per
# connection to an instance's bus socket and checks that the broker drops
# that connection; opens connections past the instance's limit and checks
# that the one past it is closed; then that a new connection still works.  Prints one
# line per case ("dropped: CASE" or "NOT DROPPED: CASE") and "alive" or
# "DEAD" at the end; exits 0 only if every case was dropped and alive.
import os
import socket
import struct
import sys
import time

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

path = sys.argv[1]


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    uid = str(os.getuid()).encode().hex()
    s.sendall(b'\0AUTH EXTERNAL ' + uid.encode() + b'\r\nNEGOTIATE_UNIX_FD\r\nBEGIN\r\n')
    reply = b''
    while b'AGREE_UNIX_FD\r\n' not in reply:
        chunk = s.recv(4096)
        if not chunk:
            raise RuntimeError('closed during authentication: %r' % reply)
        reply += chunk
    s.sendall(blob('org.freedesktop.DBus', '/org/freedesktop/DBus',
                   'org.freedesktop.DBus', 'Hello', None, 1))
    read_message(s)
    return s


def blob(dest, obj, iface, member, body, serial):
    m = Gio.DBusMessage.new_method_call(dest, obj, iface, member)
    if body is not None:
        m.set_body(body)
    m.set_serial(serial)
    return bytes(m.to_blob(Gio.DBusCapabilityFlags.UNIX_FD_PASSING))


leftover = {}


def read_message(s):
    data = leftover.pop(s.fileno(), b'')
    while len(data) < 16:
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError('closed')
        data += chunk
    need = Gio.DBusMessage.bytes_needed(data[:16])
    while len(data) < need:
        data += s.recv(65536)
    leftover[s.fileno()] = data[need:]
    return Gio.DBusMessage.new_from_blob(data[:need], Gio.DBusCapabilityFlags.NONE)


def dropped(s):
    try:
        while True:
            if not s.recv(65536):
                return True
    except socket.timeout:
        return False
    except ConnectionError:
        return True


def patch(data, offset, value):
    return data[:offset] + bytes([value]) + data[offset + 1:]


ping = blob('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            'NameHasOwner', GLib.Variant('(s)', ('org.example.x',)), 2)
body_at = len(ping) - len('org.example.x') - 1 - 4


def nested_variants(depth):
    # A signal whose body is depth variants, each holding the next, then a byte.
    body = b''.join(b'\x01v\x00' for _ in range(depth - 1)) + b'\x01y\x00\x07'
    fields = b''
    for code, sig, value in ((1, b'o', b'/'), (2, b's', b'org.example.I'),
                             (3, b's', b'S'), (8, b'g', b'v')):
        fields += b'\0' * (-len(fields) % 8)
        fields += bytes([code, 1]) + sig + b'\0'
        if sig == b'g':
            fields += bytes([len(value)]) + value + b'\0'
        else:
            fields += b'\0' * (-(len(fields)) % 4)
            fields += struct.pack('<I', len(value)) + value + b'\0'
    header = b'l\x04\x00\x01' + struct.pack('<III', len(body), 3, len(fields)) + fields
    header += b'\0' * (-len(header) % 8)
    return header + body


cases = [
    ('byte order', patch(ping, 0, ord('x'))),
    ('message type 9', patch(ping, 1, 9)),
    ('protocol version 2', patch(ping, 3, 2)),
    ('string that is not UTF-8', patch(ping, body_at + 5, 0xff)),
    ('NUL inside a string', patch(ping, body_at + 5, 0)),
    ('variants nested 70 deep', nested_variants(70)),
    ('a body of 200 MiB announced', ping[:4] + struct.pack('<I', 200 * 1024 * 1024) + ping[8:]),
    ('UNIX_FDS 2 with no fd sent',
     None),
    ('a serial in the broker\'s own range', ping[:8] + struct.pack('<I', 0xfffffff0) + ping[12:]),
]
# UNIX_FDS claimed without fds: a message with a handle argument.
m = Gio.DBusMessage.new_method_call('org.freedesktop.DBus', '/', 'org.freedesktop.DBus', 'GetId')
m.set_serial(4)
# GDBus writes UNIX_FDS from the list; the fds themselves are never sent.
m.set_unix_fd_list(Gio.UnixFDList.new_from_array([os.dup(0), os.dup(0)]))
cases[7] = ('UNIX_FDS 2 with no fd sent', bytes(m.to_blob(Gio.DBusCapabilityFlags.UNIX_FD_PASSING)))

ok = True
for name, data in cases:
    s = connect()
    s.sendall(data)
    if dropped(s):
        print('dropped:', name)
    else:
        print('NOT DROPPED:', name)
        ok = False
    leftover.pop(s.fileno(), None)
    s.close()

# The broker's limit of connections per instance (broker/main.c): every
# one costs it two threads.
LIMIT = 64
held = [connect() for _ in range(LIMIT)]
extra = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
extra.settimeout(5)
extra.connect(path)
if dropped(extra):
    print('dropped: connection %d' % (LIMIT + 1))
else:
    print('NOT DROPPED: connection %d' % (LIMIT + 1))
    ok = False
extra.close()
for s in held:
    leftover.pop(s.fileno(), None)
    s.close()


def connect_again():
    # The broker counts a connection out once its threads saw it close.
    for _ in range(50):
        try:
            return connect()
        except (RuntimeError, OSError):
            time.sleep(0.1)
    return connect()


try:
    s = connect_again()
    s.sendall(blob('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                   'ListNames', None, 2))
    # NameAcquired comes first; then the reply.
    reply = read_message(s)
    while reply.get_reply_serial() != 2:
        reply = read_message(s)
    names = reply.get_body().unpack()[0]
    print('alive' if 'org.freedesktop.DBus' in names else 'DEAD')
    ok = ok and 'org.freedesktop.DBus' in names
except (RuntimeError, OSError) as e:
    print('DEAD', e)
    ok = False
sys.exit(0 if ok else 1)
