# -S --web over a shaped link (issue 25): the browser's figures against ttcp -C's goodput on the
# same link. The server runs in a namespace of the test's own behind a veth pair whose other end
# is in the root namespace (Chromium stays there, as the tests' other browsers do), each
# direction shaped by tc tbf with a queue deep enough that no packet is lost (a loss costs one
# TCP flow a retransmission timeout: seconds on a modem). Two links (WEB_RATE, in bit/s):
#   10 Mbit/s (the default; netns_web): a 300 ms queue, 8 s each way, within 3 %;
#   56 kbit/s (WEB_RATE=56000; netns_web_modem): a 5 s queue (35 KB: a modem's buffers), 5 s
#   each way, within 5 %; ttcp -C moves 64 KB each way (a count: --time would wait for its
#   buffers to drain through the link).
# First ttcp -C from the root namespace each way (-r: the server sends, the download), leaving
# out the first eighth of the page's phase (--omit), as the page's figures do (the steady part:
# a shaper's burst and the first window left out); then the page in headless chromium
# (tests/web/drive.mjs, /?start&time=T): its download (the browser's count) and upload (the
# server's count) within the tolerance of ttcp -C's goodput the same way. The figures are
# reported too. On the modem, an upload timed by the browser's own progress events reads far
# above what the server counted, and the server's count stays under the link's rate. Needs root, `ip netns`, tc, jq, chromium and tests/web's puppeteer-core
# (ci/deps); otherwise it skips (exit 77; jq or the browser missing fails). About 45 s at
# 10 Mbit/s, 70 s on the modem.
#
# Network rules: the test's /24 gets a blackhole route in the root namespace first; the link
# uses a /30 of it (10.200.N.0/30: the root end .1, the server .2), so that nothing else of the
# /24 can leave the machine. The EXIT trap (netns-lib) deletes the namespace, which takes the
# veth pair with it (its root end too), then the guard route, on failure and interruption too.
# Every process runs under `timeout` and is ended only by its own PID (lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C
BOUND=90
BOUNDED=(timeout --foreground -k 2 "$BOUND")
RATE=${WEB_RATE:-10000000}
if [ "$RATE" -lt 1000000 ]; then   # a modem
  TIME=5 TOL=5 QUEUE=${WEB_QUEUE:-5000ms} AMOUNT=(-l 8192 -n 8)
else
  TIME=8 TOL=3 QUEUE=${WEB_QUEUE:-300ms} AMOUNT=(--time 8)
fi
OMIT=$(awk -v t="$TIME" 'BEGIN { print t / 8 }')   # the page's steady part (SETTLE_PARTS)
WEB_DIR=$(dirname "${BASH_SOURCE[0]}")/../web

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/web-lib" || exit 1
netns_require "browser tests"
command -v tc >/dev/null || skip "browser tests need tc (Debian: iproute2)"
need_jq
command -v chromium >/dev/null && command -v node >/dev/null && [ -d "$WEB_DIR/node_modules/puppeteer-core" ] ||
  { fail "chromium, node or tests/web's puppeteer-core is missing (ci/deps)"; finish; }
NS_S="ttcp-web-s-$$" VR="tweb$$"
web_link "$NS_S" "$VR" "$RATE" "$QUEUE"

P=5001 W=8080
start srv ip netns exec "$NS_S" "$TTCP" -S -p "$P" --iperf3-port 0 --nuttcp-port 0 --web "$S:$W"
wait_for "$WAIT" srv ns_listening "$NS_S" "$W" || { fail "the server is not listening"; show srv; finish; }

# goodput NAME: ttcp -C's bits per second (the receiver's bytes over its time).
goodput() { jq -r '.summary[0].bits_per_second' "$TMP/$1.out"; }
run down "$TTCP" -C -r "${AMOUNT[@]}" --omit "$OMIT" --json -p "$P" "$S"
expect_rc down 0
run up "$TTCP" -C "${AMOUNT[@]}" --omit "$OMIT" --json -p "$P" "$S"
expect_rc up 0
run page timeout -k 5 80 node "$WEB_DIR/drive.mjs" start "http://$S:$W/?start&time=$TIME" "$TMP/page.json"
expect_rc page 0
page() { jq -r "$1" "$TMP/page.json"; }
expect_eq page "the test's error" "$(page '.result.error // "none"')" none
[ -z "$(jq -r --arg o "http://$S:$W/" '.requests[] | select(startswith($o) | not)' "$TMP/page.json")" ] ||
  fail "page: a request outside the server"
# within WHAT GOT WANT: |GOT / WANT - 1| <= TOL %.
within() {
  awk -v g="$2" -v w="$3" -v t="$TOL" 'BEGIN { exit !(w > 0 && g / w - 1 <= t / 100 && 1 - g / w <= t / 100) }' && return 0
  fail "$1: the page's $2 bit/s against ttcp -C's $3 bit/s: more than $TOL % apart"
}
measured "ttcp -C: down $(goodput down) bit/s, up $(goodput up) bit/s; page: down $(page .result.download_bps) bit/s (browser; first byte after $(page .result.download_first_byte_ms) ms), up $(page .result.upload_bps) bit/s (server); idle $(page .result.idle_ms) ms, loaded $(page .result.loaded_ms) ms, grade $(page .result.grade)"
within download "$(page .result.download_bps)" "$(goodput down)"
within upload "$(page .result.upload_bps)" "$(goodput up)"
wait_for "$WAIT" srv lines_at_least srv out "^ttcp-S: web $C: down " 1 || { fail "srv: no line for the page's test"; show srv; }
# On the modem, whose 5 s queue takes 35 KB at once: an upload timed by the browser's own
# progress events (drive.mjs lie, 3 s) reads far above what arrived (checked, so that the test
# can fail), where the server's count, the page's figure (within 5 % above), stays under what
# the link can carry. (Not within 5 % of ttcp -C here: a browser short of CPU feeds this one
# request's body with gaps, which the count rightly shows: 50.4 kbit/s in one busy run.)
if [ "$RATE" -lt 1000000 ]; then
  run lie timeout -k 5 60 node "$WEB_DIR/drive.mjs" lie "http://$S:$W/" 3 "$TMP/lie.json"
  expect_rc lie 0
  lied=$(jq -r '.lie.browser_bps // 0' "$TMP/lie.json") counted=$(jq -r '.lie.server.up_bps // 0' "$TMP/lie.json")
  measured "upload through the queue, 3 s: the browser's progress events $lied bit/s, the server's count $counted bit/s"
  expect_awk lie "the browser's own count above 1.5 times the server's (it would have lied)" "$lied > 1.5 * $counted"
  expect_awk lie "the server's count under the link's rate ($RATE bit/s)" "$counted > 0 && $counted <= $RATE"
fi
stop srv
finish
