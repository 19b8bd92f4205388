#!/usr/bin/env python3
"""Hostile clients for a ttcp -S on 127.0.0.1 (tests/e2e/server_hostile.sh): COUNT connections,
a fifth of each kind, opened in waves, every one closed by this script within HOLD seconds.
  garbage     bytes that are neither the magic nor sane (0xFF, then noise)
  oversized   the magic, then a frame length of 65535
  idle        connects, sends nothing
  half-open   the magic and one byte of a length, then silence
  mid-hello   the magic, a length of 200, 20 bytes of body, then a close
Each kind comes from a source address of its own (127.0.0.11 to 127.0.0.15, in that order: all
of 127/8 is loopback on Linux), so that the server's line for each connection, which names the
peer's address, tells which kind it met.
Prints one line: how many connections it made and how many the server closed first."""
import os
import socket
import sys
import time

MAGIC = b"\xffTCTL\r\n\x1a"
KINDS = ["garbage", "oversized", "idle", "half-open", "mid-hello"]


def source(kind):
    return "127.0.0.%d" % (11 + KINDS.index(kind))


def payload(kind):
    if kind == "garbage":
        return b"\xff" + os.urandom(200)
    if kind == "oversized":
        return MAGIC + b"\xff\xff" + b"x" * 64
    if kind == "half-open":
        return MAGIC + b"\x00"
    if kind == "mid-hello":
        return MAGIC + b"\x00\xc8" + b"msg=hello\nversio"
    return b""


def main():
    port, count, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    opened, closed_by_server, held = 0, 0, []
    deadline = time.monotonic() + hold
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2,
                                         source_address=(source(kind), 0))
        except OSError:
            continue
        opened += 1
        try:
            data = payload(kind)
            if data:
                s.sendall(data)
        except OSError:
            pass
        if kind in ("garbage", "mid-hello"):
            s.close()
        else:
            held.append(s)
        if len(held) >= 200:  # stay well inside this process's descriptors
            for h in held[:100]:
                h.close()
            held = held[100:]
    # keep the rest open until the server closes them or HOLD runs out
    for s in held:
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            while s.recv(4096):
                pass
            closed_by_server += 1
        except OSError:
            pass
        s.close()
    print("hostile: %d connections opened, %d of those held closed by the server"
          % (opened, closed_by_server))


main()
