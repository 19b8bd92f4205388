# UDP multicast (issue 14) between two network namespaces joined by a veth pair, each with a
# multicast route on its end: a sender in the first, two receivers of the group in the second
# (sharing the port) and one in the first itself (looped back); every receiver counts every
# datagram of a -n 200 test; the hop limit the sender set is read back from its socket; a
# receiver with --source takes only that sender's datagrams; a namespace with no multicast
# route gets the OS's message and a hint; a member and a sender on 127.0.0.1; IPv6.
# Needs root and `ip netns`; otherwise it skips (exit 77).
#
# Network rules (netns-lib): a blackhole route for the test's subnet and one for its group go
# into the root namespace first; the namespaces (with their veths) and then those routes are
# removed by the EXIT trap, on failure and interruption too. The datagrams stay inside the
# namespaces made here.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C
GROUP=239.255.77.1
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "multicast tests"
command -v jq >/dev/null || skip "multicast tests need jq"

NS_TX="ttcp-mc-tx-$$" NS_RX="ttcp-mc-rx-$$" NS_BARE="ttcp-mc-bare-$$"
netns_claim 128 160 1 || finish
if ! netns_guard "$GROUP/32"; then   # "File exists": a concurrent run's guard covers it too
  case $NETNS_ERR in *"File exists"*) ;; *) skip "cannot add the guard route (blackhole $GROUP): $NETNS_ERR" ;; esac
fi
TX_ADDR=10.200.$NETNS_N.1 RX_ADDR=10.200.$NETNS_N.2
echo "guards: blackhole ${NETNS_GUARDS[*]} in the root namespace; namespaces $NS_TX ($TX_ADDR), $NS_RX ($RX_ADDR), $NS_BARE"
netns_add "$NS_TX" "$NS_RX" "$NS_BARE"
netns_veth "$NS_TX" vtx "$TX_ADDR" "$NS_RX" vrx "$RX_ADDR" &&
  ip -n "$NS_TX" route add 224.0.0.0/4 dev vtx && ip -n "$NS_RX" route add 224.0.0.0/4 dev vrx ||
  { fail "could not set up the veth pair and its multicast routes"; finish; }

ns_bound() { [ -n "$(ip netns exec "$1" ss -Hlun "sport = :$2")" ]; }
# ns_drained NS PORT: every UDP socket bound to PORT in NS has read all it was sent.
ns_drained() { [ -z "$(ip netns exec "$1" ss -Hlun "sport = :$2" | awk '$2 != 0')" ]; }
# ns_members NS PORT N: at least N sockets bound to PORT in NS.
ns_members() { [ "$(ip netns exec "$1" ss -Hlun "sport = :$2" | wc -l)" -ge "$3" ]; }
# ll_ready NS DEV: DEV in NS has its link-local address, no longer tentative.
ll_ready() {
  local a
  a=$(ip -n "$1" -6 addr show dev "$2" scope link)
  [[ $a == *inet6\ fe80:* && $a != *tentative* ]]
}
# expect_all NAME BYTES DATAGRAMS: the receiver's JSON: its bytes, datagrams, none lost.
expect_all() {
  expect_rc "$1" 0
  expect_jq "$1" '.tests[0].bytes' "$2" '.tests[0].udp.datagrams' "$3" '.tests[0].udp.lost' 0
}

bound 60
# 1. Three receivers of the group: two in the receivers' namespace on one port, one in the
# sender's own (the sender's datagrams looped back to it).
for r in r1 r2; do
  start "$r" ip netns exec "$NS_RX" "$TTCP" -r -u -s -l 1024 -g "$GROUP" -p 5001 --json
done
start r3 ip netns exec "$NS_TX" "$TTCP" -r -u -s -l 1024 -g "$GROUP" -p 5001 --json
wait_for "$WAIT" - ns_members "$NS_RX" 5001 2 || fail "the two receivers did not bind port 5001 in $NS_RX"
wait_for "$WAIT" r3 ns_bound "$NS_TX" 5001 || fail "the looped-back receiver did not bind port 5001"
run t ip netns exec "$NS_TX" "$TTCP" -t -u -s -m 3 -l 1024 -n 200 -R 10m -p 5001 "$GROUP"
expect_rc t 0
expect_lines t err '^ttcp-t: socket$' "^ttcp-t: multicast: to ${GROUP//./\\.}, ttl 3$"
for r in r1 r2 r3; do reap "$r"; expect_all "$r" 204800 200; done
for r in r1 r2; do expect_match "$r" err "^ttcp-r: multicast: joined ${GROUP//./\\.}$"; done
measured "multicast, -n 200 at 10 Mbit/s: $(for r in r1 r2 r3; do jq -c '[.tests[0].bytes, .tests[0].udp.lost]' "$TMP/$r.out"; done | tr '\n' ' ')"

# 2. --source: a receiver that takes the sender's datagrams only; another sender (in the
# receivers' own namespace, looped back to them) is kept out, so its test never starts there.
start r4 ip netns exec "$NS_RX" "$TTCP" -r -u -s -l 1024 -g "$GROUP" --source "$TX_ADDR" -p 5001 --json
start r5 ip netns exec "$NS_RX" "$TTCP" -r -u -s -l 1024 -g "$GROUP" -p 5001 --json --idle-timeout 5
wait_for "$WAIT" - ns_members "$NS_RX" 5001 2 || fail "the --source receivers did not bind port 5001"
run other ip netns exec "$NS_RX" "$TTCP" -t -u -s -l 1024 -n 50 -R 10m -p 5001 "$GROUP"
expect_rc other 0
run t2 ip netns exec "$NS_TX" "$TTCP" -t -u -s -l 1024 -n 100 -R 10m -p 5001 "$GROUP"
expect_rc t2 0
reap r4
expect_all r4 102400 100
expect_match r4 err "^ttcp-r: multicast: joined ${GROUP//./\\.} from ${TX_ADDR//./\\.}$"
reap r5   # without --source: the other sender's test came first, and is what it measured
expect_rc r5 0
expect_jq r5 '.tests[0].bytes' 51200

# 3. -c: a member that measures test after test, until Ctrl+C.
start r6 ip netns exec "$NS_RX" "$TTCP" -r -u -s -c -l 1024 -g "$GROUP" -p 5002
wait_for "$WAIT" r6 ns_bound "$NS_RX" 5002 || fail "the -c receiver did not bind port 5002"
run a ip netns exec "$NS_TX" "$TTCP" -t -u -s -l 1024 -n 50 -R 10m -p 5002 "$GROUP"
# past the first test's trailing end markers: its figures printed, and every marker a (now
# ended) sent read by the receiver
first_done() { lines_at_least r6 out '^ttcp-r: [0-9]+ bytes in ' 1 && ns_drained "$NS_RX" 5002; }
wait_for "$WAIT" r6 first_done || fail "the -c receiver did not end its first test"
run b ip netns exec "$NS_TX" "$TTCP" -t -u -s -l 1024 -n 60 -R 10m -p 5002 "$GROUP" --json
expect_rc a 0; expect_rc b 0
expect_jq b '.options.multicast.group' "$GROUP" '.options.multicast.ttl' 1 '.tests[0].multicast_ttl' 1
wait_for 10 r6 lines_at_least r6 out '^ttcp-r: [0-9]+ bytes in ' 2 || true
interrupt r6
expect_eq r6 "the two tests' bytes" "$(bytes_of r6 out | tr '\n' ' ')" "51200 61440 "

# 4. Through a server (nuttcp's way): ttcp -C -r -u -m asks the ttcp -S to send to the group
# the client joins; the server's --max-ttl bounds the hop limit.
start srv ip netns exec "$NS_TX" "$TTCP" -S -p 5003 --max-ttl 4
wait_for "$WAIT" srv ns_bound "$NS_TX" 5003 || fail "the server did not bind port 5003"
run c1 ip netns exec "$NS_RX" "$TTCP" -C -r -u -m 2 -g "$GROUP" -l 1024 -n 200 -R 10m -p 5003 "$TX_ADDR"
expect_rc c1 0
expect_match c1 out '^ttcp-C: recv 204800 bytes / .* 0 / 200 lost \(0\.00%\) [0-9.]+ ms jitter$'
run c2 ip netns exec "$NS_RX" "$TTCP" -C -r -u -m 9 -g "$GROUP" -n 10 -p 5003 "$TX_ADDR"
expect_rc c2 1
expect_match c2 err 'refused the test: ttl: at most 4 on this server \(--max-ttl\)$'
interrupt srv
expect_match srv out "^ttcp-t: buflen=1024, nbuf=200, align=16384/0, port=5003  udp  -> ${GROUP//./\\.}$"

# 5. No multicast route: the OS's message and what to do.
run nr ip netns exec "$NS_BARE" "$TTCP" -t -u -s -n 5 -p 5001 "$GROUP"
expect_rc nr 1
expect_match nr err "^ttcp-t: .*no route to the group ${GROUP//./\\.}: give --interface, or add one"

# 6. On loopback: a member and a sender in one namespace, both on 127.0.0.1 (--interface).
ip -n "$NS_BARE" link set lo multicast on && ip -n "$NS_BARE" route add 224.0.0.0/4 dev lo ||
  fail "could not give $NS_BARE's loopback a multicast route"
start lo4 ip netns exec "$NS_BARE" "$TTCP" -r -u -s -l 512 -g "$GROUP" --interface 127.0.0.1 -p 5004 --json
wait_for "$WAIT" lo4 ns_bound "$NS_BARE" 5004 || fail "the loopback member did not bind port 5004"
run t4 ip netns exec "$NS_BARE" "$TTCP" -t -u -s -l 512 -n 200 -R 10m --interface 127.0.0.1 -p 5004 "$GROUP"
expect_rc t4 0
expect_match t4 err "^ttcp-t: multicast: to ${GROUP//./\\.}, ttl 1 on 127\\.0\\.0\\.1$"
reap lo4
expect_all lo4 102400 200

# 7. IPv6: a group of ff15::/16 between two namespaces with IPv6 on (link-local addresses only),
# the interface named.
GROUP6=ff15::7:77
if netns_guard "$GROUP6/128" || [[ $NETNS_ERR == *"File exists"* ]]; then
  NS_6A="ttcp-mc-6a-$$" NS_6B="ttcp-mc-6b-$$"
  netns_add "$NS_6A" "$NS_6B"
  for ns in "$NS_6A" "$NS_6B"; do
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0
  done
  ip -n "$NS_6A" link add v6a type veth peer name v6b netns "$NS_6B" &&
    ip -n "$NS_6A" link set v6a up && ip -n "$NS_6B" link set v6b up ||
    fail "could not set up the IPv6 veth pair"
  start m6 ip netns exec "$NS_6B" "$TTCP" -r -u -s -l 1024 -g "$GROUP6" --interface v6b -p 5005 --json
  wait_for "$WAIT" m6 ns_bound "$NS_6B" 5005 || fail "the IPv6 member did not bind port 5005"
  # the link-local addresses past duplicate detection, before the first datagram goes
  wait_for "$WAIT" - ll_ready "$NS_6A" v6a && wait_for "$WAIT" - ll_ready "$NS_6B" v6b ||
    fail "the IPv6 link-local addresses are not ready (duplicate detection)"
  run t6 ip netns exec "$NS_6A" "$TTCP" -t -u -s -m 2 -l 1024 -n 200 -R 10m --interface v6a -p 5005 "$GROUP6"
  expect_rc t6 0
  expect_match t6 err "^ttcp-t: multicast: to $GROUP6, ttl 2 on v6a$"
  reap m6
  expect_all m6 204800 200
else
  fail "cannot add the guard route (blackhole $GROUP6): $NETNS_ERR"
fi

finish
