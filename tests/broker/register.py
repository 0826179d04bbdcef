#!/usr/bin/python3
# tests/broker/register.py APP_ID CONTEXT_FILE CMD…: registers this
# process with the broker as an instance of APP_ID (CONTEXT_FILE: the
# context in metadata form), then execs CMD with DBUS_SESSION_BUS_ADDRESS
# (and DBUS_SYSTEM_BUS_ADDRESS, when granted) pointing at the instance's
# sockets, and XA_INSTANCE_ID set.  The instance ends when CMD does:
# it is this very process.
import os
import sys

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

app_id, context_file, *command = sys.argv[1:]
with open(context_file) as f:
    context = f.read()

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
pid_fd = os.pidfd_open(os.getpid())
fds = Gio.UnixFDList.new_from_array([pid_fd])
reply, _ = bus.call_with_unix_fd_list_sync(
    'org.freedesktop.XdgApp.Broker', '/org/freedesktop/XdgApp/Broker',
    'org.freedesktop.XdgApp.Broker1', 'RegisterInstance',
    GLib.Variant('(ssha{sv})', (app_id, context, 0, {})),
    GLib.VariantType('(sa{sv})'), Gio.DBusCallFlags.NONE, -1, fds, None)
instance_id, sockets = reply.unpack()
env = dict(os.environ)
env['XA_INSTANCE_ID'] = instance_id
env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=' + bytes(sockets['session-bus']).decode()
if 'system-bus' in sockets:
    env['DBUS_SYSTEM_BUS_ADDRESS'] = 'unix:path=' + bytes(sockets['system-bus']).decode()
bus.close_sync(None)
os.execvpe(command[0], command, env)
