# Ctrl+C (SIGINT) ends a transmitter whose receiver stopped reading: the figures of what went,
# exit 0. With a buffer larger than the socket can take (1 MiB), the stall cuts a send in part;
# the rest of that buffer is a new send, which must not start once Ctrl+C came (it would wait
# for a receiver that never reads, and only a second Ctrl+C, without figures, would end it).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# stalled PORT: the receiver's socket holds unread bytes and the transmitter's holds bytes
# the receiver has no room for.
stalled() {
  [ -n "$(ss -Htn state established "( sport = :$1 )" | awk '$1 > 0')" ] &&
    [ -n "$(ss -Htn state established "( dport = :$1 )" | awk '$2 > 0')" ]
}

for len in 8192 1048576; do
  # a non-sink receiver writing to a FIFO that a process of ours holds open and never reads
  mkfifo "$TMP/full$len" || finish
  CMD[holder]="holder of $TMP/full$len"
  "${BOUNDED[@]}" sleep "$BOUND" <"$TMP/full$len" {PORT_FD}<&- &
  PID[holder]=$!
  P=$(free_port)
  CMD[r]="$TTCP -r -p $P > FIFO nobody reads"
  "${BOUNDED[@]}" "$TTCP" -r -p "$P" </dev/null >"$TMP/full$len" 2>"$TMP/r.err" {PORT_FD}<&- &
  PID[r]=$!
  : >"$TMP/r.out"
  wait_listen tcp "$P" r || finish

  start t "$TTCP" -t -s -l "$len" -n 1000000 -p "$P" 127.0.0.1
  if wait_line t err '^ttcp-t: connect$' && ! wait_for "$WAIT" t stalled "$P"; then
    fail "-l $len: the receiver never stopped reading, or the transmitter has nothing queued"
  fi
  expect_running t
  interrupt t
  expect_rc t 0
  expect_report t out "$(hdr t "$len" 1000000 "$P" tcp 127.0.0.1)" "$SOME" "$SOME"
  stop_any r holder
done

finish
