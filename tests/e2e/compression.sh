# --compression (issue #24, item 2; Cisco's TTCP note saw 6:1 on a modem uplink): the test twice,
# the classic pattern then the random one, and the ratio of the two rates. The compressing path
# is the test's own on 127.0.0.1: two relays (peers/compress_relay.py), the first deflating what
# it forwards onto the link between them (zlib, a Z_SYNC_FLUSH every 64 bytes, as a modem
# compresses frame by frame) and pacing it to RATE bytes/s, the second inflating it; the same
# both ways, so the server may send (-C -r). Each relay prints, for each connection and way, the
# bytes it read and wrote. The link carries RATE bytes/s of deflated data, so a test's rate is
# RATE times its payload's compression ratio, and the ratio of the two rates is the classic
# payload's compression ratio over the random payload's (in 64-byte frames the random one grows
# by about 13 %: both are printed). Checked: that ratio within 10 % of the relay's own, and the
# "path compresses" finding, for -t (to a ttcp -r -c) and -C both ways (--json too); through a
# plain relay pair (same pace, no compression, to a ttcp -S) a ratio within 1.1 and no finding;
# the hint when the far end takes one test only (ttcp -r without -c, ttcp -S -1); Ctrl+C in the
# first test; a few of the refused combinations (all of them: tests/unit/test_options.c).
BOUND=60   # each process's bound: the server takes three pairs of 2 s tests, each about 5 s
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
need_jq
RELAY=$E2E_DIR/peers/compress_relay.py
RATE=200000   # bytes/s on the link between the relays
LINKED=(-b 32k --time 2)   # small buffers: the link's pace, not the queues, sets the rate

# link NAME deflate|plain TO CONNS: the relay pair in front of port TO, taking CONNS connections
# (each ends once they have closed, or after 18 s): NAMEb (the far end's, inflating what comes
# off the link to TO) and NAMEa (the near one: LINK, its port).
link() {
  listen_on "${1}b" tcp python3 "$RELAY" @P@ "$3" in "$2" "$RATE" "$4" 18 || return 1
  listen_on "${1}a" tcp python3 "$RELAY" @P@ "$P" out "$2" "$RATE" "$4" 18 || return 1
  LINK=$P
}
# relay_ratios NAME: from the relay that deflated the test's data, its two data connections
# (64 KiB or more read), in order: the classic's compression ratio, the random's, and the first
# over the second, the figure the two rates' ratio should be.
relay_ratios() {
  awk '/way=to_link/ { split($4, i, "="); split($5, o, "=");
                       if (i[2] >= 65536) r[++n] = i[2] / o[2] }
       END { if (n == 2) printf "%.4f %.4f %.4f\n", r[1], r[2], r[1] / r[2] }' "$TMP/$1.out"
}
# expect_near NAME GOT RELAY: GOT (ttcp's ratio) within 10 % of the relay's pair (relay_ratios).
expect_near() {
  local got=$2 classic random want
  read -r classic random want < <(relay_ratios "$3")
  measured "$1: ratio $got; relay: classic ${classic:-?}:1, random ${random:-?}:1," \
    "their ratio ${want:-?}"
  [ -n "$want" ] || { fail "$3: not two data connections deflated"; show "$3"; return; }
  expect_awk "$1" "ratio $got within 10 % of the relay's $want" \
    "${got:-0} >= 0.9 * $want && ${got:-0} <= 1.1 * $want"
}
COMPRESSES='compression: the path compresses \(ratio above 1\.1\): the random pattern.s [0-9.]+ '
COMPRESSES+='KB/sec is the link.s rate$'

# ttcp -t to a classic receiver that takes test after test (-c).
receiver r tcp -r -s -c
link c deflate "$P" 2
run t "$TTCP" -t -s "${LINKED[@]}" -p "$LINK" --compression 127.0.0.1
reap ca; reap cb
interrupt r
expect_rc t 0
expect_match t out '^ttcp-t: compression: test 1 of 2: the classic pattern$'
expect_match t out '^ttcp-t: compression: test 2 of 2: the random pattern \(incompressible\), same size and options$'
expect_match t out '^ttcp-t: pattern: random, seed [0-9]+$'
expect_match t out "^ttcp-t: $COMPRESSES"
expect_eq r "tests received" "$(count r out '\+\+\+$')" 2
expect_near t "$(grab t out '^ttcp-t: compression: classic .*: ratio ([0-9.]+)$')" ca

# The same through a plain link (same pace, nothing compressed), to a ttcp -S: nothing said.
on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -p @P@
SERVER=$P
link p plain "$SERVER" 2
run tp "$TTCP" -t -s "${LINKED[@]}" -p "$LINK" --compression 127.0.0.1
reap pa; reap pb
expect_rc tp 0
ratio=$(grab tp out '^ttcp-t: compression: classic [0-9.]+ KB/sec, random [0-9.]+ KB/sec: ratio ([0-9.]+)$')
measured "plain link: ratio ${ratio:-?}"
expect_awk tp "ratio ${ratio:-?} within 1.1 either way" "${ratio:-0} > 0 && ${ratio:-0} <= 1.1 && 1.1 * ${ratio:-0} >= 1"
expect_eq tp "lines saying the path compresses" "$(count tp out 'path compresses')" 0

# ttcp -C: the client sends, the server's figure.
link k deflate "$SERVER" 4
run k "$TTCP" -C "${LINKED[@]}" -p "$LINK" --compression 127.0.0.1
reap ka; reap kb
expect_rc k 0
expect_match k out '^ttcp-C: compression: test 2 of 2: the random pattern'
expect_match k out "^ttcp-C: $COMPRESSES"
expect_eq k "summary lines" "$(count k out '^ttcp-C: send [0-9]+ bytes')" 2
expect_near k "$(grab k out '^ttcp-C: compression: classic .*: ratio ([0-9.]+)$')" ka

# ttcp -C -r --json: the server sends the random payload (the test's pattern key), deflated by
# the relay at the server's end; one document holding both tests' documents and the ratio.
link j deflate "$SERVER" 4
run j "$TTCP" -C -r "${LINKED[@]}" -p "$LINK" --compression --json 127.0.0.1
reap ja; reap jb
expect_rc j 0
expect_json j
expect_jq j .schema ttcp-result/1 .side client .error null '.compression.runs | length' 2 \
  '.compression.runs[0].options.pattern' classic '.compression.runs[1].options.pattern' random \
  '.compression.runs[1].server_tests[0].seed > 0' true '.compression.runs[1].error' null \
  '.compression.classic_bits_per_second == .compression.runs[0].tests[0].bits_per_second' true \
  '.compression.random_bits_per_second == .compression.runs[1].tests[0].bits_per_second' true \
  '(.compression.ratio * .compression.random_bits_per_second / .compression.classic_bits_per_second - 1 | fabs) < 1e-6' true \
  .compression.threshold 1.1 '.compression.cpu_percent < 50' true \
  .compression.finding path_compresses
expect_match j err "^ttcp-C: $COMPRESSES"
expect_near j "$(jq -r .compression.ratio "$TMP/j.out")" jb
interrupt s

# A receiver that takes one test: the second is refused (or, reaching its listener as it
# exits, reset), and the hint says what the far end must be.
receiver r1 tcp -r -s
run t1 "$TTCP" -t -s -n 100 -p "$P" --compression 127.0.0.1
reap r1
expect_rc t1 1
expect_match t1 err '^ttcp-t: compression: the receiver refused or reset the second test: it must take two connections in a row \(ttcp -r -s -c, or a ttcp -S\)$'
expect_match t1 out '^ttcp-t: compression: no ratio: the random pattern.s test did not complete$'
on_free_port "tcp:s1 udp:s1" start_on_P s1 "$TTCP" -S -1 -p @P@
run k1 "$TTCP" -C -n 100 -p "$P" --compression 127.0.0.1
reap s1
expect_rc k1 1
expect_match k1 err '^ttcp-C: compression: the server did not run the second test: it must serve two in a row \(a ttcp -S without -1, a client slot free\)$'

# Ctrl+C in the first test: its figures, no second test, no ratio (an interrupted rate is not
# compared); exit 0, as any test Ctrl+C ends.
receiver r2 tcp -r -s -c
start t2 "$TTCP" -t -s --time 10 -p "$P" --compression 127.0.0.1
wait_flowing t2 "$P"
interrupt t2
interrupt r2
expect_rc t2 0
expect_match t2 out '^ttcp-t: [0-9]+ bytes in .* \+\+\+$'
expect_eq t2 "second tests" "$(count t2 out 'test 2 of 2')" 0
expect_match t2 out '^ttcp-t: compression: no ratio: the classic pattern.s test did not complete$'

# Combinations refused, one line each, exit 2.
run u1 "$TTCP" -t -u --compression 127.0.0.1
expect_rc u1 2
expect_lines u1 err '^ttcp: --compression works with TCP only, not with -u: UDP goes at the sender.s pace whatever the path does to it$'
run u2 "$TTCP" -C --compression --pattern zeros 127.0.0.1
expect_rc u2 2
expect_lines u2 err '^ttcp: --compression sends the classic pattern, then the random one: leave --pattern out$'
run u3 "$TTCP" -r -s --compression
expect_rc u3 2
expect_lines u3 err '^ttcp: --compression runs the test from the transmitter \(-t\) or a client \(-C\)$'
finish
