#!/usr/bin/env python3
"""A client of a ttcp -S on 127.0.0.1 that tries to have test data sent elsewhere
(tests/e2e/server_reflect.sh; docs/PROTOCOL.md, section 3, "no reflection").

  reflect.py PORT tcp|udp OTHER

It opens the control connection from 127.0.0.1 and asks for a test in which the server sends
(direction=receive). With the token of `ready` it first tries from OTHER, a second loopback
address (127.0.0.2: all of 127/8 is loopback on Linux): TCP, a data connection bound to OTHER;
UDP, token datagrams from a socket bound to OTHER. Then it does the same from 127.0.0.1, the
control connection's address, where the test must run, which shows that the token was good and
the refusal was for the address alone. Every wait is bounded. It prints what each try got:
  tcp from OTHER: closed, N bytes          (or "open": the server kept it)
  tcp from 127.0.0.1: N bytes
  udp from OTHER: udp_ready no|yes
  udp from 127.0.0.1: udp_ready yes|no, N datagrams
  udp to OTHER: N datagrams                 (all the test long)"""
import select
import socket
import struct
import sys
import time

MAGIC = b"\xffTCTL\r\n\x1a"
HOME = "127.0.0.1"


def frame(**fields):
    """msg first, then the other fields, as key=value lines behind a 2-byte length."""
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
    lines = read_exact(s, n).decode().splitlines()
    return dict(line.split("=", 1) for line in lines)


def expect(s, msg):
    f = read_frame(s)
    if f.get("msg") != msg:
        sys.exit("reflect: expected %s, got %s" % (msg, f))
    return f


def open_control(port, protocol):
    """hello, welcome, test, ready: the control connection and the test's token."""
    c = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(HOME, 0))
    c.sendall(MAGIC + frame(msg="hello", version=1, min_version=1, program="reflect.py"))
    expect(c, "welcome")
    c.sendall(frame(msg="test", direction="receive", protocol=protocol, buflen=1024, nbuf=100,
                    pace_bps=2000000, pattern="classic"))
    return c, expect(c, "ready")["token"]


def drain(s, limit):
    """The bytes a TCP socket gets until the far end closes it, or limit seconds pass:
    (bytes, whether it was closed)."""
    total, end = 0, time.monotonic() + limit
    while time.monotonic() < end:
        s.settimeout(max(0.01, end - time.monotonic()))
        try:
            part = s.recv(65536)
        except socket.timeout:
            return total, False
        except OSError:
            return total, True  # reset
        if not part:
            return total, True
        total += len(part)
    return total, False


def data_connection(port, source, token):
    d = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    d.sendall(MAGIC + frame(msg="data", token=token, stream=1))
    return d


def try_tcp(port, other):
    c, token = open_control(port, "tcp")
    d = data_connection(port, other, token)
    got, closed = drain(d, 3)
    d.close()
    print("tcp from %s: %s, %d bytes" % (other, "closed" if closed else "open", got))
    d = data_connection(port, HOME, token)
    got, _ = drain(d, 10)
    d.close()
    print("tcp from %s: %d bytes" % (HOME, got))
    c.sendall(frame(msg="bye"))
    c.close()


def udp_socket(port, source):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((source, 0))
    u.connect(("127.0.0.1", port))
    u.setblocking(False)
    return u


def count_datagrams(u):
    n = 0
    while True:
        try:
            u.recv(65536)
        except BlockingIOError:
            return n
        n += 1


def offer_token(c, u, token, limit, stray):
    """Token datagrams from u every 0.1 s until udp_ready comes or limit seconds pass;
    whatever reaches the stray socket meanwhile is counted into stray[1]."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        u.send(MAGIC + frame(msg="udp", token=token, stream=1))
        readable, _, _ = select.select([c, stray[0]], [], [], 0.1)
        stray[1] += count_datagrams(stray[0])
        if c in readable:
            f = read_frame(c)
            if f.get("msg") == "udp_ready":
                return True
            sys.exit("reflect: expected udp_ready, got %s" % f)
    return False


def try_udp(port, other):
    c, token = open_control(port, "udp")
    away = udp_socket(port, other)
    stray = [away, 0]
    ready = offer_token(c, away, token, 1.0, stray)
    print("udp from %s: udp_ready %s" % (other, "yes" if ready else "no"))
    home = udp_socket(port, HOME)
    ready = offer_token(c, home, token, 5.0, stray)
    got = 0
    if ready:
        c.sendall(frame(msg="go"))
        end = time.monotonic() + 10
        while time.monotonic() < end:  # until the server's result for the stream
            readable, _, _ = select.select([c, home, away], [], [], 0.1)
            got += count_datagrams(home)
            stray[1] += count_datagrams(away)
            if c in readable and read_frame(c).get("msg") == "result":
                break
        time.sleep(0.2)  # the trailing end markers
        got += count_datagrams(home)
        stray[1] += count_datagrams(away)
        c.sendall(frame(msg="bye"))
    print("udp from %s: udp_ready %s, %d datagrams" % (HOME, "yes" if ready else "no", got))
    print("udp to %s: %d datagrams" % (other, stray[1]))
    c.close()


def main():
    port, protocol, other = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    if protocol == "tcp":
        try_tcp(port, other)
    else:
        try_udp(port, other)


main()
