# The packet marks on a wire between two namespaces (issue 22): --dscp ef seen as TOS 0xb8 in
# every data segment captured on the receiving namespace's veth (AF_PACKET), from a classic
# transmitter and, through a server, from the client's end (-C) and the server's (-C -r); none
# marked without the option. Needs root and `ip netns`; otherwise it skips (exit 77).
#
# Network rules: netns-lib claims the subnet with a blackhole route in the root namespace first;
# the trap removes the namespaces (with their veths) and the route, on failure too. Traffic flows
# only between the two namespaces made here; every process is bounded (lib.sh) and stopped by PID.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "packet-mark tests"
SNIFF=$(dirname "${BASH_SOURCE[0]}")/../e2e/peers/tos_sniff.py
NS_A="ttcp-marks-a-$$" NS_B="ttcp-marks-b-$$"
netns_claim 130 160 1 || finish
A=10.200.$NETNS_N.1 B=10.200.$NETNS_N.2
netns_add "$NS_A" "$NS_B"
netns_veth "$NS_A" va "$A" "$NS_B" vb "$B" ||
  { fail "could not set up the veth pair between $NS_A and $NS_B"; finish; }

# sniffed NAME SECONDS CMD...: the capture on vb (in NS_B) while CMD runs in NS_A; its lines
# "SPORT DPORT 0xTOS" in $TMP/NAME.out.
sniffed() {
  local name=$1 secs=$2; shift 2
  start "$name" ip netns exec "$NS_B" python3 "$SNIFF" "$secs" 100000 vb
  wait_for 5 "$name" lines_at_least "$name" out '^ready$' 1 || fail "$name: the capture did not start"
  run "$name.run" ip netns exec "$NS_A" "$@"
  reap "$name"
  expect_rc "$name.run" 0
}
# marks NAME PORT SIDE: the distinct TOS bytes of the test's data to (SIDE dst) or from (src)
# PORT: the flows of 100 kB or more (through a server the control connection is on the same
# port, unmarked: its frames are the conversation, not the test).
marks() {
  local col=2; [ "$3" = src ] && col=1
  awk -v p="$2" -v c="$col" '$c == p && $4 >= 100000 { print $3 }' "$TMP/$1.out" | sort -u | tr '\n' ' '
}

# A classic pair across the link: the transmitter's data marked, unmarked without the option.
start r ip netns exec "$NS_B" "$TTCP" -r -s -p 5001
wait_for "$WAIT" r ns_listening "$NS_B" 5001 || fail "the receiver does not listen in $NS_B"
sniffed s1 6 "$TTCP" -t -s -n 200 --dscp ef -p 5001 "$B"
reap r
[ "$(marks s1 5001 dst)" = "0xb8 " ] || { fail "s1: the data to port 5001 carried '$(marks s1 5001 dst)', wanted 0xb8"; show s1; }
start r ip netns exec "$NS_B" "$TTCP" -r -s -p 5001
wait_for "$WAIT" r ns_listening "$NS_B" 5001 || fail "the receiver does not listen in $NS_B"
sniffed s0 6 "$TTCP" -t -s -n 200 -p 5001 "$B"
reap r
[ "$(marks s0 5001 dst)" = "0x00 " ] || { fail "s0: unmarked data carried '$(marks s0 5001 dst)'"; show s0; }

# Through a server in NS_B: the client's data (-C), then the server's (-C -r), both marked by
# the client's --dscp.
start srv ip netns exec "$NS_B" "$TTCP" -S -p 5002
wait_for "$WAIT" srv ns_listening "$NS_B" 5002 || fail "the server does not listen in $NS_B"
sniffed s2 6 "$TTCP" -C -n 200 --dscp ef -p 5002 "$B"
[ "$(marks s2 5002 dst)" = "0xb8 " ] || { fail "s2: the client's data carried '$(marks s2 5002 dst)'"; show s2; }
sniffed s3 6 "$TTCP" -C -r -n 200 --dscp af41 -p 5002 "$B"
[ "$(marks s3 5002 src)" = "0x88 " ] || { fail "s3: the server's data carried '$(marks s3 5002 src)', wanted 0x88"; show s3; }
interrupt srv
finish
