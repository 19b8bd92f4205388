# systemd socket activation (issue #22, item 7): `ttcp -S` takes its listening sockets from
# LISTEN_FDS instead of binding, as ttcp-server.socket starts it. systemd-socket-activate holds
# 127.0.0.1:P and starts the server at the first connection; a server that bound the port itself
# would fail (the port is held). TCP alone, measured by a classic transmitter and by ttcp -C;
# then TCP and UDP (an activator whose datagram socket is passed through a second one): a classic
# UDP transmitter counted on the socket handed over (the only UDP socket on the port, not a
# second one of the server's), and -C -u. Then what is refused with one line: a UDP socket
# alone, and sockets on another port than -p.
BOUND=${BOUND:-40}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v systemd-socket-activate >/dev/null ||
  skip "systemd-socket-activate is not installed (package systemd): no activator to test with"
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out"; }
udp_sockets() { ss -Hlun "sport = :$1" | wc -l; }

# TCP alone: the activator listens; the server starts at the first connection.
on_free_port "tcp:a" start_on_P a systemd-socket-activate -l 127.0.0.1:@P@ "$TTCP" -S -p @P@
run t1 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
expect_rc t1 0
expect_eq t1 "ttcp-t bytes" "$(figure t1 t)" 819200
wait_for 10 a grep -q '^ttcp-r: 819200 bytes in' "$TMP/a.out" || fail "the server printed no figures"
expect_match a err "^ttcp-S: serving on port $P, TCP and UDP$"
run c1 "$TTCP" -C -r -n 100 -p "$P" 127.0.0.1
expect_rc c1 0
expect_eq c1 "ttcp-r bytes" "$(figure c1 r)" 819200
expect_running a
stop a

# TCP and UDP: the outer activator's stream socket is passed through the inner one, which adds
# its datagram socket on the same port (fds 3 and 4).
on_free_port "tcp:b" start_on_P b systemd-socket-activate -l 127.0.0.1:@P@ \
  systemd-socket-activate -d -l 127.0.0.1:@P@ "$TTCP" -S -p @P@
run t2 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
expect_rc t2 0
wait_for 10 b grep -q '^ttcp-S: serving on port' "$TMP/b.err" || fail "the server did not start"
wait_for 10 b grep -q '^ttcp-r: 819200 bytes in' "$TMP/b.out" || fail "no TCP figures"
run u1 "$TTCP" -t -u -s -n 100 -l 1k -R 20m -p "$P" 127.0.0.1
expect_rc u1 0
wait_for 10 b grep -q '^ttcp-r: 102400 bytes in' "$TMP/b.out" ||
  { fail "the classic UDP transmitter was not counted"; show b; }
expect_eq b "UDP sockets on port $P" "$(udp_sockets "$P")" 1
run c2 "$TTCP" -C -u -n 200 -l 1k -R 20m -p "$P" 127.0.0.1
expect_rc c2 0
expect_eq c2 "ttcp-t bytes" "$(figure c2 t)" 204800
expect_match c2 out '^ttcp-C: send [0-9]+ bytes / .* / 200 lost'
run c3 "$TTCP" -C --bidir -n 100 -p "$P" 127.0.0.1
expect_rc c3 0
expect_running b
stop b

# A datagram socket alone: no TCP listener to serve on.
P=$(free_port)
start d systemd-socket-activate -d -l 127.0.0.1:"$P" "$TTCP" -S -p "$P"
await_listen udp "$P" d || fail "the activator is not bound to UDP port $P"
udp_send "$P" '%s' wake
reap d
expect_rc d 2
expect_match d err '^ttcp: LISTEN_FDS: no TCP listener among the sockets \(ListenStream\)$'

# Sockets on another port than -p: the tests' own UDP sockets would go astray.
P=$(free_port)
start e systemd-socket-activate -l 127.0.0.1:"$P" "$TTCP" -S -p 5001
await_listen tcp "$P" e || fail "the activator is not listening on TCP port $P"
run t3 "$TTCP" -t -s -n 1 -p "$P" 127.0.0.1
reap e
expect_rc e 2
expect_match e err "^ttcp: LISTEN_FDS: the sockets are on port $P: give ttcp -S -p $P\$"
finish
