# ttcp -S serves a real `iperf3 -c` (Debian's 3.12) on --iperf3-port: TCP both ways, --bidir,
# -P 2, -n, UDP both ways, -J (its end.sum_received is ttcp -S's own figure, from its --json
# line), --get-server-output (our lines in iperf3's output); two clients at once, one beyond
# --max-clients told "busy"; a client killed mid-test frees its slot; --max-rate and
# --max-streams refused in iperf3's words; hostile openings (a length of 0xFFFFFFFF, a 1 MiB
# parameters message, a cookie then silence) leave the server serving; an iperf3 client, a
# ttcp -C and a classic ttcp -t into the one server at once.
BOUND=${BOUND:-100}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v iperf3 >/dev/null || skip "iperf3 is not installed"
command -v python3 >/dev/null || skip "python3 is not installed (the hostile openings)"
need_jq

# server NAME ARGS...: `ttcp -S --json -p P --iperf3-port IP ARGS` (IP a fresh port of its
# own), once it listens on P (TCP, UDP) and on IP.
server() {
  local name=$1; shift
  IP=$(free_port)
  on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S --json -p @P@ \
    --iperf3-port "$IP" "$@" || return
  wait_listen tcp "$IP" "$name"
}
# docs NAME: how many JSON documents (a line each) NAME's stdout has; more_docs NAME N: more than N.
docs() { wc -l <"$TMP/$1.out"; }
more_docs() { [ "$(docs "$1")" -gt "$2" ]; }
# ours NAME FROM SIDE: the bytes of the last document after line FROM with that side.
ours() {
  tail -n +"$(($2 + 1))" "$TMP/$1.out" |
    jq -s -r "[.[] | select(.side == \"$3\")] | last | .tests[0].bytes // empty"
}
# client NAME ARGS...: iperf3 -c 127.0.0.1 -p IP -J ARGS, which must end well.
client() {
  local name=$1; shift
  run "$name" iperf3 -c 127.0.0.1 -p "$IP" -J "$@"
  expect_rc "$name" 0
}
# case_of NAME SIDE KEY ARGS...: the iperf3 client's end.KEY.bytes is ttcp -S's SIDE figure.
case_of() {
  local name=$1 side=$2 key=$3 from mine theirs
  shift 3
  from=$(docs s)
  client "$name" "$@"
  wait_for 5 s more_docs s "$from" # (printed before the results exchange: there by now)
  mine=$(ours s "$from" "$side")
  theirs=$(jq -r ".end.$key.bytes" "$TMP/$name.out")
  [ "${mine:-0}" -gt 0 ] 2>/dev/null || fail "$name: ttcp -S counted no bytes (${mine:-none})"
  [ "$mine" = "$theirs" ] || fail "$name: ttcp -S's figure $mine bytes, iperf3's $key $theirs"
  measured "$name: $mine bytes at both ends"
}

server s --max-clients 4
SP=$P SIP=$IP # s's ports, for after the other servers below
case_of tcp receive sum_received -t 1
case_of tcp_reverse transmit sum_sent -t 1 -R
case_of tcp_bidir receive sum_received -t 1 --bidir
case_of tcp_parallel receive sum_received -t 1 -P 2
# (iperf3 tells a stream's way by the order it connects in: the gate keeps that order)
case_of tcp_bidir_parallel receive sum_received -t 1 --bidir -P 2
case_of tcp_num receive sum_received -n 100M
expect_jq tcp_num '.end.sum_sent.bytes' 104857600
case_of tcp_num_reverse transmit sum_sent -n 100M -R
case_of udp receive sum -t 1 -u -b 10M
expect_jq udp '.end.sum.lost_packets' 0
case_of udp_reverse transmit sum -t 1 -u -b 10M -R

# --get-server-output: our statistics lines in iperf3's own output.
run gso iperf3 -c 127.0.0.1 -p "$IP" -t 1 --get-server-output
expect_rc gso 0
expect_match gso out '^Server output:$'
expect_match gso out '^ttcp-r: [0-9]+ bytes in [0-9.]+ real seconds'

# Two clients at once: both served.
start two_a iperf3 -c 127.0.0.1 -p "$IP" -t 2 -J
start two_b iperf3 -c 127.0.0.1 -p "$IP" -t 2 -J
reap two_a; reap two_b
expect_rc two_a 0; expect_rc two_b 0
for c in two_a two_b; do
  b=$(jq -r '.end.sum_received.bytes' "$TMP/$c.out")
  [ "${b:-0}" -gt 0 ] 2>/dev/null || fail "$c: iperf3 got no figures at once with another"
done

# A client killed mid-test (SIGKILL: no word to the server) frees its slot at once: a server
# of one client serves the next.
server one --max-clients 1
start busy_a iperf3 -c 127.0.0.1 -p "$IP" -t 3 --forceflush
wait_for 5 busy_a grep -q 'sec' "$TMP/busy_a.out"
run busy_b iperf3 -c 127.0.0.1 -p "$IP" -t 1
expect_match busy_b err 'the server is busy'
reap busy_a
expect_rc busy_a 0
start killed iperf3 -c 127.0.0.1 -p "$IP" -t 10 --forceflush
wait_for 5 killed grep -q 'sec' "$TMP/killed.out"
pkill -KILL -P "${PID[killed]}" -x iperf3 2>/dev/null || kill -KILL "${PID[killed]}"
reap killed
wait_for 10 - grep -q 'went away' "$TMP/one.err" ||
  { fail "one: the killed client's test did not end"; show one; }
run after_kill iperf3 -c 127.0.0.1 -p "$IP" -t 1
expect_rc after_kill 0
stop one

# The server's limits, in iperf3's words.
server lim --max-rate 100M --max-streams 2
run unpaced iperf3 -c 127.0.0.1 -p "$IP" -t 1
expect_match unpaced err 'total required bandwidth is larger than server limit'
run streams3 iperf3 -c 127.0.0.1 -p "$IP" -t 1 -P 3 -b 1M
expect_match streams3 err 'number of parallel streams too large'
run paced iperf3 -c 127.0.0.1 -p "$IP" -t 1 -b 50M
expect_rc paced 0
stop lim

# Back to s. Hostile openings: a length of 0xFFFFFFFF and a 1 MiB parameters message are refused with
# SERVER_ERROR (0xfe); a cookie then silence holds its slot 10 s at most. Meanwhile the server
# serves an iperf3 client and a ttcp -C.
cat >"$TMP/hostile.py" <<'EOF'
import socket, sys
port, what = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port), timeout=15)
s.sendall(b"abcdefghijklmnopqrstuvwxyz2345672345\0")
print("state", s.recv(1)[0])
if what == "len":
    s.sendall(b"\xff\xff\xff\xff")
elif what == "big":
    s.sendall((1 << 20).to_bytes(4, "big"))
    try:
        s.sendall(b"{" + b" " * ((1 << 20) - 2) + b"}")
    except OSError:
        pass
try:
    b = s.recv(16)
    print("answer", b[0] if b else "closed")
except OSError as e:
    print("answer", e)
EOF
P=$SP IP=$SIP
run h_len python3 "$TMP/hostile.py" "$IP" len
expect_match h_len out '^answer 254$'
run h_big python3 "$TMP/hostile.py" "$IP" big
expect_match h_big out '^answer 254$'
start h_quiet python3 "$TMP/hostile.py" "$IP" silence
wait_for 5 h_quiet grep -q '^state 9$' "$TMP/h_quiet.out"
client after_hostile -t 1
run ttcp_after "$TTCP" -C -p "$P" --time 0.5 127.0.0.1
expect_rc ttcp_after 0
reap h_quiet
expect_match h_quiet out '^answer closed$'

# An iperf3 client, a ttcp -C and a classic transmitter into the one server at once.
start mix_i iperf3 -c 127.0.0.1 -p "$IP" -t 2 -J
start mix_c "$TTCP" -C -p "$P" --time 1 127.0.0.1
start mix_t "$TTCP" -t -s -n 2000 -p "$P" 127.0.0.1
reap mix_i; reap mix_c; reap mix_t
expect_rc mix_i 0; expect_rc mix_c 0; expect_rc mix_t 0
b=$(jq -r '.end.sum_received.bytes' "$TMP/mix_i.out")
[ "${b:-0}" -gt 0 ] 2>/dev/null || fail "mix_i: no figures beside the other tests"
expect_match mix_t out '^ttcp-t: 16384000 bytes in'
stop s
finish
