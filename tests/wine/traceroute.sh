# --traceroute under Wine (loopback only, never in a namespace): ttcpw.exe traces 127.0.0.1
# through IcmpSendEcho2 and lists one hop, 127.0.0.1 (with its name when the system has one:
# localhost), with three round-trip times.
NEEDS=wine
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

run w "$WTTCP" --traceroute 127.0.0.1
expect_rc w 0
crlf w out err
expect_lines w out '^ttcp-t: traceroute to 127\.0\.0\.1 \(127\.0\.0\.1\), at most 30 hops, 3 probes each$' \
  '^ttcp-t:  1  ([^ ]+ \()?127\.0\.0\.1\)?(  [0-9]+\.[0-9]{3} ms){3}$'
measured "$(tail -n 1 "$TMP/w.out")"

finish
