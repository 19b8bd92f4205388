# -P through ttcp -S / ttcp -C: n streams each way on the server's one port, each stream's lines
# at both ends tagged with its number, each way's totals, one summary line per way from the
# totals; UDP streams; the JSON of both ends; the server's stream limits.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

server() { local name=$1; shift; on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S -p @P@ "$@"; }
# figure NAME SIDE[TAG]: the "+++" bytes of lines ttcp-SIDE: (TAG: '\[2\]' for stream 2).
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out" | tr '\n' ' '; }
summary_re() { printf '^ttcp-C: %s %s bytes / [0-9]+\\.[0-9]{2} sec = [0-9.]+ KB/sec [0-9]+ %%TX [0-9]+ %%RX [0-9]+ retrans [0-9.]+ msRTT$' "$1" "$2"; }
# expect_way NAME SIDE N BYTES: N streams of BYTES each at that side, and their total once.
expect_way() {
  local i
  for ((i = 1; i <= $3; i++)); do
    expect_eq "$1" "ttcp-$2[$i] bytes" "$(figure "$1" "$2\\[$i\\]")" "$4 "
  done
  expect_eq "$1" "ttcp-$2 bytes (the total)" "$(figure "$1" "$2")" "$(($3 * $4)) "
}

server s
# -t: four streams of 1000 buffers: each stream's figure at both ends, 32768000 in total.
run c1 "$TTCP" -C -t -P 4 -n 1000 -p "$P" 127.0.0.1
expect_rc c1 0
expect_way c1 t 4 8192000
expect_way c1 r 4 8192000
expect_match c1 out "$(summary_re send 32768000)"
expect_eq c1 "summary lines" "$(count c1 out '^ttcp-C: ')" 1

# -r: the server's four streams.
run c2 "$TTCP" -C -r -P 4 -n 1000 -p "$P" 127.0.0.1
expect_rc c2 0
expect_way c2 t 4 8192000
expect_way c2 r 4 8192000
expect_match c2 out "$(summary_re recv 32768000)"

# --bidir: two streams each way; each way its totals and its summary.
run c3 "$TTCP" -C --bidir -P 2 -n 500 -p "$P" 127.0.0.1
expect_rc c3 0
expect_eq c3 "ttcp-t totals" "$(figure c3 t)" "8192000 8192000 "
expect_eq c3 "ttcp-r totals" "$(figure c3 r)" "8192000 8192000 "
expect_eq c3 "stream lines" "$(count c3 out '^ttcp-[tr]\[[12]\]: [0-9]+ bytes in')" 8
expect_match c3 out "$(summary_re send 8192000)"
expect_match c3 out "$(summary_re recv 8192000)"

# -i: each stream's intervals and the totals', from both ends.
run c4 "$TTCP" -C -P 2 --time 1 -i 0.4 -p "$P" 127.0.0.1
expect_rc c4 0
for tag in 't\[1\]' 't\[2\]' 't' 'r\[1\]' 'r\[2\]' 'r'; do
  n=$(count c4 out "^ttcp-$tag: +[0-9]+\\.[0-9]{2}- +[0-9]+\\.[0-9]{2} sec")
  [ "$n" -ge 2 ] || { fail "c4: $n interval lines of ttcp-$tag, expected at least 2"; show c4; }
done

# UDP, two paced streams each way: the senders' bytes exact, each receiver's loss line.
run u1 "$TTCP" -C -u -P 2 -R 20m -l 1k -n 200 -p "$P" 127.0.0.1
expect_rc u1 0
expect_way u1 t 2 204800
expect_match u1 out '^ttcp-r\[2\]: udp: [0-9]+ datagrams, [0-9]+ lost'
expect_match u1 out '^ttcp-C: send [0-9]+ bytes / .* [0-9]+ / 400 lost \([0-9.]+%\) [0-9.]+ ms jitter$'
run u2 "$TTCP" -C -u -r -P 2 -R 20m -l 1k -n 200 -p "$P" 127.0.0.1
expect_rc u2 0
expect_way u2 t 2 204800
expect_match u2 out '^ttcp-C: recv [0-9]+ bytes / .* [0-9]+ / 400 lost \([0-9.]+%\) [0-9.]+ ms jitter$'

# --json: each end's test of a way holds its streams; the summary is the totals'.
run j1 "$TTCP" -C -P 2 -n 100 --json -p "$P" 127.0.0.1
expect_rc j1 0
expect_jq j1 '.tests | length' 1 '.tests[0].bytes' 1638400 '.tests[0].streams | length' 2 \
  '[.tests[0].streams[].stream]' '[1,2]' '.server_tests[0].bytes' 1638400 \
  '[.server_tests[0].streams[].bytes]' '[819200,819200]' '.summary[0].bytes' 1638400 '.error' null

# Ctrl+C on the client: every stream ends with its figures at both ends, the totals and the
# summary follow.
start c5 "$TTCP" -C -P 2 --time 30 -p "$P" 127.0.0.1
wait_for 10 c5 lines_at_least c5 err '^ttcp-t\[[12]\]: connect$' 2 || true
wait_for "$WAIT" c5 received_by "$P" 2 1048576 ||
  fail "the two streams of c5 did not each carry 1 MiB to the server"
interrupt c5
for tag in 't\[1\]' 't\[2\]' 't' 'r\[1\]' 'r\[2\]' 'r'; do
  expect_match c5 out "^ttcp-$tag: [0-9]+ bytes in .* real seconds"
done
expect_match c5 out '^ttcp-C: send [0-9]+ bytes / '
stop s

# The server's limits: --max-streams, and the buffers a test may hold (64 MiB).
server s2 --max-streams 2
run l1 "$TTCP" -C -P 3 -n 10 -p "$P" 127.0.0.1
expect_rc l1 1
expect_match l1 err '^ttcp-C: the server at 127\.0\.0\.1 refused the test: streams: at most 2 each way on this server \(--max-streams\)$'
run l2 "$TTCP" -C -P 2 -n 10 -p "$P" 127.0.0.1
expect_rc l2 0
stop s2
server s3
run l3 "$TTCP" -C --bidir -P 64 -l 1m -n 1 -p "$P" 127.0.0.1
expect_rc l3 1
expect_match l3 err 'refused the test: streams x buflen: at most 64 MiB of buffers a test on this server$'
stop s3

finish
