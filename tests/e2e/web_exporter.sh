# -S --web's tests in the exporter's figures (issue 25): a browser-less test by HTTP requests
# with curl against ttcp -S --web on 127.0.0.1 (POST /start, GET /down, POST /up, POST /done,
# as the page makes them), then ttcp-exporter's /probe with web=1: the count of browser tests
# and the latest one's figures are the ones of the server's line and -S --json (the upload is
# the server's count); 16 more tests: the count goes on past the 16 the server keeps, the
# latest is the last; a figure the test did not give is left out; web=1 against no server
# gives ttcp_web_up 0; web=2 is refused (400); a -1 server answers and still runs the test; a
# fake server's answers past the client's bounds give ttcp_web_up 0 and the reason.
BOUND=${BOUND:-60}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
EXPORTER=${EXPORTER:-$E2E_DIR/../../build/ttcp-exporter}
[ -x "$EXPORTER" ] || skip "no ttcp-exporter at $EXPORTER (built with libmicrohttpd)"
command -v curl >/dev/null || skip "no curl"
need_jq

# post NAME PATH [CURL ARGS...]: a request to the page's server (bounded), its body in
# $TMP/NAME.out.
post() {
  local name=$1 path=$2; shift 2
  run "$name" curl -sS --max-time 15 "$@" "http://127.0.0.1:$W$path"
  expect_rc "$name" 0
}
# probe NAME QUERY STATUS: the exporter's answer to /probe?target=127.0.0.1&port=P&QUERY, its
# body in $TMP/NAME.body, of HTTP status STATUS.
probe() {
  run "$1" curl -sS --max-time 20 -o "$TMP/$1.body" -w '%{http_code}' \
    "http://127.0.0.1:$XP/probe?target=127.0.0.1&port=$SP&time=0.5&$2"
  expect_eq "$1" "HTTP status" "$(cat "$TMP/$1.out")" "$3"
}
value() { sed -nE "s/^$2\\{target=\"127\\.0\\.0\\.1\"\\} ([0-9.e+-]+)$/\\1/p" "$TMP/$1.body"; }
# one_test NAME QUERY: a session started (for 1 s) and ended by /done?QUERY, no data.
one_test() {
  post "$1s" '/start?time=1' -X POST
  post "$1d" "/done?id=$(jq -r .id "$TMP/$1s.out")&$2" -X POST
}

W=$(free_port)
on_free_port "tcp:s" start_on_P s "$TTCP" -S -p @P@ --iperf3-port 0 --nuttcp-port 0 --json \
  --web "127.0.0.1:$W" && wait_listen tcp "$W" s
SP=$P
listen_on x tcp "$EXPORTER" --listen 127.0.0.1:@P@ --allow 127.0.0.1/32
XP=$P

# Before any browser test: the server answers, none seen.
probe p0 web=1 200
expect_eq p0 "ttcp_web_up, no test yet" "$(value p0 ttcp_web_up) $(value p0 ttcp_web_tests_total)" "1 0"
grep -q '^ttcp_web_age_seconds' "$TMP/p0.body" && fail "p0: an age without a test"

# 1. One test as the page runs it: the download, 2 MB of upload, the page's figures.
head -c 2000000 /dev/urandom >"$TMP/up2m"
post st '/start?time=1' -X POST
ID=$(jq -r .id "$TMP/st.out")
post dn "/down?id=$ID" -o /dev/null
post up "/up?id=$ID" --data-binary "@$TMP/up2m" -H 'Content-Type: application/octet-stream'
post dd "/done?id=$ID&down_bps=38600&down_bytes=48250&idle_us=120000&loaded_us=400000&jitter_us=3000" -X POST
wait_for "$WAIT" s lines_at_least s err '^ttcp-S: web 127\.0\.0\.1: down 38\.6 kbit/s, up .*, idle 120 ms, loaded 400 ms, grade D$' 1 ||
  { fail "s: no line for the browser's test"; show s; }
wait_for "$WAIT" s lines_at_least s out '"side":"web"' 1 || { fail "s: no -S --json for it"; show s; }
jq -c 'select(.side == "web") | .web' "$TMP/s.out" >"$TMP/w1.json"
probe p1 web=1 200
expect_eq p1 "ttcp_up" "$(value p1 ttcp_up)" 1
expect_eq p1 "ttcp_web_up" "$(value p1 ttcp_web_up)" 1
expect_eq p1 "tests seen" "$(value p1 ttcp_web_tests_total)" 1
expect_eq p1 "download (the page's)" "$(value p1 ttcp_web_download_bits_per_second)" \
  "$(jq -r .download_bps "$TMP/w1.json")"
expect_eq p1 "upload bytes (the server's count)" "$(value p1 ttcp_web_upload_bytes)" 2000000
expect_eq p1 "... as -S --json has them" "$(jq -r .upload_bytes "$TMP/w1.json")" 2000000
# (the JSON's figure has 9 significant digits, the exporter's whole bits a second)
expect_awk p1 "upload rate as -S --json's" \
  "(a = $(value p1 ttcp_web_upload_bits_per_second)) > 0 && (b = $(jq -r .upload_bps "$TMP/w1.json")) > 0 && a - b <= b * 1e-8 + 1 && b - a <= b * 1e-8 + 1"
expect_eq p1 "idle, loaded latency, grade" "$(value p1 ttcp_web_idle_latency_seconds) \
$(value p1 ttcp_web_loaded_latency_seconds) $(value p1 ttcp_web_bufferbloat_grade)" "0.12 0.4 4"
expect_awk p1 "its age, under the time since it ended" \
  "$(value p1 ttcp_web_age_seconds) >= 0 && $(value p1 ttcp_web_age_seconds) < $WAIT + 5"

# 2. 16 more, the last with the download alone: 17 seen, the server keeps and tells 16, the
# latest is the last, its missing figures left out.
for i in $(seq 15); do one_test "t$i" "down_bps=$((1000 * i))&down_bytes=$i&idle_us=1000&loaded_us=2000&jitter_us=0"; done
one_test t16 "down_bps=777000&down_bytes=4242"
wait_for "$WAIT" s lines_at_least s err '^ttcp-S: web 127\.0\.0\.1: ' 17 ||
  { fail "s: not 17 lines of browser tests"; show s; }
probe p2 web=1 200
expect_eq p2 "tests seen" "$(value p2 ttcp_web_tests_total)" 17
expect_eq p2 "the latest's download" "$(value p2 ttcp_web_download_bits_per_second)" 777000
for m in ttcp_web_upload ttcp_web_idle ttcp_web_loaded ttcp_web_bufferbloat; do
  grep -q "^$m" "$TMP/p2.body" && fail "p2: $m given for a test without it"
done

# 3. Without web=1 no web lines; web=2 refused; a dead port: the test fails, web_up 0.
probe p3 '' 200
grep -q '^ttcp_web' "$TMP/p3.body" && fail "p3: web lines without web=1"
probe p4 web=2 400
stop s
probe p5 web=1 200
expect_eq p5 "ttcp_up, ttcp_web_up of a server gone" "$(value p5 ttcp_up) $(value p5 ttcp_web_up)" "0 0"
# 4. A -1 server: the question is no test, so it answers it and still runs the probe's test.
W=$(free_port)
on_free_port "tcp:s1" start_on_P s1 "$TTCP" -S -1 -p @P@ --iperf3-port 0 --nuttcp-port 0 \
  --web "127.0.0.1:$W" && wait_listen tcp "$W" s1
SP=$P
probe p6 web=1 200
expect_eq p6 "ttcp_up, ttcp_web_up, tests of a -1 server" \
  "$(value p6 ttcp_up) $(value p6 ttcp_web_up) $(value p6 ttcp_web_tests_total)" "1 1 0"
reap s1
expect_rc s1 0

# 5. The client's bounds (peers/web_results_fake.py answers as told): a good answer read; 17
# results, results out of order, a count that is not what came, a grade or a count out of
# bounds: each ttcp_web_up 0 with its reason on the exporter's standard error.
start f python3 "$E2E_DIR/peers/web_results_fake.py" "$TMP/f.port" good too_many out_of_order count bound \
  end_bound
wait_for "$WAIT" f test -s "$TMP/f.port" || { fail "f: the fake server did not start"; show f; }
SP=$(cat "$TMP/f.port")
probe f1 web=1 200
expect_eq f1 "web_up, tests, download of a good answer" "$(value f1 ttcp_web_up) \
$(value f1 ttcp_web_tests_total) $(value f1 ttcp_web_download_bits_per_second)" "1 6 1234"
n=2
for why in 'more than 16 web results' 'web results out of order' \
           'web_results_end: count 2, 1 came' 'grade: ' 'count: '; do
  probe "f$n" web=1 200
  expect_eq "f$n" "ttcp_web_up" "$(value "f$n" ttcp_web_up)" 0
  grep -qF "web results of 127.0.0.1 port $SP: $why" "$TMP/x.err" ||
    fail "f$n: no '$why' on the exporter's standard error"
  n=$((n + 1))
done
reap f
expect_rc f 0
stop x
finish
