# --latency's bufferbloat grade on a shaped link (issue #24, "a shaped link with a deep queue"):
# a client and a server namespace with a router namespace between them, tc tbf at 10 Mbit/s on
# the router's egress toward the server (a bottleneck router's queue: on the sending host's own
# egress TCP Small Queues would keep the queue short whatever tbf allows), and
# `ttcp -C --latency --json` from the client to a `ttcp -S`, twice:
#   deep:  tbf's own queue, `latency 400ms` (500 kB at 10 Mbit/s): TCP fills it, so the loaded
#          RTT is hundreds of ms over the idle one: grade D or F;
#   short: the same tbf with a short queue, `latency 10ms`: grade A or A+.
# (The issue allows fq_codel for the second; this kernel has no AQM qdisc: tbf alone.) The
# client asks for cubic (--congestion): a loss-based sender fills whatever queue there is, as
# a bufferbloat test means (BBR, this kernel's default, keeps the deep queue near empty), on
# four streams, as the bufferbloat tests run several: one cubic flow leaves slow start at the
# first few ms of queue (HyStart) and in 8 s grows to about 70 ms of the 400.
# Each time ping runs in the same test from the same namespace, alone before the test (idle)
# and then while the data runs (loaded, started well after the probes' idle part), and the
# probes' medians must hold against ping's: idle within 2 ms, loaded within a quarter of
# ping's or 15 ms. The figures are reported (MEASURED) as well.
# Needs root, `ip netns`, tc, ping (iputils-ping) and jq; otherwise it skips (exit 77; jq
# missing fails). About 40 s.
#
# Network rules: a blackhole route for the test's subnet goes into the root namespace first; the
# namespaces (with their veths) and then that route are removed by the EXIT trap (netns-lib), on
# failure and interruption too. Traffic flows only between the namespaces made here. Every
# process runs under `timeout` and is ended only by its own PID (lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C

RATE=10000000
IDLE=2                  # --latency-idle: the probes before the data
TIME=8                  # the data's seconds
BOUND=40
BOUNDED=(timeout --foreground -k 2 "$BOUND")

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "latency tests"
command -v tc >/dev/null || skip "latency tests need tc (Debian: iproute2)"
command -v ping >/dev/null || skip "latency tests need ping (Debian: iputils-ping; ci/deps)"
need_jq
NS_C="ttcp-lat-c-$$" NS_R="ttcp-lat-r-$$" NS_S="ttcp-lat-s-$$"
netns_claim 77 127 2 || finish
n=$NETNS_N
C=10.200.$n.1 R1=10.200.$n.2 R2=10.200.$((n + 1)).1 S=10.200.$((n + 1)).2
echo "guards: blackhole ${NETNS_GUARDS[*]}; $NS_C ($C) -- ($R1) $NS_R ($R2) -tbf-> ($S) $NS_S"
netns_add "$NS_C" "$NS_R" "$NS_S"
netns_routed "$NS_C" "$C" "$NS_R" "$R1" "$R2" "$NS_S" "$S" ||
  { fail "could not set up the three namespaces"; finish; }

# ping_median NAME: the median RTT (ms) of ping's replies in NAME's output.
ping_median() {
  sed -nE 's/.* time=([0-9.]+) ms$/\1/p' "$TMP/$1.out" | sort -n |
    awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
# near WHAT GOT WANT SLACK: |GOT - WANT| <= SLACK (ms).
near() {
  awk -v g="$2" -v w="$3" -v s="$4" 'BEGIN { d = g - w; if (d < 0) d = -d
    exit !(g != "" && w != "" && d <= s) }' && return 0
  fail "$1: ttcp's $2 ms against ping's $3 ms: more than $4 ms apart"
}

# run_shaped NAME QDISC...: the client's egress set to QDISC, then ping alone, then the test
# with ping beside its data; NAME.json the client's document, NAME-idle / NAME-load ping's.
run_shaped() {
  local name=$1 port=5001
  shift
  tc -n "$NS_R" qdisc del dev vrs root 2>/dev/null
  "$@" || { fail "$name: could not set the qdisc: $*"; return 1; }
  echo "link ($name): $(tc -n "$NS_R" qdisc show dev vrs | tr '\n' ';')"
  start srv ip netns exec "$NS_S" "$TTCP" -S -p "$port"
  wait_for "$WAIT" srv ns_listening "$NS_S" "$port" || { fail "the server is not listening"; show srv; return 1; }
  run "$name-idle" ip netns exec "$NS_C" ping -n -i 0.2 -c 10 "$S"
  start "$name" ip netns exec "$NS_C" "$TTCP" -C --latency --latency-idle "$IDLE" --time "$TIME" \
    --congestion cubic -P 4 --json -p "$port" "$S"
  sleep $((IDLE + 2))   # (no condition to wait for: the data has run 2 s, the queue is full)
  run "$name-load" ip netns exec "$NS_C" ping -n -i 0.2 -c $(((TIME - 3) * 5)) "$S"
  reap "$name"
  stop srv
  expect_rc "$name" 0
  expect_json "$name"
  measured "$name: $(jq -c '.latency | del(.intervals)' "$TMP/$name.out")"
  measured "$name: ping idle median $(ping_median "$name-idle") ms, loaded $(ping_median "$name-load") ms;" \
    "$(grep -E '^ttcp-C: send' "$TMP/$name.err")"
}

run_shaped deep tc -n "$NS_R" qdisc add dev vrs root tbf rate "${RATE}bit" burst 3028 latency 400ms
expect_jq deep '.latency.grade | test("^[DF]$")' true \
  '.latency.increase_ms > 150' true '.latency.loaded.answered >= .latency.loaded.probes * 0.8' true
near "deep, idle" "$(jq '.latency.idle.median_ms' "$TMP/deep.out")" "$(ping_median deep-idle)" 2
p=$(ping_median deep-load)
near "deep, loaded" "$(jq '.latency.loaded.median_ms' "$TMP/deep.out")" "$p" \
  "$(awk -v p="$p" 'BEGIN { s = p / 4; print (s > 15 ? s : 15) }')"

run_shaped short tc -n "$NS_R" qdisc add dev vrs root tbf rate "${RATE}bit" burst 3028 latency 10ms
# (a short tail-drop queue drops probes with the data: at least half answered)
expect_jq short '.latency.grade | test("^A\\+?$")' true '.latency.loaded.answered >= .latency.loaded.probes * 0.5' true
near "short, idle" "$(jq '.latency.idle.median_ms' "$TMP/short.out")" "$(ping_median short-idle)" 2
p=$(ping_median short-load)
near "short, loaded" "$(jq '.latency.loaded.median_ms' "$TMP/short.out")" "$p" \
  "$(awk -v p="$p" 'BEGIN { s = p / 4; print (s > 15 ? s : 15) }')"
finish
