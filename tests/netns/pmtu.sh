# --pmtu and --dont-fragment (issue 22) through three network namespaces: a client, a router
# (forwarding on, no firewall) and a server, the router's far link (and the server's) with MTU
# 1280, the near one 1500. --pmtu finds 1280 to the server (the router's ICMP "fragmentation
# needed" names it) and 1500 to the router's near address, alone, before a test (its line and
# --json's pmtu member), and through a server (-C). --dont-fragment over that path: a UDP
# datagram of 1400 bytes fails, naming the MTU; without it the same datagrams are fragmented
# and arrive.
# Needs root and `ip netns`; otherwise it skips (exit 77).
#
# Network rules (netns-lib): blackhole routes for both subnets go into the root namespace first;
# the namespaces (with their veths) and then those routes are removed by the EXIT trap, on
# failure and interruption too. Traffic stays inside the namespaces made here.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "path MTU tests"
command -v jq >/dev/null || skip "the path MTU tests need jq"

NS_C="ttcp-mtu-c-$$" NS_R="ttcp-mtu-r-$$" NS_S="ttcp-mtu-s-$$"
netns_claim 170 201 2 || finish
n=$NETNS_N
C=10.200.$n.1 R1=10.200.$n.2 R2=10.200.$((n + 1)).1 S=10.200.$((n + 1)).2 S2=10.200.$((n + 1)).3
echo "guards: blackhole ${NETNS_GUARDS[*]}; $NS_C ($C) -1500- ($R1) $NS_R ($R2) -1280- ($S, $S2) $NS_S"
netns_add "$NS_C" "$NS_R" "$NS_S"
# the router's far link (and the server's) at MTU 1280: the router answers "fragmentation needed"
netns_routed "$NS_C" "$C" "$NS_R" "$R1" "$R2" "$NS_S" "$S" &&
  ip -n "$NS_R" link set vrs mtu 1280 && ip -n "$NS_S" link set vs mtu 1280 &&
  ip -n "$NS_S" addr add "$S2/24" dev vs ||
  { fail "could not set up the three namespaces"; finish; }
[ "$(ip -n "$NS_R" -o link show vrs | grep -o 'mtu [0-9]*')" = "mtu 1280" ] ||
  { fail "the router's far link has no MTU of 1280"; finish; }

ns_listening() { [ -n "$(ip netns exec "$1" ss -Hl"$3"n "sport = :$2")" ]; }
# pmtu_re SIDE HOST MTU [ROUTE]: the path MTU's line (ROUTE: the route's MTU before the probes,
# when more).
pmtu_re() {
  local first=''
  [ $# = 4 ] && first="; the route's was $4"
  printf '^ttcp-%s: path MTU to %s: %d \\(found by [0-9]+ probes? in [0-9]+\\.[0-9] ms%s\\)$' \
    "$1" "${2//./\\.}" "$3" "$first"
}

bound 60
# 1. Alone: 1280 to the server, behind the router's 1280 link; 1500 to the router's near side.
run p ip netns exec "$NS_C" "$TTCP" --pmtu "$S"
expect_rc p 0
expect_lines p out "$(pmtu_re t "$S" 1280 1500)"
measured "$(cat "$TMP/p.out")"
run q ip netns exec "$NS_C" "$TTCP" --pmtu "$R1"
expect_rc q 0
expect_lines q out "$(pmtu_re t "$R1" 1500)"

# 2. Before a UDP test (--json: the pmtu member of the test's figures), with datagrams that fit.
# The client's kernel keeps what 1. taught it (the route's MTU is 1280 now): one probe.
start r ip netns exec "$NS_S" "$TTCP" -r -u -s -l 1300 -p 5001 --idle-timeout 5
wait_for "$WAIT" r ns_listening "$NS_S" 5001 u || fail "the receiver does not listen in $NS_S"
run t ip netns exec "$NS_C" "$TTCP" -t -u -s -l 1252 -n 100 --pmtu --dont-fragment --json \
  -p 5001 "$S"
reap r
expect_rc t 0; expect_rc r 0
expect_match t err "$(pmtu_re t "$S" 1280)"
expect_eq t "the JSON's pmtu" "$(jq -c '.tests[0].pmtu | [.mtu, .route_mtu, .probes, .exact, .confirmed]' \
  "$TMP/t.out")" "[1280,1280,1,true,true]"
expect_match r out '^ttcp-r: 125200 bytes in '

# 3. --dont-fragment, to the server's second address (a path MTU the client has not learnt yet):
# 1400-byte datagrams fail, naming the MTU the router taught the kernel; without DF the same
# datagrams are fragmented and arrive, all of them (paced: a burst of 200 fragments through two
# veth hops can overflow a queue).
start rd ip netns exec "$NS_S" "$TTCP" -r -u -s -l 2000 -p 5002
wait_for "$WAIT" rd ns_listening "$NS_S" 5002 u || fail "the receiver does not listen in $NS_S"
run d ip netns exec "$NS_C" "$TTCP" -t -u -s -l 1400 -n 100 --dont-fragment -p 5002 "$S2"
expect_rc d 1
expect_match d err '^ttcp-t: --dont-fragment: a datagram of 1400 bytes does not fit the path whole: its MTU is 1280 bytes as the system learnt it, .*: give -l 1252 or less$'
expect_running rd   # (its test began with the start marker; no datagram came whole)
stop rd
start r ip netns exec "$NS_S" "$TTCP" -r -u -s -l 2000 -p 5004 --idle-timeout 5
wait_for "$WAIT" r ns_listening "$NS_S" 5004 u || fail "the receiver does not listen in $NS_S"
run f ip netns exec "$NS_C" "$TTCP" -t -u -s -l 1400 -n 100 -R 10m -p 5004 "$S2"
reap r
expect_rc f 0; expect_rc r 0
expect_match r out '^ttcp-r: 140000 bytes in '   # all 100 datagrams of 1400 bytes

# 4. Through a server: the client probes the path to it (learnt by now), then the test runs.
start srv ip netns exec "$NS_S" "$TTCP" -S -p 5003
wait_for "$WAIT" srv ns_listening "$NS_S" 5003 t || fail "the server does not listen in $NS_S"
run x ip netns exec "$NS_C" "$TTCP" -C --pmtu -n 100 -p 5003 "$S"
expect_rc x 0
expect_match x out "$(pmtu_re C "$S" 1280)"
expect_match x out "^ttcp-C: send 819200 bytes / "
# --dont-fragment through a server: its end sets DF too, so its 1400-byte datagrams to the
# client do not fit the way back (it sends none, and the client tells why, with the MTU the
# server's system knows); without it they arrive, fragmented.
run y ip netns exec "$NS_C" "$TTCP" -C -r -u -l 1400 -n 100 --dont-fragment --idle-timeout 2 \
  -p 5003 "$S"
expect_rc y 1
expect_match y out '^ttcp-t: 0 bytes in '
expect_match y err '^ttcp-t: --dont-fragment: a datagram of 1400 bytes does not fit the path whole: its MTU is 1280 bytes .*: give -l 1252 or less$'
run z ip netns exec "$NS_C" "$TTCP" -C -r -u -l 1400 -n 100 -R 10m --idle-timeout 2 -p 5003 "$S"
expect_rc z 0
expect_match z out '^ttcp-r: 140000 bytes in '
interrupt srv

finish
