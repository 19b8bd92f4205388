#!/usr/bin/env python3
"""The TOS bytes seen on the wire: reads the loopback interface (AF_PACKET,
root only) for at most SECONDS or COUNT frames and prints, one a line, the
distinct (source port, destination port, TOS byte) of the IPv4 TCP segments
that carry data, as "SPORT DPORT 0xTOS".

Usage: tos_sniff.py SECONDS [COUNT]   (exit 77 when not allowed)
"""
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003


def main():
    seconds = float(sys.argv[1])
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    try:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind(("lo", 0))
    except (PermissionError, OSError) as e:
        print("tos_sniff: cannot read lo: %s" % e, file=sys.stderr)
        sys.exit(77)
    print("ready", flush=True)
    seen, end, frames = set(), time.monotonic() + seconds, 0
    while time.monotonic() < end and frames < most:
        s.settimeout(max(0.01, end - time.monotonic()))
        try:
            frame = s.recv(65600)
        except socket.timeout:
            break
        frames += 1
        ip = frame[14:]  # loopback frames carry an Ethernet header of zeros
        if len(ip) < 40 or ip[0] >> 4 != 4 or ip[9] != 6:
            continue
        ihl = (ip[0] & 15) * 4
        total = struct.unpack("!H", ip[2:4])[0]
        sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
        data = total - ihl - (ip[ihl + 12] >> 4) * 4
        if data > 0:
            seen.add((sport, dport, ip[1]))
    for sport, dport, tos in sorted(seen):
        print("%d %d 0x%02x" % (sport, dport, tos))


if __name__ == "__main__":
    main()
