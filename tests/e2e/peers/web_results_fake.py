#!/usr/bin/env python3
"""A ttcp -S stand-in that answers web_results with what the test asks for
(tests/e2e/web_exporter.sh; docs/PROTOCOL.md, section 3c), to see the client's bounds.

  web_results_fake.py PORTFILE SCENARIO...

It listens on 127.0.0.1 (a port of the system's choice, written to PORTFILE), greets each
connection (welcome, no key), and answers the first web_results with the first SCENARIO, the
next with the second, and so on; anything else (a test) gets error reason=protocol. It ends
after the last scenario's connection, or after 30 s, whichever comes first. Scenarios:
  good         two results, seq 5 and 6, the latter's download 1234 bit/s, end count=2
  too_many     17 results, then end count=16
  out_of_order seq 2 then seq 1, end count=2
  count        one result, end count=2
  bound        one result with grade=9
  end_bound    no result, end count=17"""
import os
import socket
import struct
import sys
import time

MAGIC = b"\xffTCTL\r\n\x1a"


def frame(*fields):
    body = "".join("%s=%s\n" % kv for kv in fields).encode()
    return struct.pack(">H", len(body)) + body


def read_exact(s, n):
    data = b""
    while len(data) < n:
        part = s.recv(n - len(data))
        if not part:
            raise EOFError("closed")
        data += part
    return data


def read_frame(s):
    n = struct.unpack(">H", read_exact(s, 2))[0]
    return dict(line.split("=", 1) for line in read_exact(s, n).decode().splitlines())


def result(seq, **more):
    fields = [("msg", "web_result"), ("seq", seq), ("age_ns", 1000000000), ("end", 0)]
    fields += list(more.items()) if more else [("valid", 0)]
    return frame(*fields)


def end(count):
    return frame(("msg", "web_results_end"), ("count", count))


SCENARIOS = {
    "good": lambda: result(5) + result(6, valid=1, down_bps=1234, down_bytes=99) + end(2),
    "too_many": lambda: b"".join(result(i) for i in range(1, 18)) + end(16),
    "out_of_order": lambda: result(2) + result(1) + end(2),
    "count": lambda: result(1) + end(2),
    "bound": lambda: result(1, valid=4, idle_us=1, loaded_us=1, jitter_us=1, grade=9) + end(1),
    "end_bound": lambda: end(17),
}


def serve(conn, scenario):
    """One connection: 1 when it asked for web_results (scenario answered)."""
    conn.settimeout(5)
    read_exact(conn, len(MAGIC))
    read_frame(conn)  # hello
    conn.sendall(frame(("msg", "welcome"), ("version", 1), ("auth", 0)))
    asked = read_frame(conn).get("msg")
    if asked != "web_results":
        conn.sendall(frame(("msg", "error"), ("reason", "protocol"),
                           ("message", "web_results_fake.py runs no test")))
        return 0
    conn.sendall(SCENARIOS[scenario]())
    return 1


def main():
    scenarios = sys.argv[2:]
    if not scenarios or any(s not in SCENARIOS for s in scenarios):
        sys.exit("usage: web_results_fake.py PORTFILE SCENARIO... (%s)" % " ".join(SCENARIOS))
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(8)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write("%d\n" % lst.getsockname()[1])
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    deadline = time.monotonic() + 30
    done = 0
    while done < len(scenarios) and time.monotonic() < deadline:
        lst.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            conn, _ = lst.accept()
        except socket.timeout:
            break
        with conn:
            try:
                done += serve(conn, scenarios[done])
                conn.shutdown(socket.SHUT_WR)
                conn.settimeout(2)
                while conn.recv(4096):  # until the client closes: its reading is not cut short
                    pass
            except (OSError, EOFError, ValueError):
                pass


if __name__ == "__main__":
    main()
