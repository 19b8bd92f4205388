# A UDP receiver with --idle-timeout ends by itself when the data stops without an end marker.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

receiver r udp -r -s -u --idle-timeout 1
printf ' !"#' >"/dev/udp/127.0.0.1/$P"            # start marker (4 bytes); each write is a datagram
for i in 1 2 3; do printf '%100s' '' >"/dev/udp/127.0.0.1/$P"; done
sent_at=$(now)
reap r      # (were --idle-timeout 1 ignored, the default 30 s would outlast its BOUND: reap fails)
measured "the receiver gave up $(since "$sent_at") s after the last datagram (--idle-timeout 1)"
case ${RC[r]} in 0|1) ;; *) fail "receiver exit status ${RC[r]}"; show r ;; esac
expect_report r out "$(hdr r 8192 2048 "$P" udp)" 300 "$ANY"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: warning: no data for 1(\.0)? s \(idle timeout\), '

finish
