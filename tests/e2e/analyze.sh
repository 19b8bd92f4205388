# --analyze (issue #24 item 1) on 127.0.0.1: the findings after the figures, and --json's
# `analysis` object: the sender's time split into shares within [0, 1] that add up to its
# span, at the receiving end no shares, a -b 16k receiver's window found as the limit with the
# -b advice above it, RFC 6349's figures against the formulas, the same through -C and -S, the
# facts the kernel did not give named rather than guessed, and the refusals.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq

# The kernel here may lack the sender's limits (before Linux 4.10): then the shares are null
# and "missing" names the fields; either way the two agree.
SHARES='(.limits == null) == (.missing | index("busy_time") != null)'
# Every known share in [0, 1], and together the span (each is rounded apart: within 1 %).
IN_RANGE='[.limits | (.rwnd, .sndbuf, .cwnd, .app) | select(. != null) | . >= 0 and . <= 1] | all'
ADD_UP='.limits == null or ([.limits | (.rwnd, .sndbuf, .cwnd, .app) // 0] | add - 1 | fabs < 0.01)'

pair tcp -r -s --analyze --json -- -t -s --time 1 --analyze --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_json t; expect_json r
expect_jq t '.tests[0].analysis.role' sender "(.tests[0].analysis | $SHARES)" true \
  "(.tests[0].analysis | $IN_RANGE)" true "(.tests[0].analysis | $ADD_UP)" true \
  '.tests[0].analysis.rate_bits_per_second == .tests[0].bits_per_second' true \
  '.tests[0].analysis.cpu_percent == .tests[0].cpu.percent' true \
  '.tests[0].analysis.rtt_samples > 0' true \
  '.tests[0].analysis.rfc6349.link_percent' null
expect_jq r '.tests[0].analysis.role' receiver '.tests[0].analysis.limits' null \
  '.tests[0].analysis.advice' null '.tests[0].analysis.rtt_samples' 0
expect_match t err '^ttcp-t: analysis: path: rate '
expect_match t err '^ttcp-t: analysis: cpu(-bound)?: this end used [0-9.]+ % of a core'
expect_match r err '^ttcp-r: analysis: sender.s time: counted at the sending end, not at this one$'
if jq -e '.tests[0].analysis.limits != null' "$TMP/t.out" >/dev/null; then
  expect_match t err '^ttcp-t: analysis: sender.s time \([0-9.]+ s\): receiver.s window [0-9.]+ %, send buffer [0-9.]+ %, network [0-9.]+ %, application [0-9.]+ %$'
  expect_match t err '^ttcp-t: analysis: rfc6349: TCP efficiency [0-9.]+ % \([0-9]+ of [0-9]+ bytes sent again\), buffer delay -?[0-9.]+ % \(mean RTT '
else
  expect_match t err "^ttcp-t: analysis: sender's time: not known"
fi
printf 'MEASURED: default receiver: %s\n' \
  "$(jq -c '.tests[0].analysis | {limits, findings, min_rtt_ms, receiver_window}' "$TMP/t.out")"

# A receiver with -b 16k: its window is what the sender waited on, and the advice on the
# receiver's side is more than that window and at least the BDP reached.
pair tcp -r -s -b 16k -- -t -s --time 1 --analyze --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_json t
printf 'MEASURED: -b 16k receiver: %s\n' \
  "$(jq -c '.tests[0].analysis | {limits, findings, advice, bdp_bytes, receiver_window, cwnd, window_bound}' "$TMP/t.out")"
if jq -e '.tests[0].analysis.limits != null' "$TMP/t.out" >/dev/null; then
  expect_jq t '.tests[0].analysis.limited_by' rwnd \
    '.tests[0].analysis.findings | index("rwnd_limited") != null' true \
    '.tests[0].analysis.receiver_window <= 32768' true \
    '.tests[0].analysis | .limits.rwnd >= 0.5 or (.window_bound and .limits.rwnd + .limits.cwnd >= 0.5)' true \
    '.tests[0].analysis.advice.side' receiver \
    '.tests[0].analysis | .advice.sockbufsize > .receiver_window and .advice.sockbufsize >= .bdp_bytes' true
  expect_match t err "^ttcp-t: analysis: limited by the receiver's window [0-9.]+ % of the time: it offered [0-9]+ bytes( \\(the congestion window, [0-9]+, had reached it: the network's [0-9.]+ % was the window's too\\))?; set -b [0-9]+[km] \\([0-9]+ bytes\\) or more on the receiver"
fi

# RFC 6349 with --link-rate, --mtu and --framing: the figures the formulas give from the
# figures printed (10 Gbit/s x 1460 / 1538 on Ethernet; 8 bytes a frame for ppp).
pair tcp -r -s -- -t -s -n 4096 --analyze --link-rate 10g --mtu 1500 --framing ethernet --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].analysis.rfc6349 | "\(.mtu) \(.mtu_source) \(.framing_bytes)"' '1500 given 38' \
  '.tests[0].analysis.rfc6349.max_tcp_bits_per_second / (10e9 * 1460 / 1538) - 1 | fabs < 1e-6' true \
  '.tests[0].analysis | .rfc6349.tcp_percent - 100 * .rate_bits_per_second / .rfc6349.max_tcp_bits_per_second | fabs < 1e-6' true \
  '.tests[0] | .analysis.rfc6349.ideal_seconds - .bytes * 8 / .analysis.rfc6349.max_tcp_bits_per_second | fabs < 1e-9' true \
  '.tests[0] | .analysis.rfc6349.transfer_time_ratio - .seconds / .analysis.rfc6349.ideal_seconds | fabs < 1e-6' true
expect_match t err '^ttcp-t: analysis: rfc6349: [0-9.]+ % of nominal, [0-9.]+ % of what TCP can carry at this rate and framing \(9\.[0-9]+ Gbps at MTU 1500 \(given\), 38 bytes a frame\); transfer time ratio '
pair tcp -r -s -- -t -s -n 100 --analyze --link-rate 44.21m --mtu 1500 --framing ppp --json 127.0.0.1
expect_jq t '.tests[0].analysis.rfc6349.max_tcp_bits_per_second / (44.21e6 * 1460 / 1508) - 1 | fabs < 1e-6' true
# Without --mtu the MTU is measured: the connection's own (loopback's, which IP_MTU reports
# within an IP packet's 65535), named as such.
pair tcp -r -s -- -t -s -n 100 --analyze --link-rate 1g --json 127.0.0.1
expect_jq t '.tests[0].analysis.rfc6349.mtu_source' socket \
  ".tests[0].analysis.rfc6349.mtu | . > 40 and . <= $(cat /sys/class/net/lo/mtu)" true

# Through a server: the client asks, the server's end (the sender of -C -r) takes the facts and
# sends them back; the server prints its own findings too.
listen_on srv tcp "$TTCP" -S -p @P@
run c "$TTCP" -C -r --time 1 --analyze --json -p "$P" 127.0.0.1
expect_rc c 0
expect_json c
expect_jq c '.tests[0].analysis.role' receiver '.server_tests[0].analysis.role' sender \
  "(.server_tests[0].analysis | $SHARES)" true "(.server_tests[0].analysis | $IN_RANGE)" true \
  "(.server_tests[0].analysis | $ADD_UP)" true '.server_tests[0].analysis.rtt_samples > 0' true
expect_match c err '^ttcp-t: analysis: path: rate '
run c2 "$TTCP" -C -t -P 2 --time 1 --analyze --json -p "$P" 127.0.0.1
expect_rc c2 0
expect_jq c2 '.tests[0].analysis.role' sender '.tests[0].streams | length' 2 \
  '[.tests[0].streams[].analysis.role] | unique' '["sender"]' \
  "(.tests[0].analysis | $IN_RANGE)" true "(.tests[0].analysis | $ADD_UP)" true \
  '.tests[0] | .analysis.limits == null or (.analysis.limits.seconds >= ([.streams[].analysis.limits.seconds] | add) - 0.001)' true
stop srv
expect_match srv out '^ttcp-t: analysis: path: rate '
expect_match srv out '^ttcp-r: analysis: sender.s time: counted at the sending end'

# -S --analyze: every TCP test it serves, a classic transmitter's among them.
listen_on srv2 tcp "$TTCP" -S --analyze -p @P@
run t2 "$TTCP" -t -s -n 200 -p "$P" 127.0.0.1
expect_rc t2 0
stop srv2
expect_match srv2 out '^ttcp-r: analysis: sender.s time: counted at the sending end'

# Bad input: one line naming the problem, exit status 2.
for bad in "-t -u --analyze 127.0.0.1:ttcp: --analyze works with TCP only, not with -u" \
           "-t --mtu 1500 127.0.0.1:ttcp: --mtu is for --analyze (RFC 6349's figures)" \
           "-t --analyze --framing atm 127.0.0.1:ttcp: --framing: 'atm' is not a framing: ethernet, ppp, or the bytes each frame adds to a packet (0 to 1000)"; do
  run bad "$TTCP" ${bad%%:*}
  expect_rc bad 2
  expect_lines bad err "$(lit "${bad#*:}")"
done

finish
