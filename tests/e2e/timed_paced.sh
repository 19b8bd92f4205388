# --time and -R: a paced UDP test holds its rate without spinning, a timed TCP test ends by itself.
# The tolerant bounds below are the issue's own: the receiver's rate within 5 % of the pace, the
# sender's CPU time under half its elapsed time, a 1 s test over within 5 s.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# The sender's CPU and elapsed time ("user sys elapsed"): /usr/bin/time where installed (Debian's
# "time"), else bash's own `time`, which reads the same rusage of the child.
if [ -x /usr/bin/time ]; then
  timed=(/usr/bin/time -f '%U %S %e')
else
  timed=(bash -c 'TIMEFORMAT="%U %S %R"; time "$@"' timed)
fi

receiver r udp -r -s -u -f Mbps || { stop r; finish; }
run t "${timed[@]}" "$TTCP" -p "$P" -t -s -u -l 1472 --time 2 -R 20m 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
expect_lines t out "$(hdr t 1472 2048 "$P" udp 127.0.0.1)" "$(rate t "$SOME")" "$(calls t "$SOME")" \
  "$(rusage t)" "$(cpuline t)"
expect_lines r out "$(hdr r 8192 2048 "$P" udp)" "$(sirate r "$SOME" Mbps)" "$(calls r "$SOME")" \
  "$(rusage r)" "$(cpuline r)" "$(udpline)"
mbps=$(rate_of r out)
expect_awk r "receiver's rate $mbps Mbps is not within 5 % of -R 20m" "19 <= $mbps && $mbps <= 21"
read -r user sys elapsed < <(tail -n 1 "$TMP/t.err")
expect_awk t "sender's CPU time ${user}u+${sys}s is not under half its elapsed ${elapsed} s" \
  "$user + $sys < 0.5 * $elapsed"
echo "measured: paced UDP at $mbps Mbps (receiver); sender CPU ${user}u+${sys}s in ${elapsed} s"

# A TCP test of --time 1 ends by itself, both sides agreeing on the bytes.
began=$(now)
pair tcp -r -s -- -t -s --time 1 127.0.0.1
took=$(awk -v a="$began" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
expect_rc t 0; expect_rc r 0
expect_awk t "a --time 1 test took $took s, expected under 5 s" "$took < 5"
expect_lines t out "$(hdr t 8192 2048 "$P" tcp 127.0.0.1)" "$(rate t "$SOME")" "$(calls t "$SOME")" \
  "$(rusage t)" "$(tcpinfo t)" "$(cpuline t)"
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" "$SOME" "$SOME"   # a classic receiver
expect_eq r "bytes received" "$(bytes_of r out)" "$(bytes_of t out)"
echo "measured: --time 1 over TCP took $took s in all, $(bytes_of t out) bytes"

finish
