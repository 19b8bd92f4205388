# Ctrl+C (SIGINT) and UDP. A transmitter interrupted mid-run still sends its end markers, so its
# receiver ends by itself; both print their figures and exit 0. A receiver interrupted while it
# waits for a first datagram (or a connection) has nothing to report: one line, exit 1.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# 1. The transmitter interrupted. Paced to 20 Mbit/s (-R adds the cpu line to its summary) so
#    that a busy machine cannot fill the receiver's queue and drop every end marker; the
#    receiver's idle timeout (10 s) is only a bound: it must end at a marker, without a warning.
#    The transmitter's -i 0.2 lines show when data is moving: SIGINT comes after the first one
#    with bytes (a slow start, as under valgrind, would otherwise interrupt it before any data).
receiver r udp -r -s -u --idle-timeout 10
start t "$TTCP" -t -s -u -R 20m -i 0.2 -n 100000000 -p "$P" 127.0.0.1
if wait_line t out ' sec +[1-9][0-9]* bytes written'; then
  interrupt t
  sent_at=$(now)
  reap r      # (ending at the idle timeout instead adds a warning line: expect_lines below)
  measured "the receiver ended $(since "$sent_at") s after the transmitter's end"
  expect_rc t 0; expect_rc r 0
  # the header, one -i line or more, then the summary with its cpu line
  want=("$(hdr t 8192 100000000 "$P" udp 127.0.0.1)")
  for ((i = 0; i < $(count t out "$(interval t udp)"); i++)); do want+=("$(interval t udp)"); done
  [ ${#want[@]} -ge 2 ] || fail "t: no -i line"
  expect_lines t out "${want[@]}" "$(rate t "$SOME")" "$(calls t "$SOME")" "$(rusage t)" "$(cpuline t)"
  expect_lines t err '^ttcp-t: socket$'
  expect_partial r "$(hdr r 8192 2048 "$P" udp)"
  expect_lines r err '^ttcp-r: socket$'
  sent=$(bytes_of t out) recvd=$(bytes_of r out)
  expect_awk r "bytes received ($recvd) are at most the bytes sent ($sent)" "${recvd:-1} <= ${sent:-0}"
  echo "interrupted transmitter: ${sent:-?} bytes sent, ${recvd:-?} received"
fi
stop_any t r

# 2. A UDP receiver interrupted before any datagram: no figures, exit 1.
receiver r udp -r -s -u
interrupt r
expect_rc r 1
expect_lines r out "$(hdr r 8192 2048 "$P" udp)"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: interrupted before the test began$'

# 3. The same for a TCP receiver waiting for its connection.
receiver r tcp -r -s
interrupt r
expect_rc r 1
expect_lines r out "$(hdr r 8192 2048 "$P" tcp)"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: interrupted before the test began$'

finish
