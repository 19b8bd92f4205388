# A peer that resets the connection (SO_LINGER {1, 0}, then close: an RST, not a FIN), played by
# tests/e2e/peers/rst_peer (RST_PEER): ttcp reports the reset on one line, exits 1 and still
# prints the figures of the data moved before it. A reset after all the data was sent, or data
# never acknowledged, leaves delivery not confirmed: the figures say so and the exit is 1.
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
#    instead of closing: from the transmitter's side that is a receiver that let data go unread
#    (no real peer is known to reset after reading all: docs/COMPAT.md), so the figures come
#    with "delivery is not confirmed", the reset's error line, and exit 1.
listen_on peer tcp "$RST_PEER" listen @P@ 1000000000
run t "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
reap peer
expect_rc peer 0; expect_rc t 1
expect_report t out "$(hdr t 8192 10 "$P" tcp 127.0.0.1)" 81920 10
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$' \
  '^ttcp-t: warning: the receiver reset the connection at the end: data it had not read is lost, so delivery is not confirmed$' \
  '^ttcp-t: IO: Connection reset by peer$' '^errno=[0-9]+$'
expect_eq peer "bytes read" "$(cat "$TMP/peer.out")" 81920

# 4. A receiver that accepts, reads nothing and closes (a crash, a kill): its kernel resets the
#    connection with the data unread. The same: figures, not confirmed, exit 1; the JSON says so.
#    5. A receiver that stops reading (its window closes) and never closes: the bytes it never
#    acknowledged are named, delivery is not confirmed, exit 1 after --idle-timeout.
cat >"$TMP/deaf.py" <<'PY'
import socket, sys, time
port, rcvbuf, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
l = socket.socket()
if rcvbuf:
    l.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
l.bind(("127.0.0.1", port))
l.listen(1)
l.settimeout(20)
c, _ = l.accept()
time.sleep(hold)
c.close()
PY
need_jq
listen_on peer tcp python3 "$TMP/deaf.py" @P@ 0 0.5
run tj "$TTCP" -t -s -n 10 -p "$P" --json 127.0.0.1
reap peer
expect_rc tj 1
expect_eq tj "JSON delivery" "$(jq -r '.tests[0].delivery' "$TMP/tj.out")" not_confirmed
expect_eq tj "JSON error" "$(jq -r '.error.operation' "$TMP/tj.out")" IO

listen_on peer tcp python3 "$TMP/deaf.py" @P@ 4096 6
run tw "$TTCP" -t -s -n 64 --idle-timeout 2 -p "$P" --json 127.0.0.1
reap peer
expect_rc tw 1
expect_match tw err '^ttcp-t: warning: [0-9]+ bytes sent were never acknowledged: delivery is not confirmed$'
expect_match tw err '^ttcp-t: IO: the peer went idle: nothing moved for 2 s \(--idle-timeout\)$'
expect_eq tw "JSON delivery" "$(jq -r '.tests[0].delivery' "$TMP/tw.out")" not_confirmed

# 6. A receiver that reads to the end and closes: confirmed, exit 0.
receiver r2 tcp -r -s
run t2 "$TTCP" -t -s -n 10 -p "$P" --json 127.0.0.1
reap r2
expect_rc t2 0
expect_eq t2 "JSON delivery" "$(jq -r '.tests[0].delivery' "$TMP/t2.out")" confirmed

finish
