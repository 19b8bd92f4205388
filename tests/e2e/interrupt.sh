# SIGINT to a running transmitter (once data flows): it prints the figures so far and exits 0
# (how long it took is reported, not judged; a hang fails at lib.sh's BOUND); the receiver then
# ends by itself with at least as many bytes.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

receiver r tcp -r -s
start t "$TTCP" -t -s -n 100000000 -p "$P" 127.0.0.1
wait_flowing t "$P"
interrupt t
reap r
expect_rc t 0; expect_rc r 0
expect_report t out "$(hdr t 8192 100000000 "$P" tcp 127.0.0.1)" "$SOME" "$SOME"
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" "$SOME" "$SOME"
sent=$(bytes_of t out) got=$(bytes_of r out)
[ "${got:-0}" -ge "${sent:-1}" ] || fail "receiver counted ${got:-none} bytes, transmitter ${sent:-none}"
echo "transmitter sent ${sent:-?} bytes before SIGINT, receiver counted ${got:-?}"

finish
