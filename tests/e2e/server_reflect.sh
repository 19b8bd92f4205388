# No reflection (issue #12; docs/PROTOCOL.md, section 3): a ttcp -S sends test data only to the
# address its client's control connection came from. peers/reflect.py asks from 127.0.0.1 for a
# test the server sends, then offers the test's token from 127.0.0.2 (a second loopback address):
# a TCP data connection is closed with nothing sent on it, and a UDP token datagram gets no
# udp_ready and no datagram. The same token from 127.0.0.1 then runs the test (the token was
# good: the address alone was refused).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
python3 -c 'import socket; socket.socket().bind(("127.0.0.2", 0))' 2>/dev/null ||
  skip "127.0.0.2 cannot be a source address here (Linux takes all of 127/8 on lo)"
REFLECT=$E2E_DIR/peers/reflect.py

on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -p @P@

# TCP: 100 buffers of 1024 bytes, to 127.0.0.1 only.
run rt python3 "$REFLECT" "$P" tcp 127.0.0.2
expect_rc rt 0
expect_lines rt out '^tcp from 127\.0\.0\.2: closed, 0 bytes$' '^tcp from 127\.0\.0\.1: 102400 bytes$'
expect_match s err '^ttcp-S: 127\.0\.0\.2: closed: a data connection no test expects$'

# UDP: the test's datagrams go to 127.0.0.1's socket, none to 127.0.0.2's.
run ru python3 "$REFLECT" "$P" udp 127.0.0.2
expect_rc ru 0
expect_lines ru out '^udp from 127\.0\.0\.2: udp_ready no$' \
  '^udp from 127\.0\.0\.1: udp_ready yes, [1-9][0-9]* datagrams$' '^udp to 127\.0\.0\.2: 0 datagrams$'

# The server's side: both tests sent, 127.0.0.2 named only where its connection was closed.
wait_line s out '^ttcp-t: 102400 bytes in .* \+\+\+$' 2
expect_eq s "lines naming 127.0.0.2" "$(count s err '127\.0\.0\.2')" 1
interrupt s
expect_rc s 0
finish
