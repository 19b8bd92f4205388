# Ctrl+C ends ttcpw.exe -t -s while its send() waits for a receiver that stopped reading (the
# TCP window is full): the figures of what went, exit 0, within a fraction of a second (before
# the sockets were non-blocking, a blocking send() went on waiting after Ctrl+C).
BOUND=40   # the peer must outlive the 20 s this test allows ttcpw.exe after Ctrl+C
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# The native receiver stops reading (lib.sh's stalled_receiver). Two buffer sizes: one that
# a send takes whole, and one (1 MiB) that the stall cuts in part (the rest of a part-sent
# buffer is a new send, which must not start once Ctrl+C came).
for len in 8192 1048576; do
  stalled_receiver nr || finish

  start t "$WTTCP" -t -s -l "$len" -n 1000000 -p "$P" 127.0.0.1   # more than the test lasts
  # the receiver stopped reading (its socket holds unread bytes) and ttcpw.exe's socket holds
  # bytes the receiver has no room for: its send() now waits
  if wait_line t err '^ttcp-t: connect' && ! wait_for "$WAIT" t stalled "$P"; then
    fail "-l $len: the receiver never stopped reading, or ttcpw.exe has nothing queued"
  fi
  expect_running t

  ctrl_c t
  expect_rc t 0
  crlf t out err
  expect_report t out "$(hdr t "$len" 1000000 "$P" tcp 127.0.0.1)" "$SOME" "$SOME"
  expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
  stop_any nr nr-holder
done

finish
