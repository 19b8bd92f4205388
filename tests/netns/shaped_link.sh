# A shaped link between two network namespaces (issue 7, "Shaped links"): a veth pair, tc tbf at
# 256 kbit/s on the transmitter's side. Checks
#   1. the receiver's goodput against what the link allows (formula below), a ratio: reported
#      ("MEASURED:", with the issue's aim of 3 %), a failure only outside 0.9 to 1.05;
#   2. the transmitter's figure (it waits for the receiver's close: delivery-confirmed) against
#      the receiver's, a ratio of one run: reported (aim: 3 %), a failure only outside 0.9 to 1.05;
#   3. a 2 MiB random file in non-sink mode arrives byte-identical.
# Speed is measured, not judged: the kernel's shaper sets the pace at 256 kbit/s, which any
# machine keeps up with, so the bounds only catch a figure that is wrong (a clock, a lost link,
# a transmitter that stops its clock at the last write), never a slow machine.
# Needs root and `ip netns`; otherwise it skips (exit 77). About 95 s in all.
#
# Network rules: before anything else a blackhole route for the test's subnet goes into the root
# namespace, so no address of the test can ever leave the machine; the namespaces (with their
# veths) and then that route are removed by the EXIT trap, on failure and interruption too.
# Traffic flows only between the two namespaces made here. Every process runs under `timeout`
# and is ended only by its own PID (lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C

RATE_BPS=256000        # tbf rate: tc's "kbit" is 1000 bit/s
BURST=3028             # bucket: 2 full frames of 1514 bytes (see below)
# No packet may be lost: a drop at this rate costs TCP seconds of idle link (recovery, RTO
# backoff with a queue-inflated RTT) and the goodput falls 15-20 % short. So the queue holds the
# transmitter's whole window with room to spare. The window is bounded by the transmitter's
# socket buffer, -b 16384 (32 KiB once Linux doubles it; about 17 KB queued, srtt 0.5 s);
# unbounded, it grows until the queue overflows. tbf takes a GSO packet of up to 64 KiB at once,
# so the queue needs that on top: 200000 bytes (6 s). Runs with limit 100000 lost packets, with
# or without -b.
LIMIT=200000
TX_OPTS=(-b 16384)
NBUF=75                # 75 x 8192 = 614400 bytes: about 20 s at the expected goodput
FILE_BYTES=2097152     # the non-sink file: about 69 s at the expected goodput
TOL=3                  # per cent: the aim, reported
LO=0.9 HI=1.05         # the bounds of a ratio that fail the test
began=$SECONDS

# bound SECONDS: the lifetime of the processes started from now on (lib.sh's BOUNDED).
# Both ends run in the background (lib.sh's start, then reap): the script waits in `wait`, so
# a SIGTERM or SIGINT ends it at once, through the EXIT trap, rather than after the transfer.
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

# ---- preconditions, the guard, the namespaces (netns-lib: the trap undoes all of it) ----------
. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "shaped-link tests"
command -v tc >/dev/null || skip "shaped-link tests need tc (Debian: iproute2)"
netns_shaped_pair ttcp-shaped "$RATE_BPS" "$BURST" "$LIMIT"

# ns_wait_listen NS PORT NAME: wait (lib.sh's wait_for, up to WAIT s) until PORT listens inside
# NS; give up early if NAME ended.
ns_wait_listen() {
  wait_for "$WAIT" "$3" ns_listening "$1" "$2" && return 0
  fail "$3 is not listening on tcp port $2 in $1"; show "$3"; return 1
}
# figure NAME [out|err]: the bit rate of the "+++" line (-f bps).
figure() { sed -nE 's/^ttcp-[tr]: .* real seconds = ([0-9.]+) bps \+\+\+$/\1/p' "$TMP/$1.${2:-out}"; }
# within A B: A is within TOL % of B (the aim: reported). ratio_ok A B: LO <= A / B <= HI.
within() { awk -v a="$1" -v b="$2" -v t="$TOL" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * t / 100) }'; }
ratio_ok() { awk -v a="$1" -v b="$2" -v lo="$LO" -v hi="$HI" 'BEGIN { exit !(b > 0 && a >= lo * b && a <= hi * b) }'; }
aim() { if within "$1" "$2"; then echo "within the $TOL % aimed at"; else echo "outside the $TOL % aimed at"; fi; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.2f %%", 100 * (a - b) / b; else print "?" }'; }

# ---- 1 and 2: goodput, sink mode -------------------------------------------------------------
bound 60
start r ip netns exec "$NS_RX" "$TTCP" -r -s -p 5001 -f bps
if ns_wait_listen "$NS_RX" 5001 r; then
  start t ip netns exec "$NS_TX" "$TTCP" -t -s -p 5001 -f bps --tcp-info "${TX_OPTS[@]}" -n "$NBUF" "$RX_ADDR"
  reap t; reap r
  expect_rc t 0; expect_rc r 0
  bytes=$((NBUF * 8192))
  [ "$(bytes_of t out)" = "$bytes" ] || { fail "t: sent $(bytes_of t out) bytes, expected $bytes"; show t; }
  [ "$(bytes_of r out)" = "$bytes" ] || { fail "r: received $(bytes_of r out) bytes, expected $bytes"; show r; }

  # What the link allows. tbf charges each packet its skb length, which on a veth (an Ethernet
  # device) includes the 14-byte Ethernet header (no preamble, no FCS); a GSO packet is charged
  # per segment. A full segment carries MSS bytes of payload (1448 with TCP timestamps) in an
  # MTU-sized IP packet (1500 = 1448 + 12 timestamp option + 20 TCP + 20 IP), so
  #     goodput = rate x MSS / (MTU + 14)  =  256000 x 1448 / 1514  =  244840 bit/s.
  # The tbf counters below confirm the 66 bytes per packet besides the payload (14 + 20 + 20 + 12).
  mss=$(sed -nE 's/^ttcp-t: tcp info: mss ([0-9]+),.*/\1/p' "$TMP/t.out")
  mtu=$(ip -n "$NS_TX" -o link show vtx | sed -nE 's/.* mtu ([0-9]+) .*/\1/p')
  expected=$(awk -v r="$RATE_BPS" -v m="${mss:-0}" -v u="${mtu:-0}" 'BEGIN { printf "%.0f", r * m / (u + 14) }')
  read -r sent pkts dropped < <(tc -n "$NS_TX" -s qdisc show dev vtx |
    sed -nE 's/^ *Sent ([0-9]+) bytes ([0-9]+) pkt \(dropped ([0-9]+),.*/\1 \2 \3/p')
  rx=$(figure r) tx=$(figure t)
  echo "formula: $RATE_BPS bit/s x MSS $mss / (MTU $mtu + 14 Ethernet) = $expected bit/s of goodput"
  echo "tbf counted $sent bytes in $pkts packets ($dropped dropped at the queue):" \
    "$(awk -v s="${sent:-0}" -v p="${pkts:-1}" -v b="$bytes" 'BEGIN { printf "%.1f", (s - b) / p }')" \
    "bytes per packet besides the $bytes bytes of payload"
  measured "receiver $rx bit/s, the link allows $expected bit/s ($(pct "$rx" "$expected"):" \
    "$(aim "$rx" "$expected")${dropped:+; tbf dropped $dropped packets})"
  measured "transmitter $tx bit/s, receiver $rx bit/s ($(pct "$tx" "$rx"): $(aim "$tx" "$rx"))"
  [ -n "$mss" ] && [ -n "$mtu" ] || { fail "t: no mss in the --tcp-info line or no MTU for vtx"; show t; }
  ratio_ok "$rx" "$expected" ||
    { fail "receiver's goodput $rx bit/s is not within $LO to $HI of the link's $expected bit/s" \
        "${dropped:+(tbf dropped $dropped packets; each loss idles the link while TCP recovers)}"; show r; }
  ratio_ok "$tx" "$rx" ||
    { fail "transmitter's figure $tx bit/s is not within $LO to $HI of the receiver's $rx bit/s"; show t; }
else
  stop r
fi

# ---- 3: a random file, non-sink mode, arrives byte-identical ---------------------------------
head -c "$FILE_BYTES" /dev/urandom >"$TMP/random.bin"
bound 150
start r2 ip netns exec "$NS_RX" "$TTCP" -r -p 5002 -f bps
if ns_wait_listen "$NS_RX" 5002 r2; then
  t0=$SECONDS
  IN=$TMP/random.bin start t2 ip netns exec "$NS_TX" "$TTCP" -t -p 5002 -f bps "${TX_OPTS[@]}" "$RX_ADDR"
  reap t2; reap r2
  expect_rc t2 0; expect_rc r2 0
  if cmp -s "$TMP/random.bin" "$TMP/r2.out"; then
    measured "$FILE_BYTES random bytes arrived byte-identical in $((SECONDS - t0)) s" \
      "(receiver $(figure r2 err) bit/s; expected about" \
      "$(awk -v b="$FILE_BYTES" -v g="${expected:-0}" 'BEGIN { if (g > 0) printf "%.0f", 8 * b / g; else print "?" }') s)"
  else
    fail "the received file differs from the sent one ($(stat -c %s "$TMP/r2.out") of $FILE_BYTES bytes" \
      "arrived; first difference: $(cmp "$TMP/random.bin" "$TMP/r2.out" 2>&1 | head -n 1))"
    show t2; show r2
  fi
  [ "$(bytes_of t2 out)" = "$FILE_BYTES" ] ||
    { fail "t2: the transmitter reported $(bytes_of t2 out) bytes, expected $FILE_BYTES"; show t2; }
else
  stop r2
fi

echo "took $((SECONDS - began)) s"
finish
