# -c with UDP: a test that starts at once after the previous one is timed from its own start
# marker. The previous sender's trailing end markers (four, 0.1 s after its end) are told
# apart by their source address and port, not by the time alone.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# Three transmitters back to back, no pause: each test counts its start marker, its 20
# datagrams and its end marker (22 I/O calls), exactly as a test on its own does.
receiver r udp -r -s -c -u || { stop r; finish; }
want=("$(hdr r 8192 2048 "$P" udp)")
for i in 1 2 3; do
  run "t$i" "$TTCP" -t -s -u -l 1024 -n 20 -p "$P" 127.0.0.1
  expect_rc "t$i" 0
  want+=("$(rate r 20480)" "$(calls r 22)" "$(rusage r)")
done
# the third test's figures are out before the interrupt (a bounded wait for the line)
wait_line r out "$(rusage r)" 3
interrupt r
expect_rc r 0
expect_lines r out "${want[@]}"

# By hand: the previous sender's late markers are ignored, a new sender's marker starts a test
# (bash opens a new socket, with a new source port, for each datagram it sends).
receiver h udp -r -s -c -u || { stop h; finish; }
exec 7>"/dev/udp/127.0.0.1/$P"              # one sender, one source port
printf '%s' "$MARKER" >&7; printf '%100s' '' >&7; printf '%s' "$MARKER" >&7
wait_line h out "$(rate r 100)"
printf '%s' "$MARKER" >&7; printf '%s' "$MARKER" >&7   # its trailing markers: ignored
udp_marker "$P"; udp_plain "$P" 2 100; udp_marker "$P" # another sender: the second test
exec 7>&-
wait_line h out "$(rate r 200)"
interrupt h
expect_rc h 0
expect_lines h out "$(hdr r 8192 2048 "$P" udp)" "$(rate r 100)" "$(calls r 3)" "$(rusage r)" \
  "$(rate r 200)" "$(calls r 4)" "$(rusage r)"

finish
