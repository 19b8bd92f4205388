# -i: interval lines on both sides of a timed TCP test (--time), between the header and the
# classic summary; they follow each other without gaps and their byte counts add up to the "+++"
# line's. The figures themselves are measured, not judged.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# expect_intervals t|r [HOST]: that side's stdout is the header, at least four -i lines, the
# classic summary and the extended lines; the intervals tile the test and add up to its bytes.
expect_intervals() {
  local name=$1 s=$1 n total start end secs i=0 want_start
  local -a re=("$(hdr "$s" 8192 2048 "$P" tcp "${@:2}")")
  n=$(count "$name" out "$(interval "$s" tcp)")
  [ "$n" -ge 4 ] || fail "$name: $n interval lines, expected at least 4 (-i 0.5 over a 2 s test)"
  while [ "$i" -lt "$n" ]; do re+=("$(interval "$s" tcp)"); i=$((i + 1)); done
  expect_lines "$name" out "${re[@]}" "$(rate "$s" "$SOME")" "$(calls "$s" "$SOME")" \
    "$(rusage "$s")" "$(tcpinfo "$s")" "$(cpuline "$s")"
  total=$(bytes_of "$name" out)
  expect_eq "$name" "the sum of the interval byte counts" "$(interval_bytes "$name" out)" "$total"
  # Every interval but the last is 0.50 s long and starts where the one before ended; the last
  # ends when the test does (the "+++" line's seconds).
  secs=$(grab "$name" out '.* bytes in ([0-9.]+) real seconds.*')
  i=0
  while read -r start end; do
    want_start=$(awk -v i="$i" 'BEGIN { printf "%.2f", i * 0.5 }')
    [ "$start" = "$want_start" ] || fail "$name: interval $((i + 1)) starts at $start, expected $want_start"
    if [ $((i + 1)) -lt "$n" ]; then
      expect_awk "$name" "interval $((i + 1)) ($start-$end) lasts 0.50 s" "$end - $start == 0.5"
    else
      expect_eq "$name" "the last interval's end" "$end" "$secs"
      expect_awk "$name" "the last interval ($start-$end) lasts at most 0.50 s" \
        "$end >= $start && $end - $start <= 0.5"
    fi
    i=$((i + 1))
  done < <(sed -nE 's/^ttcp-[tr]: +([0-9.]+)- +([0-9.]+) sec .*/\1 \2/p' "$TMP/$name.out")
}

pair tcp -r -s -i 0.5 -- -t -s --time 2 -i 0.5 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_intervals t 127.0.0.1
expect_intervals r
expect_eq r "bytes received" "$(bytes_of r out)" "$(bytes_of t out)"
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
echo "measured: transmitter $(count t out "$(interval t tcp)") intervals," \
  "$(grab t out '^ttcp-t: ([0-9]+ bytes in [0-9.]+ real seconds).*')"

finish
