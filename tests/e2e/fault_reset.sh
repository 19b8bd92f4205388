# A peer that resets the connection (SO_LINGER {1, 0}, then close: an RST, not a FIN), played by
# tests/e2e/peers/rst_peer (RST_PEER): ttcp reports the reset on one line, exits 1 and still
# prints the figures of the data moved before it. A reset after all the data is only a warning.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

if [ -z "${RST_PEER:-}" ] || [ ! -x "$RST_PEER" ]; then
  fail "no rst_peer at '${RST_PEER:-}' (set RST_PEER; CMake builds it once tests/e2e/CMakeLists.txt has add_subdirectory(peers))"
  finish
fi

# 1. A receiver that reads 1 MB, then resets: the transmitter's next write fails.
listen_on peer tcp "$RST_PEER" listen @P@ 1000000
run t "$TTCP" -t -s -n 100000000 -p "$P" 127.0.0.1
reap peer
expect_rc peer 0
expect_rc t 1
expect_partial t "$(hdr t 8192 100000000 "$P" tcp 127.0.0.1)"
expect_io_error t t '^ttcp-t: socket$' '^ttcp-t: connect$'
read_=$(cat "$TMP/peer.out") sent=$(bytes_of t out)
expect_awk t "bytes sent ($sent) cover what the peer read ($read_)" "${sent:-0} >= ${read_:-1}"
echo "receiver reset: it read ${read_:-?} bytes, the transmitter reports ${sent:-?} sent"

# 2. A transmitter that sends 1 MB (and waits until it is acknowledged), then resets: the
#    receiver's next read fails with "Connection reset by peer".
receiver r tcp -r -s
run peer "$RST_PEER" connect "$P" 1000000
reap r
expect_rc peer 0
expect_rc r 1
expect_partial r "$(hdr r 8192 2048 "$P" tcp)"
expect_io_error r r '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
recvd=$(bytes_of r out)
expect_awk r "bytes received ($recvd) are at most the 1000000 sent" "${recvd:-0} <= 1000000"
echo "transmitter reset: the receiver counted ${recvd:-?} of 1000000 bytes"

# 3. A receiver that reads everything, up to the transmitter's FIN, and only then resets
#    instead of closing: the data arrived, so the transmitter warns and reports normally, exit 0.
listen_on peer tcp "$RST_PEER" listen @P@ 1000000000
run t "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
reap peer
expect_rc peer 0; expect_rc t 0
expect_report t out "$(hdr t 8192 10 "$P" tcp 127.0.0.1)" 81920 10
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$' \
  '^ttcp-t: warning: the receiver reset the connection at the end$'
expect_eq peer "bytes read" "$(cat "$TMP/peer.out")" 81920

finish
