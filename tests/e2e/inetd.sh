# ttcp -S --inetd (issue #22, item 7): a tiny inetd of the test's own (peers/inetd_launch.py,
# `stream tcp nowait` on 127.0.0.1) starts `ttcp -S --inetd` per connection, measured by a
# classic transmitter (ttcp -t -s) and by ttcp -C, whose data connections each arrive in a
# process of their own and are handed to the one holding the test (the token's rendezvous):
# -C both ways, -P 2, and --bidir. Then classic inetd's habit of handing the connection on stderr
# too: the server's lines must stay off it, or the client's protocol breaks. A UDP test is
# refused with the reason (no UDP port under inetd), and so is --latency (its probes are UDP);
# --inetd on a stdin that is no socket, and beside --daemon, are one-line errors. Last, the same through systemd-socket-activate -a
# --inetd where it is installed.
BOUND=${BOUND:-60}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
LAUNCH=$E2E_DIR/peers/inetd_launch.py
command -v python3 >/dev/null || skip "python3 is not installed (the test's inetd is a python3 script)"

# inetd NAME [--stderr-socket]: the launcher on a fresh port P, up once it listens; each
# server's stderr goes to $TMP/NAME.log.
inetd() {
  local name=$1; shift
  : >"$TMP/$name.log"
  on_free_port "tcp:$name" start_on_P "$name" python3 "$LAUNCH" @P@ 50 "$TMP/$name.log" "$@" \
    -- "$TTCP" -S --inetd
}
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out"; }
logged() { grep -Ec -- "$2" "$TMP/$1.log"; }
# settle NAME N: the servers NAME started have printed N figures lines in all (counted anew at
# each look).
figures_at_least() { [ "$(logged "$1" '^ttcp-[rt](\[[0-9]+\])?: [0-9]+ bytes in')" -ge "$2" ]; }
settle() { wait_for 10 - figures_at_least "$1" "$2"; }

inetd i
# A classic transmitter: its one connection is a classic test of the process inetd started.
run t1 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
expect_rc t1 0
expect_eq t1 "ttcp-t bytes" "$(figure t1 t)" 819200
settle i 1 || fail "the inetd-started server printed no figures"
expect_eq i "the server's ttcp-r figure" "$(sed -nE 's/^ttcp-r: ([0-9]+) bytes in .*/\1/p' "$TMP/i.log")" 819200
expect_eq i "the server's header" "$(grep -c "^ttcp-r: buflen=8192, nbuf=2048, align=16384/0, port=$P  tcp\$" "$TMP/i.log")" 1

# Another program's classic transmitter: nuttcp falls back to plain ttcp data when its control
# port is refused (C: a port of this script's block that nothing listens on).
if command -v nuttcp >/dev/null; then
  C=$(free_port)
  run n nuttcp -t -p "$P" -P "$C" -n 1000 -l 8192 127.0.0.1
  expect_rc n 0
  settle i 2 || { fail "no figures for nuttcp's classic transmitter"; show n; cat "$TMP/i.log"; }
  expect_match i log '^ttcp-r: 8192000 bytes in '
else
  echo "note: nuttcp is not installed: its classic transmitter left out"
fi

# ttcp -C sending: the control connection and the data connection are two processes.
run c1 "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c1 0
expect_eq c1 "ttcp-t bytes" "$(figure c1 t)" 819200
expect_eq c1 "ttcp-r bytes (the server's)" "$(figure c1 r)" 819200
expect_match c1 out '^ttcp-C: send 819200 bytes / '
wait_for 10 - grep -q "^ttcp-r: buflen=8192, nbuf=100, align=16384/0, port=$P  tcp\$" "$TMP/i.log" ||
  fail "the -C test's server header does not give inetd's port $P"

# -r -P 2: two data connections, two more processes, each handed over; the server sends.
run c2 "$TTCP" -C -r -P 2 -n 50 -l 4k -p "$P" 127.0.0.1
expect_rc c2 0
expect_eq c2 "ttcp-t bytes (the server's streams)" "$(figure c2 't\[[12]\]' | tr '\n' ' ')" "204800 204800 "
expect_match c2 out '^ttcp-C: recv 409600 bytes / '

# --bidir, timed: both ways at once.
run c3 "$TTCP" -C --bidir --time 0.5 -p "$P" 127.0.0.1
expect_rc c3 0
expect_eq c3 "summaries" "$(count c3 out '^ttcp-C: (send|recv) [0-9]+ bytes')" 2

# UDP: refused, with the reason, at once.
run u1 "$TTCP" -C -u -n 10 -p "$P" 127.0.0.1
expect_rc u1 1
expect_match u1 err 'refused the test: UDP: this server was started by inetd \(--inetd\) and holds no UDP port'
# --latency's probes need the UDP port too: refused the same way, not left to time out.
run u2 "$TTCP" -C --latency -n 10 -p "$P" 127.0.0.1
expect_rc u2 1
expect_match u2 err 'refused the test: --latency: this server was started by inetd \(--inetd\) and holds no UDP port; TCP tests only, without latency probes'
# A data connection with a token no process holds: the process it reached finds no
# rendezvous, closes it and says so.
body=$'msg=data\ntoken=0123456789abcdef0123456789abcdef\nstream=0\n'
printf "\\xff\\x54\\x43\\x54\\x4c\\x0d\\x0a\\x1a\\x00\\x$(printf %02x "${#body}")%s" "$body" \
  >"/dev/tcp/127.0.0.1/$P"
wait_for 10 - grep -q 'ttcp-S: 127.0.0.1: closed: a data connection no test expects' "$TMP/i.log" ||
  { fail "no notice of the stray data connection"; cat "$TMP/i.log"; }
stop i

# Classic inetd hands the connection on stderr too: nothing the server prints may reach it.
inetd j --stderr-socket
run c4 "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c4 0
expect_eq c4 "ttcp-r bytes (the server's)" "$(figure c4 r)" 819200
run t2 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
expect_rc t2 0
expect_eq t2 "ttcp-t bytes" "$(figure t2 t)" 819200
stop j

# Not started by inetd: stdin is no socket; --inetd with --daemon.
run e1 "$TTCP" -S --inetd </dev/null
expect_rc e1 2
expect_lines e1 err '^ttcp: --inetd: stdin is not a TCP connection \(inetd hands one over with a stream nowait service\)$'
run e2 "$TTCP" -S --inetd --daemon
expect_rc e2 2
expect_lines e2 err '^ttcp: --inetd does not go with --daemon: inetd starts a server for each connection$'

# systemd's own inetd mode (socket units with Accept=yes behave the same).
if command -v systemd-socket-activate >/dev/null; then
  : >"$TMP/k.log"
  on_free_port "tcp:k" start_on_P k systemd-socket-activate -a --inetd -l 127.0.0.1:@P@ \
    sh -c "exec \"\$0\" -S --inetd 2>>\"\$1\"" "$TTCP" "$TMP/k.log"
  run t3 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
  expect_rc t3 0
  expect_eq t3 "ttcp-t bytes" "$(figure t3 t)" 819200
  run c5 "$TTCP" -C -r -n 100 -p "$P" 127.0.0.1
  expect_rc c5 0
  expect_eq c5 "ttcp-r bytes" "$(figure c5 r)" 819200
  settle k 2 || fail "the servers systemd-socket-activate started printed no figures"
  stop k
else
  echo "note: systemd-socket-activate is not installed: its --inetd mode left out"
fi
finish
