# Third-party tests (issue 22, item 8) through four network namespaces: a NOC, host1 and host2,
# each on a subnet of its own, joined by a router (forwarding on). `ttcp -C host1 host2` from
# the NOC: host1's server runs the test to host2's across the router, the NOC shows both ends'
# figures and who ran it, and host2's server saw the data from host1's address, never the
# NOC's; a name only host1 knows is resolved there. A server without --third-party, a target
# outside host1's list (a second address of host2's own) and a name with an address inside the
# list and one outside it are refused at once, and host2 takes no connection then (its kernel's
# count of passive opens does not move).
# Needs root and `ip netns`; otherwise it skips (exit 77).
#
# Network rules (netns-lib): blackhole routes for the three subnets go into the root namespace
# first; the namespaces (with their veths) and then those routes are removed by the EXIT trap,
# on failure and interruption too. Traffic stays inside the namespaces made here.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C
BOUND=60 BOUNDED=(timeout --foreground -k 2 60)

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "third-party tests"

NS_N="ttcp-3p-noc-$$" NS_1="ttcp-3p-h1-$$" NS_R="ttcp-3p-r-$$" NS_2="ttcp-3p-h2-$$"
netns_claim 170 201 3 || finish
n=$NETNS_N
NOC=10.200.$n.1 R0=10.200.$n.2 H1=10.200.$((n + 1)).1 R1=10.200.$((n + 1)).2
H2=10.200.$((n + 2)).1 R2=10.200.$((n + 2)).2 H2B=10.200.$((n + 2)).3
echo "guards: blackhole ${NETNS_GUARDS[*]}; $NS_N ($NOC), $NS_1 ($H1), $NS_2 ($H2, $H2B) around $NS_R"
netns_add "$NS_N" "$NS_1" "$NS_R" "$NS_2"
# host1's own names (ip netns exec puts /etc/netns/NS/hosts over /etc/hosts for NS's commands):
# host2 by name, and a name with an address inside host1's list and one outside it. Removed by
# the trap, with the namespaces.
[ -e /etc/netns/"$NS_1" ] && { fail "/etc/netns/$NS_1 is there already"; finish; }
NETNS_ETC_MADE=$([ -d /etc/netns ] || echo 1)
mkdir -p /etc/netns/"$NS_1" &&
  printf '%s host2\n%s mixed\n%s mixed\n' "$H2" "$H2" "$H2B" >/etc/netns/"$NS_1"/hosts ||
  { fail "could not write host1's hosts file"; finish; }
trap 'rm -rf "/etc/netns/$NS_1"; [ -z "$NETNS_ETC_MADE" ] || rmdir /etc/netns 2>/dev/null; netns_cleanup' EXIT
# link NS IF ADDR RIF RADDR: a veth from NS to the router, NS's default route through it.
link() {
  ip -n "$1" link add "$2" type veth peer name "r$2" netns "$NS_R" &&
    ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$NS_R" addr add "$4/24" dev "r$2" &&
    ip -n "$1" link set "$2" up && ip -n "$NS_R" link set "r$2" up &&
    ip -n "$1" route add default via "$4"
}
link "$NS_N" vn "$NOC" "$R0" && link "$NS_1" v1 "$H1" "$R1" && link "$NS_2" v2 "$H2" "$R2" &&
  ip -n "$NS_2" addr add "$H2B/24" dev v2 &&
  ip netns exec "$NS_R" sysctl -qw net.ipv4.ip_forward=1 ||
  { fail "could not set up the four namespaces"; finish; }

# opens: host2's kernel's count of TCP connections it accepted (SYNs answered), all its life.
opens() { ip netns exec "$NS_2" nstat -az TcpPassiveOpens | awk '$1 == "TcpPassiveOpens" { print $2 }'; }
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out"; }

start h2 ip netns exec "$NS_2" "$TTCP" -S -p 5002
start h1 ip netns exec "$NS_1" "$TTCP" -S -p 5001 --third-party "$H2/32"
start plain ip netns exec "$NS_1" "$TTCP" -S -p 5003
wait_for "$WAIT" h2 ns_listening "$NS_2" 5002 || fail "host2's server does not listen"
wait_for "$WAIT" h1 ns_listening "$NS_1" 5001 || fail "host1's server does not listen"
wait_for "$WAIT" plain ns_listening "$NS_1" 5003 || fail "host1's plain server does not listen"

# 1. From the NOC: host1 sends 200 buffers to host2 across the router.
run t ip netns exec "$NS_N" "$TTCP" -C -n 200 -p 5001 "$H1" "$H2:5002"
expect_rc t 0
expect_eq t "ttcp-t bytes (host1's)" "$(figure t t)" 1638400
expect_eq t "ttcp-r bytes (host2's)" "$(figure t r)" 1638400
expect_match t out "^ttcp-t: buflen=8192, nbuf=200, .* tcp +-> ${H2//./\\.}$"
expect_match t out '^ttcp-C: send 1638400 bytes / '
expect_match t out "$(lit "ttcp-C: $H1 ran this test to $H2 ($H2 port 5002) for $NOC")"
wait_line h2 out '^ttcp-r: 1638400 bytes in '
# host2 saw host1, and only host1: the control connection's and the data's
expect_match h2 err "$(lit "ttcp-r: accept from $H1")"
expect_eq h2 "lines naming the NOC" "$(cat "$TMP/h2.out" "$TMP/h2.err" | grep -c "${NOC//./\\.}")" 0
expect_match h1 err "$(lit "ttcp-S: $NOC: runs its test to a third host (--third-party)")"

# 2. -r: host2 sends, to host1; host2 named as host1 knows it (the NOC does not: host1 resolves).
run r ip netns exec "$NS_N" "$TTCP" -C -r -n 100 -p 5001 "$H1" host2:5002
expect_rc r 0
expect_eq r "ttcp-t bytes (host2's)" "$(figure r t)" 819200
expect_eq r "ttcp-r bytes (host1's)" "$(figure r r)" 819200
expect_match r out "$(lit "ttcp-C: $H1 ran this test to host2 ($H2 port 5002) for $NOC")"
wait_line h2 out '^ttcp-t: 819200 bytes in '

# 3. UDP, paced: host1's datagrams reach host2 (loss, if any, is host2's to count).
run u ip netns exec "$NS_N" "$TTCP" -C -u -R 20m -n 200 -l 1k -p 5001 "$H1" "$H2:5002"
expect_rc u 0
expect_eq u "ttcp-t bytes (host1's)" "$(figure u t)" 204800
expect_match u out '^ttcp-C: send [0-9]+ bytes / .* [0-9]+ / 200 lost '

# 4. Refused at once, and host2 takes no connection: a server without --third-party, and a
# target outside host1's list (host2's second address: its server would have taken it).
before=$(opens)
start_s=$(now)
run n ip netns exec "$NS_N" "$TTCP" -C -n 100 -p 5003 "$H1" "$H2:5002"
expect_rc n 1
expect_lines n err "$(lit "ttcp-C: the server at $H1 refused the test: the server does not run third-party tests")"
run o ip netns exec "$NS_N" "$TTCP" -C -n 100 -p 5001 "$H1" "$H2B:5002"
expect_rc o 1
expect_lines o err "$(lit "ttcp-C: the server at $H1 refused the test: $H2B is not in the server's --third-party list")"
run m ip netns exec "$NS_N" "$TTCP" -C -n 100 -p 5001 "$H1" mixed:5002
expect_rc m 1
expect_lines m err "$(lit "ttcp-C: the server at $H1 refused the test: mixed resolves to addresses outside the server's --third-party list")"
took=$(since "$start_s")
expect_awk n "the refusals came at once (took $took s)" "$took < 3"
sleep 0.5
expect_eq h2 "connections accepted after the refusals" "$(opens)" "$before"
expect_match h1 err "$(lit "ttcp-S: $NOC: refused: a test to a third host (--third-party)")"

interrupt h1
interrupt plain
interrupt h2
finish
