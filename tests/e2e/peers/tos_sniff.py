#!/usr/bin/env python3
"""The TOS bytes seen on the wire: reads an interface (AF_PACKET, root only;
lo unless IFACE is given, as a namespace test's veth) for at most SECONDS or
COUNT frames and prints, one a line, the distinct (source port, destination
port, TOS byte) of the IPv4 TCP segments that carry data, with the data
bytes each carried, as "SPORT DPORT 0xTOS BYTES".

Usage: tos_sniff.py SECONDS [COUNT [IFACE]]   (exit 77 when not allowed)
"""
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003


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
