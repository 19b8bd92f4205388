# How a server is started (issue #22, item 7), on Windows: inetd, a daemon of its own and a pid
# file are POSIX habits, each refused in one line that says so and points at a service (exit 2,
# before any socket); systemd's LISTEN_FDS does not apply: with it in the environment, ttcpw.exe
# -S still binds its own port and serves the native transmitter.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

P=$(free_port)   # no traffic expected, but never the default port 5001
# refused NAME OPTION ARGS...: `ttcpw.exe -S ARGS` ends at once, status 2, one line naming OPTION.
refused() {
  local name=$1 option=$2; shift 2
  run "$name" "$WTTCP" -S -p "$P" "$@"
  expect_rc "$name" 2; expect_empty "$name" out
  crlf "$name" err
  expect_lines "$name" err "^ttcp: $option: not supported on this system \\(run ttcp -S as a service instead\\)\$"
}
refused inetd --inetd --inetd
refused daemon --daemon --daemon
refused pidfile --pidfile --pidfile 'C:\ttcp.pid'
refused both --daemon --daemon --pidfile 'C:\ttcp.pid'

# LISTEN_FDS: not Windows' (its descriptors 3 and 4 are no sockets of ttcpw.exe's): ignored.
export LISTEN_FDS=2 LISTEN_PID=1
on_free_port "tcp:s" start_on_P s "$WTTCP" -S -1 -p @P@
unset LISTEN_FDS LISTEN_PID
run t "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
expect_rc t 0
reap s
expect_rc s 0
crlf s out err
expect_match s out '^ttcp-r: 819200 bytes in '
expect_match s err "^ttcp-S: serving on port $P, TCP and UDP, one test\$"
finish
