# Bad command lines: one "ttcp: ..." line on stderr naming the problem, exit 2, no traffic.
# -h / --help / --version / --check / no arguments.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# Receivers on TCP and UDP port P notice any traffic a bad command line might still send:
# afterwards each must still be waiting and then count exactly one good test.
both() { start r "$TTCP" -r -s -p "$P"; start ru "$TTCP" -r -s -u -p "$P"; }
on_free_port "tcp:r udp:ru" both

# usage_error WORDS-REGEX ARGS...: the line must mention one of WORDS.
usage_error() {
  local words=$1; shift
  run u "$TTCP" "$@"
  expect_rc u 2
  expect_empty u out
  expect_lines u err "^ttcp: .*($words)"
}
usage_error '-l|buflen|length'                    -t -s -l 0 -p "$P" 127.0.0.1
usage_error '-l|buflen|length'                    -t -s -l -5 -p "$P" 127.0.0.1
usage_error '-l|buflen|length|abc'                -t -s -l abc -p "$P" 127.0.0.1
usage_error '-n|nbuf'                             -t -s -n 0 -p "$P" 127.0.0.1
usage_error '-n|nbuf|99999999999999999999999'     -t -s -n 99999999999999999999999 -p "$P" 127.0.0.1
usage_error '-p|port'                             -t -s -n 1 -p 70000 127.0.0.1
usage_error '-p|port'                             -t -s -n 1 -p 0 127.0.0.1
usage_error '-l|buflen|length|65507|65508|datagram|UDP|udp' -t -s -u -n 1 -l 65508 -p "$P" 127.0.0.1
usage_error "-x|'x'"                              -t -s -x -p "$P" 127.0.0.1
usage_error 'host'                                -t -s -n 1 -p "$P"

expect_running r; expect_running ru
run t "$TTCP" -t -s -n 2 -l 1024 -p "$P" 127.0.0.1
run tu "$TTCP" -t -s -u -n 2 -l 1024 -p "$P" 127.0.0.1
reap r; reap ru
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 2048 "$ANY"
expect_report ru out "$(hdr r 8192 2048 "$P" udp)" 2048 4

# Help on stdout with exit 0; no arguments: the same usage text on stderr, exit 2.
run h "$TTCP" -h
expect_rc h 0; expect_empty h err
expect_match h out '^Usage: ttcp -t'
expect_match h out 'ttcp -r'
run help "$TTCP" --help
expect_rc help 0
cmp -s "$TMP/h.out" "$TMP/help.out" || fail "--help and -h print different text"
run none "$TTCP"
expect_rc none 2; expect_empty none out
cmp -s "$TMP/h.out" "$TMP/none.err" || { fail "no arguments: stderr is not the -h usage text"; show none; }
run v "$TTCP" --version
expect_rc v 0; expect_empty v err
expect_match v out '[0-9]+\.[0-9]+'
# The build details name the cJSON linked in, as cJSON_Version() says it.
expect_match v out '^ttcp [0-9.]+ \(.*, cJSON [0-9]+\.[0-9]+\.[0-9]+\)$'

# --check: the options checked as a test's, nothing run (no port is listened on, nothing sent).
run c0 "$TTCP" -C -u -l 1000 -R 10m --time 3 --check 127.0.0.1
expect_rc c0 0; expect_empty c0 out; expect_empty c0 err
run c1 "$TTCP" -C -u -l 70000 --check 127.0.0.1
expect_rc c1 2; expect_empty c1 out
expect_lines c1 err '^ttcp: -l: 70000 bytes is more than a UDP datagram can carry \(65507\)$'
run c2 "$TTCP" -t --check
expect_rc c2 2
expect_lines c2 err '^ttcp: -t needs the host to send to'
run c3 "$TTCP" -r -s --check
expect_rc c3 0; expect_empty c3 err
# the key file as the test would read it
run c4 "$TTCP" -C --key-file "$TMP/no-such-key" --check 127.0.0.1
expect_rc c4 2
expect_lines c4 err "^ttcp: --key-file: .*no-such-key cannot be read$"

finish
