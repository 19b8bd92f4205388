#!/usr/bin/env python3
"""One end of a compressing link of the test's own, on 127.0.0.1 (tests/e2e/compression.sh):
a modem pair's compression (V.42bis, V.44), or a WAN accelerator's, in two relays.

  compress_relay.py LISTEN TO in|out deflate|plain RATE CONNS SECONDS

It listens on 127.0.0.1:LISTEN and, for every connection it takes, opens one to
127.0.0.1:TO and forwards both ways. One of the two sockets is the link: the one it opens
(`out`) or the one it took (`in`), so two relays make a link between them:

  ttcp -t --> relay A (LISTEN a, TO b, out) ==link==> relay B (LISTEN b, TO r, in) --> ttcp -r

What goes onto the link is deflated (zlib, streaming, each piece of CHUNK bytes ended by
Z_SYNC_FLUSH, as a modem compresses frame by frame) and paced to RATE bytes per second (a
token bucket of BURST bytes); what comes off it is inflated. `plain` forwards the same bytes
unchanged at the same pace: a link that does not compress. The pace is kept on average: the
bucket makes up the link time a busy machine takes from the relays (see BURST). Both ways go
through the link, so either end may send the test's data (ttcp -C and ttcp -C -r).

Bounded: it takes CONNS connections, and ends once they have all closed, or after SECONDS in
all, whichever comes first; each way carries at most LIMIT bytes, and at most PENDING bytes
wait in memory. At the end it prints, for each connection and way, what it read and wrote:

  conn=1 way=to_link op=deflate in=1605632 out=225892 secs=1.130
  conn=1 way=from_link op=inflate in=8 out=0 secs=0.000

(`in`: bytes read from the socket it forwards from; `out`: bytes written to the other; `secs`:
from the first byte read to the last one written.)"""
import selectors
import socket
import sys
import time
import zlib

CHUNK = 64               # bytes deflated between two sync flushes: a modem's frame
BURST = 262144           # the token bucket's depth, bytes: the link time lost while a busy
                         # machine holds a relay (or a ttcp behind it) is made up, up to 1.3 s
                         # at 200 kB/s, as long as data waits upstream; the bucket starts
                         # empty at the first byte, so no time before it counts
PENDING = 16384          # at most this many bytes wait to be written, each way
LIMIT = 256 << 20        # at most this many bytes read, each way
SOCKBUF = 32768          # small socket buffers: the pace, not the queues, sets the rate


class Way:
    """One direction of a connection: read from src, transform, write to dst (paced onto
    the link)."""

    def __init__(self, src, dst, op, rate):
        self.src, self.dst, self.op, self.rate = src, dst, op, rate
        self.pending = bytearray()
        self.read_bytes = self.written = 0
        self.eof = self.shut = False
        self.first = self.last = None  # when the first byte was read, the last one written
        self.tokens, self.stamp = 0.0, None  # filling from the first byte read
        if op == "deflate":
            self.z = zlib.compressobj(6)
        elif op == "inflate":
            self.z = zlib.decompressobj()
        else:
            self.z = None

    def wants_read(self):
        return not self.eof and len(self.pending) < PENDING

    def take(self, data):
        """data read from src (b"": its end) into pending, transformed."""
        self.read_bytes += len(data)
        if data and self.first is None:
            self.first = time.monotonic()
        if self.op == "deflate":
            for i in range(0, len(data), CHUNK):
                self.pending += self.z.compress(data[i:i + CHUNK])
                self.pending += self.z.flush(zlib.Z_SYNC_FLUSH)
            if not data:
                self.pending += self.z.flush(zlib.Z_FINISH)
        elif self.op == "inflate":
            self.pending += self.z.decompress(data) if data else self.z.flush()
        else:
            self.pending += data
        if not data or self.read_bytes >= LIMIT:
            self.eof = True
        if self.stamp is None and self.pending:  # the bucket fills from the first byte to send
            self.stamp = time.monotonic()

    def allowed(self, now):
        """Bytes that may be written now (all of them off the link)."""
        if self.rate == 0:
            return len(self.pending)
        if self.stamp is None:  # (nothing to write yet)
            return 0
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return int(self.tokens)

    def wait(self, now):
        """Seconds until enough tokens for the next piece (0: none needed)."""
        if self.rate == 0 or not self.pending:
            return 0.0
        need = min(len(self.pending), 512) - self.allowed(now)
        return max(0.0, need / self.rate)

    def write(self, now):
        n = min(len(self.pending), self.allowed(now), 65536)
        if n < min(len(self.pending), 512):
            return
        sent = self.dst.send(self.pending[:n])
        del self.pending[:sent]
        self.written += sent
        self.last = now
        if self.rate:
            self.tokens -= sent

    def finish(self):
        """Once src has ended and all is written: the end goes on (a half close)."""
        if self.eof and not self.pending and not self.shut:
            self.shut = True
            try:
                self.dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass


def small(sock):
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKBUF)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKBUF)
    sock.setblocking(False)


def main():
    listen, to, side, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rate, conns, seconds = int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
    deadline = time.monotonic() + seconds
    lsock = socket.socket()
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    small(lsock)
    lsock.bind(("127.0.0.1", listen))
    lsock.listen(16)
    chains, taken = [], 0  # chains: [number, [way to the link, way from it]]
    try:
        while time.monotonic() < deadline:
            open_ways = [w for _, ws in chains for w in ws if not w.shut]
            if taken >= conns and not open_ways:
                break
            sel = selectors.DefaultSelector()
            if taken < conns:
                sel.register(lsock, selectors.EVENT_READ, None)
            timeout = min(0.5, deadline - time.monotonic())
            wanted = {}
            for w in open_ways:
                if w.wants_read():
                    wanted.setdefault(w.src, [0, []])
                    wanted[w.src][0] |= selectors.EVENT_READ
                    wanted[w.src][1].append(("r", w))
                if w.pending:
                    pause = w.wait(time.monotonic())
                    if pause > 0:
                        timeout = min(timeout, pause)
                    else:
                        wanted.setdefault(w.dst, [0, []])
                        wanted[w.dst][0] |= selectors.EVENT_WRITE
                        wanted[w.dst][1].append(("w", w))
            for sock, (events, jobs) in wanted.items():
                sel.register(sock, events, jobs)
            ready = sel.select(max(0.0, timeout))
            sel.close()
            now = time.monotonic()
            for key, events in ready:
                if key.fileobj is lsock:
                    host, _ = lsock.accept()
                    small(host)
                    far = socket.socket()
                    small(far)
                    far.connect_ex(("127.0.0.1", to))
                    link, other = (far, host) if side == "out" else (host, far)
                    taken += 1
                    chains.append([taken, [Way(other, link, "deflate" if mode == "deflate"
                                               else "plain", rate),
                                           Way(link, other, "inflate" if mode == "deflate"
                                               else "plain", 0)]])
                    continue
                for kind, w in key.data:
                    try:
                        if kind == "r" and events & selectors.EVENT_READ:
                            w.take(w.src.recv(65536))
                        elif kind == "w" and events & selectors.EVENT_WRITE:
                            w.write(now)
                    except (BlockingIOError, InterruptedError):
                        pass
                    except (OSError, zlib.error):  # a reset, a refused far end: both go
                        for x in next(ws for _, ws in chains if w in ws):
                            x.eof, x.shut = True, True
                            x.pending.clear()
            for w in open_ways:
                w.finish()
            for _, ways in chains:  # both ways ended: the sockets close
                if all(w.shut for w in ways) and ways[0].src.fileno() >= 0:
                    ways[0].src.close()
                    ways[1].src.close()
    finally:
        for number, ways in chains:
            for name, w in zip(("to_link", "from_link"), ways):
                secs = w.last - w.first if w.first is not None and w.last is not None else 0
                print("conn=%d way=%s op=%s in=%d out=%d secs=%.3f" % (
                    number, name, w.op, w.read_bytes, w.written, secs))
                w.src.close()
        lsock.close()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
