# --pmtu and --dont-fragment over loopback (the path through a router's smaller link is
# netns_pmtu's): the path MTU to 127.0.0.1 and ::1 is loopback's, capped at an IP packet's
# 65535, in one probe; before a UDP test its line comes first and the JSON holds it; with -P
# it is found once, for the whole test; through a server the client finds it; --dont-fragment on TCP and on the largest UDP datagram
# loopback takes; the rules refuse what makes no sense, with a reason and status 2.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
pmtu_re() {
  printf '^ttcp-%s: path MTU to %s: %d \\(found by 1 probe in [0-9]+\\.[0-9] ms\\)$' "$1" \
    "${2//./\\.}" "$3"
}

# 1. Alone: one line, nothing else; no one listens on the probes' port.
run a "$TTCP" --pmtu 127.0.0.1
expect_rc a 0; expect_empty a err
expect_lines a out "$(pmtu_re t 127.0.0.1 65535)"
if ip -6 addr show dev lo 2>/dev/null | grep -q '::1'; then
  run a6 "$TTCP" --pmtu -6 ::1
  expect_rc a6 0
  expect_lines a6 out "$(pmtu_re t ::1 65535)"
fi

# 2. Before a UDP test, with DF on the largest datagram loopback takes: the line first (on
# stderr with --json), the figures' pmtu member.
pair udp -r -s -u -l 65507 -- -t -s -u -l 65507 -n 20 --pmtu --dont-fragment --json 127.0.0.1
expect_rc t 0; expect_rc r 0
expect_match t err "$(pmtu_re t 127.0.0.1 65535)"
[ "$(head -n 1 "$TMP/t.err" | grep -c 'path MTU')" = 1 ] || fail "t: the path MTU is not the first line"
expect_jq t '.tests[0].pmtu.mtu' 65535 '.tests[0].pmtu.route_mtu' 65535 \
  '.tests[0].pmtu.probes' 1 '.tests[0].pmtu.exact' true '.tests[0].pmtu.confirmed' true
expect_match r out '^ttcp-r: 1310140 bytes in '

# 3. -P: found once, for the whole test (no stream probes of its own); TCP with DF.
pair tcp -r -s -- -t -s -n 10 --dont-fragment 127.0.0.1
expect_rc t 0; expect_rc r 0
P=$(free_port)   # nothing listens: the streams are refused, after the one probe
run p "$TTCP" -t -s -P 2 -n 10 --pmtu -p "$P" 127.0.0.1
expect_eq p "path MTU lines" "$(count p out 'path MTU')" 1

# 4. Through a server: the client's own line (ttcp-C:) and each of its tests' pmtu member.
on_free_port "tcp:srv udp:srv" start_on_P srv "$TTCP" -S -1 -p @P@ || fail "no server"
run c "$TTCP" -C --bidir -n 10 --pmtu --json -p "$P" 127.0.0.1
reap srv
expect_rc c 0
expect_match c err "$(pmtu_re C 127.0.0.1 65535)"
expect_jq c '[.tests[].pmtu.mtu]' '[65535,65535]' '[.server_tests[] | has("pmtu")] | any' false

# 5. The rules.
for bad in "-S --pmtu" "-S --dont-fragment" "-r -s --pmtu" "--pmtu --json 127.0.0.1" \
           "--pmtu --plot $TMP/x.svg 127.0.0.1" "-t -u --pmtu -m 2 239.1.2.3"; do
  # shellcheck disable=SC2086
  run u "$TTCP" $bad
  expect_rc u 2; expect_empty u out
  expect_match u err '^ttcp: (--pmtu|--dont-fragment|--json: --pmtu|--plot draws a test: --pmtu)'
done

finish
