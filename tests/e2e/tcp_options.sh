# --rcvwnd and --no-delayed-ack: accepted on TCP with exact counts; refused with -u (as are
# --half-close and --tcp-info), one "ttcp: ..." line and exit 2.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# tcp_ok: both sides succeeded, 100 x 8192 bytes, the classic progress lines only (on Linux
# quick ACK can be set, so no warning either).
tcp_ok() {
  expect_rc r 0; expect_rc t 0
  expect_report t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" 819200 100
  expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 819200 "$ANY"
  expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
  expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
}
for opts in "--rcvwnd 65536" "--no-delayed-ack" "--rcvwnd 64k --no-delayed-ack"; do
  pair tcp -r -s $opts -- -t -s -n 100 $opts 127.0.0.1
  tcp_ok
done
# On one side only, either side.
pair tcp -r -s --rcvwnd 65536 --no-delayed-ack -- -t -s -n 100 127.0.0.1
tcp_ok
pair tcp -r -s -- -t -s -n 100 --rcvwnd 65536 --no-delayed-ack 127.0.0.1
tcp_ok

# --rcvwnd takes effect before the connection: a 4096-byte window shows in the figures of -v
# (Linux doubles the buffer asked for; the window is at most that).
pair tcp -r -s -v --rcvwnd 4096 -- -t -s -n 100 -v --rcvwnd 4096 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines r out "$(hdr r 8192 2048 "$P" tcp)" "$(rate r 819200)" "$(cpurate r 819200)" \
  "$(calls r "$ANY")" "$(rusage r)" "$(bufaddr r)"
for side in t r; do
  expect_lines "$side" err "^ttcp-$side: socket$" "$(ios_connect "$side")"
  wnd=$(sed -nE 's/.*, rcvwnd ([0-9]+)\)$/\1/p' "$TMP/$side.err")
  [ "${wnd:-0}" -gt 0 ] && [ "${wnd:-0}" -le 8192 ] ||
    { fail "$side: --rcvwnd 4096 gave a receive window of ${wnd:-?} (wanted 1 to 8192)"; show "$side"; }
done

# With -u: refused before any traffic (a UDP receiver on P must not see a datagram).
receiver ru udp -r -s -u
for opt in "--rcvwnd 65536" --no-delayed-ack --half-close --tcp-info; do
  for side in "-t -s -n 1 -p $P 127.0.0.1" "-r -s -p $(free_port)"; do
    run u "$TTCP" $side -u $opt
    expect_rc u 2; expect_empty u out
    expect_lines u err "^ttcp: ${opt%% *} works with TCP only"
  done
done
expect_running ru
run tu "$TTCP" -t -s -u -n 2 -l 1024 -p "$P" 127.0.0.1
reap ru
expect_report ru out "$(hdr r 8192 2048 "$P" udp)" 2048 4

finish
