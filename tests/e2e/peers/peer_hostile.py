#!/usr/bin/env python3
"""Hostile openings of the other tools' protocols for one ttcp -S on 127.0.0.1
(tests/e2e/peers_hostile.sh): ROUNDS rounds of every kind, each kind from a source address
of its own (127.0.0.21 on, in KINDS' order), every connection closed by this script within
HOLD seconds of the last round.
  i3-len     iperf3: the cookie, then a parameters length of 0xFFFFFFFF
  i3-big     iperf3: the cookie, then a whole parameters message of 1 MiB
  i3-quiet   iperf3: the cookie, then silence
  i3-half    iperf3: 20 bytes of a cookie, then silence
  nu-big     nuttcp: HELO, then a parameter line of 1 MiB
  nu-quiet   nuttcp: HELO, then silence
  i2-quiet   iperf2: its 60-byte client header on the shared port, then silence
  i2-half    iperf2: the header's first 12 bytes, then silence
Usage: peer_hostile.py TTCP_PORT IPERF3_PORT NUTTCP_PORT ROUNDS HOLD
Prints one line: connections opened, and of those held how many the server closed first."""
import socket
import sys
import time

COOKIE = b"hostilehostilehostilehostilehostile2\0"   # 37 bytes, as iperf3's
KINDS = ["i3-len", "i3-big", "i3-quiet", "i3-half", "nu-big", "nu-quiet", "i2-quiet",
         "i2-half"]
HELD = ("i3-quiet", "i3-half", "nu-quiet", "i2-quiet", "i2-half")


def iperf2_header():
    flags = bytes.fromhex("40010078")
    v1 = flags + (1).to_bytes(4, "big") + (5001).to_bytes(4, "big") + bytes(8) + \
        bytes.fromhex("fffffc18")
    return v1 + bytes(12) + bytes.fromhex("0002000100080003") + bytes(16)


def opening(kind):
    """(which port, bytes to send) for a kind."""
    if kind == "i3-len":
        return "iperf3", COOKIE + b"\xff\xff\xff\xff"
    if kind == "i3-big":
        return "iperf3", COOKIE + (1 << 20).to_bytes(4, "big") + b"{" + b" " * ((1 << 20) - 2) + b"}"
    if kind == "i3-quiet":
        return "iperf3", COOKIE
    if kind == "i3-half":
        return "iperf3", COOKIE[:20]
    if kind == "nu-big":
        return "nuttcp", b"HELO nuttcp v6.1.2\nbuflen = " + b"1" * (1 << 20) + b"\n"
    if kind == "nu-quiet":
        return "nuttcp", b"HELO nuttcp v6.1.2\n"
    if kind == "i2-quiet":
        return "ttcp", iperf2_header()
    return "ttcp", iperf2_header()[:12]


def main():
    ports = {"ttcp": int(sys.argv[1]), "iperf3": int(sys.argv[2]), "nuttcp": int(sys.argv[3])}
    rounds, hold = int(sys.argv[4]), float(sys.argv[5])
    opened, closed_by_server, held = 0, 0, []
    for _ in range(rounds):
        for i, kind in enumerate(KINDS):
            which, data = opening(kind)
            try:
                s = socket.create_connection(("127.0.0.1", ports[which]), timeout=10,
                                             source_address=("127.0.0.%d" % (21 + i), 0))
            except OSError:
                continue
            opened += 1
            try:
                s.sendall(data)
            except OSError:
                pass
            if kind in HELD:
                held.append(s)
            else:
                s.close()
        if len(held) >= 200:   # stay well inside this process's descriptors
            for h in held[:100]:
                h.close()
            held = held[100:]
    deadline = time.monotonic() + hold
    for s in held:
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            while s.recv(4096):
                pass
            closed_by_server += 1
        except OSError:
            pass
        s.close()
    print("peer_hostile: %d connections opened, %d of those held closed by the server"
          % (opened, closed_by_server))


main()
