# --tos/--dscp, --congestion and --fq-rate on Windows: a program cannot mark its packets there (only a
# QoS policy of the system can), so the test runs unmarked with a warning and says so in its
# marks line; --congestion is refused before any traffic (one algorithm for the whole system).
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

wpair w2n tcp -r -s -- -t -s -n 100 --dscp ef 127.0.0.1
expect_rc r 0; expect_rc t 0
crlf t out err
expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" "$(calls t 100)" \
  "$(rusage t)" '^ttcp-t: marks: tos not set$'
expect_match t err '^ttcp-t: warning: --tos/--dscp: this system does not let a program mark its packets'

P=$(free_port)   # no traffic expected, but never the default port 5001
run c "$WTTCP" -t -s -n 1 -p "$P" --congestion reno 127.0.0.1
expect_rc c 2; expect_empty c out
crlf c err
expect_lines c err '^ttcp: --congestion: this system does not let a program choose its congestion control'

# --fq-rate: no kernel pacing a program can ask for on Windows; refused, -R named instead.
run q "$WTTCP" -t -s -n 1 -p "$P" --fq-rate 10m 127.0.0.1
expect_rc q 2; expect_empty q out
crlf q err
expect_lines q err '^ttcp: --fq-rate: this system has no kernel pacing a program can ask for .*-R paces in ttcp itself$'

finish
