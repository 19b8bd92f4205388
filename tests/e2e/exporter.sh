# ttcp-exporter (issue 17): probes of a ttcp -S on 127.0.0.1 answered in Prometheus' text format;
# a target outside --allow refused (403) with no connection to it; bad parameters 400; /metrics
# counting; a probe of a dead port (ttcp_up 0, a failure) and of a mute one (ended by the scrape
# timeout); a second probe of a busy target, and past --max-probes, refused with 503 (however the
# address is written); a body refused; --key-file; analyze=1's, compression=1's and latency=1's
# metrics (issue 24); an exporter on [::1] probing ::1; then a real
# Prometheus (Debian's) scraping the exporter with the probe pattern, its HTTP API showing
# ttcp_up 1 and a bits-per-second sample above zero for the target.
BOUND=${BOUND:-90}   # Prometheus lives through its scrapes
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
EXPORTER=${EXPORTER:-$E2E_DIR/../../build/ttcp-exporter}
[ -x "$EXPORTER" ] || skip "no ttcp-exporter at $EXPORTER (built with libmicrohttpd)"
command -v curl >/dev/null || skip "no curl"
command -v prometheus >/dev/null || skip "no prometheus (ci/deps installs Debian's)"
need_jq

# get NAME URL [CURL-ARGS...]: GET URL (bounded), body in $TMP/NAME.out, the status in
# $TMP/NAME.status.
get() {
  CMD[$1]="curl $2"; RC[$1]=done; : >"$TMP/$1.err"
  "${BOUNDED[@]}" curl -s -m 15 "${@:3}" -o "$TMP/$1.out" -w '%{http_code}' "$2" >"$TMP/$1.status"
}
status_is() {
  local got; got=$(cat "$TMP/$1.status")
  [ "$got" = "$2" ] || { fail "$1: HTTP status $got, expected $2"; sed 's/^/    | /' "$TMP/$1.out"; }
}
value() { sed -nE "s/^$2\\{target=\"127\\.0\\.0\\.1\"\\} ([0-9.e+-]+)$/\\1/p" "$TMP/$1.out"; }
# labelled NAME METRIC KEY VALUE: the sample of METRIC{target="127.0.0.1",KEY="VALUE"}.
labelled() {
  sed -nE "s/^$2\\{target=\"127\\.0\\.0\\.1\",$3=\"$4\"\\} ([0-9.e+-]+)$/\\1/p" "$TMP/$1.out"
}
metric() { sed -nE "s/^$2 ([0-9.e+-]+)$/\\1/p" "$TMP/$1.out"; }

on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -p @P@
SP=$P
listen_on x tcp "$EXPORTER" --listen 127.0.0.1:@P@ --allow 127.0.0.1/32
XP=$P
URL=http://127.0.0.1:$XP

# A TCP probe of one second: up, bytes both ways, a rate above zero, the RTT, every metric with
# its HELP and TYPE.
get p1 "$URL/probe?target=127.0.0.1&port=$SP&time=1"
status_is p1 200
expect_eq p1 ttcp_up "$(value p1 ttcp_up)" 1
bps=$(value p1 ttcp_bits_per_second) secs=$(value p1 ttcp_receiver_seconds)
expect_awk p1 "bits per second > 0" "${bps:-x} > 0"
expect_awk p1 "received bytes > 0" "$(value p1 ttcp_received_bytes) > 0"
expect_awk p1 "receiver seconds near 1" "${secs:-x} > 0.5 && ${secs:-x} < 3"
expect_match p1 out '^ttcp_tcp_rtt_seconds\{target="127.0.0.1"\} '
expect_eq p1 "TYPE lines" "$(grep -c '^# TYPE ttcp_[a-z_]* gauge$' "$TMP/p1.out")" \
  "$(grep -c '^ttcp_' "$TMP/p1.out")"

# A paced UDP probe the other way: loss and jitter.
get p2 "$URL/probe?target=127.0.0.1&port=$SP&time=0.5&udp=1&reverse=1&rate=20m"
status_is p2 200
expect_eq p2 ttcp_up "$(value p2 ttcp_up)" 1
expect_match p2 out '^ttcp_udp_lost_packets\{target="127.0.0.1"\} [0-9]+$'
expect_match p2 out '^ttcp_udp_jitter_seconds\{target="127.0.0.1"\} '

# Outside --allow (127.0.0.2 is loopback too: a connection would reach the server): 403, and the
# server sees nothing.
before=$(cat "$TMP/s.out" "$TMP/s.err" | wc -c)
conns() { ss -Htn state established "( dport = :$SP or sport = :$SP )" | wc -l; }
get r1 "$URL/probe?target=127.0.0.2&port=$SP&time=1"
status_is r1 403
expect_match r1 out 'not allowed'
sleep 0.3
expect_eq s "server output after the refused probe" "$(cat "$TMP/s.out" "$TMP/s.err" | wc -c)" "$before"
expect_eq s "connections to the server" "$(conns)" 0

# Bad parameters: 400 with a one-line reason.
for q in "target=127.0.0.1&port=0" "target=127.0.0.1&time=600" "port=$SP" "target=-x" \
         "target=127.0.0.1&udp=2" "target=127.0.0.1&bogus=1" "target=127.0.0.1&target=127.0.0.1" \
         "target=127.0.0.1&streams=1000"; do
  get b "$URL/probe?$q"
  status_is b 400
  expect_eq b "lines of the 400 for $q" "$(wc -l <"$TMP/b.out")" 1
done

# /metrics: the two probes, the refusal, the eight bad requests.
get m "$URL/metrics"
status_is m 200
expect_eq m probes "$(metric m ttcp_exporter_probes_total)" 2
expect_eq m failures "$(metric m ttcp_exporter_probe_failures_total)" 0
expect_eq m refused "$(metric m ttcp_exporter_refused_total)" 1
expect_eq m "bad requests" "$(metric m ttcp_exporter_bad_requests_total)" 8
run xm "$EXPORTER" --max-probes 17
expect_rc xm 2
expect_lines xm err "^ttcp-exporter: --max-probes: '17' is out of range \(1 to 16\)$"

# A target where no ttcp -S answers: the scrape succeeds (200), the probe did not (ttcp_up 0, and
# no figures), and /metrics counts a failure (the blackbox model).
DEAD=$(free_port)
get d "$URL/probe?target=127.0.0.1&port=$DEAD&time=1"
status_is d 200
expect_eq d ttcp_up "$(value d ttcp_up)" 0
expect_eq d "figures of a failed probe" "$(grep -c '^ttcp_bits_per_second' "$TMP/d.out")" 0
expect_match x err "^ttcp-exporter: probe of 127\.0\.0\.1 port $DEAD: Connection refused\$"

# A server that accepts and then says nothing: the probe ends by the scrape timeout (1.5 s),
# not after ttcp -C's 10 s wait for a frame. The bound checked is a hang's (8 s), not a timing.
listen_on mute tcp python3 "$E2E_DIR/peers/silent.py" @P@ 30
CMD[h]="curl (scrape timeout 1.5 s)"; RC[h]=done; : >"$TMP/h.err"
t0=$(now)
"${BOUNDED[@]}" curl -s -m 15 -H 'X-Prometheus-Scrape-Timeout-Seconds: 1.5' -o "$TMP/h.out" \
  -w '%{http_code}' "$URL/probe?target=127.0.0.1&port=$P" >"$TMP/h.status"
took=$(since "$t0")
status_is h 200
expect_eq h "ttcp_up of a mute server" "$(value h ttcp_up)" 0
expect_awk h "a mute server's probe ended within 8 s (took $took s)" "$took < 8"
measured "a mute server's probe with a 1.5 s scrape timeout: $took s"
stop mute

# One probe per target at a time: while a probe of 127.0.0.1 runs (the server holds its
# connection), a second one of the same target is refused at once with 503.
start slow curl -s -m 15 -o "$TMP/slow.body" -w '%{http_code}' \
  "$URL/probe?target=127.0.0.1&port=$SP&time=2"
has_conn() { [ "$(conns)" -gt 0 ]; }
wait_for 10 slow has_conn || fail "the first probe never reached the server"
get busy "$URL/probe?target=127.0.0.1&port=$SP&time=1"
status_is busy 503
expect_match busy out '^busy: this target is being probed now$'
# the same host written another way is the same target
get busy2 "$URL/probe?target=::ffff:127.0.0.1&port=$SP&time=1"
status_is busy2 503
expect_match busy2 out '^busy: this target is being probed now$'
reap slow
expect_eq slow "status of the probe that ran" "$(cat "$TMP/slow.out")" 200
expect_match slow body '^ttcp_up\{target="127.0.0.1"\} 1$'

# A body is read to its end and refused: 405 for another method, 400 for a GET with one.
for m in POST GET; do
  CMD[body]="curl -X $m -d"; RC[body]=done; : >"$TMP/body.err"
  "${BOUNDED[@]}" curl -s -m 15 -X "$m" --data-binary "@$E2E_DIR/lib.sh" -o "$TMP/body.out" \
    -w '%{http_code}' "$URL/probe?target=127.0.0.1&port=$SP" >"$TMP/body.status"
  status_is body "$([ "$m" = POST ] && echo 405 || echo 400)"
done

# A body longer than 64 KiB, or of no length told (chunked): the connection is closed at once,
# with no answer (curl's 000), and the exporter serves on.
head -c 100000 /dev/zero >"$TMP/big"
for how in "--data-binary @$TMP/big" "-H Transfer-Encoding:chunked --data-binary @$E2E_DIR/lib.sh"; do
  CMD[big]="curl $how"; RC[big]=done; : >"$TMP/big.err"
  # shellcheck disable=SC2086
  "${BOUNDED[@]}" curl -s -m 15 $how -o "$TMP/big.out" -w '%{http_code}' \
    "$URL/probe?target=127.0.0.1&port=$SP" >"$TMP/big.status"
  status_is big 000
done

get m2 "$URL/metrics"
expect_eq m2 probes "$(metric m2 ttcp_exporter_probes_total)" 5
expect_eq m2 failures "$(metric m2 ttcp_exporter_probe_failures_total)" 2
expect_eq m2 busy "$(metric m2 ttcp_exporter_busy_total)" 2
expect_eq m2 "bad requests" "$(metric m2 ttcp_exporter_bad_requests_total)" 9

# --key-file: a server that asks for a key is probed with it (ttcp_up 1); the exporter without
# the key gets ttcp_up 0 (the server refused the test); a key file others may read keeps the
# exporter from starting (exit 2, the reason on stderr).
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$TMP/key" && chmod 600 "$TMP/key"
on_free_port "tcp:sk udp:sk" start_on_P sk "$TTCP" -S -p @P@ --key-file "$TMP/key"
KP=$P
listen_on xk tcp "$EXPORTER" --listen 127.0.0.1:@P@ --allow 127.0.0.1/32 --key-file "$TMP/key"
get k1 "http://127.0.0.1:$P/probe?target=127.0.0.1&port=$KP&time=0.5"
status_is k1 200
expect_eq k1 "ttcp_up with the key" "$(value k1 ttcp_up)" 1
get k0 "$URL/probe?target=127.0.0.1&port=$KP&time=0.5"
status_is k0 200
expect_eq k0 "ttcp_up without the key" "$(value k0 ttcp_up)" 0
stop xk
stop sk
chmod 644 "$TMP/key"
run xr "$EXPORTER" --listen 127.0.0.1:1 --allow 127.0.0.1/32 --key-file "$TMP/key"
expect_rc xr 2
expect_match xr err '^ttcp-exporter: --key-file: .* may be read by others'

# analyze=1 (issue 24): the sender's seconds by what held it back, each >= 0, together no more
# than the probe that holds the sender's whole connection; the baseline RTT, the bytes sent
# again and each end's cpu-bound flag; every family with its HELP and TYPE once.
get a1 "$URL/probe?target=127.0.0.1&port=$SP&time=1&analyze=1"
status_is a1 200
expect_eq a1 ttcp_up "$(value a1 ttcp_up)" 1
limits=0 sum=0
for by in rwnd sndbuf cwnd app; do
  v=$(labelled a1 ttcp_limited_seconds by "$by")
  [ -n "$v" ] || { echo "note: the OS gave no $by share (left out)"; continue; }
  limits=$((limits + 1))
  expect_awk a1 "ttcp_limited_seconds by $by ($v) >= 0" "$v >= 0"
  sum=$(awk -v a="$sum" -v b="$v" 'BEGIN { print a + b }')
done
expect_awk a1 "limited shares given ($limits)" "$limits >= 1"
probe_s=$(value a1 ttcp_probe_duration_seconds)
expect_awk a1 "limited seconds ($sum) > 0 and within the probe ($probe_s s)" \
  "$sum > 0 && $sum <= ${probe_s:-0} + 0.001"
measured "analyze=1, 1 s test: limited seconds sum $sum of a ${probe_s} s probe ($(grep -c '^ttcp_limited_seconds' "$TMP/a1.out") shares)"
for m in ttcp_tcp_min_rtt_seconds ttcp_tcp_retransmitted_bytes ttcp_tcp_sent_bytes; do
  v=$(value a1 "$m")
  expect_awk a1 "$m (${v:-missing}) >= 0" "${v:--1} >= 0"
done
for end in sender receiver; do
  expect_match a1 out "^ttcp_cpu_bound\\{target=\"127.0.0.1\",end=\"$end\"\\} [01]\$"
done
expect_eq a1 "families with HELP and TYPE" "$(grep -c '^# TYPE ttcp_[a-z_]* gauge$' "$TMP/a1.out")" \
  "$(grep -c '^# HELP ttcp_' "$TMP/a1.out")"
expect_eq a1 "TYPE lines against families" "$(grep -c '^# TYPE ' "$TMP/a1.out")" \
  "$(sed -nE 's/^(ttcp_[a-z_]+)\{.*/\1/p' "$TMP/a1.out" | sort -u | wc -l)"
# without analyze=1, none of them
expect_eq p1 "analysis lines without analyze=1" "$(grep -c 'ttcp_limited_seconds\|ttcp_cpu_bound' "$TMP/p1.out")" 0

# compression=1: the classic run, then the random one; both rates and their ratio. The reverse
# way (the server sends both patterns).
get c1 "$URL/probe?target=127.0.0.1&port=$SP&time=0.5&compression=1&reverse=1"
status_is c1 200
expect_eq c1 ttcp_up "$(value c1 ttcp_up)" 1
classic=$(labelled c1 ttcp_compression_bits_per_second pattern classic)
random=$(labelled c1 ttcp_compression_bits_per_second pattern random)
ratio=$(value c1 ttcp_compression_ratio)
expect_awk c1 "classic ($classic) and random ($random) rates > 0" "${classic:-0} > 0 && ${random:-0} > 0"
expect_awk c1 "ratio ($ratio) is classic over random" \
  "${ratio:-0} > 0 && (${ratio:-0} - $classic / $random)^2 < 1e-6"
cpu=$(value c1 ttcp_compression_cpu_ratio)
expect_awk c1 "the busiest end's CPU ratio (${cpu:-missing}) > 0" "${cpu:-0} > 0"
measured "compression=1 on loopback: classic $classic, random $random bit/s, ratio $ratio, busiest end's CPU ratio $cpu"
# both go with TCP only: ttcp's own reason, one line, 400
for q in "udp=1&analyze=1" "udp=1&compression=1" "analyze=2" "compression=yes"; do
  get b2 "$URL/probe?target=127.0.0.1&port=$SP&$q"
  status_is b2 400
  expect_eq b2 "lines of the 400 for $q" "$(wc -l <"$TMP/b2.out")" 1
done
expect_match b2 out '^compression: '
get b3 "$URL/probe?target=127.0.0.1&port=$SP&udp=1&analyze=1"
expect_match b3 out '^the test: --analyze works with TCP only, not with -u$'

# latency=1: probes for latency_idle before the data and beside it; each phase's quantiles in
# order, the probes sent and lost, the increase (loaded median less idle) and the grade (0-5) it
# gives. Without latency=1, none of them.
get l1 "$URL/probe?target=127.0.0.1&port=$SP&time=1&latency=1&latency_idle=0.5&latency_interval=0.05"
status_is l1 200
expect_eq l1 ttcp_up "$(value l1 ttcp_up)" 1
# quant NAME PHASE Q: the sample of ttcp_latency_seconds{target="127.0.0.1",phase,quantile}.
quant() {
  sed -nE "s/^ttcp_latency_seconds\{target=\"127\.0\.0\.1\",phase=\"$2\",quantile=\"$3\"\} ([0-9.e+-]+)\$/\1/p" \
    "$TMP/$1.out"
}
for ph in idle loaded; do
  q5=$(quant l1 $ph 0.5) q9=$(quant l1 $ph 0.9) q99=$(quant l1 $ph 0.99)
  expect_awk l1 "$ph quantiles ($q5, $q9, $q99 s) > 0 and in order" \
    "${q5:-0} > 0 && ${q5:-0} <= ${q9:-0} && ${q9:-0} <= ${q99:-0} && ${q99:-0} < 1"
  sent=$(labelled l1 ttcp_latency_sent_probes phase $ph)
  lost=$(labelled l1 ttcp_latency_lost_probes phase $ph)
  expect_awk l1 "$ph probes lost ($lost) of sent ($sent)" "${lost:-x} >= 0 && ${lost:-x} <= ${sent:-0}"
  expect_eq l1 "$ph answered (the summary's count)" \
    "$(labelled l1 ttcp_latency_seconds_count phase $ph)" "$(( ${sent:-0} - ${lost:-0} ))"
  eval "sent_$ph=\${sent:-0}"
done
expect_awk l1 "idle probes ($sent_idle) for 0.5 s at 0.05 s" "$sent_idle >= 8 && $sent_idle <= 11"
expect_awk l1 "loaded probes ($sent_loaded) for 1 s at 0.05 s" "$sent_loaded >= 15"
inc=$(value l1 ttcp_latency_increase_seconds) grade=$(value l1 ttcp_bufferbloat_grade)
expect_awk l1 "increase ($inc) is the loaded median less the idle one" \
  "(${inc:-9} - ($(quant l1 loaded 0.5) - $(quant l1 idle 0.5)))^2 < 1e-12"
expect_eq l1 "the grade of a ${inc:-?} s increase" "${grade:-missing}" \
  "$(awk -v i="${inc:-0}" 'BEGIN { ms = i * 1000; if (ms < 0) ms = 0
    print (ms < 5 ? 0 : ms < 30 ? 1 : ms < 60 ? 2 : ms < 200 ? 3 : ms < 400 ? 4 : 5) }')"
expect_eq l1 "TYPE lines against families (a summary's _sum and _count its own)" \
  "$(grep -c '^# TYPE ' "$TMP/l1.out")" \
  "$(sed -nE 's/^(ttcp_[a-z_]+)\{.*/\1/p' "$TMP/l1.out" | sed -E 's/^(ttcp_latency_seconds)_(sum|count)$/\1/' |
     sort -u | wc -l)"
# promtool (Prometheus' own checker, beside it in Debian's package) finds nothing to say of the
# latency families; of the rest it says only what it said before them (bits, not bytes).
if command -v promtool >/dev/null; then
  promtool check metrics <"$TMP/l1.out" >"$TMP/l1.promtool" 2>&1
  expect_eq l1 "promtool's words on the latency families" \
    "$(grep -v '^ttcp_bits_per_second use base unit "bytes" instead of "bits"$' "$TMP/l1.promtool")" ""
else
  echo "note: no promtool; the exposition is checked by the lines above alone"
fi
expect_eq l1 "the idle seconds on top of the test" \
  "$(awk -v d="$(value l1 ttcp_probe_duration_seconds)" 'BEGIN { print (d >= 1.5) }')" 1
measured "latency=1 on loopback: idle median $(quant l1 idle 0.5) s, loaded $(quant l1 loaded 0.5) s, increase $inc s, grade $grade, probes $sent_idle + $sent_loaded"
expect_eq p1 "latency lines without latency=1" "$(grep -c 'latency\|bufferbloat' "$TMP/p1.out")" 0
# With Prometheus' 3 s scrape timeout and 1 s of idle probing, the test gets 3 - 0.5 - 1 s: the
# probe still ends inside the scrape.
get l2 "$URL/probe?target=127.0.0.1&port=$SP&latency=1&latency_idle=1" \
  -H 'X-Prometheus-Scrape-Timeout-Seconds: 3'
status_is l2 200
expect_eq l2 ttcp_up "$(value l2 ttcp_up)" 1
secs=$(value l2 ttcp_receiver_seconds) took=$(value l2 ttcp_probe_duration_seconds)
expect_awk l2 "the test's seconds ($secs) are the scrape's less the idle and the margin" \
  "${secs:-0} > 1.2 && ${secs:-0} < 1.9"
expect_awk l2 "the probe ($took s) within the scrape timeout" "${took:-9} < 3"
measured "latency=1 with a 3 s scrape timeout: test $secs s, probe $took s"
# bounded as ttcp's own options; the spacing and idle time go with latency=1 alone
for q in "latency=2" "latency=1&latency_interval=0.001" "latency=1&latency_interval=11" \
         "latency=1&latency_idle=61" "latency=1&latency_idle=-1" "latency_interval=0.1" \
         "latency=1&latency=1"; do
  get b4 "$URL/probe?target=127.0.0.1&port=$SP&$q"
  status_is b4 400
  expect_eq b4 "lines of the 400 for $q" "$(wc -l <"$TMP/b4.out")" 1
done
expect_match b4 out '^a parameter is given twice$'
get b5 "$URL/probe?target=127.0.0.1&port=$SP&latency_idle=1"
expect_match b5 out '^the test: --latency-idle is for --latency$'

# IPv6: an exporter listening on [::1] probes the server over ::1 (allowed by an IPv6 prefix);
# with --max-probes 1, a probe of another target while one runs is refused (503) too.
if ip -6 addr show lo 2>/dev/null | grep -q '::1'; then
  listen_on x6 tcp "$EXPORTER" --listen "[::1]:@P@" --allow ::1/128 --allow 127.0.0.0/8 \
    --max-probes 1
  URL6="http://[::1]:$P"
  start slow6 curl -s -m 15 -o "$TMP/slow6.body" -w '%{http_code}' \
    "$URL6/probe?target=::1&port=$SP&time=2"
  wait_for 10 slow6 has_conn || fail "the IPv6 probe never reached the server"
  get same6 "$URL6/probe?target=0:0::0001&port=$SP&time=1"
  status_is same6 503
  expect_match same6 out '^busy: this target is being probed now$'
  get full "$URL6/probe?target=127.0.0.1&port=$SP&time=1"
  status_is full 503
  expect_match full out '^busy: as many probes as --max-probes run now$'
  reap slow6
  expect_eq slow6 "status of the IPv6 probe" "$(cat "$TMP/slow6.out")" 200
  expect_match slow6 body '^ttcp_up\{target="::1"\} 1$'
  expect_match slow6 body '^ttcp_bits_per_second\{target="::1"\} [0-9.e+]+$'
  stop x6
else
  echo "note: ::1 is not configured on lo; the IPv6 part is left out"
fi

# A real Prometheus: the probe pattern (the target into ?target=, the exporter as the address),
# a scrape every 2 s with a 1.5 s timeout (so the test runs 1 s: the timeout less 0.5 s).
mkdir -p "$TMP/prom"
cat >"$TMP/prom.yml" <<YML
global:
  scrape_interval: 2s
  scrape_timeout: 1500ms
scrape_configs:
  - job_name: ttcp
    metrics_path: /probe
    params:
      port: ['$SP']
    static_configs:
      - targets: ['127.0.0.1']
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: 127.0.0.1:$XP
YML
listen_on prom tcp prometheus --config.file="$TMP/prom.yml" --storage.tsdb.path="$TMP/prom" \
  --web.listen-address=127.0.0.1:@P@
PP=$P
# sample QUERY: the value of QUERY's series for target 127.0.0.1 ("" when none yet).
sample() {
  "${BOUNDED[@]}" curl -s -m 5 "http://127.0.0.1:$PP/api/v1/query?query=$1" |
    jq -r '.data.result[] | select(.metric.target == "127.0.0.1") | .value[1]' 2>/dev/null | head -n 1
}
scraped() {
  [ "$(sample ttcp_up)" = 1 ] &&
    awk -v v="$(sample ttcp_bits_per_second)" 'BEGIN { exit !(v + 0 > 0) }'
}
if wait_for 40 prom scraped; then
  measured "Prometheus: ttcp_up $(sample ttcp_up), ttcp_bits_per_second $(sample ttcp_bits_per_second)"
else
  fail "Prometheus has no ttcp_up 1 and bits per second > 0 for 127.0.0.1 within 40 s"
  "${BOUNDED[@]}" curl -s -m 5 "http://127.0.0.1:$PP/api/v1/targets" | head -c 1500; echo
  show x
fi
stop prom
stop x
stop s
finish
