# ttcp -C --iperf3 against a real `iperf3 -s -1 -J` (Debian's 3.12): TCP both ways, --bidir,
# -P 2, -n both ways, UDP -R 10m both ways. For each: ttcp's --json has both ends' bytes
# (ours in tests[], iperf3's from its results in server_tests[]), and they agree with each
# other (UDP: with the datagrams the receiving end counted as lost) and with what iperf3 -s
# printed in its own -J document. Then a busy iperf3 server
# gives a one-line busy message and a non-zero exit.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v iperf3 >/dev/null || skip "iperf3 is not installed"
need_jq

# iperf3 -s -1 -J on a fresh port as "s" (P), once it listens.
iperf3_server() { listen_on s tcp iperf3 -s -1 -J -p @P@; }

# case NAME WAY ARGS...: one test, WAY send|recv (the direction whose bytes are compared).
case_of() {
  local name=$1 way=$2 mine theirs server lost
  shift 2
  iperf3_server || return
  run "$name" "$TTCP" -C --iperf3 -p "$P" --json "$@" 127.0.0.1
  reap s
  expect_rc "$name" 0; expect_rc s 0
  expect_json "$name"
  mine=$(jq -r "[.tests[] | select(.direction == \"$way\") | .bytes] | add" "$TMP/$name.out")
  theirs=$(jq -r "[.server_tests[] | select(.direction == \"$way\") | .bytes] | add" \
    "$TMP/$name.out")
  if [ "$way" = send ]; then
    server=$(jq -r '.end.sum_received.bytes // .end.sum.bytes' "$TMP/s.out")
  else
    server=$(jq -r '.end.sum_sent.bytes // .end.sum.bytes' "$TMP/s.out")
  fi
  [ "$mine" -gt 0 ] 2>/dev/null || fail "$name: our end moved no bytes ($mine)"
  # a UDP receiver may lose datagrams even on loopback (a loaded machine, valgrind): what
  # it counted as lost, at UDP_LEN bytes each, and what came are what the sender sent
  if [ "$way" = recv ]; then
    lost=$(jq -r "[.tests[] | select(.direction == \"$way\") | .udp.lost // 0] | add" \
      "$TMP/$name.out")
    [ "$((mine + lost * UDP_LEN))" = "$theirs" ] ||
      fail "$name: ours $mine bytes and $lost lost, iperf3's results $theirs"
  else
    lost=$(jq -r "[.server_tests[] | select(.direction == \"$way\") | .udp.lost // 0] | add" \
      "$TMP/$name.out")
    [ "$((theirs + lost * UDP_LEN))" = "$mine" ] ||
      fail "$name: ours $mine bytes, iperf3's results $theirs and $lost lost"
  fi
  [ "$lost" = 0 ] || measured "$name: $lost datagrams lost on the way"
  [ "$theirs" = "$server" ] || [ "$server" = 0 ] ||
    fail "$name: iperf3's results $theirs bytes, its own -J output $server"
  measured "$name: $mine bytes at both ends"
}

UDP_LEN=1400
# UDP: the datagrams, as our end and iperf3's each count them (a receiver's: those that came
# and those it counted as lost).
udp_case() {
  local name=$1 way=$2 ours theirs
  shift 2
  case_of "$name" "$way" -u -l "$UDP_LEN" -R 10m --time 1 "$@"
  ours=$(jq -r "[.tests[] | select(.direction == \"$way\")] | .[0].udp
    | if . == null then empty else .datagrams + (.lost // 0) end" "$TMP/$name.out")
  theirs=$(jq -r '.end.sum.packets // empty' "$TMP/s.out")
  [ -z "$ours" ] || [ -z "$theirs" ] || [ "$ours" = "$theirs" ] ||
    fail "$name: $ours datagrams here (with those lost), iperf3 counted $theirs"
}

case_of tcp_send send --time 1
case_of tcp_recv recv -r --time 1
case_of tcp_bidir send --bidir --time 1
case_of tcp_parallel send -P 2 --time 1
case_of tcp_num send -n 2000
case_of tcp_num_recv recv -r -n 2000 -P 2
expect_jq tcp_num '.tests[0].bytes' 16384000
expect_jq tcp_num_recv '.tests[0].bytes' 32768000
udp_case udp_send send

# --analyze: iperf3's results carry no TCP statistics; the far end's block says so, in one line
case_of tcp_analyze recv -r --time 1 --analyze
expect_match tcp_analyze err '^ttcp-t\(iperf3\): analysis: not known: the far end sent no TCP statistics$'
expect_jq tcp_analyze '.server_tests[0].analysis.known' false
udp_case udp_recv recv -r

# busy: a second client while the first runs gets iperf3's ACCESS_DENIED, in one line
iperf3_server
start long "$TTCP" -C --iperf3 -p "$P" --time 3 127.0.0.1
wait_for "$WAIT" long received_by "$P" 1 1000000
run busy "$TTCP" -C --iperf3 -p "$P" --time 1 127.0.0.1
reap long; reap s
expect_rc long 0
[ "${RC[busy]}" != 0 ] || fail "busy: exit status 0 against a busy iperf3 server"
expect_lines busy err '^ttcp-C: the server at 127\.0\.0\.1 is busy: iperf3 is running another test \(ACCESS_DENIED\)$'

finish
