# -c (PCATTCP's meaning): a receiver takes test after test until SIGINT, then exits 0; a
# transmitter sends until SIGINT or until the receiver goes away, then reports and exits 0.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# three_tests tcp|udp BUFLEN NBUF T-CALLS: a -c receiver "r" takes three transmitters
# `ttcp -t -s -l BUFLEN -n NBUF` in a row (each must succeed, with T-CALLS calls), then SIGINT
# ends it; RLINES, its expected stdout.
three_tests() {
  local proto=$1 len=$2 nbuf=$3 tcalls=$4 i rcalls
  local -a u=()
  [ "$proto" = udp ] && u=(-u)
  receiver r "$proto" -r -s -c "${u[@]}" || { stop r; return 1; }
  RLINES=("$(hdr r 8192 2048 "$P" "$proto")")
  for i in 1 2 3; do
    run "t$i" "$TTCP" -t -s "${u[@]}" -l "$len" -n "$nbuf" -p "$P" 127.0.0.1
    expect_rc "t$i" 0
    expect_report "t$i" out "$(hdr t "$len" "$nbuf" "$P" "$proto" 127.0.0.1)" $((len * nbuf)) \
      "$tcalls"
    # UDP: the start marker, the datagrams, the end marker, in every test alike
    rcalls=$ANY; [ "$proto" = udp ] && rcalls=$((nbuf + 2))
    RLINES+=("$(rate r $((len * nbuf)))" "$(calls r "$rcalls")" "$(rusage r)")
    # The receiver has taken this test (its report is out) and, UDP, read every datagram sent
    # (the trailing end markers too: one that started an extra test would show) before the
    # next test starts, and before the SIGINT after the third. (Was: a fixed pause of 0.3 s
    # between UDP tests, none before the SIGINT. Back-to-back tests: continuous_udp.sh.)
    wait_line r out "$(rusage r)" "$i"
    [ "$proto" = tcp ] || wait_for "$WAIT" r drained udp "$P" ||
      { fail "r: datagrams still unread on port $P"; show r; }
  done
  expect_running r
  interrupt r
  expect_rc r 0
}

# TCP: three tests, three accept lines, exit 0 on SIGINT between tests.
three_tests tcp 8192 10 10
expect_lines r out "${RLINES[@]}"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$' \
  '^ttcp-r: accept from 127\.0\.0\.1$' '^ttcp-r: accept from 127\.0\.0\.1$'

# UDP: exactly three tests; the trailing end markers of each start no extra (0-byte) test, and
# each test counts its own start marker (22 calls, as a lone test).
three_tests udp 1024 20 26
expect_lines r out "${RLINES[@]}"
expect_lines r err '^ttcp-r: socket$'

# A -c receiver interrupted before any test: the header only, exit 0.
for proto in tcp udp; do
  u=(); [ "$proto" = udp ] && u=(-u)
  receiver r "$proto" -r -s -c "${u[@]}" || { stop r; continue; }
  interrupt r
  expect_rc r 0
  expect_lines r out "$(hdr r 8192 2048 "$P" "$proto")"
  expect_lines r err '^ttcp-r: socket$'
done

# A -c transmitter against a plain receiver: SIGINT once data flows (1 MiB received); it
# reports, exits 0, and the receiver (ending on the transmitter's close) counted exactly what
# it sent.
receiver r tcp -r -s
start t "$TTCP" -t -s -c -p "$P" 127.0.0.1
wait_flowing t "$P"
interrupt t
reap r
expect_rc t 0; expect_rc r 0
expect_report t out "$(hdr t 8192 2048 "$P" tcp 127.0.0.1)" "$SOME" "$SOME"
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" "$SOME" "$SOME"
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
sent=$(bytes_of t out) got=$(bytes_of r out)
[ "${got:-0}" = "${sent:-1}" ] || fail "receiver counted ${got:-none} bytes, transmitter ${sent:-none}"

# A -c transmitter whose receiver goes away (a listener that is not ttcp reads 1 MB and
# closes): the transmitter ends by itself, reports and exits 0.
if classic_sink c 1000000; then
  run t "$TTCP" -t -s -c -p "$P" 127.0.0.1
  reap c
  expect_rc c 0; expect_rc t 0
  expect_report t out "$(hdr t 8192 2048 "$P" tcp 127.0.0.1)" "$SOME" "$SOME"
  sent=$(bytes_of t out) got=$(cat "$TMP/c.out")
  [ "${got:-0}" -ge 1000000 ] && [ "${sent:-0}" -ge "${got:-1}" ] ||
    fail "the listener read ${got:-none} bytes (>= 1000000), the transmitter sent" \
      "${sent:-none} (>= that)"
else
  echo "no perl here: the check of a receiver going away is skipped"
fi

finish
