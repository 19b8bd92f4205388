# --omit: the first seconds are measured and left out of the figures (iperf3's -O). A sender
# whose first second differs from the rest (a burst, then a pause, then a slow trickle) shows
# it: the receiver's figures hold the trickle alone, the burst is reported as omitted, the
# intervals of the omitted part say so and the rest add up to the figures; through -C at both
# ends; a test shorter than --omit keeps its figures and warns; bounds refused.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq

# shaped PORT: 2 MiB at once, nothing until 1.3 s, then 10 x 64 KiB at 0.1 s steps.
cat >"$TMP/shaped.py" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
t0 = time.monotonic()
s.sendall(b"\0" * (2 << 20))
time.sleep(max(0.0, t0 + 1.3 - time.monotonic()))
for _ in range(10):
    s.sendall(b"\1" * 65536)
    time.sleep(0.1)
s.close()
PY
receiver r tcp -r -s --omit 1 -i 0.5 --json
run t python3 "$TMP/shaped.py" "$P"
reap r
expect_rc t 0; expect_rc r 0
expect_jq r '.tests[0].omitted.bytes' 2097152 '.tests[0].omitted.seconds' 1 \
  '.tests[0].bytes' 655360 \
  '[.tests[0].intervals[] | select(.omitted) | .end] | map(tostring) | join(" ")' '0.5 1' \
  '[.tests[0].intervals[] | select(.omitted | not) | .bytes] | add' 655360 \
  '[.tests[0].intervals[] | select(.omitted) | .bytes] | add' 2097152
# the rate is the trickle's: 640 KiB over about a second, not the burst's
secs=$(jq -r '.tests[0].seconds' "$TMP/r.out")
awk -v s="$secs" 'BEGIN { exit !(s > 0.8 && s < 2.5) }' ||
  fail "r: the figures cover ${secs} s, not the trickle's second or so"

# Text: the omitted line after the figures, the intervals marked; without --omit the burst
# is in the figures.
receiver r tcp -r -s --omit 1 -i 0.5
run t python3 "$TMP/shaped.py" "$P"
reap r
expect_rc r 0
expect_match r out '^ttcp-r: 655360 bytes in [0-9.]+ real seconds'
expect_match r out '^ttcp-r: omitted: the first 1\.00 s, 2097152 bytes, not in the figures$'
[ "$(count r out '^ttcp-r: .* sec .* bytes = .*  \(omitted\)$')" = 2 ] ||
  { fail "r: not two interval lines marked (omitted)"; show r; }
receiver r tcp -r -s
run t python3 "$TMP/shaped.py" "$P"
reap r
expect_match r out '^ttcp-r: 2752512 bytes in '

# Through a server: both ends leave out their first second, and say so.
listen_on srv tcp "$TTCP" -S -1 -p @P@
run c "$TTCP" -C --time 2 --omit 1 -i 0.5 -R 8m --json -p "$P" 127.0.0.1
reap srv
expect_rc c 0
expect_jq c '.tests[0].omitted.seconds' 1 '.server_tests[0].omitted.seconds' 1 \
  '[.server_tests[0].intervals[] | select(.omitted)] | length' 2 \
  '[.tests[0].intervals[] | select(.omitted)] | length' 2
for end in tests server_tests; do
  expect_jq c ".${end}[0].bytes == ([.${end}[0].intervals[] | select(.omitted | not) | .bytes] | add)" true
done

# UDP: the counts left out are those of the same clock read as the bytes, so they agree.
pair udp -r -s -u -l 1400 --omit 0.7 --json -- -t -s -u -l 1400 --time 1.5 -R 20m --omit 0.7 127.0.0.1
expect_rc r 0
expect_jq r '.tests[0].bytes / 1400 == .tests[0].udp.datagrams' true '.tests[0].omitted.seconds' 0.7

# -P: each stream leaves out its own part; the total says so (the streams' bytes added up) and
# its CPU time is the streams' own over what they kept, not the process's over the whole test.
pair tcp -r -s -P 2 --omit 0.5 -- -t -s -P 2 --time 1.5 -R 80m --omit 0.5 --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].omitted.bytes == ([.tests[0].streams[].omitted.bytes] | add)' true \
  '(.tests[0].cpu.user_seconds + .tests[0].cpu.system_seconds) - ([.tests[0].streams[].cpu | .user_seconds + .system_seconds] | add) | fabs < 0.0005' true

# A test that ends within --omit: its whole figures, and a warning that nothing was left out.
pair tcp -r -s --omit 5 --json -- -t -s -n 10 --omit 5 --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].bytes' 81920 '.tests[0].omitted' null \
  '[.tests[0].warnings[].code] | index("omit_longer_than_test") != null' true
# its intervals, printed as omitted while they closed, are in the figures: the JSON says so
pair tcp -r -s --omit 5 -i 0.1 --json -- -t -s -n 10 127.0.0.1
expect_jq r '[.tests[0].intervals[] | select(.omitted)] | length' 0

# Bounds: within a test of --time, and of -C's 10 s.
run b "$TTCP" -t -s --time 2 --omit 2 127.0.0.1
expect_rc b 2
expect_lines b err '^ttcp: --omit 2\.00 leaves nothing of a test of 2\.00 s \(--time\)$'
run b "$TTCP" -C --omit 10 127.0.0.1
expect_rc b 2; expect_match b err '10 s for -C without -n'
run b "$TTCP" -t --omit 0 127.0.0.1
expect_rc b 2
finish
