# --pmtu and --dont-fragment under Wine (loopback only, never in a namespace): ttcpw.exe finds
# a path MTU to 127.0.0.1 with DF echo requests (IcmpSendEcho2, IP_FLAG_DF), starting from the
# MTU of the interface Windows says the route leaves by (Wine 8 names the host's first
# Ethernet one, not loopback: the number is the system's, the line's shape is checked); IPv6
# is refused in one line naming what Windows lacks; a UDP test with --dont-fragment
# (IP_DONTFRAGMENT) reaches the native receiver whole.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

run w "$WTTCP" --pmtu 127.0.0.1
expect_rc w 0
crlf w out err
expect_lines w out '^ttcp-t: path MTU to 127\.0\.0\.1: [0-9]+ \(found by [0-9]+ probes? in [0-9]+\.[0-9] ms\)$'
mtu=$(grab w out '^ttcp-t: path MTU to [^:]*: ([0-9]+) .*$')
[ -n "$mtu" ] && [ "$mtu" -ge 576 ] && [ "$mtu" -le 65535 ] || fail "path MTU '$mtu' is not in 576-65535"
measured "$(cat "$TMP/w.out")"

run v "$WTTCP" --pmtu -6 ::1
expect_rc v 1; expect_empty v out
crlf v err
expect_lines v err '^ttcp-t: --pmtu: this system offers no probe that may not be fragmented to an address of this family$'

wpair w2n udp -r -s -u -l 2000 -- -t -u -s -l 1400 -n 50 --dont-fragment 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_match r out '^ttcp-r: 70000 bytes in '

finish
