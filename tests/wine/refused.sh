# Nothing listening: the connect error with Winsock's text and number (10061), exit 1.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

P=$(free_port)
run t "$WTTCP" -t -s -n 1 -p "$P" 127.0.0.1
expect_rc t 1
crlf t out err
expect_lines t out "$(hdr t 8192 1 "$P" tcp 127.0.0.1)"
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect: .*[Rr]efused' '^errno=10061$'

finish
