#!/usr/bin/python3
# tests/store/httpd-stopping.py ROOT PORT N — serves ROOT on 127.0.0.1:PORT
# and dies (as if killed) on request N+1, dropping every open connection:
# a server that goes away in the middle of a pull.
import functools
import http.server
import os
import sys

root, port, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
count = 0


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        global count
        count += 1
        if count > limit:
            os._exit(0)
        super().do_GET()


server = http.server.ThreadingHTTPServer(
    ("127.0.0.1", port), functools.partial(Handler, directory=root))
server.serve_forever()
