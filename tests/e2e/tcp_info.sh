# The connection's TCP figures: -v adds "(mss N, sndwnd N, rcvwnd N)" to the connect and
# accept lines; --tcp-info prints a "tcp info:" line after the statistics (Linux: TCP_INFO).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# -v: the connection's figures on both sides' connect / accept lines (stderr).
pair tcp -r -s -v -- -t -s -v -n 100 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines t err '^ttcp-t: socket$' "$(ios_connect t)"
expect_lines r err '^ttcp-r: socket$' "$(ios_connect r)"
figures_ok t; figures_ok r
expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" \
  "$(cpurate t 819200)" "$(calls t 100)" "$(rusage t)" "$(bufaddr t)"

# --tcp-info: the line after the statistics on both sides; without -v the connect lines stay
# classic.
pair tcp -r -s --tcp-info -- -t -s -n 100 --tcp-info 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" "$(calls t 100)" \
  "$(rusage t)" "$(tcpinfo t)"
expect_lines r out "$(hdr r 8192 2048 "$P" tcp)" "$(rate r 819200)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(tcpinfo r)"
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'

# With -v and --half-close too: buffer address, half close, then tcp info; on one side only.
pair tcp -r -s --half-close -n 1 -- -t -s -v -n 100 --half-close --tcp-info 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" \
  "$(cpurate t 819200)" "$(calls t 100)" "$(rusage t)" "$(bufaddr t)" "$(half_close t 8192)" \
  "$(tcpinfo t)"
expect_lines r out "$(hdr r 8192 1 "$P" tcp)" "$(rate r 819200)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(half_close r 8192)"
expect_lines t err '^ttcp-t: socket$' "$(ios_connect t)"
figures_ok t

finish
