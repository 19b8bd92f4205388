# --time and -R: a paced UDP test holds its rate without spinning, a timed TCP test ends by itself.
# Speed is measured and reported ("MEASURED:" lines), never judged: a slow machine fails nothing
# here. What is judged are ratios inside one run: the sender's own rate over the -R it was given
# (a generous 0.5 to 1.05: a pacer never runs ahead of its rate, and one that is off by a factor
# shows; the issue's aim, the receiver within 5 % of the pace, is reported), the sender's CPU time
# over its elapsed time (under half: a pacer that spins takes all of it); and that a --time test
# lasts at least its time by its own clock.
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
secs=$(grab t out '^ttcp-t: [0-9]+ bytes in ([0-9.]+) real seconds.*')
tx=$(awk -v b="$(bytes_of t out)" -v s="${secs:-0}" 'BEGIN { if (s > 0) printf "%.3f", 8 * b / s / 1e6 }')
expect_awk t "the sender's rate ${tx:-?} Mbps over -R 20m is not within 0.5 to 1.05" \
  "${tx:-0} >= 0.5 * 20 && ${tx:-0} <= 1.05 * 20"
expect_awk t "a --time 2 test lasted ${secs:-?} s by the sender's clock" "${secs:-0} >= 2"
read -r user sys elapsed < <(tail -n 1 "$TMP/t.err")
expect_awk t "sender's CPU time ${user}u+${sys}s is not under half its elapsed ${elapsed} s" \
  "$user + $sys < 0.5 * $elapsed"
measured "paced UDP, -R 20m: the sender at ${tx:-?} Mbps, the receiver at ${mbps:-?} Mbps" \
  "($(awk -v m="${mbps:-0}" 'BEGIN { d = m / 20 - 1; printf "%+.1f %% of the pace: %s", 100 * d, (d <= 0.05 && d >= -0.05) ? "within the 5 % aimed at" : "outside the 5 % aimed at" }'));" \
  "sender CPU ${user}u+${sys}s in ${elapsed} s"

# A TCP test of --time 1 ends by itself (a hang fails at lib.sh's BOUND), both sides agreeing on
# the bytes; by the sender's clock it lasted at least its second.
began=$(now)
pair tcp -r -s -- -t -s --time 1 127.0.0.1
took=$(since "$began")
expect_rc t 0; expect_rc r 0
secs=$(grab t out '^ttcp-t: [0-9]+ bytes in ([0-9.]+) real seconds.*')
expect_awk t "a --time 1 test lasted ${secs:-?} s by the sender's clock" "${secs:-0} >= 1"
expect_lines t out "$(hdr t 8192 2048 "$P" tcp 127.0.0.1)" "$(rate t "$SOME")" "$(calls t "$SOME")" \
  "$(rusage t)" "$(tcpinfo t)" "$(cpuline t)"
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" "$SOME" "$SOME"   # a classic receiver
expect_eq r "bytes received" "$(bytes_of r out)" "$(bytes_of t out)"
measured "--time 1 over TCP took $took s in all (from the receiver's start), $(bytes_of t out) bytes"

finish
