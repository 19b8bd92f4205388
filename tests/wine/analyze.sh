# --analyze from ttcpw.exe (issue #24 item 1): Windows gives its TCP statistics through
# SIO_TCP_INFO, which Wine does not offer; the exe must say which facts it lacks and guess none:
# no shares, no baseline RTT, no advice, every missing field named in the JSON, and the figures
# it does have (its rate, its CPU, the link's ratio) as ever. No crash: exit status 0.
# --latency (item 3) the same way: the classic transmitter's TCP RTT is not given under Wine
# (said, no grade), while ttcpw.exe -C's UDP probes, which need no TCP statistics, are echoed
# by a native ttcp -S and graded.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1
need_jq

wpair w2n tcp -r -s -- -t -s --time 1 --analyze --link-rate 1g --json 127.0.0.1
expect_rc r 0; expect_rc t 0
crlf t out err
expect_json t
expect_jq t '.tests[0].analysis.role' sender \
  '(.tests[0].analysis.limits == null) == (.tests[0].analysis.missing | index("busy_time") != null)' true \
  '(.tests[0].analysis.min_rtt_ms == null) == (.tests[0].analysis.missing | index("min_rtt") != null)' true \
  '.tests[0].analysis.rfc6349.link_percent > 0' true \
  '.tests[0].analysis.cpu_percent == .tests[0].cpu.percent' true
printf 'MEASURED: under Wine: %s\n' "$(jq -c '.tests[0].analysis | {missing, limits, min_rtt_ms}' "$TMP/t.out")"
if jq -e '.tests[0].analysis.missing | index("tcp_info") != null' "$TMP/t.out" >/dev/null; then
  expect_jq t '.tests[0].analysis.limits' null '.tests[0].analysis.advice' null \
    '.tests[0].analysis.rfc6349.efficiency_percent' null '.tests[0].analysis.findings | length' 0
  expect_match t err "^ttcp-t: analysis: sender's time: not known \\(this system gives no TCP statistics\\)$"
  expect_match t err '^ttcp-t: analysis: path: rate [0-9.]+ [kMG]?bps, baseline RTT not given by this system'
  expect_match t err '^ttcp-t: analysis: rfc6349: TCP efficiency not known \(bytes sent and retransmitted not given by this system\)'
fi
expect_match t err '^ttcp-t: analysis: cpu(-bound)?: this end used [0-9.]+ % of a core'

wpair w2n tcp -r -s -- -t -s --time 1 --latency --json 127.0.0.1
expect_rc r 0; expect_rc t 0
crlf t out err
expect_json t
printf 'MEASURED: classic --latency under Wine: %s\n' "$(jq -c '.tests[0].latency | del(.intervals)' "$TMP/t.out")"
expect_jq t '.tests[0].latency.source' tcp_info \
  '.tests[0].latency | (.idle.answered == 0) == (.grade == null)' true
if jq -e '.tests[0].latency.idle.answered == 0' "$TMP/t.out" >/dev/null; then
  expect_match t err "^ttcp-t: latency idle \\(the handshake's RTT\\): the OS gave no RTT\$"
  expect_match t err '^ttcp-t: latency: no grade: it needs an idle round trip and 3 loaded ones$'
fi
listen_on srv tcp "$TTCP" -S -p @P@
run c "$WTTCP" -C --time 1 --latency --latency-idle 0.5 --json -p "$P" 127.0.0.1
stop srv
expect_rc c 0
crlf c out err
expect_json c
printf 'MEASURED: ttcpw -C --latency: %s\n' "$(jq -c '.latency | del(.intervals)' "$TMP/c.out")"
expect_jq c '.latency.source' udp_echo '.latency.idle.probes >= 3' true \
  '.latency.loaded.answered >= .latency.loaded.probes * 0.8' true '.latency.grade != null' true
expect_match c err '^ttcp-C: latency: [-+][0-9.]+ ms under load: bufferbloat grade (A\+|A|B|C|D|F) \(UDP probes the server echoed every 0\.1 s\)$'

finish
