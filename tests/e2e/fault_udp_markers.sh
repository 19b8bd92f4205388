# UDP with markers lost (a bash /dev/udp writer plays the transmitter, 1.12's plain datagrams):
# no hang, the figures of what arrived, exit 0, and a warning when the idle timeout had to end it.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# ended_by NAME: reap NAME, which must end by itself (a hang fails at its BOUND); how long that
# took from now is reported, not judged.
ended_by() {
  local from
  from=$(now)
  reap "$1"
  measured "$1 ended $(since "$from") s after the last datagram"
}

# 1. The start marker lost: 5 data datagrams, then the end marker. The first data datagram
#    starts the test and is counted; the end marker ends it (the idle timeout, 5 s, is only a
#    bound here: no warning may appear).
receiver r udp -r -s -u --idle-timeout 5
udp_plain "$P" 5 100
udp_marker "$P"
ended_by r
expect_rc r 0
expect_report r out "$(hdr r 8192 2048 "$P" udp)" 500 6
expect_lines r err '^ttcp-r: socket$'

# 2. Every end marker lost: the start marker and 5 data datagrams, then silence. The idle
#    timeout ends the test: one warning line, exit 0, the figures up to the last datagram.
receiver r udp -r -s -u --idle-timeout 1
udp_marker "$P"
udp_plain "$P" 5 100
ended_by r
expect_rc r 0
expect_report r out "$(hdr r 8192 2048 "$P" udp)" 500 6
expect_lines r err '^ttcp-r: socket$' \
  '^ttcp-r: warning: no data for 1\.0 s \(idle timeout\), end marker lost; figures end at the last datagram$'

# 3. A late receiver, started after the data: it sees only the four trailing end markers. The
#    first starts a test, the second ends it: 0 bytes, exit 0, at once (no idle timeout given:
#    the default is 30 s, longer than this test's bound).
receiver r udp -r -s -u
for i in 1 2 3 4; do udp_marker "$P"; done
ended_by r
expect_rc r 0
expect_report r out "$(hdr r 8192 2048 "$P" udp)" 0 2
expect_lines r err '^ttcp-r: socket$'

# 4. Later still: only the last trailing marker arrives. It starts a test that nothing ends but
#    the idle timeout: 0 bytes, the warning, exit 0.
receiver r udp -r -s -u --idle-timeout 1
udp_marker "$P"
ended_by r
expect_rc r 0
expect_report r out "$(hdr r 8192 2048 "$P" udp)" 0 1
expect_lines r err '^ttcp-r: socket$' \
  '^ttcp-r: warning: no data for 1\.0 s \(idle timeout\), end marker lost; figures end at the last datagram$'

finish
