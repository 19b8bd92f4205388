#!/usr/bin/env python3
"""The TOS bytes seen on the wire: reads an interface (AF_PACKET, root only;
lo unless IFACE is given, as a namespace test's veth) for at most SECONDS or
COUNT frames and prints, one a line, the distinct (source port, destination
port, TOS byte) of the IPv4 TCP segments that carry data, with the data
bytes each carried, as "SPORT DPORT 0xTOS BYTES".

Usage: tos_sniff.py SECONDS [COUNT [IFACE [LOW HIGH]]]   (exit 77 when not allowed)
With LOW and HIGH the kernel hands it only the IPv4 TCP segments to a port in
LOW..HIGH (a test's own block of ports: lib.sh's claim_ports), so that other
tests' traffic on a shared lo cannot crowd its frames out of the socket's queue.
"""
import ctypes
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
SO_ATTACH_FILTER = 26


def port_filter(low, high):
    """A classic BPF program: IPv4 (Ethernet type 0x0800), TCP, destination port
    in low..high; anything else dropped."""
    code = [
        (0x28, 0, 0, 12),        # ldh [12]: the Ethernet type
        (0x15, 0, 7, 0x0800),    # jeq IPv4, else drop
        (0x30, 0, 0, 23),        # ldb [23]: the IP protocol
        (0x15, 0, 5, 6),         # jeq TCP, else drop
        (0xb1, 0, 0, 14),        # ldxb 4 * ([14] & 15): the IP header's length
        (0x48, 0, 0, 16),        # ldh [x + 16]: the TCP destination port
        (0x35, 0, 2, low),       # jge low, else drop
        (0x25, 1, 0, high),      # jgt high: drop
        (0x06, 0, 0, 0x40000),   # accept the frame (up to 256 KiB of it)
        (0x06, 0, 0, 0),         # drop
    ]
    prog = b"".join(struct.pack("HBBI", *c) for c in code)
    buf = ctypes.create_string_buffer(prog)
    return buf, struct.pack("HL", len(code), ctypes.addressof(buf))


def main():
    seconds = float(sys.argv[1])
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    iface = sys.argv[3] if len(sys.argv) > 3 else "lo"
    try:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((iface, 0))
    except (PermissionError, OSError) as e:
        print("tos_sniff: cannot read %s: %s" % (iface, e), file=sys.stderr)
        sys.exit(77)
    if len(sys.argv) > 5:
        keep, fprog = port_filter(int(sys.argv[4]), int(sys.argv[5]))
        s.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)
        del keep  # the kernel copied the program
        s.setblocking(False)
        try:  # what came before the filter
            while s.recv(65600):
                pass
        except BlockingIOError:
            pass
        s.setblocking(True)
    print("ready", flush=True)
    seen, end, frames = {}, time.monotonic() + seconds, 0
    while time.monotonic() < end and frames < most:
        s.settimeout(max(0.01, end - time.monotonic()))
        try:
            frame = s.recv(65600)
        except socket.timeout:
            break
        frames += 1
        ip = frame[14:]  # an Ethernet header (of zeros on loopback)
        if len(ip) < 40 or ip[0] >> 4 != 4 or ip[9] != 6:
            continue
        ihl = (ip[0] & 15) * 4
        total = struct.unpack("!H", ip[2:4])[0]
        sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
        data = total - ihl - (ip[ihl + 12] >> 4) * 4
        if data > 0:
            key = (sport, dport, ip[1])
            seen[key] = seen.get(key, 0) + data
    for (sport, dport, tos), data in sorted(seen.items()):
        print("%d %d 0x%02x %d" % (sport, dport, tos, data))


if __name__ == "__main__":
    main()
