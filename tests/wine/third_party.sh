# Third-party tests (issue 22, item 8) through ttcpw.exe: ttcpw.exe -S --third-party runs the
# native client's `-C host1 host2` test to a native ttcp -S (its leg is the Windows build's own
# -C, handed to its server as the leg function), and passes both ends' figures back; ttcpw.exe
# -C asks a native host1 the same. One address here (127.0.0.1 only under Wine): host1 and
# host2 are two ports of it. And ttcpw.exe -S without --third-party refuses at once.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

server() {
  local name=$1 bin=$2
  shift 2
  on_free_port "tcp:$name udp:$name" start_on_P "$name" "$bin" -S -p @P@ "$@"
  printf -v "PORT_$name" '%s' "$P"
}
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out" | tr -d '\r'; }

server h2 "$TTCP"
server w1 "$WTTCP" --third-party 127.0.0.1
server n1 "$TTCP" --third-party 127.0.0.1
server wplain "$WTTCP"

# The Windows server runs the leg: host1's ttcp-t and host2's ttcp-r figures agree.
run a "$TTCP" -C -n 100 -p "$PORT_w1" 127.0.0.1 "127.0.0.1:$PORT_h2"
expect_rc a 0
expect_eq a "ttcp-t bytes (ttcpw.exe's)" "$(figure a t)" 819200
expect_eq a "ttcp-r bytes (host2's)" "$(figure a r)" 819200
expect_match a out "$(lit "ttcp-C: 127.0.0.1 ran this test to 127.0.0.1 (127.0.0.1 port $PORT_h2) for 127.0.0.1")"

# The Windows client asks: -r, host2 sends to the native host1.
run b "$WTTCP" -C -r -n 100 -p "$PORT_n1" 127.0.0.1 "127.0.0.1:$PORT_h2"
crlf b out err
expect_rc b 0
expect_eq b "ttcp-t bytes (host2's)" "$(figure b t)" 819200
expect_eq b "ttcp-r bytes (host1's)" "$(figure b r)" 819200

# ttcpw.exe -S without --third-party: refused at once.
run c "$TTCP" -C -n 100 -p "$PORT_wplain" 127.0.0.1 "127.0.0.1:$PORT_h2"
expect_rc c 1
expect_lines c err "$(lit "ttcp-C: the server at 127.0.0.1 refused the test: the server does not run third-party tests")"

interrupt w1
interrupt wplain
stop_any h2 n1
finish
