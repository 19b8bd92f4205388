# -S --web's endpoints for other engines over a shaped link (issue 25, part 2): Cloudflare's
# speed-test engine (@cloudflare/speedtest from npm, tests/web/engine.mjs) in headless chromium
# against ttcp -S --web, its figures against ttcp -C's goodput on the same link. The link is
# web.sh's: the server in a namespace of the test's own behind a veth pair whose other end is
# in the root namespace (Chromium stays there), each direction shaped by tc tbf at 10 Mbit/s
# with a queue deep enough that no packet is lost. First the engine, given the server's /__down
# and /__up, from a page served on 127.0.0.1 (so across origins, as a self-hosted engine's page
# would be): 5 latency requests (GET /__down?bytes=0), 8 downloads and 8 uploads of 1 MB; it
# asks for nothing but the page and the server. Then ttcp -C from the root namespace, 5 s each
# way, while the engine's run goes quiet and ends. The engine's download and upload rates are
# within 5 % of ttcp -C's goodput the same way; the server counted every upload byte the engine
# sent, told the run in its line and -S --json, and its own upload rate is within 5 % too.
# Needs root, `ip netns`, tc, jq, chromium and tests/web's node_modules (ci/deps); otherwise it
# skips (exit 77; jq or the browser missing fails). About 38 s.
#
# Network rules: the test's /24 gets a blackhole route in the root namespace first; the link
# uses a /30 of it (10.200.N.0/30: the root end .1, the server .2), so that nothing else of the
# /24 can leave the machine. The EXIT trap (netns-lib) deletes the namespace, which takes the
# veth pair with it (its root end too), then the guard route, on failure and interruption too.
# Every process runs under `timeout` and is ended only by its own PID (lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C
BOUND=120
BOUNDED=(timeout --foreground -k 2 "$BOUND")
RATE=10000000
TIME=5
TOL=5                   # per cent
BYTES=1000000 COUNT=8   # each of the engine's requests, and how many each way
WEB_DIR=$(dirname "${BASH_SOURCE[0]}")/../web

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/web-lib" || exit 1
netns_require "browser tests"
command -v tc >/dev/null || skip "browser tests need tc (Debian: iproute2)"
need_jq
command -v chromium >/dev/null && command -v node >/dev/null &&
  [ -d "$WEB_DIR/node_modules/@cloudflare/speedtest" ] && [ -d "$WEB_DIR/node_modules/puppeteer-core" ] ||
  { fail "chromium, node or tests/web's node_modules (@cloudflare/speedtest, puppeteer-core) is missing (ci/deps)"; finish; }
NS_S="ttcp-wen-s-$$" VR="twen$$"
web_link "$NS_S" "$VR" "$RATE" "300ms"

P=5001 W=8080
start srv ip netns exec "$NS_S" "$TTCP" -S -p "$P" --iperf3-port 0 --nuttcp-port 0 --json --web "$S:$W"
wait_for "$WAIT" srv ns_listening "$NS_S" "$W" || { fail "the server is not listening"; show srv; finish; }

# goodput NAME: ttcp -C's bits per second (the receiver's bytes over its time).
goodput() { jq -r '.summary[0].bits_per_second' "$TMP/$1.out"; }
run cf timeout -k 5 150 node "$WEB_DIR/engine.mjs" "http://$S:$W" "$TMP/cf.json" "$BYTES" "$BYTES" "$COUNT"
expect_rc cf 0
cf() { jq -r "$1" "$TMP/cf.json"; }
expect_eq cf "the engine's errors" "$(cf '[.error // empty, .errors[]] | join("; ")')" ""
foreign=$(jq -r --arg s "http://$S:$W/" '.static as $p | .requests[] | select(startswith($s) or startswith($p) | not)' "$TMP/cf.json")
[ -z "$foreign" ] || fail "cf: a request outside the page's origin and the server: $(head -n 3 <<<"$foreign")"
expect_awk cf "the engine's idle latency, 0 to 100 ms" "$(cf '.summary.latency // -1') >= 0 && $(cf '.summary.latency // -1') < 100"
expect_eq cf "downloads and uploads asked of the server" \
  "$(jq -r --arg s "http://$S:$W/" '[.requests[] | select(startswith($s + "__down?bytes='"$BYTES"'"))] | length' "$TMP/cf.json") $(jq -r --arg s "http://$S:$W/" '[.requests[] | select(startswith($s + "__up?bytes='"$BYTES"'"))] | length' "$TMP/cf.json")" \
  "$COUNT $COUNT"

# ttcp -C over the same link, while the engine's run goes quiet.
run down "$TTCP" -C -r --time "$TIME" --json -p "$P" "$S"
expect_rc down 0
run up "$TTCP" -C --time "$TIME" --json -p "$P" "$S"
expect_rc up 0

# The run has ended (the engine quiet for 6 s): the server's line and -S --json.
wait_for 20 srv lines_at_least srv err "^ttcp-S: web $C: down -, up " 1 || { fail "srv: no line for the engine's run"; show srv; }
jq -c 'select(.web)' "$TMP/srv.out" >"$TMP/srv.web.json" 2>/dev/null
sv() { jq -r "$1" "$TMP/srv.web.json"; }
expect_eq srv "upload bytes the server counted" "$(sv .web.upload_bytes)" "$((BYTES * COUNT))"
expect_awk srv "download bytes the server sent, at least the engine's" "$(sv .web.download_sent) >= $((BYTES * COUNT))"

# within WHAT GOT WANT: |GOT / WANT - 1| <= TOL %.
within() {
  awk -v g="$2" -v w="$3" -v t="$TOL" 'BEGIN { exit !(w > 0 && g / w - 1 <= t / 100 && 1 - g / w <= t / 100) }' && return 0
  fail "$1: $2 bit/s against ttcp -C's $3 bit/s: more than $TOL % apart"
}
measured "ttcp -C: down $(goodput down) bit/s, up $(goodput up) bit/s; Cloudflare's engine: down $(cf .summary.download) bit/s, up $(cf .summary.upload) bit/s, latency $(cf .summary.latency) ms; the server's count of its uploads: $(sv .web.upload_bps) bit/s ($(sv .web.upload_bytes) bytes in $(sv .web.upload_seconds) s)"
within "the engine's download" "$(cf .summary.download)" "$(goodput down)"
within "the engine's upload" "$(cf .summary.upload)" "$(goodput up)"
within "the server's count of the engine's upload" "$(sv .web.upload_bps)" "$(goodput up)"
stop srv
finish
