# ttcp -C --iperf2 against a real iperf -s (iperf 2.1.8): TCP one way and the other (-r: the
# server sends on the connection, iperf2's -R), -P 2, and UDP with -R; UDP the other way (-u -r,
# iperf2's -u -R: the server sends datagrams); --bidir (iperf2's --full-duplex: both ways on one
# connection or socket) over TCP and UDP; and a name whose first address is ::1 reaching a
# server bound to 127.0.0.1 alone. The bytes of both ends agree: TCP from iperf -s's own CSV
# line (-y C; it counts the 60-byte client header of each connection as data), UDP from the
# server report ttcp parsed and iperf's CSV line alike, and with the server sending, from its
# CSV line against what we counted and lost. A fresh iperf -s a case: 2.1.8's UDP server
# crashes on a -P 2 test after another test.
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

# csv_dir NAME SENT: the bytes of NAME's CSV line of the way the server sent (SENT 1: its
# local port, field 3, is the one it listens on) or received (SENT 0).
csv_dir() { awk -F, -v p="$SPORT" -v s="$2" 'NF >= 9 && (($3 == p) == (s == 1)) { print $8 }' "$TMP/$1.out"; }
# udp_of NAME TAG: "datagrams lost" of the udp: line of TAG on NAME's stdout.
udp_of() { sed -nE 's/^ttcp-'"$2"': udp: ([0-9]+) datagrams, ([0-9]+) lost .*/\1 \2/p' "$TMP/$1.out" | tail -n 1; }

# -u -r: the server sends; we count its datagrams and lose what its sequence says. Its CSV line
# counts every datagram it sent, the end one too, as we count what came.
listen_on rsrv udp iperf -s -u -p @P@ -y C || finish
SPORT=$P
# (no -l: with --iperf2 -u it is iperf2's own 1470, what its server sends from)
run ur "$TTCP" -C --iperf2 -u -r -R 20m --time 1 -p "$P" 127.0.0.1
expect_rc ur 0
expect_match ur out '^ttcp-r: udp: [0-9]+ datagrams, [0-9]+ lost'
wait_for "$WAIT" rsrv csv_lines rsrv 1 || { fail "ur: no CSV line"; show rsrv; }
stop rsrv
read -r got lost <<<"$(udp_of ur r)"
mine=$(ours ur r) sent=$(csv_dir rsrv 1)
expect_eq ur "our bytes, the datagrams that came" "$mine" "$((${got:-0} * 1470))"
expect_eq ur "iperf -s's bytes sent, as our count and loss say" "$sent" \
  "$(((${got:-0} + ${lost:-0}) * 1470))"
expect_awk ur "datagrams $got (at 20 Mbit/s for 1 s, about 1700)" "${got:-0} > 1000"

# --bidir over TCP: one connection, both ways at once; iperf -s's two CSV lines, its received
# (our bytes and the header) and its sent (what we received).
listen_on bsrv tcp iperf -s -p @P@ -y C || finish
SPORT=$P
run bt "$TTCP" -C --iperf2 --bidir --time 1 -p "$P" 127.0.0.1
expect_rc bt 0
wait_for "$WAIT" bsrv csv_lines bsrv 2 || { fail "bt: fewer than 2 CSV lines"; show bsrv; }
stop bsrv
t=$(ours bt t) r=$(ours bt r)
expect_eq bt "iperf -s's bytes received, ours sent and its header" "$(csv_dir bsrv 0)" "$((t + 60))"
expect_eq bt "iperf -s's bytes sent, ours received" "$(csv_dir bsrv 1)" "$r"
expect_awk bt "both ways moved data ($t, $r)" "$t > 0 && $r > 0"

# --bidir over UDP: one socket; each end's end datagram counted by the one that received it.
listen_on busrv udp iperf -s -u -p @P@ -y C || finish
SPORT=$P
run bu "$TTCP" -C --iperf2 --bidir -u -l 1470 -R 20m --time 1 -p "$P" 127.0.0.1
expect_rc bu 0
wait_for "$WAIT" busrv csv_lines busrv 2 || { fail "bu: fewer than 2 CSV lines"; show busrv; }
stop busrv
read -r got lost <<<"$(udp_of bu r)"
t=$(ours bu t) srv_lost=$(awk -F, -v p="$SPORT" 'NF >= 9 && $3 != p { print $11 }' "$TMP/busrv.out")
expect_eq bu "iperf -s's bytes received and lost, ours sent and the end" \
  "$(($(csv_dir busrv 0) + ${srv_lost:-0} * 1470))" "$((t + 1470))"
expect_eq bu "iperf -s's bytes sent, as our count and loss say" "$(csv_dir busrv 1)" \
  "$(((${got:-0} + ${lost:-0}) * 1470))"
expect_awk bu "both ways moved data ($t, $got datagrams)" "$t > 1000000 && ${got:-0} > 1000"

# The server sends from a buffer of its own -l: a longer one is refused before anything is sent.
run long "$TTCP" -C --iperf2 -u -r -l 8k -p "$(free_port)" 127.0.0.1
expect_rc long 2
expect_match long err '^ttcp: --iperf2 cannot carry -u -l above 1470 when the server sends'

# A name whose first address is ::1, the server bound to 127.0.0.1 alone: ::1 refuses, the next
# address takes (TCP: the connect; -u -r: the request's answer).
if v6first_ready; then
  listen_on fsrv tcp iperf -s -B 127.0.0.1 -p @P@ -y C || finish
  run fb "${V6FIRST_RUN[@]}" "$TTCP" -C --iperf2 -n 100 -l 65536 -p "$P" "$V6FIRST"
  expect_rc fb 0
  wait_for "$WAIT" fsrv csv_lines fsrv 1 || { fail "fb: no CSV line"; show fsrv; }
  stop fsrv
  expect_eq fb "iperf -s's bytes, by the second address" "$(csv_sum fsrv 8)" "$((6553600 + 60))"
  listen_on fusrv udp iperf -s -u -B 127.0.0.1 -p @P@ -y C || finish
  run fu "${V6FIRST_RUN[@]}" "$TTCP" -C --iperf2 -u -r -l 1470 -R 10m --time 1 -p "$P" "$V6FIRST"
  expect_rc fu 0
  expect_match fu out '^ttcp-r: udp: [0-9]{3,} datagrams'
  stop fusrv
else
  echo "SKIP: the ::1-first name (needs root and unshare -m for a hosts file of its own)"
fi

finish
