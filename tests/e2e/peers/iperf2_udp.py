#!/usr/bin/env python3
"""Datagrams shaped as iperf 2.1.8's UDP client sends them, or nearly (tests/e2e/iperf2_server_udp.sh),
to 127.0.0.1:PORT, each once, then the program exits (nothing is waited for).

  iperf2_udp.py PORT start      one first datagram (sequence 1), then silence
  iperf2_udp.py PORT end        one end datagram (sequence -5) of no test
  iperf2_udp.py PORT nearmiss   datagrams that each break one part of the server's rule (their
                                count and total length on stdout: "COUNT BYTES"), then a
                                4-byte 1.12 end marker

A datagram: the 16-byte sequence header (the sequence's low word, seconds, microseconds, its
high word), then the 60-byte client header (flags 0x48010098, 1 thread, the port, -t 10 s, the
extension with version 2.1.8), padded with zeros to LEN bytes."""
import socket
import struct
import sys
import time

LEN = 1470
FLAGS = 0x48010098


def datagram(seq=1, usec=0, flags=FLAGS, threads=1, version_u=0x00020001, length=LEN):
    seq &= (1 << 64) - 1
    head = struct.pack(">IIII", seq & 0xffffffff, int(time.time()), usec, seq >> 32)
    v1 = struct.pack(">IiiiiI", flags, threads, 5001, 0, 0, 0xfffffc18)
    ext = struct.pack(">IIIII", 0, 0, 0, version_u, 0x00080003) + bytes(16)
    return (head + v1 + ext).ljust(length, b"\0")


port, kind = int(sys.argv[1]), sys.argv[2]
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
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
