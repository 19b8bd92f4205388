# Every way a UDP test ends reports the same warnings, in text and in JSON: a receiver whose
# -l is smaller than the datagrams, in a test that ends on the idle timeout (no end marker),
# warns of the truncation as well as of the lost end marker.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq

TRUNC='^ttcp-r: warning: datagrams longer than -l were cut short; bytes counted are what -l let in$'
LOST='^ttcp-r: warning: no data for 1\.0 s \(idle timeout\), end marker lost; figures end at the last datagram$'

# feed NAME: three plain 1024-byte datagrams and no end marker, then the idle timeout ends NAME.
feed() {
  udp_plain "$P" 3 1024
  reap "$1"
}

receiver r udp -r -s -u -l 512 --idle-timeout 1 || { stop r; finish; }
feed r
expect_rc r 0
expect_report r out "$(hdr r 512 2048 "$P" udp)" 1536 3
expect_lines r err '^ttcp-r: socket$' "$TRUNC" "$LOST"

# The same run with --json: the document names both warnings, in the words the text uses.
receiver j udp -r -s -u -l 512 --idle-timeout 1 --json || { stop j; finish; }
feed j
expect_rc j 0
expect_json j
expect_jq j '.tests[0].bytes' 1536 '.tests[0].idle_timeout' true '.tests[0].truncated' true \
  '[.tests[0].warnings[].code] | join(",")' 'end_marker_lost,truncated' \
  '.tests[0].warnings[1].message' 'datagrams longer than -l were cut short; bytes counted are what -l let in'
expect_lines j err '^ttcp-r: buflen=512, nbuf=2048, align=16384/0, port=[0-9]+  udp$' \
  '^ttcp-r: socket$' "$TRUNC" "$LOST" "$(rate r 1536)" "$(calls r 3)" "$(rusage r)" \
  "$(cpuline r)"

# A test that ends on its end marker lists the truncation too, and no lost marker.
receiver e udp -r -s -u -l 512 --json || { stop e; finish; }
udp_marker "$P"; udp_plain "$P" 3 1024; udp_marker "$P"
reap e
expect_rc e 0
expect_jq e '.tests[0].truncated' true '[.tests[0].warnings[].code] | join(",")' truncated \
  '.tests[0].idle_timeout' false

# A transmitter aimed at a port nobody listens on: its socket is connected (issue 15), so the
# host's "port unreachable" reaches it. It says so once, sends every datagram all the same
# (each refused send is tried again) and exits 0, as 1.12's unconnected sendto() did.
UNREACH="^ttcp-t: warning: the receiver's host says nothing listens on that UDP port \\(port unreachable\\): what is sent while no receiver is there is lost$"
port=$(free_port)
run n "$TTCP" -t -s -u -l 512 -n 200 -p "$port" 127.0.0.1
expect_rc n 0
expect_eq n "bytes sent to a closed port" "$(bytes_of n out)" 102400
expect_lines n err '^ttcp-t: socket$' "$UNREACH"
run nj "$TTCP" -t -s -u -l 512 -n 200 -p "$port" --json 127.0.0.1
expect_rc nj 0
expect_jq nj '.tests[0].bytes' 102400 '[.tests[0].warnings[].code] | join(",")' port_unreachable

finish
