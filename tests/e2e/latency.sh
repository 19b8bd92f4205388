# --latency (issue #24 item 3) on 127.0.0.1: round trips idle and under load and the
# bufferbloat grade. The classic transmitter samples its connection's TCP RTT (the handshake's
# as idle); -C sends UDP probes the server echoes on the test's port, before the data and while
# it runs, for TCP and UDP, either way and with -P --bidir; the figures in text and in --json
# (each phase's quantiles, the series in -i's bins); the echo turns away what is not its
# client's probes (peers/probe_hostile.py) and is bounded in rate; stray probes never start a
# classic test; bad input is refused in one line.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
HOSTILE=$E2E_DIR/peers/probe_hostile.py
Q='[0-9]+\.[0-9]{2}'
# A phase's quantiles in order; the grade the increase gives.
ORDERED='.median_ms <= .p90_ms and .p90_ms <= .p99_ms'
GRADE='(.increase_ms | if . < 5 then "A+" elif . < 30 then "A" elif . < 60 then "B" elif . < 200 then "C" elif . < 400 then "D" else "F" end) == .grade'

# The classic pair: the transmitter's own connection, its handshake RTT as idle.
pair tcp -r -s -- -t -s --time 1 --latency --json 127.0.0.1
expect_rc t 0; expect_json t
expect_jq t '.tests[0].latency.source' tcp_info '.tests[0].latency.idle.answered' 1 \
  '.tests[0].latency.loaded.answered >= 5' true "(.tests[0].latency.loaded | $ORDERED)" true \
  "(.tests[0].latency | $GRADE)" true '.tests[0].latency.probe_interval' 0.1
expect_match t err "^ttcp-t: latency idle \\(the handshake's RTT\\): $Q ms median, $Q ms p90, $Q ms p99 \\(1 sample\\)\$"
expect_match t err "^ttcp-t: latency loaded \\(the connection's smoothed RTT\\): $Q ms median, $Q ms p90, $Q ms p99 \\([0-9]+ samples\\)\$"
# (the increase has its sign: on loopback the smoothed RTT under load can be below the handshake's)
expect_match t err "^ttcp-t: latency: [-+]$Q ms under load: bufferbloat grade (A\\+|A|B|C|D|F) \\(TCP_INFO's RTT read every 0\\.1 s\\)\$"
printed=$(sed -nE 's/^ttcp-t: latency: ([-+][0-9.]+) ms under load:.*/\1/p' "$TMP/t.err")
json=$(jq -r '.tests[0].latency.increase_ms' "$TMP/t.out")
# the line rounds to 0.01 ms what the JSON gives (a tie may round either way)
expect_awk t "the printed increase $printed ms is the JSON's $json ms" \
  "\"$printed\" != \"\" && $printed - ($json) <= 0.0051 && ($json) - $printed <= 0.0051"

listen_on srv tcp "$TTCP" -S -p @P@
# -C, TCP: 1 s idle at 0.1 s, then 2 s of data; the series in -i's half seconds.
run c "$TTCP" -C --time 2 --latency --latency-idle 1 -i 0.5 --json -p "$P" 127.0.0.1
expect_rc c 0; expect_json c
printf 'MEASURED: -C TCP: %s\n' "$(jq -c '.latency | del(.intervals)' "$TMP/c.out")"
expect_jq c '.latency.source' udp_echo \
  '.latency.idle.probes >= 8 and .latency.idle.probes <= 11' true \
  '.latency.loaded.probes >= 16 and .latency.loaded.probes <= 24' true \
  '.latency | .idle.answered >= .idle.probes * 0.8 and .loaded.answered >= .loaded.probes * 0.8' true \
  "(.latency.idle | $ORDERED)" true "(.latency.loaded | $ORDERED)" true "(.latency | $GRADE)" true \
  '.latency | .increase_ms - (.loaded.median_ms - .idle.median_ms) | fabs < 1e-6' true \
  '[.latency.intervals[] | .end - .start] | unique' '[0.5]' \
  '[.latency.intervals[] | select(.phase == "idle") | .end] | max' 0 \
  '([.latency.intervals[].probes] | add) == (.latency.idle.probes + .latency.loaded.probes)' true
expect_match c err "^ttcp-C: latency idle: $Q ms median, $Q ms p90, $Q ms p99 \\([0-9]+ probes, [0-9]+ lost\\)\$"
expect_match c err "^ttcp-C: latency: [-+]$Q ms under load: bufferbloat grade (A\\+|A|B|C|D|F) \\(UDP probes the server echoed every 0\\.1 s\\)\$"
# UDP from the server, and both ways with -P: the probes beside every stream.
for args in "-r -u -l 1400 -R 20m" "--bidir -P 2"; do
  run c "$TTCP" -C $args --time 1 --latency --latency-idle 0.5 --latency-interval 0.05 --json -p "$P" 127.0.0.1
  expect_rc c 0
  expect_jq c '.latency.probe_interval' 0.05 '.latency.loaded.probes >= 15' true \
    '.latency.loaded.answered >= .latency.loaded.probes * 0.8' true '.latency.grade != null' true
done

stop srv

# The echo answers its client's probe socket alone, only probes, and at most 200 a second; on
# a server of its own, so that what its output holds afterwards is one test's.
listen_on srv tcp "$TTCP" -S -p @P@
run h python3 "$HOSTILE" "$P" 127.0.0.2
expect_rc h 0
cat "$TMP/h.out"
expect_lines h out '^hello from 127\.0\.0\.2: probe_ready no$' '^hello with a wrong token: probe_ready no$' \
  '^hello from 127\.0\.0\.1: probe_ready yes$' '^probes: 5 sent, 5 echoed, same bytes yes$' \
  '^probes from another port: 5 sent, 0 echoed$' '^probes from 127\.0\.0\.2: 5 sent, 0 echoed$' \
  '^not probes \(1 B, 31 B, 33 B, 1400 B\): 0 echoed$' '^flood: 2000 sent in [0-9.]+ s, [0-9]+ echoed$'
echoed=$(sed -nE 's/^flood: .* ([0-9]+) echoed$/\1/p' "$TMP/h.out")
[ "${echoed:-0}" -ge 1 ] && [ "${echoed:-0}" -le 400 ] ||
  fail "the flood's echoes: ${echoed:-none}, expected 1 to 400 (200 a second, two seconds touched)"
# A test after it: the server still serves, and the only test it counted is that one (the
# probes sent from elsewhere reached its UDP port's classic receiver, which took none of them
# for a test).
run c "$TTCP" -C --time 0.5 --latency --latency-idle 0.3 -p "$P" 127.0.0.1
expect_rc c 0
stop srv
[ "$(grep -c '^ttcp-r: [0-9]* bytes in ' "$TMP/srv.out")" = 1 ] ||
  fail "the server counted another test than the client's: stray probes or hellos were data"

# A client killed (SIGKILL) during its idle probes: the server, which waits --latency-idle
# longer for the data, sees its control connection close and frees the test's slot then, not
# after the minute asked for (--max-clients 1: the next test is served while the server,
# bounded at BOUND, still runs).
listen_on srv tcp "$TTCP" -S --max-clients 1 -p @P@
kept=("${BOUNDED[@]}")
BOUNDED=(timeout -s KILL 1)
start gone "$TTCP" -C --time 1 --latency --latency-idle 60 -p "$P" 127.0.0.1
BOUNDED=("${kept[@]}")
reap gone
expect_rc gone 137
gone_at=$(now)
wait_for "$WAIT" srv grep -q 'ended: the client went away' "$TMP/srv.out" "$TMP/srv.err" ||
  fail "the server did not end the test of the client that went away"
measured "the slot freed $(since "$gone_at") s after the client was killed"
run c "$TTCP" -C --time 0.3 --latency --latency-idle 0.3 -p "$P" 127.0.0.1
expect_rc c 0
stop srv
# Ctrl+C during the idle probes ends the client there, as during --pmtu: no data phase (no
# figures, no summary), status 1, the probes so far reported. (The 1 s is no condition: an
# interrupt before the probes began ends in the hello's wait, with the same words.)
listen_on srv tcp "$TTCP" -S -p @P@
start intr "$TTCP" -C --time 1 --latency --latency-idle 30 -p "$P" 127.0.0.1
sleep 1
interrupt intr
expect_rc intr 1
expect_match intr err "^ttcp-C: latency probes('s hello)?: "
expect_match intr out '^ttcp-C: latency idle: .* \([0-9]+ probes, [0-9]+ lost\)$'
[ "$(count intr out '^ttcp-[tr]|^ttcp-C: (send|recv) ')$(count intr err '^ttcp-[tr]|^ttcp-C: (send|recv) ')" = 00 ] ||
  { fail "intr: a data phase ran after Ctrl+C in the idle probes"; show intr; }
stop srv
# The server ends during the client's idle probes (Ctrl+C): the client, which watches the
# control connection meanwhile, ends at once with the server's words, not after its 30 s.
listen_on srv tcp "$TTCP" -S -p @P@
start early "$TTCP" -C --time 1 --latency --latency-idle 30 -p "$P" 127.0.0.1
wait_for "$WAIT" early grep -q . "$TMP/early.out" "$TMP/early.err" 2>/dev/null
sleep 1
interrupt srv
ended_at=$(now)
reap early
expect_rc early 1
measured "the client ended $(since "$ended_at") s after the server did (idle probes for 30 s asked)"
[ "$(count early out '^ttcp-C: (send|recv) ')" = 0 ] || fail "early: a summary after the server ended"
# A server with --max-time refuses an idle part longer than it.
listen_on srv tcp "$TTCP" -S --max-time 1 -p @P@
run long "$TTCP" -C --time 1 --latency --latency-idle 2 -p "$P" 127.0.0.1
expect_rc long 1
expect_match long err 'latency_idle_ns: at most 1 s on this server \(--max-time\)'
stop srv

# Bad input: one line naming the problem, exit status 2.
for bad in "-r --latency:ttcp: --latency in the classic pair is the transmitter's (-t): the RTT of its TCP connection (or ttcp -C --latency, whose probes a ttcp -S echoes)" \
           "-t -u --latency 127.0.0.1:ttcp: --latency with -u needs a ttcp -S to echo its probes (ttcp -C -u --latency host): a classic UDP receiver answers nothing" \
           "-C --iperf3 --latency 127.0.0.1:ttcp: --latency needs a ttcp -S at the far end to echo its probes: another tool's server answers none" \
           "-C --latency 127.0.0.1 127.0.0.2:ttcp: --latency is not carried to a third party's test (-C host1 host2)" \
           "-t --latency-interval 0.5 127.0.0.1:ttcp: --latency-interval is for --latency" \
           "-C --latency --latency-interval 0.001 127.0.0.1:ttcp: --latency-interval: '0.001' is out of range (0.01 to 10 seconds)" \
           "-C --latency --compression 127.0.0.1:ttcp: --latency does not go with --compression: run them one after the other"; do
  run bad "$TTCP" ${bad%%:*}
  expect_rc bad 2
  expect_lines bad err "$(lit "${bad#*:}")"
done

finish
