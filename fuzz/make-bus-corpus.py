#!/usr/bin/python3
# fuzz/make-bus-corpus.py DIR — writes the seed corpus of
# fuzz-bus-message: conversations between a client and the bus, each a
# sequence of records (one direction byte: 0 from the client, 1 from the
# bus, plus 2 per fd that came along; then one whole message).
import os
import sys

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

BUS = 'org.freedesktop.DBus'
PATH = '/org/freedesktop/DBus'
FDS = Gio.DBusCapabilityFlags.UNIX_FD_PASSING


def blob(m, serial, big_endian=False):
    m.set_serial(serial)
    if big_endian:
        m.set_byte_order(Gio.DBusMessageByteOrder.BIG_ENDIAN)
    return bytes(m.to_blob(FDS))


def call(dest, path, iface, member, body=None, serial=1, flags=0, big_endian=False):
    m = Gio.DBusMessage.new_method_call(dest, path, iface, member)
    if body is not None:
        m.set_body(body)
    m.set_flags(Gio.DBusMessageFlags(flags))
    return blob(m, serial, big_endian)


def reply(to_serial, body, sender=BUS, dest=':1.7', serial=100):
    m = Gio.DBusMessage.new()
    m.set_message_type(Gio.DBusMessageType.METHOD_RETURN)
    m.set_reply_serial(to_serial)
    m.set_sender(sender)
    m.set_destination(dest)
    if body is not None:
        m.set_body(body)
    return blob(m, serial)


def error(to_serial, name, text, serial=101):
    m = Gio.DBusMessage.new()
    m.set_message_type(Gio.DBusMessageType.ERROR)
    m.set_reply_serial(to_serial)
    m.set_error_name(name)
    m.set_sender(BUS)
    m.set_body(GLib.Variant('(s)', (text,)))
    return blob(m, serial)


def signal(path, iface, member, body, sender, dest=None, serial=102):
    m = Gio.DBusMessage.new_signal(path, iface, member)
    m.set_sender(sender)
    if dest:
        m.set_destination(dest)
    m.set_body(body)
    return blob(m, serial)


def incoming_call(sender, dest, serial):
    m = Gio.DBusMessage.new_method_call(dest, '/app', 'org.example.App', 'Activate')
    m.set_sender(sender)
    m.set_body(GLib.Variant('(a{sv})', ({},)))
    return blob(m, serial)


def client(msg, n_fds=0):
    return bytes([2 * n_fds]) + msg


def bus(msg, n_fds=0):
    return bytes([1 + 2 * n_fds]) + msg


hello = client(call(BUS, PATH, BUS, 'Hello')) + bus(reply(1, GLib.Variant('(s)', (':1.7',))))
seeds = {
    'hello': hello,
    'hello-twice': hello + client(call(BUS, PATH, BUS, 'Hello', serial=2)) +
    bus(error(2, 'org.freedesktop.DBus.Error.Failed', 'Already handled an Hello message')),
    'hello-no-reply': client(call(BUS, PATH, BUS, 'Hello', flags=1)),
    'list-names': hello + client(call(BUS, PATH, BUS, 'ListNames', serial=2)) +
    bus(reply(2, GLib.Variant('(as)', ([BUS, ':1.7', 'org.example.Talk', 'org.example.Hidden'],)))),
    'list-activatable': hello + client(call(BUS, PATH, BUS, 'ListActivatableNames', serial=2)) +
    bus(reply(2, GLib.Variant('(as)', (['org.example.See', 'org.example.Gone'],)))),
    'add-match-eavesdrop': hello + client(call(BUS, PATH, BUS, 'AddMatch',
                                               GLib.Variant('(s)', ("type='signal',eavesdrop = true",)), 2)),
    'add-match': hello + client(call(BUS, PATH, BUS, 'AddMatch',
                                     GLib.Variant('(s)', ("type='signal',sender='org.example.Talk'",)), 2)) +
    bus(reply(2, None)),
    'request-name': hello + client(call(BUS, PATH, BUS, 'RequestName',
                                        GLib.Variant('(su)', ('org.example.App.Sub', 4)), 2)) +
    client(call(BUS, PATH, BUS, 'RequestName', GLib.Variant('(su)', ('org.example.Other', 4)), 3)),
    'name-queries': hello + client(call(BUS, PATH, BUS, 'GetNameOwner',
                                        GLib.Variant('(s)', ('org.example.Hidden',)), 2)) +
    client(call(BUS, PATH, BUS, 'NameHasOwner', GLib.Variant('(s)', ('org.example.See',)), 3)) +
    bus(reply(3, GLib.Variant('(b)', (True,)))),
    'monitor': hello + client(call(BUS, PATH, 'org.freedesktop.DBus.Monitoring', 'BecomeMonitor',
                                   GLib.Variant('(asu)', ([], 0)), 2)),
    'activation-env': hello + client(call(BUS, PATH, BUS, 'UpdateActivationEnvironment',
                                          GLib.Variant('(a{ss})', ({'PATH': '/tmp'},)), 2)),
    'name-owner-changed': hello +
    bus(signal(PATH, BUS, 'NameOwnerChanged', GLib.Variant('(sss)', ('org.example.Talk', '', ':1.9')), BUS)) +
    bus(signal(PATH, BUS, 'NameOwnerChanged', GLib.Variant('(sss)', (':1.9', ':1.9', '')), BUS)),
    'talk-call': hello + client(call('org.example.Talk', '/org/example/Peer', 'org.example.Peer', 'Ping',
                                     GLib.Variant('(a{sv})', ({'k': GLib.Variant('v', GLib.Variant('(ai)', ([1, 2],)))},)), 2)) +
    bus(reply(2, GLib.Variant('(s)', ('pong',)), sender=':1.9')),
    'call-rule': hello + client(call('org.example.Call', '/org/example/x', 'org.example.Iface', 'Method', serial=2)) +
    client(call('org.example.Call', '/other', 'org.example.Iface', 'Other', serial=3)),
    'fd-call': hello + client(call('org.example.Talk', '/org/example/Peer', 'org.example.Peer', 'ReadFd',
                                   GLib.Variant('(h)', (0,)), 2), 1),
    'incoming-call': hello + bus(incoming_call(':1.9', ':1.7', 7)) +
    client(reply(7, None, sender=':1.7', dest=':1.9', serial=3)),
    'broadcasts': hello +
    bus(signal('/org/example/Peer', 'org.example.Iface', 'Tick', GLib.Variant('(s)', ('x',)), ':1.9')) +
    bus(signal('/org/example/Peer', 'org.example.Other', 'Tick', GLib.Variant('(s)', ('x',)), ':1.10')),
    'big-endian': client(call(BUS, PATH, BUS, 'Hello', big_endian=True)) +
    client(call('org.example.Talk', '/o', 'org.example.I', 'M',
                GLib.Variant('(dtxa{sv}g)', (1.5, 2, -3, {'a': GLib.Variant('s', 'b')}, 'a(ii)')), 2, big_endian=True)),
}

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
