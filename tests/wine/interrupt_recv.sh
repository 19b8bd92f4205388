# Ctrl+C ends ttcpw.exe -r -s while its recv() waits for a transmitter that has gone silent: the
# figures of what came, exit 0, within a fraction of a second (a blocking Winsock call does not
# return at Ctrl+C: before the sockets were non-blocking, this took until the peer closed).
BOUND=40   # the peer must outlive the 20 s this test allows ttcpw.exe after Ctrl+C
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# The native transmitter in non-sink mode sends what its stdin gives: one buffer, then nothing
# (the FIFO's writer sends 8192 bytes and stays silent, holding it open).
mkfifo "$TMP/stalled" || exit 1
CMD[feed]="8192 bytes, then silence"
{ head -c 8192 /dev/zero; exec "${BOUNDED[@]}" sleep "$BOUND"; } >"$TMP/stalled" {PORT_FD}<&- &
PID[feed]=$!

TTCP=$WTTCP receiver r tcp -r -s || { stop r; finish; }
IN=$TMP/stalled start t "$TTCP" -t -p "$P" 127.0.0.1
# all 8192 bytes came and ttcpw.exe has read them (nothing queued): its recv() now waits
read_all() { received_at_least "$1" 8192 && [ -z "$(ss -Htn state established "( sport = :$1 )" | awk '$1 > 0')" ]; }
if wait_line r err '^ttcp-r: accept from' && ! wait_for "$WAIT" r read_all "$P"; then
  fail "ttcpw.exe did not receive and read the first 8192 bytes"
fi
expect_running r

ctrl_c r
expect_rc r 0
crlf r out err
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 8192 "$SOME"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
stop_any t feed

finish
