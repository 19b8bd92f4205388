# A real third-party classic transmitter: nuttcp falls back to plain ttcp data when its
# control port is refused; the ttcp receiver must count exactly what it sent.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v nuttcp >/dev/null || skip "nuttcp is not installed"

receiver r tcp -r -s
C=$(free_port)   # the next port of this script's block (never P): nothing listens on it
run n nuttcp -t -p "$P" -P "$C" -n 1000 -l 8192 127.0.0.1
reap r
expect_rc n 0; expect_rc r 0
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 8192000 "$ANY"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'

finish
