# --traceroute (issue 14) through three network namespaces: a client, a router (forwarding on)
# and a server, on two subnets. The path lists the router's address first and the server's
# second, each with RTTs, and the test's figures follow; --traceroute alone traces only; through
# a server (-C), the server's path back to the client too (a hop that does not answer, "*", is
# unit_trace's).
# Needs root and `ip netns`; otherwise it skips (exit 77).
#
# Network rules (netns-lib): blackhole routes for both subnets go into the root namespace first;
# the namespaces (with their veths) and then those routes are removed by the EXIT trap, on
# failure and interruption too. Traffic stays inside the namespaces made here.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "traceroute tests"

NS_C="ttcp-tr-c-$$" NS_R="ttcp-tr-r-$$" NS_S="ttcp-tr-s-$$"
netns_claim 170 201 2 || finish
n=$NETNS_N
C=10.200.$n.1 R1=10.200.$n.2 R2=10.200.$((n + 1)).1 S=10.200.$((n + 1)).2
echo "guards: blackhole ${NETNS_GUARDS[*]}; $NS_C ($C) -- ($R1) $NS_R ($R2) -- ($S) $NS_S"
netns_add "$NS_C" "$NS_R" "$NS_S"
netns_routed "$NS_C" "$C" "$NS_R" "$R1" "$R2" "$NS_S" "$S" ||
  { fail "could not set up the three namespaces"; finish; }

# hop_re [SIDE] TTL ADDRESS: a hop's line (SIDE: t, C or S; the name before the address, when the
# system finds one, is allowed).
hop_re() {
  local side=t
  [ $# = 3 ] && { side=$1; shift; }
  printf '^ttcp-%s: +%d  ([^ ]+ \\()?%s\\)?(  [0-9]+\\.[0-9]{3} ms){3}$' "$side" "$1" "${2//./\\.}"
}

bound 60
# 1. The path, then the test.
start r ip netns exec "$NS_S" "$TTCP" -r -s -p 5001
wait_for "$WAIT" r ns_listening "$NS_S" 5001 || fail "the receiver does not listen in $NS_S"
run t ip netns exec "$NS_C" "$TTCP" -t -s -n 100 --traceroute -p 5001 "$S"
reap r
expect_rc t 0; expect_rc r 0
expect_lines t out "^ttcp-t: traceroute to ${S//./\\.} \\(${S//./\\.}\\), at most 30 hops, 3 probes each$" \
  "$(hop_re 1 "$R1")" "$(hop_re 2 "$S")" \
  "^ttcp-t: buflen=8192, nbuf=100, align=16384/0, port=5001  tcp  -> ${S//./\\.}$" \
  "$(rate t 819200)" "$(calls t 100)" "$(rusage t)"
measured "the path: $(grep -E '^ttcp-t: +[12]  ' "$TMP/t.out" | tr '\n' ';')"

# 2. Alone: only the path, and no receiver needed.
run p ip netns exec "$NS_C" "$TTCP" --traceroute "$S"
expect_rc p 0
expect_eq p "lines" "$(wc -l <"$TMP/p.out")" 3
expect_match p out "$(hop_re 2 "$S")"

# 3. Through a server (nuttcp's -xt): the client's path to the server, the server's back to the
# client (the router's other address first), then the test.
start srv ip netns exec "$NS_S" "$TTCP" -S -p 5002
wait_for "$WAIT" srv ns_listening "$NS_S" 5002 || fail "the server does not listen in $NS_S"
run x ip netns exec "$NS_C" "$TTCP" -C --traceroute -n 100 -p 5002 "$S"
expect_rc x 0
expect_lines x out "^ttcp-C: traceroute to ${S//./\\.} \\(${S//./\\.}\\), at most 30 hops, 3 probes each$" \
  "$(hop_re C 1 "$R1")" "$(hop_re C 2 "$S")" \
  "^ttcp-S: traceroute to ${C//./\\.} \\(${C//./\\.}\\), at most 30 hops, 3 probes each$" \
  "$(hop_re S 1 "$R2")" "$(hop_re S 2 "$C")" \
  "^ttcp-t: buflen=8192, nbuf=100, align=16384/0, port=5002  tcp  -> ${S//./\\.}$" \
  "$(rate t 819200)" "$(calls t 100)" "$(rusage t)" "$(rate r 819200)" '^ttcp-r: ' '^ttcp-r: ' \
  '^ttcp-C: send 819200 bytes / '
interrupt srv

finish
