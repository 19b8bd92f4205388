# --analyze's RFC 6349 figures (issue #24, "RFC 6349 figures on a tbf 256 kbit/s link"): a veth
# pair between two namespaces, tc tbf at 256 kbit/s with a deep queue on the transmitter's
# egress (as shaped_link.sh's link), and `ttcp -t --analyze --link-rate 256k --mtu 1500 --json`
# across it. The test computes RFC 6349's figures itself, from the inputs the JSON and the
# lines give (the bytes, the seconds, the MTU, the framing, the bytes sent and sent again, the
# mean and baseline RTT) and the link rate it gave, with the RFC's formulas:
#   maximum achievable TCP throughput = link x (MTU - 40) / (MTU + framing), 38 for Ethernet;
#   ideal time = bytes x 8 / that; TCP transfer time ratio = actual time / ideal time;
#   TCP efficiency = (bytes sent - bytes retransmitted) / bytes sent;
#   buffer delay = mean RTT / baseline RTT - 1;
# and checks that ttcp's numbers, in the JSON (to 1e-6 of the value) and on the lines (to
# their last printed digit), equal its own; and, the link's queue filling with the window, that
# the buffer delay is above 0. The rates are reported (MEASURED), not judged.
# Needs root, `ip netns`, tc and jq; otherwise it skips (exit 77; jq missing fails). About 15 s.
#
# Network rules: a blackhole route for the test's subnet goes into the root namespace first; the
# namespaces (with their veths) and then that route are removed by the EXIT trap (netns-lib), on
# failure and interruption too. Traffic flows only between the namespaces made here. Every
# process runs under `timeout` and is ended only by its own PID (lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C

LINK_BPS=256000        # tc's kbit and ttcp's k are both 1000
BURST=3028             # the bucket: 2 full frames (shaped_link.sh says why)
LIMIT=200000           # a queue that holds the transmitter's whole window: no losses
TX_OPTS=(-b 16384)     # that window (32 KiB once Linux doubles it)
NBUF=50                # 50 x 8192 = 409600 bytes: about 13 s at 256 kbit/s
MTU=1500
began=$SECONDS
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "RFC 6349 analysis tests"
command -v tc >/dev/null || skip "RFC 6349 analysis tests need tc (Debian: iproute2)"
need_jq
netns_shaped_pair ttcp-rfc "$LINK_BPS" "$BURST" "$LIMIT"

# agree WHAT GOT WANT ABS: GOT (ttcp's) is within ABS + 1e-6 of WANT (the test's) of WANT.
agree() {
  awk -v g="$2" -v w="$3" -v a="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; m = w < 0 ? -w : w
    exit !(g != "" && w != "" && d <= a + 1e-6 * m) }' && return 0
  fail "t: $1 is '$2', the formula gives '$3' (allowed: $4 + 1e-6 of it)"; BAD=1
}

bound 60
start r ip netns exec "$NS_RX" "$TTCP" -r -s -p 5001
wait_for "$WAIT" r ns_listening "$NS_RX" 5001 || { fail "r is not listening"; show r; finish; }
start t ip netns exec "$NS_TX" "$TTCP" -t -s -n "$NBUF" "${TX_OPTS[@]}" --analyze \
  --link-rate 256k --mtu "$MTU" --json -p 5001 "$RX_ADDR"
reap t; reap r
expect_rc t 0; expect_rc r 0
expect_json t
[ "$FAILED" = 0 ] || finish
expect_jq t '.tests[0].bytes' $((NBUF * 8192)) '.tests[0].analysis.rfc6349.mtu' "$MTU" \
  '.tests[0].analysis.rfc6349.mtu_source' given \
  '.tests[0].analysis.rfc6349.framing_bytes' 38   # (the default framing: Ethernet's)

# ttcp's inputs and figures: the JSON's ...
read -r bytes secs mtu framing mean_ms min_ms j_max j_ideal j_ttr j_link j_tcp j_eff j_bd < <(
  jq -r '.tests[0] | [.bytes, .seconds] + (.analysis | [.mean_rtt_ms, .min_rtt_ms] as $r |
    .rfc6349 | [.mtu, .framing_bytes] + $r + [.max_tcp_bits_per_second, .ideal_seconds,
    .transfer_time_ratio, .link_percent, .tcp_percent, .efficiency_percent,
    .buffer_delay_percent]) | map(tostring) | join(" ")' "$TMP/t.out")
# ... and the lines' (the maximum with its unit prefix, as -f's automatic unit prints it)
RATE_LINE='^ttcp-t: analysis: rfc6349: ([0-9.]+) % of nominal, ([0-9.]+) % of what TCP can carry at this rate and framing \(([0-9.]+) ([kMG]?)bps at MTU ([0-9]+) \(given\), ([0-9]+) bytes a frame\); transfer time ratio ([0-9.]+) \(([0-9.]+) s ideal\)$'
EFF_LINE='^ttcp-t: analysis: rfc6349: TCP efficiency ([0-9.]+) % \(([0-9]+) of ([0-9]+) bytes sent again\), buffer delay (-?[0-9.]+) % \(mean RTT ([0-9.]+) ms over ([0-9]+) samples, baseline ([0-9.]+) ms\)$'
expect_match t err "$RATE_LINE"
expect_match t err "$EFF_LINE"
read -r l_link l_tcp l_max l_unit l_mtu l_framing l_ttr l_ideal < <(grab t err "$RATE_LINE" '\1 \2 \3 \4 \5 \6 \7 \8')
read -r l_eff retrans sent l_bd l_mean samples l_min < <(grab t err "$EFF_LINE" '\1 \2 \3 \4 \5 \6 \7')
measured "$(grep -E '^ttcp-t: .* \+\+\+$' "$TMP/t.err"); $sent bytes sent, $retrans again;" \
  "mean RTT $mean_ms ms over $samples samples, baseline $min_ms ms"

# The test's own figures, by the RFC's formulas.
read -r max ideal ttr link_pct tcp_pct eff bd < <(awk -v L="$LINK_BPS" -v u="$mtu" -v f="$framing" \
  -v b="$bytes" -v s="$secs" -v S="$sent" -v R="$retrans" -v m="$mean_ms" -v n="$min_ms" 'BEGIN {
  max = L * (u - 40) / (u + f); ideal = b * 8 / max; rate = b * 8 / s
  printf "%.12g %.12g %.12g %.12g %.12g %.12g %.12g\n", max, ideal, s / ideal, 100 * rate / L,
    100 * rate / max, 100 * (S - R) / S, 100 * (m / n - 1) }')
echo "formulas: max $max bit/s, ideal $ideal s, transfer time ratio $ttr, $link_pct % of nominal," \
  "$tcp_pct % of the maximum, efficiency $eff %, buffer delay $bd %"
BAD=0
agree "the JSON's max_tcp_bits_per_second" "$j_max" "$max" 0
agree "the JSON's ideal_seconds" "$j_ideal" "$ideal" 0
agree "the JSON's transfer_time_ratio" "$j_ttr" "$ttr" 0
agree "the JSON's link_percent" "$j_link" "$link_pct" 0
agree "the JSON's tcp_percent" "$j_tcp" "$tcp_pct" 0
agree "the JSON's efficiency_percent" "$j_eff" "$eff" 0
agree "the JSON's buffer_delay_percent" "$j_bd" "$bd" 0
# (a rate in an SI unit is cut at its third decimal, never rounded up: docs/ttcp.1's -f)
scale=$(case $l_unit in k) echo 1000 ;; M) echo 1000000 ;; G) echo 1000000000 ;; *) echo 1 ;; esac)
awk -v x="$l_max" -v k="$scale" -v m="$max" 'BEGIN { d = m - x * k; exit !(d >= -1e-6 * m && d < 0.001 * k + 1e-6 * m) }' ||
  { fail "t: the line's maximum, ${l_max} ${l_unit}bps, is not the formula's $max bit/s cut at its third decimal"; BAD=1; }
agree "the line's ideal time" "$l_ideal" "$ideal" 0.0005
agree "the line's transfer time ratio" "$l_ttr" "$ttr" 0.0005
agree "the line's % of nominal" "$l_link" "$link_pct" 0.05
agree "the line's % of the maximum" "$l_tcp" "$tcp_pct" 0.05
agree "the line's TCP efficiency" "$l_eff" "$eff" 0.005
agree "the line's buffer delay" "$l_bd" "$bd" 0.05
agree "the line's MTU" "$l_mtu" "$mtu" 0
agree "the line's framing" "$l_framing" "$framing" 0
agree "the line's mean RTT" "$l_mean" "$mean_ms" 0.0005
agree "the line's baseline RTT" "$l_min" "$min_ms" 0.0005
# (TCP sends every byte of the test at least once)
expect_awk t "bytes sent ($sent) at least the test's bytes ($bytes)" "$sent >= $bytes"
# A queue that fills with the window: the RTT under load above the baseline.
expect_awk t "the buffer delay ($j_bd %) is above 0" "$j_bd > 0"
[ "$BAD" = 0 ] || show t

echo "took $((SECONDS - began)) s"
finish
