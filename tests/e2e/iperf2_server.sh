# ttcp -S serving a real iperf -c (iperf 2.1.8) on its shared port: the client header is
# recognised (not classic data), answered, and counted as iperf2 counts it (its 60 bytes are
# data). Both ends' bytes agree, a connection at a time, matched by the client's port: iperf -c's
# CSV line (-y C) against ttcp -S's --json line. -n, -t, -P 2, -R (we send on the connection),
# -r and -d (we connect back to the client's -L port); an iperf -c beside a classic transmitter
# and a ttcp -C at once; --max-streams and --max-time; hostile: a header then silence, a header
# claiming 1000 threads; the server serves on after each.
BOUND=${BOUND:-60}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v iperf >/dev/null || skip "iperf (2) is not installed"
iperf -v 2>&1 | grep -q '^iperf version 2\.' || skip "iperf is not iperf2"
need_jq

server() { local name=$1; shift; on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S -p @P@ --json "$@"; }
# iperf_bytes NAME PORT: the bytes of NAME's CSV line whose client end is PORT (field 3, or 5:
# -R and a connection back print the other end first).
iperf_bytes() { awk -F, -v p="$2" 'NF >= 9 && ($3 == p || $5 == p) { print $8 }' "$TMP/$1.out"; }
# iperf_ports NAME: the client ends of NAME's CSV lines (the port other than the server's).
iperf_ports() { awk -F, -v s="$2" 'NF >= 9 { print ($3 == s ? $5 : $3) }' "$TMP/$1.out"; }
# json_bytes SERVER PORT: the bytes of the server's JSON line for the connection from PORT (or,
# a connection back, from the server's own PORT).
json_bytes() {
  jq -r --argjson p "$2" '.tests[] | select(.peer_port == $p or .local_port == $p) | .bytes' \
    "$TMP/$1.out"
}
has_json() { [ -n "$(json_bytes "$1" "$2" 2>/dev/null)" ]; }
json_lines() { [ "$(jq -s length "$TMP/$1.out" 2>/dev/null)" -ge "$2" ]; }

# agree NAME SERVER LINES...: each of iperf NAME's CSV lines has the same bytes as the server's
# JSON line of that connection, and there are LINES of them.
agree() {
  local name=$1 srv=$2 want=$3 port mine theirs seen=0
  expect_rc "$name" 0
  for port in $(iperf_ports "$name" "$P"); do
    wait_for "$WAIT" "$srv" has_json "$srv" "$port"
    mine=$(iperf_bytes "$name" "$port") theirs=$(json_bytes "$srv" "$port")
    expect_eq "$srv" "$name: the bytes of the connection from port $port" "$theirs" "$mine"
    [ "${mine:-0}" -gt 0 ] || fail "$name: no bytes on the connection from port $port"
    seen=$((seen + 1))
  done
  expect_eq "$name" "CSV lines" "$seen" "$want"
}

# hdr THREADS [FLAGS]: a 60-byte iperf 2.1.8 client header (-t 10 s), as printf's format.
hdr() {
  local f=${2:-40010078}
  printf '\\x%s\\x%s\\x%s\\x%s' "${f:0:2}" "${f:2:2}" "${f:4:2}" "${f:6:2}"
  printf '\\x00\\x00\\x%02x\\x%02x' $(($1 >> 8)) $(($1 & 255))
  printf '\\x00\\x00\\x13\\x89\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\xff\\xff\\xfc\\x18'
  printf '\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x01\\x00\\x08\\x00\\x03'
  printf '\\x00%.0s' {1..16}
}

server s
run bytes iperf -c 127.0.0.1 -p "$P" -n 1000000 -y C
agree bytes s 1
# the header is among the bytes: -n 1000000 is 1000000 on both ends
expect_eq bytes "the bytes of -n 1000000" "$(iperf_bytes bytes "$(iperf_ports bytes "$P")")" 1000000
run timed iperf -c 127.0.0.1 -p "$P" -t 1 -l 64K -y C
agree timed s 1
run parallel iperf -c 127.0.0.1 -p "$P" -t 1 -P 2 -y C
agree parallel s 2
run reverse iperf -c 127.0.0.1 -p "$P" -t 1 -R -y C
agree reverse s 1
run reverse_n iperf -c 127.0.0.1 -p "$P" -n 2000000 -R -y C
agree reverse_n s 1
expect_eq reverse_n "the bytes of -R -n 2000000" "$(awk -F, 'NF >= 9 { print $8 }' "$TMP/reverse_n.out")" 2000000
# -r: the client's test, then ours to its -L port; -d: both at once
L=$(free_port)
run tradeoff iperf -c 127.0.0.1 -p "$P" -n 3000000 -r -L "$L" -y C
agree tradeoff s 2
L=$(free_port)
run dual iperf -c 127.0.0.1 -p "$P" -t 1 -d -L "$L" -y C
agree dual s 2
expect_match s err '^ttcp-t: connect$'
expect_match s err '^ttcp-r: accept from 127\.0\.0\.1$'

# at once: iperf -c, a classic 1.12-style transmitter and a ttcp -C, each measured on its own
start mixed iperf -c 127.0.0.1 -p "$P" -t 2 -y C
run classic "$TTCP" -t -s -n 200 -l 8192 -p "$P" 127.0.0.1
run ours "$TTCP" -C -n 100 -p "$P" 127.0.0.1
reap mixed
agree mixed s 1
expect_rc classic 0
expect_rc ours 0
expect_match ours out '^ttcp-r: 819200 bytes in '
classic_json() { [ "$(jq -r '.tests[0].bytes' "$TMP/s.out" | grep -c '^1638400$')" -ge 1 ]; }
wait_for "$WAIT" s classic_json ||
  fail "the server has no JSON line of the classic transmitter's 1638400 bytes: $(jq -r '.tests[0].bytes' "$TMP/s.out" | tr '\n' ' ')"

# hostile: a header claiming 1000 threads is refused (closed at once); a header then silence
# holds its slot only for --idle-timeout; the server serves on after both.
exec {H}<>"/dev/tcp/127.0.0.1/$P"
printf "$(hdr 1000)" >&"$H"
wait_for "$WAIT" s grep -q 'refused: the test asked for is out of range' "$TMP/s.err" ||
  fail "a header of 1000 threads was not refused"
exec {H}>&-
stop s
server quiet --idle-timeout 1 --max-clients 1
exec {H}<>"/dev/tcp/127.0.0.1/$P"
printf "$(hdr 1)" >&"$H"
sleep 0.3
run busy iperf -c 127.0.0.1 -p "$P" -t 1 -y C
wait_for "$WAIT" quiet grep -q 'busy (--max-clients)' "$TMP/quiet.err" ||
  fail "a second client was not turned away while the silent one held the slot"
sleep 1.5
exec {H}>&-
run after iperf -c 127.0.0.1 -p "$P" -n 500000 -y C
agree after quiet 1
stop quiet

# the server's limits: --max-streams (iperf2's numThreads), --max-time (ours to send, and theirs)
server limited --max-streams 1 --max-time 1
run over iperf -c 127.0.0.1 -p "$P" -t 1 -P 2 -y C
wait_for "$WAIT" limited grep -q 'refused: the test asked for is out of range' "$TMP/limited.err" ||
  fail "-P 2 over --max-streams 1 was not refused"
json_lines limited 1 && fail "a test over --max-streams ran"
run capped iperf -c 127.0.0.1 -p "$P" -t 3 -R -y C
agree capped limited 1
expect_awk capped "-R -t 3 under --max-time 1" \
  "$(jq -r '.tests[0].seconds' "$TMP/limited.out" | tail -n 1) < 1.5"
expect_match limited err 'the server.s time limit \(--max-time\) ended the test'
stop limited
finish
