# -S --web's endpoints for other speed-test engines (issue 25, part 2), with curl on 127.0.0.1:
# LibreSpeed's garbage (ckSize as LibreSpeed bounds it, incompressible), empty (ping and
# upload) and getIP under /librespeed/, Cloudflare's /__down?bytes=N and /__up; each with the
# headers its engine reads (no caching, CORS, Timing-Allow-Origin, Server-Timing), a preflight,
# 4xx for a bad ckSize or bytes, a wrong method, an unknown path, an unbounded or too large
# body; the server's count of the uploads in its line and -S --json once the run is quiet;
# --max-rate and --max-time on a run; --max-clients (a second address, 127.0.0.2, turned away
# while the first one's run holds the only slot, but for requests that move no bytes); --allow refusing with 403. LibreSpeed's own
# browser client (speedtest_worker.js) is on neither npm nor Debian, so it is not run here.
BOUND=${BOUND:-90}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
command -v curl >/dev/null || { fail "curl is missing (ci/deps installs it)"; finish; }

# web NAME ARGS...: ttcp -S on a fresh port P, its HTTP on W, both listening; -S --json.
web() {
  local name=$1; shift
  W=$(free_port)
  on_free_port "tcp:$name" start_on_P "$name" "$TTCP" -S -p @P@ --iperf3-port 0 \
    --nuttcp-port 0 --json --web "127.0.0.1:$W" "$@" && wait_listen tcp "$W" "$name"
}
# get NAME PATH [CURL ARGS...]: curl to the server, bounded; headers in $TMP/NAME.hdr, body in
# $TMP/NAME.body, "status size seconds" on stdout ($TMP/NAME.out).
get() {
  local name=$1 path=$2; shift 2
  run "$name" curl -sS --max-time 20 -D "$TMP/$name.hdr" -o "$TMP/$name.body" \
    -w '%{http_code} %{size_download} %{time_total}\n' "$@" "http://127.0.0.1:$W$path"
}
status() { cut -d' ' -f1 "$TMP/$1.out"; }
size() { cut -d' ' -f2 "$TMP/$1.out"; }
# header NAME FIELD: the response's FIELD, without its name and the line's CR.
header() { sed -nE "s/^$2: (.*)\r?$/\1/Ip" "$TMP/$1.hdr" | tr -d '\r' | tail -n 1; }
# expect_headers NAME: LibreSpeed's and Cloudflare's common headers (sorted by name), and no
# Content-Encoding.
common_headers="Access-Control-Allow-Headers: Content-Encoding, Content-Type
Access-Control-Allow-Methods: GET, POST, OPTIONS
Access-Control-Allow-Origin: *
Cache-Control: no-store, no-cache, must-revalidate, max-age=0, s-maxage=0
Pragma: no-cache
Timing-Allow-Origin: *"
expect_headers() {
  expect_eq "$1" "the common headers" "$(tr -d '\r' <"$TMP/$1.hdr" |
    grep -iE '^(Cache-Control|Pragma|Access-Control-Allow-[a-z]+|Timing-Allow-Origin|Content-Encoding):' | LC_ALL=C sort)" \
    "$common_headers"
}
server_timing_re='^cfRequestDuration;dur=[0-9]+\.[0-9]{3}$'
head -c 3000000 /dev/urandom >"$TMP/up3m"
head -c 2000000 /dev/urandom >"$TMP/up2m"

# The runs end 6 s after their last requests: the servers whose runs must end (1, 3) wait while
# the others (4, 2) are tested, each on a server and port of its own (W, as each server has it).

# 1. Every endpoint, its headers and bounds.
web s && WS=$W
get g2 '/librespeed/garbage.php?r=0.42&ckSize=2'
expect_eq g2 "status, size of ckSize=2" "$(status g2) $(size g2)" "200 2097152"
expect_headers g2
expect_eq g2 "Content-Type" "$(header g2 Content-Type)" "application/octet-stream"
expect_eq g2 "Content-Disposition" "$(header g2 Content-Disposition)" "attachment; filename=random.dat"
gzip -c "$TMP/g2.body" >"$TMP/g2.gz"
expect_awk g2 "incompressible: gzip keeps 99 % of it" "$(stat -c %s "$TMP/g2.gz") >= 0.99 * 2097152"
get g0 /librespeed/garbage
expect_eq g0 "status, size without ckSize (LibreSpeed's 4)" "$(status g0) $(size g0)" "200 4194304"
# ckSize above 1024 is cut to 1024 MiB: its length only (the body is left unread).
CMD[gbig]="curl garbage?ckSize=5000"
curl -sS --max-time 20 -D "$TMP/gbig.hdr" "http://127.0.0.1:$W/librespeed/backend/garbage.php?ckSize=5000" 2>/dev/null | head -c 100000 >/dev/null
expect_eq gbig "Content-Length of ckSize=5000" "$(header gbig Content-Length)" "$((1024 * 1048576))"
for bad in abc -1 1.5 99999999999999999999999; do
  get "gbad$bad" "/librespeed/garbage.php?ckSize=$bad"
  expect_eq "gbad$bad" "status of ckSize=$bad" "$(status "gbad$bad")" 400
done
grep -q 'ckSize' "$TMP/gbadabc.body" || fail "gbadabc: the 400's text does not name ckSize: $(cat "$TMP/gbadabc.body")"
get ping /librespeed/empty.php
expect_eq ping "status, size of a ping" "$(status ping) $(size ping)" "200 0"
expect_headers ping
get lsup /librespeed/empty.php --data-binary "@$TMP/up3m" -H 'Content-Type: application/octet-stream'
expect_eq lsup "status of LibreSpeed's upload" "$(status lsup)" 200
expect_eq lsup "the server's count of it" "$(header lsup Ttcp-Received)" 3000000
expect_headers lsup
get ip /librespeed/getIP.php
expect_eq ip "status" "$(status ip)" 200
expect_eq ip "getIP's JSON" "$(jq -c . "$TMP/ip.body")" '{"processedString":"127.0.0.1","rawIspInfo":""}'
get pre /librespeed/empty.php -X OPTIONS -H 'Origin: http://example.test' -H 'Access-Control-Request-Method: POST'
expect_eq pre "status of a preflight" "$(status pre)" 204
expect_headers pre
get cfd '/__down?bytes=123456&measId=7'
expect_eq cfd "status, size of bytes=123456" "$(status cfd) $(size cfd)" "200 123456"
expect_headers cfd
[[ $(header cfd Server-Timing) =~ $server_timing_re ]] || fail "cfd: Server-Timing is '$(header cfd Server-Timing)'"
expect_eq cfd "Access-Control-Expose-Headers" "$(header cfd Access-Control-Expose-Headers)" "Server-Timing, Ttcp-Received"
get cf0 '/__down?bytes=0'
expect_eq cf0 "status, size of bytes=0 (the engine's latency request)" "$(status cf0) $(size cf0)" "200 0"
for bad in '' 'bytes=' 'bytes=1000000001' 'bytes=abc' 'bytes=-5'; do
  get cfbad "/__down?$bad"
  expect_eq cfbad "status of /__down?$bad" "$(status cfbad)" 400
done
get cfu '/__up?bytes=2000000' --data-binary "@$TMP/up2m"
expect_eq cfu "status of /__up" "$(status cfu)" 200
expect_eq cfu "the server's count of it" "$(header cfu Ttcp-Received)" 2000000
[[ $(header cfu Server-Timing) =~ $server_timing_re ]] || fail "cfu: Server-Timing is '$(header cfu Server-Timing)'"
expect_headers cfu
get m1 /__up
expect_eq m1 "GET /__up" "$(status m1)" 405
expect_eq m1 "the Allow of /__up" "$(header m1 Allow)" "POST, OPTIONS"
get m2 /librespeed/garbage.php -X POST --data-binary x
expect_eq m2 "POST garbage" "$(status m2)" 405
expect_eq m2 "the Allow of garbage" "$(header m2 Allow)" "GET, OPTIONS"
get nf /librespeed/nothing.php
expect_eq nf "an unknown path under /librespeed/" "$(status nf)" 404
get big /__up -H 'Content-Length: 70000000' -H 'Expect:' --data-binary x
expect_eq big "an upload said to be over 64 MiB" "$(status big)" 413
get chunked /__up -H 'Transfer-Encoding: chunked' --data-binary "@$TMP/up2m"
expect_eq chunked "an upload of a length not told" "$(status chunked)" 411

# 3. --max-clients 1: the run of 127.0.0.1 holds the slot; 127.0.0.2's download is turned away
# until it ends, its pings are not.
web m --max-clients 1 && WM=$W
get m_a '/__down?bytes=1000'
expect_eq m_a "the first address" "$(status m_a)" 200
get m_b '/__down?bytes=1000' --interface 127.0.0.2
expect_eq m_b "a second address while the slot is held" "$(status m_b)" 503
grep -q 'max-clients' "$TMP/m_b.body" || fail "m_b: the 503's text is '$(cat "$TMP/m_b.body")'"
# a ping, getIP and Cloudflare's latency request take no slot: answered all the same
for path in /librespeed/empty.php /librespeed/getIP.php '/__down?bytes=0'; do
  get m_p "$path" --interface 127.0.0.2
  expect_eq m_p "$path from the second address, no slot taken" "$(status m_p)" 200
done

# 4. --allow without 127.0.0.0/8: 403 on every endpoint, and the server's line.
web a --allow 10.0.0.0/8
for path in '/__down?bytes=10' /librespeed/getIP.php; do
  get deny "$path"
  expect_eq deny "status of $path outside --allow" "$(status deny)" 403
done
get deny_up /__up --data-binary "@$TMP/up2m"
expect_eq deny_up "an upload outside --allow" "$(status deny_up)" 403
wait_for "$WAIT" a lines_at_least a err '^ttcp-S: 127\.0\.0\.1: refused: not in --allow$' 3 ||
  { fail "a: no lines for the refused requests"; show a; }
interrupt a
expect_rc a 0
[ -z "$(jq -c 'select(.web)' "$TMP/a.out" 2>/dev/null)" ] || fail "a: a run was told for refused requests"
# 2. --max-rate 8m and --max-time 3 on a run: 2 MB take about 2 s; a 100 MB download is cut
# when the run has lasted 3 s.
web r --max-rate 8m --max-time 3
get slow '/__down?bytes=2000000'
expect_eq slow "status, size paced" "$(status slow) $(size slow)" "200 2000000"
expect_awk slow "2 MB at 8 Mbit/s: 1.8 to 4 s" "$(cut -d' ' -f3 "$TMP/slow.out") >= 1.8 && $(cut -d' ' -f3 "$TMP/slow.out") <= 4"
get cut '/__down?bytes=100000000'
expect_awk cut "the download cut short" "$(size cut) < 100000000"
[ "${RC[cut]}" != 0 ] || fail "cut: curl took a cut download as whole"
wait_for 10 r lines_at_least r err '^ttcp-S: web 127\.0\.0\.1: ended: past its time \(--max-time\) after 3\.[0-9] s: down -, up -$' 1 ||
  { fail "r: no line for the run cut by --max-time"; show r; }
interrupt r
expect_rc r 0

W=$WS
# The run ends 6 s after its last request: the server's line and -S --json, every upload byte.
wait_for 15 s lines_at_least s err '^ttcp-S: web 127\.0\.0\.1: down -, up [0-9.]+ [kMGT]?bit/s$' 1 ||
  { fail "s: no line for the run"; show s; }
jq -c 'select(.web)' "$TMP/s.out" >"$TMP/s.web.json" 2>/dev/null
expect_eq s "runs told" "$(jq -s length "$TMP/s.web.json")" 1
expect_eq s "the run's end" "$(jq -r .web.end "$TMP/s.web.json")" done
expect_eq s "upload bytes the server counted" "$(jq -r .web.upload_bytes "$TMP/s.web.json")" 5000000
expect_awk s "download bytes sent: the downloads' at least" "$(jq -r .web.download_sent "$TMP/s.web.json") >= 2097152 + 4194304 + 123456"
measured "s: the run's upload as the server counted it: $(jq -r .web.upload_bps "$TMP/s.web.json") bit/s"
interrupt s
expect_rc s 0

W=$WM
wait_for 15 m lines_at_least m err '^ttcp-S: web 127\.0\.0\.1: down -, up -$' 1 || { fail "m: the first run did not end"; show m; }
# (the line is told as the run's keeper ends; its slot is free once the server reaps it, a moment
# later: the second address asks again for at most 5 s)
for i in $(seq 50); do
  get m_w '/__down?bytes=1000' --interface 127.0.0.2
  [ "$(status m_w)" = 200 ] && break
  sleep 0.1
done
expect_eq m_w "the second address within 5 s of the first run's end" "$(status m_w)" 200
get m_c '/__up' --interface 127.0.0.2 --data-binary "@$TMP/up2m"
expect_eq m_c "the second address once the slot is free" "$(status m_c) $(header m_c Ttcp-Received)" "200 2000000"
interrupt m
expect_rc m 0

finish
