# --fq-rate: the kernel paces the sender (Linux's SO_MAX_PACING_RATE), read back into the marks
# line and the JSON; through -C at the server's sending end; with -P shared among the streams.
# Speed is reported, not judged; what is judged is a ratio in one run: the sender's own rate
# over --fq-rate within 0.5 to 1.1 (the kernel never runs ahead of it; unpaced, loopback TCP runs
# at tens of times this).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
[ "$(uname -s)" = Linux ] || skip "kernel pacing is Linux's (SO_MAX_PACING_RATE)"

pair tcp -r -s -f Mbps -- -t -s -l 64k --time 2 --fq-rate 40m -f Mbps 127.0.0.1
expect_rc t 0; expect_rc r 0
expect_match t out '^ttcp-t: marks: fq-rate 40\.000 Mbps$'
tx=$(rate_of t out)
measured "--fq-rate 40m: the sender ${tx:-?} Mbps, the receiver $(rate_of r out) Mbps"
expect_awk t "the sender's rate ${tx:-?} Mbps over --fq-rate 40m is not within 0.5 to 1.1" \
  "${tx:-0} >= 0.5 * 40 && ${tx:-0} <= 1.1 * 40"

# JSON: the rate as the kernel holds it; -P shares it (20m a stream).
pair tcp -r -s -P 2 -- -t -s -n 50 -P 2 --fq-rate 40m --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].streams | map(.fq_rate_bits_per_second) | unique | map(tostring) | join(" ")' 20000000

# Through a server: its sending end paces (-C -r), and says so.
listen_on srv tcp "$TTCP" -S -1 -p @P@
run c "$TTCP" -C -r --time 1.5 --fq-rate 40m -f Mbps --json -p "$P" 127.0.0.1
reap srv
expect_rc c 0
expect_jq c '.server_tests[0].fq_rate_bits_per_second' 40000000 '.tests[0].fq_rate_bits_per_second' null
rx=$(jq -r '.summary[0].bits_per_second / 1e6' "$TMP/c.out")
measured "-C -r --fq-rate 40m: ${rx:-?} Mbps received"
expect_awk c "the server's rate ${rx:-?} Mbps over --fq-rate 40m is above 1.1" "${rx:-99} <= 1.1 * 40"

# UDP: paced only by the fq qdisc, which loopback lacks: a warning says so.
run u "$TTCP" -t -s -u -n 10 -l 100 --fq-rate 10m --json -p "$(free_port)" 127.0.0.1
expect_jq u '[.tests[0].warnings[].code] | index("fq_rate_udp_needs_fq") != null' true

# Out of bounds: refused before any traffic.
for bad in "--fq-rate 1k" "--fq-rate 40g" "--fq-rate fast"; do
  run b "$TTCP" -t -s -n 1 -p "$(free_port)" $bad 127.0.0.1
  expect_rc b 2; expect_empty b out
done
finish
