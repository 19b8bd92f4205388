# ttcp -S serving a real iperf -c -u (iperf 2.1.8) on its shared UDP port: the datagrams are
# recognised by the client header they carry (not classic data), each sender is a test of its
# own, and the end (negative sequence numbers) is answered with the server report. Both ends'
# figures agree, a stream at a time, matched by the client's port: iperf's "Server Report" line
# (-f B: in bytes) against ttcp -S's --json line: bytes, lost and datagrams as both count them
# (iperf2 counts the first end datagram too). -t, -n with -l, -P 2; -R (we send: its counts
# against ours), -r and -d (its test, and ours to its -L listener after it or at once: its
# Server Report against our receive line, its listener's counts against our transmit line),
# --max-rate on what we send; refused: --allow, --key-file,
# --max-streams, --max-clients (nothing is sent back: iperf says it got no ack); hostile:
# datagrams that nearly pass the rule are classic data, a late end datagram starts nothing, a
# start then silence holds its slot only for --idle-timeout; the server serves on after each.
BOUND=${BOUND:-60}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v iperf >/dev/null || skip "iperf (2) is not installed"
iperf -v 2>&1 | grep -q '^iperf version 2\.' || skip "iperf is not iperf2"
need_jq
PEER="$E2E_DIR/peers/iperf2_udp.py"

server() { local name=$1; shift; on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S -p @P@ --json "$@"; }
client() { local name=$1; shift; run "$name" iperf -c 127.0.0.1 -p "$P" -u -f B "$@"; }
# ports NAME: the client ends of iperf NAME's streams to the server (not its -L listener's).
ports() {
  sed -nE "s/^\[ *[0-9]+\] local 127\.0\.0\.1 port ([0-9]+) connected with 127\.0\.0\.1 port $P( .*)?\$/\1/p" \
    "$TMP/$1.out"
}
# report NAME PORT: "BYTES LOST TOTAL" of the Server Report of the stream from PORT.
report() {
  local id
  id=$(sed -nE "s/^\[ *([0-9]+)\] local 127\.0\.0\.1 port $2 connected .*/\1/p" "$TMP/$1.out")
  awk -v id="$id" '$0 ~ "^\\[ *" id "\\] Server Report:" { want = 1; next }
    want && $0 ~ "^\\[ *" id "\\] .* Bytes/sec .* ms [0-9]+/[0-9]+ " {
      for (i = 1; i <= NF; i++) if ($i == "Bytes") bytes = $(i - 1)
      split($(NF - 1), lt, "/"); print bytes, lt[1], lt[2]; exit }' "$TMP/$1.out"
}
# json SERVER PORT: "BYTES LOST DATAGRAMS" of the server's JSON line of the stream from PORT.
json() {
  jq -r --argjson p "$2" '.tests[] | select(.peer_port == $p) | "\(.bytes) \(.udp.lost) \(.udp.expected)"' \
    "$TMP/$1.out" 2>/dev/null
}
has_json() { [ -n "$(json "$1" "$2")" ]; }
json_lines() { jq -s length "$TMP/$1.out" 2>/dev/null; }

# agree NAME SERVER STREAMS: each of iperf NAME's streams has a Server Report whose bytes,
# lost and total are those of the server's JSON line of that stream; STREAMS of them.
agree() {
  local name=$1 srv=$2 want=$3 port mine theirs seen=0
  expect_rc "$name" 0
  for port in $(ports "$name"); do
    wait_for "$WAIT" "$srv" has_json "$srv" "$port"
    mine=$(report "$name" "$port") theirs=$(json "$srv" "$port")
    [ -n "$mine" ] || fail "$name: no Server Report for the stream from port $port"
    expect_eq "$srv" "$name: bytes, lost, datagrams of the stream from port $port" "$theirs" "$mine"
    [ "${mine%% *}" -gt 0 ] 2>/dev/null || fail "$name: no bytes from port $port"
    measured "$name: stream from $port: bytes lost/total $mine"
    seen=$((seen + 1))
  done
  expect_eq "$name" "streams" "$seen" "$want"
}
# no_ack NAME: iperf NAME ended without a Server Report.
no_ack() {
  grep -q 'Server Report' "$TMP/$1.out" && fail "$1: a Server Report came"
  grep -q 'did not receive ack of last datagram' "$TMP/$1.out" "$TMP/$1.err" ||
    fail "$1: iperf did not say it got no ack"
}

server s
client timed -b 10m -t 2
agree timed s 1
client bytes -b 10m -n 300000 -l 1000
agree bytes s 1
expect_match s err '^ttcp-r: buflen=1000, nbuf=0, align=16384/0, port=[0-9]+  udp$'
client parallel -b 5m -t 1 -P 2
agree parallel s 2
# -R: we send on the client's socket, paced at its -b; it counts our end datagram too, so its
# total is our datagrams + 1 and its bytes plus what it lost are ours plus one datagram
reversed() {
  local name=$1 len=$2 port mine sent bytes
  expect_rc "$name" 0
  port=$(ports "$name")
  wait_for "$WAIT" s has_json s "$port"
  mine=$(awk '/^\[ \*1\] .* Bytes\/sec .* ms [0-9]+\/[0-9]+ / {
      for (i = 1; i <= NF; i++) if ($i == "Bytes") b = $(i - 1)
      split($(NF - 1), lt, "/"); print b, lt[1], lt[2]; exit }' "$TMP/$name.out")
  read -r sent bytes < <(jq -r --argjson p "$port" '.tests[] | select(.peer_port == $p) |
      "\(.io_calls) \(.bytes)"' "$TMP/s.out")
  read -r cb clost ctotal <<<"$mine"
  [ -n "$ctotal" ] || { fail "$name: no figures line"; return; }
  expect_eq "$name" "its datagrams (ours + the end)" "$ctotal" "$((sent + 1))"
  expect_eq "$name" "its bytes + lost (ours + the end)" "$((cb + clost * len))" "$((bytes + len))"
  measured "$name: we sent $sent datagrams, $bytes bytes; it got $cb bytes, $clost lost of $ctotal"
}
client rtimed -b 10m -t 1 -R
reversed rtimed 1470
client rbytes -b 10m -n 300000 -l 1000 -R
reversed rbytes 1000
expect_eq rbytes "the bytes we sent for -n 300000 -l 1000" \
  "$(jq -r '.tests[] | select(.bytes == 300000) | .io_calls' "$TMP/s.out")" 300
# -r, -d: its test (its Server Report against our receive line), and ours from a socket of
# our own to its -L listener (the loopback trap: -L is another port than -p, which both ends
# would bind): its listener counts our end datagram too, as -R's client does
# listened NAME L: "BYTES LOST TOTAL" of what iperf NAME's listener on port L received.
listened() {
  local id
  id=$(sed -nE "s/^\[ *([0-9]+)\] local 127\.0\.0\.1 port $2 connected .*/\1/p" "$TMP/$1.out")
  [ -n "$id" ] || return 0
  awk -v id="$id" '$0 ~ "^\\[ *\\*?" id "\\] .* Bytes/sec .* ms [0-9]+/[0-9]+ " {
      for (i = 1; i <= NF; i++) if ($i == "Bytes") b = $(i - 1)
      split($(NF - 1), lt, "/"); print b, lt[1], lt[2]; exit }' "$TMP/$1.out"
}
has_sent() { [ -n "$(jq -r --argjson p "$2" '.tests[] | select(.peer_port == $p) | .bytes' "$TMP/$1.out")" ]; }
# returned NAME SERVER L LEN: iperf NAME's listener on L got what SERVER's transmit line to L
# sent (LEN-byte datagrams), plus our end datagram; and iperf NAME said nothing was missing.
returned() {
  local name=$1 srv=$2 port=$3 len=$4 bytes cb clost ctotal
  ! grep -qE 'did not receive ack|reverse connect did not occur' "$TMP/$name.out" "$TMP/$name.err" ||
    fail "$name: $(grep -hE 'did not receive ack|reverse connect did not occur' "$TMP/$name.out" "$TMP/$name.err")"
  wait_for "$WAIT" "$srv" has_sent "$srv" "$port" || { fail "$name: no transmit line to port $port"; return; }
  bytes=$(jq -r --argjson p "$port" '.tests[] | select(.peer_port == $p) | .bytes' "$TMP/$srv.out")
  read -r cb clost ctotal < <(listened "$name" "$port")
  [ -n "$ctotal" ] || { fail "$name: no figures of its listener on port $port"; return; }
  [ "$bytes" -gt 0 ] 2>/dev/null || fail "$name: we sent no bytes to port $port"
  expect_eq "$name" "its listener's datagrams (ours + the end)" "$ctotal" "$((bytes / len + 1))"
  expect_eq "$name" "its listener's bytes + lost (ours + the end)" "$((cb + clost * len))" "$((bytes + len))"
  measured "$name: we sent $bytes bytes to port $port; it got $cb bytes, $clost lost of $ctotal"
}
L=$(free_port)
client tradeoff -b 5m -t 1 -r -L "$L"
agree tradeoff s 1
returned tradeoff s "$L" 1470
L=$(free_port)
client tradeoff_n -b 10m -n 300000 -l 1000 -r -L "$L"
agree tradeoff_n s 1
returned tradeoff_n s "$L" 1000
expect_eq tradeoff_n "the bytes we sent back for -n 300000 -l 1000" \
  "$(jq -r --argjson p "$L" '.tests[] | select(.peer_port == $p) | .bytes' "$TMP/s.out")" 300000
L=$(free_port)
client dual -b 5m -t 1 -d -L "$L"
agree dual s 1
returned dual s "$L" 1470
# a late end datagram of no test: dropped, no test, no answer
lines=$(json_lines s)
python3 "$PEER" "$P" end
# datagrams that nearly pass the rule: classic data, one classic test of them all
read -r count total < <(python3 "$PEER" "$P" nearmiss)
classic() { jq -r '.tests[0] | select(.udp == null) | .bytes' "$TMP/s.out" | grep -qx "$total"; }
wait_for "$WAIT" s classic ||
  fail "the $count near-miss datagrams ($total bytes) were not one classic test: $(tail -n 2 "$TMP/s.out")"
expect_eq s "JSON lines after the late end and the near misses" "$(json_lines s)" "$((lines + 1))"
client after -b 10m -t 1
agree after s 1
stop s

# --key-file without --keyless-peers: refused, a line on the server, nothing sent back
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$TMP/key" && chmod 600 "$TMP/key"
server keyed --key-file "$TMP/key"
client nokey -b 1m -t 1
no_ack nokey
expect_match keyed err 'refused: authentication failed \(--key-file\)'
expect_eq keyed "JSON lines" "$(json_lines keyed)" 0
stop keyed
server keyless --key-file "$TMP/key" --keyless-peers
client kl -b 1m -t 1
agree kl keyless 1
stop keyless

# --allow not covering the client: its datagrams are dropped, no test, nothing sent back
server walled --allow 127.0.0.2
client outside -b 1m -t 1
no_ack outside
expect_eq walled "JSON lines" "$(json_lines walled)" 0
stop walled

# --max-streams (iperf2's numThreads), --max-clients (each stream takes a slot)
server limited --max-streams 1 --max-clients 1
client over -b 1m -t 1 -P 2
no_ack over
expect_match limited err 'refused: the test asked for is out of range'
expect_eq limited "JSON lines after -P 2 over --max-streams 1" "$(json_lines limited)" 0
stop limited
server rated --max-rate 2m
client paced -b 10m -t 1 -R
expect_rc paced 0
expect_eq rated "our sender's pace under --max-rate 2m" \
  "$(jq -r '.options.pace_bits_per_second' "$TMP/rated.out" | tail -n 1)" 2000000
L=$(free_port)
client paced_back -b 10m -t 1 -r -L "$L"
agree paced_back rated 1
returned paced_back rated "$L" 1470
expect_eq rated "our -r sender's pace under --max-rate 2m" \
  "$(jq -r --argjson p "$L" 'select(.tests[0].peer_port == $p) | .options.pace_bits_per_second' "$TMP/rated.out")" 2000000
stop rated
server one --max-clients 1
client crowded -b 1m -t 1 -P 2
expect_match one err 'turned away: busy \(--max-clients\)'
expect_eq crowded "Server Reports of -P 2 under --max-clients 1" "$(grep -c 'Server Report:' "$TMP/crowded.out")" 1
stop one

# a start then silence: its slot is held for --idle-timeout, then freed; --max-time cuts a test
server quiet --idle-timeout 1 --max-clients 1 --max-time 1
python3 "$PEER" "$P" start
client busy -b 1m -t 1
no_ack busy
expect_match quiet err 'turned away: busy \(--max-clients\)'
wait_for "$WAIT" quiet grep -q 'end marker' "$TMP/quiet.err" ||
  fail "the silent start did not end by --idle-timeout: $(tail -n 3 "$TMP/quiet.err")"
sleep 1.2 # the busy client's own sender is remembered until it has been quiet as long
client freed -b 10m -n 200000
agree freed quiet 1
sleep 0.5 # its slot is held until its client has been quiet 0.25 s after the report
client capped -b 1m -t 3
no_ack capped
expect_match quiet err 'the server.s time limit \(--max-time\) ended the test'
stop quiet

# -u -d from a forged source: one datagram asks for 6 s sent back, and none follows. Our send
# stops when the client's way ends without its end (--idle-timeout 1), not after the 6 s it
# asked: at iperf2's 1 Mbit/s of 1470 bytes (85 a second), well under the 510 of 6 s.
server forged --idle-timeout 1
run fd python3 "$PEER" "$P" forged-d
read -r _ sent_back _ _ < "$TMP/fd.out"
measured "forged -u -d: ${sent_back:-?} datagrams sent back before the send stopped"
expect_awk fd "datagrams sent back (${sent_back:-none}) stop with the idle client's way" \
  "${sent_back:-999} > 0 && ${sent_back:-999} < 340"
stop forged
finish
