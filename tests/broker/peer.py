#!/usr/bin/python3
# tests/broker/peer.py NAME…: a peer of the host on the session bus.  For
# each NAME, a connection of its own that owns it and serves
# org.example.Peer at /org/example/Peer:
#   Ping () → s          "pong from NAME"
#   ReadFd (h) → s       what the fd holds (up to 4 KiB)
#   Emit ()              a broadcast signal Tick (s NAME)
#   EmitOther ()         a broadcast signal Tock (s NAME)
#   WhoCalls () → s      the caller's unique name, as the bus says
#   Echo (ay) → ay       its argument
#   WhoAmI () → s        who the broker says the caller is:
#                        "APP_ID INSTANCE_ID", " " for the host, or
#                        "error: NAME" (Broker1.IdentifyConnection)
# Prints "ready" once every name is owned, then serves until killed.
import os
import sys

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

XML = '''
<node>
  <interface name="org.example.Peer">
    <method name="Ping"><arg type="s" direction="out"/></method>
    <method name="ReadFd"><arg type="h" direction="in"/><arg type="s" direction="out"/></method>
    <method name="Emit"/>
    <method name="EmitOther"/>
    <method name="WhoCalls"><arg type="s" direction="out"/></method>
    <method name="Echo"><arg type="ay" direction="in"/><arg type="ay" direction="out"/></method>
    <method name="WhoAmI"><arg type="s" direction="out"/></method>
    <signal name="Tick"><arg type="s"/></signal>
    <signal name="Tock"><arg type="s"/></signal>
  </interface>
</node>'''
INFO = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
address = os.environ['DBUS_SESSION_BUS_ADDRESS']
pending = set(sys.argv[1:])
connections = []


def serve(name):
    conn = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
        Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def call(conn, sender, path, iface, method, params, invocation):
        if method == 'Ping':
            invocation.return_value(GLib.Variant('(s)', ('pong from ' + name,)))
        elif method == 'ReadFd':
            fds = invocation.get_message().get_unix_fd_list()
            fd = fds.get(params.unpack()[0])
            data = os.read(fd, 4096).decode(errors='replace')
            os.close(fd)
            invocation.return_value(GLib.Variant('(s)', (data,)))
        elif method in ('Emit', 'EmitOther'):
            conn.emit_signal(None, '/org/example/Peer', 'org.example.Peer',
                             'Tick' if method == 'Emit' else 'Tock', GLib.Variant('(s)', (name,)))
            invocation.return_value(None)
        elif method == 'Echo':
            invocation.return_value(params)
        elif method == 'WhoAmI':
            try:
                app, instance, _ = conn.call_sync(
                    'org.freedesktop.XdgApp.Broker', '/org/freedesktop/XdgApp/Broker',
                    'org.freedesktop.XdgApp.Broker1', 'IdentifyConnection',
                    GLib.Variant('(s)', (sender,)), GLib.VariantType('(ssa{sv})'),
                    Gio.DBusCallFlags.NONE, -1, None).unpack()
                answer = app + ' ' + instance
            except GLib.Error as e:
                answer = 'error: ' + (Gio.DBusError.get_remote_error(e) or e.message)
            invocation.return_value(GLib.Variant('(s)', (answer,)))
        else:
            invocation.return_value(GLib.Variant('(s)', (sender,)))

    conn.register_object('/org/example/Peer', INFO, call, None, None)

    def acquired(conn, owned):
        pending.discard(owned)
        if not pending:
            print('ready', flush=True)

    Gio.bus_own_name_on_connection(conn, name, Gio.BusNameOwnerFlags.NONE,
                                   acquired, None)
    connections.append(conn)


for n in sys.argv[1:]:
    serve(n)
GLib.MainLoop().run()
