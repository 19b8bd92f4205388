#!/usr/bin/env python3
"""A tiny inetd for the tests: `stream tcp nowait` on 127.0.0.1 only.

usage: inetd_launch.py PORT SECONDS LOG [--stderr-socket] -- CMD...

Listens on 127.0.0.1:PORT; for each connection (at most 64) starts CMD with
the connection as its stdin and stdout, as inetd does, and its stderr
appended to LOG (with --stderr-socket: the connection too, as classic inetd
hands it on 0, 1 and 2). Ends after SECONDS, or on SIGTERM/SIGINT, killing
the children it started that still run (each by its pid).
"""
import os
import signal
import socket
import sys
import time

MAX_CONNECTIONS = 64


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 5:
        sys.exit(__doc__)
    cut = args.index("--")
    opts, cmd = args[:cut], args[cut + 1:]
    port, seconds, log = int(opts[0]), float(opts[1]), opts[2]
    stderr_socket = "--stderr-socket" in opts[3:]
    children, started = [], 0

    def finish(*_):
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        sys.exit(0)

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    end = time.monotonic() + seconds
    while started < MAX_CONNECTIONS and time.monotonic() < end:
        listener.settimeout(max(0.05, end - time.monotonic()))
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        conn.setblocking(True)
        pid = os.fork()
        if pid == 0:
            listener.close()
            os.dup2(conn.fileno(), 0)
            os.dup2(conn.fileno(), 1)
            if stderr_socket:
                os.dup2(conn.fileno(), 2)
            else:
                fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                os.dup2(fd, 2)
                os.close(fd)
            conn.close()
            try:
                os.execvp(cmd[0], cmd)
            finally:
                os._exit(127)
        conn.close()
        children.append(pid)
        started += 1
        for done in list(children):
            if os.waitpid(done, os.WNOHANG)[0] == done:
                children.remove(done)
    finish()


if __name__ == "__main__":
    main()
