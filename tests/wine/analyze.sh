# --analyze from ttcpw.exe (issue #24 item 1): Windows gives its TCP statistics through
# SIO_TCP_INFO, which Wine does not offer; the exe must say which facts it lacks and guess none:
# no shares, no baseline RTT, no advice, every missing field named in the JSON, and the figures
# it does have (its rate, its CPU, the link's ratio) as ever. No crash: exit status 0.
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

finish
