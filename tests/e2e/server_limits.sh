# A server owner's limits (issue #12), which a client cannot exceed: --max-time ends a longer
# test, --max-rate paces either direction, --allow lets only its prefixes in.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
server() { local name=$1; shift; on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S -p @P@ "$@"; }
secs_of() { grab "$1" out "^ttcp-$2: [0-9]+ bytes in ([0-9.]+) real seconds.*$"; }

# --max-time 1: a client asking for 8 s gets about 1, and is told why.
server s --max-time 1
run t1 "$TTCP" -C --time 8 -p "$P" 127.0.0.1
expect_rc t1 0
expect_awk t1 "seconds sent" "$(secs_of t1 t) < 4"
expect_match t1 err "warning: the server's time limit \(--max-time\) ended the test"
run t2 "$TTCP" -C -r --time 8 -p "$P" 127.0.0.1
expect_rc t2 0
expect_awk t2 "seconds received" "$(secs_of t2 r) < 4"
interrupt s

# --max-rate 20m: 1 MB/s would be 8 Mbit/s; the figures stay under 20 Mbit/s (plus a margin
# for the first burst) whichever way the data goes.
server r --max-rate 20m
run p1 "$TTCP" -C --time 1 -f Mbps -p "$P" 127.0.0.1
expect_rc p1 0
expect_awk p1 "send rate" "$(rate_of p1 out) < 24"
run p2 "$TTCP" -C -r --time 1 -f Mbps -p "$P" 127.0.0.1
expect_rc p2 0
expect_awk p2 "recv rate" "$(rate_of p2 out) < 24"
measured "paced to 20m: send $(rate_of p1 out) Mbit/s, recv $(rate_of p2 out) Mbit/s"
interrupt r

# --allow: 127.0.0.0/8 and ::1 come in; 10.0.0.0/8 alone keeps 127.0.0.1 out.
server a --allow 10.0.0.0/8
run no "$TTCP" -C -n 10 -p "$P" 127.0.0.1
expect_rc no 1
expect_match no err '^ttcp-C: the server at 127\.0\.0\.1 refused the test: this server does not take connections from your address$'
wait_for "$WAIT" a lines_at_least a err '^ttcp-S: 127\.0\.0\.1: refused: not in --allow$' 1 ||
  { fail "a: no line for the refused client"; show a; }
interrupt a
server y --allow 10.0.0.0/8 --allow 127.0.0.0/8 --allow ::1
run yes "$TTCP" -C -n 10 -p "$P" 127.0.0.1
expect_rc yes 0
interrupt y

# A prefix that is not one: the server does not start.
run bad "$TTCP" -S -p 1 --allow 10.0.0.0/33
expect_rc bad 2
expect_match bad err '^ttcp: --allow: 10\.0\.0\.0/33: prefix length'
run name "$TTCP" -S -p 1 --allow localhost
expect_rc name 2
expect_match name err 'not a numeric IPv4 or IPv6 address'
finish
