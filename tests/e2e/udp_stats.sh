# The receiver's "udp:" line, from ttcp's sequence header (docs/UDP-HEADER.md): datagrams, loss,
# duplicates, reordering; none for 1.12's plain datagrams (--no-udp-stats or a classic sender).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# expect_udp_line NAME SENT: the udp line adds up: each datagram is 1024 bytes of the "+++" count,
# the loss is what is missing before the last arrival (datagrams + lost <= SENT: loss after the
# last one cannot be seen), the percentage is lost / (datagrams + lost); loopback neither
# duplicates nor reorders. A short count is loopback dropping under load: a note, not a failure.
expect_udp_line() {
  local d l pct dup ooo
  read -r d l pct dup ooo < <(grab "$1" out \
    '^ttcp-r: udp: ([0-9]+) datagrams, ([0-9]+) lost \(([0-9.]+) %\), ([0-9]+) duplicate, ([0-9]+) out of order, .*' \
    '\1 \2 \3 \4 \5')
  expect_eq "$1" "datagrams x 1024 on the udp line" "$((${d:-0} * 1024))" "$(bytes_of "$1" out)"
  expect_awk "$1" "datagrams $d + lost $l is at most the $2 sent" "$d >= 1 && $d + $l <= $2"
  expect_awk "$1" "loss $pct % is not 100 x $l / ($d + $l)" \
    "$pct - 100 * $l / ($d + $l) <= 0.005 && 100 * $l / ($d + $l) - $pct <= 0.005"
  expect_eq "$1" "duplicates, out of order" "$dup, $ooo" "0, 0"
  [ "${d:-0}" = "$2" ] || echo "note: $d of $2 datagrams arrived ($l lost seen) - loopback dropped some"
}

# -f Mbps puts the receiver in extended mode (CPU line, and the udp line when there is a header).
pair udp -r -s -u -f Mbps -- -t -s -u -l 1024 -n 200 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines r out "$(hdr r 8192 2048 "$P" udp)" "$(sirate r "$SOME" Mbps)" "$(calls r "$SOME")" \
  "$(rusage r)" "$(cpuline r)" "$(udpline)"
expect_udp_line r 200

# With room for the whole burst in the receiver's socket buffer all 200 arrive (where the kernel
# lets -b grow it that far).
if [ "$(cat /proc/sys/net/core/rmem_max 2>/dev/null || echo 0)" -ge 1048576 ]; then
  pair udp -r -s -u -f Mbps -b 1m -- -t -s -u -l 1024 -n 200 127.0.0.1
  expect_rc r 0; expect_rc t 0
  expect_match r out "^ttcp-r: udp: 200 datagrams, 0 lost \\(0\\.00 %\\), 0 duplicate, 0 out of order, jitter $N3 ms\$"
  expect_udp_line r 200
else
  echo "note: net.core.rmem_max below 1 MiB, the run without loss is left out"
fi

# --no-udp-stats: 1.12's datagrams, so no udp line even in extended mode.
pair udp -r -s -u -f Mbps -- -t -s -u -l 1024 -n 200 --no-udp-stats 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines r out "$(hdr r 8192 2048 "$P" udp)" "$(sirate r "$SOME" Mbps)" "$(calls r "$SOME")" \
  "$(rusage r)" "$(cpuline r)"
# What goes on the wire, kept by a non-sink receiver: the header ("tTcU", version 1, sequence 0)
# by default, the classic pattern from the first byte with --no-udp-stats.
pair udp -r -u -- -t -s -u -l 1024 -n 1 127.0.0.1
expect_eq r "the first 9 bytes of a datagram" "$(head -c 9 "$TMP/r.out" | od -An -c | tr -s ' ')" \
  ' t T c U 001 \0 \0 \0 \0'
pair udp -r -u -- -t -s -u -l 1024 -n 1 --no-udp-stats 127.0.0.1
classic_data classic.bin 1 1024
cmp -s "$TMP/r.out" "$TMP/classic.bin" ||
  fail "--no-udp-stats: the datagram is not 1024 bytes of the classic pattern"

# A classic sender (markers and 3 datagrams of 100 bytes through bash's /dev/udp): 300 bytes, no
# udp line, though the receiver is in extended mode.
udp_by_hand udp_blank 100 100 100
expect_rc r 0
expect_lines r out "$(hdr r 8192 2048 "$P" udp)" "$(sirate r 300 Mbps)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(cpuline r)"

# Crafted headers, sequence 0 1 3 5 4 4: 5 datagrams, 1 lost (2) of 6, 1 duplicate, 1 out of order.
udp_by_hand udp_seq 0 1 3 5 4 4
expect_rc r 0
expect_match r out "$(sirate r 600 Mbps)"
expect_match r out "^ttcp-r: udp: 5 datagrams, 1 lost \\(16\\.67 %\\), 1 duplicate, 1 out of order, jitter $N3 ms\$"

finish
