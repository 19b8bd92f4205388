# --analyze over a path with delay (issue #24 item 1): two namespaces bridged by a third, where a
# relay of the test's own (delay_relay.py: this kernel has no netem) holds every frame 25 ms
# each way, a 50 ms RTT, behind tc tbf at 20 Mbit/s on the transmitter's egress (BDP about
# 125 KB). Checks, from the transmitter's --analyze --json and its lines:
#   1. a receiver with -b 16k: the receiver's window held the sender back most of the time, and
#      the -b advice, on the receiver's side, is at least the BDP (the link's, at --link-rate)
#      and more than the window it had;
#   2. the same with -b 4m: no window finding.
# The baseline RTT must show the relay's delay (else the path is not the one tested). The shares
# themselves are reported (MEASURED), not judged beyond "most of the time".
# Needs root, `ip netns`, tc and python3; otherwise it skips (exit 77). About 30 s.
#
# Network rules: a blackhole route for the test's subnet goes into the root namespace first; the
# namespaces (with their veths) and then that route are removed by the EXIT trap (netns-lib), on
# failure and interruption too. Traffic flows only between the namespaces made here. Every
# process runs under `timeout` and is ended only by its own PID (lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C

RATE=20mbit
DELAY_MS=25            # each way
SECS=8                 # each test
RELAY=$(dirname "${BASH_SOURCE[0]}")/delay_relay.py
began=$SECONDS
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "analysis tests"
command -v tc >/dev/null || skip "analysis tests need tc (Debian: iproute2)"
command -v python3 >/dev/null || skip "analysis tests need python3 (the delay relay)"
NS_TX="ttcp-an-tx-$$" NS_D="ttcp-an-delay-$$" NS_RX="ttcp-an-rx-$$"
netns_claim 77 127 1 || finish
TX_ADDR=10.200.$NETNS_N.1 RX_ADDR=10.200.$NETNS_N.2
echo "guard: blackhole ${NETNS_GUARDS[*]} in the root namespace; namespaces $NS_TX ($TX_ADDR)," \
  "$NS_D (the relay, no address), $NS_RX ($RX_ADDR)"
netns_add "$NS_TX" "$NS_D" "$NS_RX"
# half_link NS IF ADDR PEER: a veth from NS (IF, with ADDR) to the relay's namespace (PEER).
half_link() {
  ip -n "$1" link add "$2" type veth peer name "$4" netns "$NS_D" &&
    ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$1" link set "$2" up &&
    ip -n "$NS_D" link set "$4" up
}
half_link "$NS_TX" vtx "$TX_ADDR" da && half_link "$NS_RX" vrx "$RX_ADDR" db ||
  { fail "could not set up the veths through $NS_D"; finish; }
# One segment a packet: the relay passes frames (no GSO packet larger than the MTU), and the
# sender never holds a segment back for a larger one (TSO deferral, which Linux counts as busy,
# not as waiting on the window).
ip -n "$NS_TX" link set vtx gso_max_segs 1 || { fail "could not set vtx's gso_max_segs"; finish; }
err=$(tc -n "$NS_TX" qdisc add dev vtx root tbf rate "$RATE" burst 2000 limit 1m 2>&1) ||
  skip "the tbf qdisc is not available here: $err"
echo "link: $(tc -n "$NS_TX" qdisc show dev vtx) on $NS_TX's vtx; $DELAY_MS ms each way in $NS_D"

bound $((3 * SECS + 40))
start relay ip netns exec "$NS_D" python3 "$RELAY" da db "$DELAY_MS" $((3 * SECS + 30))

# window_test NAME PORT RX-B: a receiver with -b RX-B, the transmitter with --analyze --json.
window_test() {
  local name=$1 port=$2
  start "r$name" ip netns exec "$NS_RX" "$TTCP" -r -s -b "$3" -p "$port"
  wait_for "$WAIT" "r$name" ns_listening "$NS_RX" "$port" ||
    { fail "r$name is not listening"; stop "r$name"; return 1; }
  start "t$name" ip netns exec "$NS_TX" "$TTCP" -t -s --time "$SECS" --analyze --link-rate 20m \
    --json -p "$port" "$RX_ADDR"
  reap "t$name"; reap "r$name"
  expect_rc "t$name" 0; expect_rc "r$name" 0
  expect_json "t$name"
  measured "-b $3 receiver: $(jq -c '.tests[0].analysis | {limits, limited_by, advice, min_rtt_ms,
    bdp_bytes, link_bdp_bytes, receiver_window, cwnd, window_bound}' "$TMP/t$name.out")"
  expect_jq "t$name" '.tests[0].analysis.min_rtt_ms >= 2 * 25 * 0.9' true
}

# 1. A 16 KiB window over a 125 KB path: the receiver's window is the limit.
if window_test 1 5001 16k; then
  # "Most of the time": as Linux counts it waiting on the window, or, where the congestion
  # window had grown to the receiver's (Linux then counts the time as busy), with the network's.
  expect_jq t1 '.tests[0].analysis | .limits.rwnd >= 0.5 or (.window_bound and .limits.rwnd + .limits.cwnd >= 0.5)' true \
    '.tests[0].analysis.limited_by' rwnd \
    '.tests[0].analysis.findings | index("rwnd_limited") != null' true \
    '.tests[0].analysis.advice.side' receiver \
    '.tests[0].analysis | .advice.sockbufsize >= .bdp_bytes and .advice.sockbufsize >= .link_bdp_bytes' true \
    '.tests[0].analysis | .advice.sockbufsize > .receiver_window' true
  expect_match t1 err "^ttcp-t: analysis: limited by the receiver's window [0-9.]+ % of the time: it offered [0-9]+ bytes( \\(the congestion window, [0-9]+, had reached it: the network's [0-9.]+ % was the window's too\\))?; set -b [0-9]+[km] \\([0-9]+ bytes\\) or more on the receiver \\(the link's BDP at --link-rate\\)$"
fi

# 2. A 4 MiB window: more than the path holds, so no window finding.
if window_test 2 5002 4m; then
  expect_jq t2 '.tests[0].analysis.findings | index("rwnd_limited")' null \
    '.tests[0].analysis.limited_by != "rwnd"' true '.tests[0].analysis.advice' null
  if grep -q "limited by the receiver's window" "$TMP/t2.err"; then
    fail "t2: a window finding with a 4 MiB receiver"; show t2
  fi
fi

stop relay
measured "relay: $(cat "$TMP/relay.out" 2>/dev/null)"
echo "took $((SECONDS - began)) s"
finish
