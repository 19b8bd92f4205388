#!/usr/bin/env python3
"""A link with delay, for the namespace tests (this kernel has no netem): an Ethernet bridge of
two interfaces in a namespace of the test's own, which holds every frame DELAY_MS before it
passes it on, each way. Runs inside that namespace (ip netns exec NS delay_relay.py A B MS
SECONDS) and ends after SECONDS, printing what it passed.

The frames come off AF_PACKET sockets as the senders' stacks left them: with checksum offload a
TCP segment carries only the pseudo-header's sum, which the far end would take as corrupt once
it has crossed a socket, so every IPv4 TCP checksum is computed again here. A frame larger than
the interface takes (a GSO packet; tbf on the way segments them) is counted and dropped.
"""
import array
import heapq
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def fold(total):
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def ones_sum(data):
    """The one's complement sum of data's 16-bit words, in the machine's byte order (RFC 1071:
    the sum is independent of it once stored back the same way)."""
    if len(data) % 2:
        data += b"\0"
    return fold(sum(array.array("H", data)))


def fix_tcp_checksum(frame):
    """IPv4 TCP in an Ethernet frame: the checksum of the segment, written again."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return frame
    ihl = (frame[14] & 0x0F) * 4
    total = struct.unpack("!H", frame[16:18])[0]
    if frame[23] != 6 or total < ihl + 20 or 14 + total > len(frame):
        return frame
    seg_start, seg_end = 14 + ihl, 14 + total
    segment = bytearray(frame[seg_start:seg_end])
    segment[16:18] = b"\0\0"
    pseudo = frame[26:34] + struct.pack("!BBH", 0, 6, len(segment))
    check = ~fold(ones_sum(pseudo) + ones_sum(bytes(segment))) & 0xFFFF
    out = bytearray(frame)
    struct.pack_into("=H", out, seg_start + 16, check)
    return bytes(out)


def open_side(name):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((name, 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.setblocking(False)
    return s


def main():
    a_name, b_name, delay_ms, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    a, b = open_side(a_name), open_side(b_name)
    other = {a.fileno(): b, b.fileno(): a}
    socks = {a.fileno(): a, b.fileno(): b}
    delay = delay_ms / 1000.0
    end = time.monotonic() + seconds
    held = []  # (due, sequence, socket out, frame)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        relay(other, socks, delay, end, held)
    finally:
        why = ", ".join(f"{k}: {v}" for k, v in COUNTS.items() if k not in ("passed", "dropped"))
        print(f"delay_relay: {COUNTS['passed']} frames passed, {COUNTS['dropped']} dropped"
              f"{' (' + why + ')' if why else ''}, {len(held)} held at the end", flush=True)


COUNTS = {"passed": 0, "dropped": 0}


def relay(other, socks, delay, end, held):
    seq = 0
    while True:
        now = time.monotonic()
        if now >= end:
            break
        while held and held[0][0] <= now:
            _, _, out, frame = heapq.heappop(held)
            try:
                out.send(frame)
                COUNTS["passed"] += 1
            except OSError as e:
                COUNTS["dropped"] += 1
                COUNTS.setdefault(e.strerror, 0)
                COUNTS[e.strerror] += 1
        wait = min(end - now, (held[0][0] - now) if held else 0.1)
        ready, _, _ = select.select(list(socks), [], [], max(wait, 0.0))
        for fd in ready:
            while True:
                try:
                    frame, addr = socks[fd].recvfrom(65536)
                except BlockingIOError:
                    break
                if addr[2] == PACKET_OUTGOING:  # what this relay sent itself
                    continue
                seq += 1
                heapq.heappush(held, (time.monotonic() + delay, seq, other[fd],
                                      fix_tcp_checksum(frame)))


if __name__ == "__main__":
    main()
