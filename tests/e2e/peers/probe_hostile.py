#!/usr/bin/env python3
"""A client of a ttcp -S on 127.0.0.1 that abuses --latency's echo (tests/e2e/latency.sh;
docs/PROTOCOL.md, section 3b).

  probe_hostile.py PORT OTHER

It asks for a TCP test with latency=1 and a 4 s idle part, opens no data connection, and
tries the echo every way it should not work, then the one way it should. Every wait is
bounded. It prints one line a try:
  hello from OTHER: probe_ready no
  hello with a wrong token: probe_ready no
  hello from 127.0.0.1: probe_ready yes
  probes: 5 sent, 5 echoed, same bytes yes
  probes from another port: 5 sent, 0 echoed
  probes from OTHER: 5 sent, 0 echoed
  not probes (1 B, 31 B, 33 B, 1400 B): 0 echoed
  flood: 2000 sent in S s, N echoed"""
import os
import select
import socket
import struct
import sys
import time

MAGIC = b"\xffTCTL\r\n\x1a"
HOME = "127.0.0.1"
TAG = b"ttcp-prb"


def frame(**fields):
    body = "".join("%s=%s\n" % kv for kv in fields.items()).encode()
    return struct.pack(">H", len(body)) + body


def read_exact(s, n):
    data = b""
    while len(data) < n:
        part = s.recv(n - len(data))
        if not part:
            raise EOFError("the server closed the control connection")
        data += part
    return data


def read_frame(s):
    n = struct.unpack(">H", read_exact(s, 2))[0]
    return dict(line.split("=", 1) for line in read_exact(s, n).decode().splitlines())


def open_control(port):
    c = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(HOME, 0))
    c.sendall(MAGIC + frame(msg="hello", version=1, min_version=1, program="probe_hostile.py"))
    if read_frame(c).get("msg") != "welcome":
        sys.exit("probe_hostile: no welcome")
    c.sendall(frame(msg="test", direction="send", protocol="tcp", buflen=1024, nbuf=100,
                    pattern="classic", latency=1, latency_idle_ns=4000000000))
    ready = read_frame(c)
    if ready.get("msg") != "ready" or ready.get("latency") != "1":
        sys.exit("probe_hostile: expected ready with latency=1, got %s" % ready)
    return c, ready["token"]


def udp_socket(port, source):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((source, 0))
    u.connect(("127.0.0.1", port))
    return u


def hello(token):
    return MAGIC + frame(msg="probe", token=token)


def offer(c, u, token, limit):
    """The hello from u every 0.1 s until probe_ready or limit seconds."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        u.send(hello(token))
        if select.select([c], [], [], 0.1)[0]:
            f = read_frame(c)
            if f.get("msg") == "probe_ready":
                return True
            sys.exit("probe_hostile: expected probe_ready, got %s" % f)
    return False


def probe(seq):
    return TAG + struct.pack(">I", seq) + struct.pack("<Q", time.monotonic_ns()) + bytes(12)


def echoes(u, wait):
    """The datagrams u gets within wait seconds of the last one."""
    got = []
    while select.select([u], [], [], wait)[0]:
        try:
            got.append(u.recv(65536))
        except ConnectionRefusedError:
            continue
    return got


def main():
    port, other = int(sys.argv[1]), sys.argv[2]
    c, token = open_control(port)
    away = udp_socket(port, other)
    print("hello from %s: probe_ready %s" % (other, "yes" if offer(c, away, token, 0.5) else "no"))
    home = udp_socket(port, HOME)
    wrong = "%032x" % int.from_bytes(os.urandom(16), "big")
    print("hello with a wrong token: probe_ready %s" %
          ("yes" if offer(c, home, wrong, 0.5) else "no"))
    print("hello from %s: probe_ready %s" % (HOME, "yes" if offer(c, home, token, 3) else "no"))
    echoes(home, 0.2)  # hellos after the first: never echoed, but drain anyway
    sent = [probe(i) for i in range(5)]
    for p in sent:
        home.send(p)
    got = echoes(home, 0.5)
    print("probes: 5 sent, %d echoed, same bytes %s" % (len(got), "yes" if got == sent else "no"))
    for name, u in (("another port", udp_socket(port, HOME)), (other, away)):
        for i in range(5):
            u.send(probe(100 + i))
        print("probes from %s: 5 sent, %d echoed" % (name, len(echoes(u, 0.5))))
    for junk in (b"x", TAG + bytes(23), TAG + bytes(25), TAG + bytes(1392)):
        home.send(junk)
    print("not probes (1 B, 31 B, 33 B, 1400 B): %d echoed" % len(echoes(home, 0.5)))
    began = time.monotonic()
    for i in range(2000):
        home.send(probe(1000 + i))
    took = time.monotonic() - began
    print("flood: 2000 sent in %.2f s, %d echoed" % (took, len(echoes(home, 0.5))))
    c.close()


main()
