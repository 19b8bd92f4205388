# ttcp -C --iperf2 against a real iperf -s (iperf 2.1.8): TCP one way and the other (-r: the
# server sends on the connection, iperf2's -R), -P 2, and UDP with -R. The bytes of both ends
# agree: TCP from iperf -s's own CSV line (-y C; it counts the 60-byte client header of each
# connection as data), UDP from the server report ttcp parsed and iperf's CSV line alike. A
# fresh iperf -s a case: 2.1.8's UDP server crashes on a -P 2 test after another test.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v iperf >/dev/null || skip "iperf (2) is not installed"
iperf -v 2>&1 | grep -q '^iperf version 2\.' || skip "iperf is not iperf2"

# csv_sum NAME FIELD: the sum of field FIELD of NAME's CSV lines (iperf -y C).
csv_sum() { awk -F, 'NF >= 9 { s += $'"$2"' } END { printf "%.0f\n", s }' "$TMP/$1.out"; }
# csv_lines NAME N: NAME's output has at least N CSV lines.
csv_lines() { [ "$(grep -c '^[0-9]*,' "$TMP/$1.out")" -ge "$2" ]; }
# ours NAME TAG: the bytes of the "+++" line of TAG (t, r, r(iperf2)) on NAME's stdout.
ours() { grep -F "ttcp-$2: " "$TMP/$1.out" | sed -nE 's/^[^:]*: ([0-9]+) bytes in .*\+\+\+$/\1/p' | tail -n 1; }

# tcp_case NAME STREAMS ARGS...: a test of ttcp -C --iperf2 ARGS against a fresh iperf -s.
tcp_case() {
  local name=$1 n=$2 ttcp_bytes srv_bytes want
  shift 2
  listen_on srv_$name tcp iperf -s -p @P@ -y C || return
  run $name "$TTCP" -C --iperf2 -p "$P" "$@" 127.0.0.1
  expect_rc $name 0
  expect_match $name err "^ttcp-C: the far end's figures are not known: iperf2's server"
  wait_for "$WAIT" srv_$name csv_lines srv_$name "$n" || { fail "$name: no CSV line"; show srv_$name; }
  stop srv_$name
  ttcp_bytes=$(ours $name "$TAG")
  srv_bytes=$(csv_sum srv_$name 8)
  want=$((ttcp_bytes + HDR * n))
  expect_eq srv_$name "the bytes iperf -s counted" "$srv_bytes" "$want"
  [ "${ttcp_bytes:-0}" -gt 0 ] || fail "$name: no bytes moved"
}

TAG=t HDR=60 tcp_case send 1 --time 1
TAG=t HDR=60 tcp_case bytes 1 -n 100 -l 65536
TAG=t HDR=60 tcp_case parallel 2 --time 1 -P 2
TAG=r HDR=0 tcp_case reverse 1 -r --time 1

# UDP: 20 Mbit/s of 1470-byte datagrams; the server report gives the far end's figures.
listen_on usrv udp iperf -s -u -p @P@ -y C || finish
run udp "$TTCP" -C --iperf2 -u -l 1470 -R 20m --time 1 -p "$P" 127.0.0.1
expect_rc udp 0
expect_match udp out '^ttcp-r\(iperf2\): udp: [0-9]+ datagrams, [0-9]+ lost'
expect_match udp out '^ttcp-C: send [0-9]+ bytes / '
wait_for "$WAIT" usrv csv_lines usrv 1 || { fail "udp: no CSV line"; show usrv; }
stop usrv
sent=$(ours udp t) theirs=$(ours udp "r(iperf2)") csv=$(csv_sum usrv 8) lost=$(csv_sum usrv 11)
expect_eq udp "the server report's bytes against iperf -s's own line" "$theirs" "$csv"
# the server counts the first end datagram too, and not those it lost
expect_awk udp "bytes sent $sent, received $theirs, $lost lost" \
  "$theirs <= $sent + 1470 && $theirs >= $sent + 1470 - $lost * 1470 && $sent > 1000000"

# --bidir is refused with the reason, before any connection.
run bidir "$TTCP" -C --iperf2 --bidir -p "$P" 127.0.0.1
expect_rc bidir 2
expect_match bidir err '^ttcp: --iperf2 cannot carry --bidir'

finish
