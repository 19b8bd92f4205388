# The peer killed (SIGKILL) mid-transfer, each side in turn: the survivor ends by itself with a
# defined exit status, the partial figures of what it moved, and a line naming the problem.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# 1. The receiver killed. It dies with unread data in its socket, so its kernel answers with a
#    reset: the transmitter's next write fails with "Connection reset by peer" (or "Broken
#    pipe" when a later write is the first to notice). Exit 1, the figures sent so far first.
receiver r tcp -r -s
start t "$TTCP" -t -s -n 100000000 -p "$P" 127.0.0.1
if wait_flowing t "$P"; then
  kill_hard r
  killed_at=$(now)
  reap t
  measured "the transmitter ended $(since "$killed_at") s after the receiver was killed"
  expect_rc t 1
  expect_partial t "$(hdr t 8192 100000000 "$P" tcp 127.0.0.1)"
  expect_io_error t t '^ttcp-t: socket$' '^ttcp-t: connect$'
  echo "receiver killed: the transmitter had sent $(bytes_of t out) bytes"
fi
stop_any t r

# 2. The transmitter killed. The kernel closes a dead process's socket as close() would: the
#    data still queued to send goes out, then a FIN, unless the socket holds received data that
#    was never read (then an RST, and the queue is dropped). A ttcp transmitter reads nothing,
#    so the receiver sees an ordinary end of file: exit 0, figures for everything that arrived,
#    and no error line (to a TCP receiver a killed sender looks like a finished one). Should a
#    reset come instead, that is exit 1 with "ttcp-r: IO: Connection reset by peer"; both are
#    accepted, each with its own lines, and the partial figures either way.
receiver r tcp -r -s
start t "$TTCP" -t -s -n 100000000 -p "$P" 127.0.0.1
if wait_flowing t "$P"; then
  kill_hard t
  killed_at=$(now)
  reap r
  measured "the receiver ended $(since "$killed_at") s after the transmitter was killed"
  expect_partial r "$(hdr r 8192 2048 "$P" tcp)"
  case ${RC[r]} in
    0) expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$' ;;
    1) expect_io_error r r '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$' ;;
    *) fail "r: exit status ${RC[r]}, expected 0 (end of file) or 1 (reset)"; show r ;;
  esac
  echo "transmitter killed: the receiver got $(bytes_of r out) bytes, exit ${RC[r]}"
fi

finish
