# Ctrl+C (SIGINT) ends a transmitter whose receiver stopped reading: the figures of what went,
# exit 0. With a buffer larger than the socket can take (1 MiB), the stall cuts a send in part;
# the rest of that buffer is a new send, which must not start once Ctrl+C came (it would wait
# for a receiver that never reads, and only a second Ctrl+C, without figures, would end it).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

for len in 8192 1048576; do
  stalled_receiver r || finish
  start t "$TTCP" -t -s -l "$len" -n 1000000 -p "$P" 127.0.0.1
  if wait_line t err '^ttcp-t: connect$' && ! wait_for "$WAIT" t stalled "$P"; then
    fail "-l $len: the receiver never stopped reading, or the transmitter has nothing queued"
  fi
  expect_running t
  interrupt t
  expect_rc t 0
  expect_report t out "$(hdr t "$len" 1000000 "$P" tcp 127.0.0.1)" "$SOME" "$SOME"
  stop_any r r-holder
done

finish
