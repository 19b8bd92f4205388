#!/usr/bin/env python3
"""Datagrams shaped as iperf 2.1.8's UDP client sends them, or nearly (tests/e2e/iperf2_server_udp.sh),
to 127.0.0.1:PORT, each once, then the program exits (nothing is waited for).

  iperf2_udp.py PORT start      one first datagram (sequence 1), then silence
  iperf2_udp.py PORT end        one end datagram (sequence -5) of no test
  iperf2_udp.py PORT nearmiss   datagrams that each break one part of the server's rule (their
                                count and total length on stdout: "COUNT BYTES"), then a
                                4-byte 1.12 end marker
  iperf2_udp.py PORT forged-d   one first datagram of an -u -d test (dualtest: "send back at
                                once", for 6 s, to a port of this script's own), then nothing:
                                what a forged source gets; counts what comes back there for at
                                most 9 s and prints "DATA N END M" (datagrams of positive and
                                negative sequence)

A datagram: the 16-byte sequence header (the sequence's low word, seconds, microseconds, its
high word), then the 60-byte client header (flags 0x48010098, 1 thread, the port, -t 10 s, the
extension with version 2.1.8), padded with zeros to LEN bytes."""
import socket
import struct
import sys
import time

LEN = 1470
FLAGS = 0x48010098


def datagram(seq=1, usec=0, flags=FLAGS, threads=1, version_u=0x00020001, length=LEN,
             back_port=5001, amount=0xfffffc18):
    seq &= (1 << 64) - 1
    head = struct.pack(">IIII", seq & 0xffffffff, int(time.time()), usec, seq >> 32)
    v1 = struct.pack(">IiiiiI", flags, threads, back_port, 0, 0, amount)
    ext = struct.pack(">IIIII", 0, 0, 0, version_u, 0x00080003) + bytes(16)
    return (head + v1 + ext).ljust(length, b"\0")


def forged_dualtest(port):
    """-u -d's first datagram (VERSION1 and RUN_NOW), -t 6, back to our own socket."""
    back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    back.bind(("127.0.0.1", 0))
    flags = FLAGS | 0x80000000 | 0x00000001
    first = datagram(flags=flags, back_port=back.getsockname()[1], amount=(-600) & 0xffffffff)
    back.sendto(first, ("127.0.0.1", port))
    data = ends = 0
    end = time.monotonic() + 9
    while time.monotonic() < end:
        back.settimeout(max(0.05, end - time.monotonic()))
        try:
            d = back.recv(65536)
        except socket.timeout:
            break
        if len(d) >= 4:
            (ends, data) = (ends + 1, data) if d[0] & 0x80 else (ends, data + 1)
    print("DATA %d END %d" % (data, ends))


port, kind = int(sys.argv[1]), sys.argv[2]
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if kind == "forged-d":
    forged_dualtest(port)
    sys.exit(0)
if kind == "start":
    sent = [datagram()]
elif kind == "end":
    sent = [datagram(seq=-5)]
else:
    sent = [datagram(version_u=0x00030001),           # version major 3
            datagram(flags=FLAGS & ~0x08000000),      # no 64-bit sequence numbers
            datagram(seq=0),                          # sequence 0
            datagram(usec=1000000),                   # microseconds out of range
            datagram(threads=1001),                   # more threads than iperf2 has
            datagram(flags=(FLAGS & ~0x1fe) | (200 << 1), length=150)]  # longer than it is
for d in sent:
    sock.sendto(d, ("127.0.0.1", port))
    time.sleep(0.01)
if kind == "nearmiss":
    time.sleep(0.05)
    sock.sendto(b"0123", ("127.0.0.1", port))
    print(len(sent), sum(len(d) for d in sent))
