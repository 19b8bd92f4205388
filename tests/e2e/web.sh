# -S --web (issue 25, part 1): the browser's test in a real browser, Debian's chromium driven by
# puppeteer-core (tests/web/drive.mjs; ci/deps installs chromium, npm and `npm ci`s
# tests/web). On 127.0.0.1: the page loads and asks for nothing outside the server; its button
# runs the test to the end; window.ttcpResult and #result-json hold sane figures, the upload
# the server's count, and the server's line and -S --json document carry the same counts;
# --max-time caps the phases and --max-rate the download; --allow refuses with 403 (and the
# server says so); --max-clients 20 turns the 21st page away; 20 pages closed mid-test free
# their slots (the server says each went away) and 20 ttcp -C tests at once run after them. TTCP_WEB_SHOTS=DIR
# keeps the screenshots (before, during, after) there (docs/guide.md's are these).
BOUND=${BOUND:-150}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
WEB_DIR=$E2E_DIR/../web
need_jq

# need_browser: chromium, node and tests/web's node_modules (puppeteer-core), through ci/deps
# when any is missing; a failure, not a skip, when they cannot be had.
need_browser() {
  command -v chromium >/dev/null && command -v node >/dev/null &&
    [ -d "$WEB_DIR/node_modules/puppeteer-core" ] && return 0
  echo "note: chromium, node or puppeteer-core is missing; ci/deps installs them"
  timeout 900 "$E2E_DIR/../../ci/deps" >"$TMP/deps.log" 2>&1
  command -v chromium >/dev/null && [ -d "$WEB_DIR/node_modules/puppeteer-core" ] && return 0
  fail "chromium or puppeteer-core is missing and ci/deps could not install them:"
  tail -n 5 "$TMP/deps.log" | sed 's/^/    | /'
  finish
}
need_browser

# web NAME ARGS...: ttcp -S on a fresh port P, its page on W, both listening; -S --json.
web() {
  local name=$1; shift
  W=$(free_port)
  on_free_port "tcp:$name" start_on_P "$name" "$TTCP" -S -p @P@ --iperf3-port 0 \
    --nuttcp-port 0 --json --web "127.0.0.1:$W" "$@" && wait_listen tcp "$W" "$name"
}
# drive NAME MODE ARGS...: drive.mjs in the foreground, bounded; its JSON in $TMP/NAME.json.
drive() {
  local name=$1 mode=$2; shift 2
  run "$name" timeout -k 5 130 node "$WEB_DIR/drive.mjs" "$mode" "$@"
}
# j NAME FILTER: a jq figure of NAME's document.
j() { jq -r "$2" "$TMP/$1.json"; }
foreign() { jq -r --arg o "http://127.0.0.1:$W/" '.requests[] | select(startswith($o) | not)' "$TMP/$1.json"; }
line_re='^ttcp-S: web 127\.0\.0\.1: down [0-9.]+ [kMGT]?bit/s, up [0-9.]+ [kMGT]?bit/s, idle [0-9.]+ ms, loaded [0-9.]+ ms, grade (A\+|A|B|C|D|F)$'

# 1. The button, 3 s each way: sane figures, all from this server, the same at both ends.
web s
shots=$TMP/shots; mkdir -p "$shots"
drive b1 run "http://127.0.0.1:$W/?time=3" "$TMP/b1.json" "$shots"
expect_rc b1 0
[ -z "$(foreign b1)" ] || fail "b1: the page asked for something outside the server: $(foreign b1 | head -n 3)"
expect_eq b1 "the page's errors" "$(j b1 '.errors | length')" 0
expect_eq b1 "the test's error" "$(j b1 '.result.error // "none"')" none
expect_awk b1 "download and upload above 0 bit/s" "$(j b1 '.result.download_bps // 0') > 0 && $(j b1 '.result.upload_bps // 0') > 0"
expect_awk b1 "round trips: idle > 0, loaded > 0" "$(j b1 '.result.idle_ms // 0') > 0 && $(j b1 '.result.loaded_ms // 0') > 0"
expect_eq b1 "the phases' seconds" "$(j b1 '.result.seconds')" 3
expect_eq b1 "the upload shown is the server's" "$(j b1 '[.result.upload_bytes, .result.upload_bps] | @text')" "$(j b1 '[.result.server.up_bytes, .result.server.up_bps] | @text')"
expect_eq b1 "#result-json is window.ttcpResult" "$(jq -c .element "$TMP/b1.json")" "$(jq -c .result "$TMP/b1.json")"
expect_awk b1 "the plot's two lines" "$(j b1 .plotted) == 2"
grep -Eq '^[0-9-]+ [0-9:]+ UTC ttcp web test: down .*, up .*, idle .*, loaded .*, grade ' <<<"$(j b1 .summary)" ||
  fail "b1: the summary line is '$(j b1 .summary)'"
wait_for "$WAIT" s lines_at_least s err "$line_re" 1 || { fail "s: no line for the browser's test"; show s; }
jq -c 'select(.web)' "$TMP/s.out" >"$TMP/s.web.json" 2>/dev/null
expect_eq s "the page's upload bytes in -S --json" "$(jq -r '.web.upload_bytes' "$TMP/s.web.json")" "$(j b1 .result.upload_bytes)"
expect_eq s "the page's download bytes in -S --json" "$(jq -r '.web.download_bytes' "$TMP/s.web.json")" "$(j b1 .result.download_bytes)"
expect_eq s "the grade in -S --json" "$(jq -r '.web.grade' "$TMP/s.web.json")" "$(j b1 .result.grade)"
for p in before during after; do [ -s "$shots/web-$p.png" ] || fail "b1: no screenshot web-$p.png"; done
[ -n "${TTCP_WEB_SHOTS:-}" ] && cp "$shots"/web-*.png "$TTCP_WEB_SHOTS"/
measured "b1: down $(j b1 .result.download_bps) bit/s, up $(j b1 .result.upload_bps) bit/s (server), idle $(j b1 .result.idle_ms) ms, loaded $(j b1 .result.loaded_ms) ms, grade $(j b1 .result.grade)"
interrupt s
expect_rc s 0

# 2. /?start, under --max-time 2 (1 s each way though 10 were asked) and --max-rate 20m.
web r --max-time 2 --max-rate 20m
drive b2 start "http://127.0.0.1:$W/?start&time=10" "$TMP/b2.json"
expect_rc b2 0
expect_eq b2 "the phases' seconds under --max-time 2" "$(j b2 '.result.seconds')" 1
expect_awk b2 "download above 0 and under 24 Mbit/s (--max-rate 20m)" "$(j b2 '.result.download_bps // 0') > 0 && $(j b2 '.result.download_bps // 0') < 24e6"
measured "b2: paced to 20m: down $(j b2 .result.download_bps) bit/s, up $(j b2 .result.upload_bps) bit/s"
interrupt r
expect_rc r 0

# 3. --allow without 127.0.0.0/8: 403, and the server's line.
web a --allow 10.0.0.0/8
drive b3 status "http://127.0.0.1:$W/" "$TMP/b3.json"
expect_eq b3 "the page's status outside --allow" "$(j b3 .status)" 403
wait_for "$WAIT" a lines_at_least a err '^ttcp-S: 127\.0\.0\.1: refused: not in --allow$' 1 ||
  { fail "a: no line for the refused browser"; show a; }
interrupt a
expect_rc a 0

# 4. --max-clients 20: 21 pages at once, one turned away; all closed mid-download; each slot
# freed (the server says the page went away, 10 s after), so that 20 ttcp -C tests at once all
# run (none busy), then a whole page's test. --max-rate 500k keeps each page's download to one
# request (under 1 Mbit/s), so that 20 pages' connections stay inside the 48 from one address.
web m --max-clients 20 --max-rate 500k
drive b4 abandon "http://127.0.0.1:$W/?start&time=20" 21 "$TMP/b4.json"
expect_rc b4 0
expect_eq b4 "pages mid-download" "$(j b4 '[.states[] | select(. == "download")] | length')" 20
expect_eq b4 "pages turned away (busy)" "$(j b4 '[.states[] | select(test("busy"))] | length')" 1
wait_for 40 m lines_at_least m err '^ttcp-S: web 127\.0\.0\.1: ended: the page went away after' 20 ||
  { fail "m: the abandoned pages' slots were not freed"; show m; }
wait_for "$WAIT" m lines_at_least m err '^ttcp-S: 127\.0\.0\.1: turned away: busy \(--max-clients\)$' 1 ||
  { fail "m: no line for the page turned away"; show m; }
for i in $(seq 20); do start "c$i" "$TTCP" -C --time 1 -p "$P" 127.0.0.1; done
ran=0; for i in $(seq 20); do reap "c$i"; [ "${RC[c$i]}" = 0 ] && ran=$((ran + 1)); done
expect_eq c "ttcp -C tests at once that ran (all 20 slots free)" "$ran" 20
drive b5 start "http://127.0.0.1:$W/?start&time=1" "$TMP/b5.json"
expect_eq b5 "a whole test after them" "$(j b5 '.result.error // "none"')" none
interrupt m
expect_rc m 0

# 5. Every line of the servers' -S --json (the browsers' tests, done and abandoned, and the
# ttcp -C test's) is valid against the man page's schema (as json_schema.sh reads it).
PY=/usr/bin/python3
if [ -x "$PY" ] && "$PY" -c 'import jsonschema' 2>/dev/null && command -v mandoc >/dev/null; then
  mandoc -T utf8 "$E2E_DIR/../../docs/ttcp.1" >"$TMP/page.mandoc" 2>/dev/null
  run schema "$PY" "$E2E_DIR/peers/json_schema.py" extract "$TMP/page.mandoc"
  expect_rc schema 0
  for n in s r m; do
    run "v_$n" "$PY" "$E2E_DIR/peers/json_schema.py" validate "$TMP/schema.out" "$TMP/$n.out"
    [ "${RC[v_$n]}" = 0 ] || { fail "$n's -S --json is not valid against the schema"; show "v_$n"; }
  done
  expect_eq m "abandoned tests in -S --json" "$(jq -r 'select(.web.end == "abandoned") | .web.end' "$TMP/m.out" | wc -l)" 20
else
  fail "no python3-jsonschema or mandoc: the documents are checked against the man page's schema (ci/deps)"
fi
finish
