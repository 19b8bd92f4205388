# Nothing listening: the classic connect error, exit 1, the header still printed (fixture t_err).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

P=$(free_port)
run t "$TTCP" -t -s -n 1 -p "$P" 127.0.0.1
expect_rc t 1
expect_lines t out "$(hdr t 8192 1 "$P" tcp 127.0.0.1)"
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect: Connection refused$' '^errno=111$'
expect_shape t out t_err.out; expect_shape t err t_err.err

finish
