# Third-party tests (issue 22, item 8; docs/PROTOCOL.md, "Third-party tests"): `ttcp -C host1
# host2` asks host1's server to run the test to host2's, on 127.0.0.2 and 127.0.0.3 as two hosts.
# Both ends' figures and intervals come back, with the line that says who ran it; a server
# without --third-party, a target outside its list (by address, also a name that resolves
# outside it) and an older server that does not know the request refuse at once, and host2
# sees no connection then; the keys hold on both legs; host1's limits bound its leg. Servers
# bound to 127.0.0.2 and 127.0.0.3 (--bind) show host2 taking the test from host1's address.
# (tests/netns/third_party.sh runs it across a router, with host1's own address.)
BOUND=${BOUND:-60}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
python3 -c 'import socket; socket.socket().bind(("127.0.0.3", 0))' 2>/dev/null ||
  skip "127.0.0.3 cannot be an address here (Linux takes all of 127/8 on lo)"

newkey() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }
printf '%s\n' "$(newkey)" >"$TMP/key" && chmod 600 "$TMP/key"
printf '%s\n' "$(newkey)" >"$TMP/other" && chmod 600 "$TMP/other"
# server NAME ARGS...: `ttcp -S -p PORT ARGS` on a fresh port, in PORT_NAME once it listens
# (no iperf3 port: its line would come between the ones b2's stderr is checked for).
server() {
  local name=$1; shift
  on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S -p @P@ --iperf3-port 0 "$@"
  printf -v "PORT_$name" '%s' "$P"
}
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out"; }
accepts() { count "$1" err '^ttcp-[tr](\[[0-9]+\])?: accept from '; }

server h2
server h1 --third-party 127.0.0.3/32
server plain
T2=127.0.0.3:$PORT_h2

# -t: host1 sends 100 buffers to host2; its ttcp-t figure and host2's ttcp-r figure, the
# summary, and who ran it for whom.
run t "$TTCP" -C -n 100 -p "$PORT_h1" 127.0.0.2 "$T2"
expect_rc t 0
expect_eq t "ttcp-t bytes (host1's)" "$(figure t t)" 819200
expect_eq t "ttcp-r bytes (host2's)" "$(figure t r)" 819200
expect_match t out '^ttcp-t: buflen=8192, nbuf=100, .* tcp +-> 127\.0\.0\.3$'
expect_match t out '^ttcp-C: send 819200 bytes / '
expect_lines t err
expect_match t out "$(lit "ttcp-C: 127.0.0.2 ran this test to 127.0.0.3 (127.0.0.3 port $PORT_h2) for 127.0.0.1")"
expect_match h1 err '^ttcp-S: 127\.0\.0\.1: runs its test to a third host \(--third-party\)$'
expect_match h1 out '^ttcp-t: 819200 bytes in '
wait_line h2 out '^ttcp-r: 819200 bytes in '
expect_eq h2 "connections taken" "$(accepts h2)" 1

# -r -P 2 -i: host2 sends on two streams; the intervals of both ends, each stream's and the
# totals, reach the client while the test runs, and both ends' figures at the end.
run r "$TTCP" -C -r -P 2 --time 1 -i 0.25 -p "$PORT_h1" 127.0.0.2 "$T2"
expect_rc r 0
expect_match r out '^ttcp-t\[2\]: +[0-9.]+- +[0-9.]+ sec +[0-9]+ bytes written'
expect_match r out '^ttcp-r\[1\]: +[0-9.]+- +[0-9.]+ sec +[0-9]+ bytes = '
expect_match r out '^ttcp-r: +[0-9.]+- +[0-9.]+ sec +[0-9]+ bytes = '
expect_eq r "totals" "$(figure r t)" "$(figure r r)"
expect_match r out '^ttcp-C: recv [0-9]+ bytes / '
expect_eq h2 "connections taken" "$(accepts h2)" 3

# Servers bound to their own loopback address (--bind) are two hosts: host2 takes the test
# from host1's address, not the client's (127.0.0.1); UDP too. (b2's stderr is checked line
# by line: no nuttcp port, whose line would say whether another test holds 5000.)
server b2 --bind 127.0.0.3 --nuttcp-port 0
server b1 --bind 127.0.0.2 --third-party 127.0.0.3
run b "$TTCP" -C -n 100 -p "$PORT_b1" 127.0.0.2 "127.0.0.3:$PORT_b2"
expect_rc b 0
expect_eq b "ttcp-r bytes (host2's)" "$(figure b r)" 819200
wait_line b2 out '^ttcp-r: 819200 bytes in '
expect_lines b2 err '^ttcp-S: serving on port [0-9]+, TCP and UDP' '^ttcp-r: accept from 127\.0\.0\.2$'
run bu "$TTCP" -C -u -R 20m -n 200 -l 1k -p "$PORT_b1" 127.0.0.2 "127.0.0.3:$PORT_b2"
expect_rc bu 0
expect_eq bu "ttcp-t bytes (host1's)" "$(figure bu t)" 204800
expect_match bu out '^ttcp-C: send [0-9]+ bytes / .* [0-9]+ / 200 lost '

# --json: both ends' tests, the summary.
run j "$TTCP" -C -n 10 --json -p "$PORT_h1" 127.0.0.2 "$T2"
expect_rc j 0
expect_jq j '.tests[0].bytes' 81920 '.server_tests[0].bytes' 81920 '.summary | length' 1 \
  '.options.third_party.target' 127.0.0.3 '.options.third_party.target_port' "$PORT_h2"

# Refusals, at once, and host2 takes no connection: a server without --third-party; a target
# outside host1's list, by its address (127.0.0.1 reaches host2 too) and by a name that
# resolves outside it.
before=$(accepts h2)
start_s=$(now)
run n "$TTCP" -C -n 10 -p "$PORT_plain" 127.0.0.2 "$T2"
expect_rc n 1
expect_lines n err "$(lit "ttcp-C: the server at 127.0.0.2 refused the test: the server does not run third-party tests")"
run o "$TTCP" -C -n 10 -p "$PORT_h1" 127.0.0.2 "127.0.0.1:$PORT_h2"
expect_rc o 1
expect_lines o err "$(lit "ttcp-C: the server at 127.0.0.2 refused the test: 127.0.0.1 is not in the server's --third-party list")"
run l "$TTCP" -C -n 10 -p "$PORT_h1" 127.0.0.2 "localhost:$PORT_h2"
expect_rc l 1
expect_lines l err "$(lit "ttcp-C: the server at 127.0.0.2 refused the test: localhost is not in the server's --third-party list")"
took=$(since "$start_s")
expect_awk n "the refusals came at once (took $took s)" "$took < 3"
expect_empty o out
expect_match h1 err '^ttcp-S: 127\.0\.0\.1: refused: a test to a third host \(--third-party\)$'
expect_match plain err '^ttcp-S: 127\.0\.0\.1: refused: a test to a third host \(--third-party\)$'
sleep 0.5 # (a connection that came would have been accepted by now)
expect_eq h2 "connections taken after the refusals" "$(accepts h2)" "$before"

# A server of before third-party tests answers the request "expected test": the client says
# it does not run them (the server's own words kept), and runs no test of its own instead.
cat >"$TMP/old.py" <<'PY'
import socket, struct, sys
ls = socket.socket(); ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0)); ls.listen(1); print(ls.getsockname()[1], flush=True)
ls.settimeout(10); s, _ = ls.accept(); s.settimeout(10)
def frame():
    n = struct.unpack(">H", s.recv(2, socket.MSG_WAITALL))[0]
    return s.recv(n, socket.MSG_WAITALL).decode()
def send(body): s.sendall(struct.pack(">H", len(body)) + body.encode())
s.recv(8, socket.MSG_WAITALL); frame()
send("msg=welcome\nversion=1\nauth=0\n")
kind = frame().split("\n")[0]
send("msg=error\nreason=protocol\nmessage=expected test, got %s\n" % kind[4:])
PY
start old python3 "$TMP/old.py"
wait_for "$WAIT" old lines_at_least old out '^[0-9]+$' 1
run v "$TTCP" -C -n 10 -p "$(head -n 1 "$TMP/old.out")" 127.0.0.1 "$T2"
expect_rc v 1
expect_lines v err "$(lit "ttcp-C: the server at 127.0.0.1 refused the test: the server does not run third-party tests (an older ttcp -S? expected test, got third_party)")"
reap old

# Keys on both legs: the client proves itself to host1 with host1's key; host1 proves itself
# to host2 with its own, which host2 must share.
server k2 --key-file "$TMP/key"
server w2 --key-file "$TMP/other"
server k1 --key-file "$TMP/key" --third-party 127.0.0.3
run kk "$TTCP" -C -n 10 --key-file "$TMP/key" -p "$PORT_k1" 127.0.0.2 "127.0.0.3:$PORT_k2"
expect_rc kk 0
expect_eq kk "ttcp-r bytes (host2's)" "$(figure kk r)" 81920
run kw "$TTCP" -C -n 10 --key-file "$TMP/key" -p "$PORT_k1" 127.0.0.2 "127.0.0.3:$PORT_w2"
expect_rc kw 1
expect_lines kw err "$(lit "ttcp-C: 127.0.0.2's test to 127.0.0.3: the server at 127.0.0.3 refused the test: authentication failed: the keys differ (--key-file)")"
expect_match w2 err '^ttcp-S: 127\.0\.0\.1: refused: authentication failed \(--key-file\)$'
run kn "$TTCP" -C -n 10 -p "$PORT_k1" 127.0.0.2 "127.0.0.3:$PORT_k2"
expect_rc kn 1
expect_lines kn err "$(lit "ttcp-C: authentication with 127.0.0.2 failed: the server requires a key: give its key file with --key-file")"
run hn "$TTCP" -C -n 10 -p "$PORT_h1" 127.0.0.2 "127.0.0.3:$PORT_k2"
expect_rc hn 1
expect_lines hn err "$(lit "ttcp-C: 127.0.0.2's test to 127.0.0.3: authentication with 127.0.0.3 failed: the server requires a key: give its key file with --key-file")"

# host1's limits bound its leg: --max-time 0.5 ends a 5 s test, whichever end sends; at
# --max-rate 8m no more than 0.5 s of 8 Mbit/s goes (and a little for the pacer's start);
# --max-streams 1 refuses -P 2.
server m1 --third-party 127.0.0.3 --max-time 0.5 --max-rate 8m --max-streams 1
for way in t r; do
  run "m$way" "$TTCP" -C -$way --time 5 -p "$PORT_m1" 127.0.0.2 "$T2"
  expect_rc "m$way" 0
  secs=$(grab "m$way" out '^ttcp-t: .* in ([0-9.]+) real seconds.*$')
  bytes=$(figure "m$way" r)
  expect_awk "m$way" "the transmitter stopped by 1.5 s ($secs s)" "${secs:-9} < 1.5"
  expect_awk "m$way" "at most 8 Mbit/s for 0.5 s ($bytes bytes)" "${bytes:-0} > 0 && ${bytes:-0} < 750000"
done
expect_match mt err 'max-time'
run mp "$TTCP" -C -P 2 --time 1 -p "$PORT_m1" 127.0.0.2 "$T2"
expect_rc mp 1
expect_lines mp err "$(lit "ttcp-C: the server at 127.0.0.2 refused the test: streams: at most 1 each way on this server (--max-streams)")"

stop_any h1 h2 b1 b2 plain k1 k2 w2 m1
finish
