#!/usr/bin/env python3
"""A TCP listener on 127.0.0.1 that answers nothing (tests/e2e/exporter.sh): a stand-in for a
ttcp -S that hangs, or for something else on its port.

  silent.py PORT SECONDS

It accepts every connection and holds it without a byte sent, for SECONDS, then exits."""
import socket
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(8)
listener.settimeout(0.2)
held = []
end = time.monotonic() + seconds
while time.monotonic() < end:
    try:
        held.append(listener.accept()[0])
    except socket.timeout:
        pass
