# ttcpw.exe -C against the other tools' own servers (issue #23): a real iperf3 -s, nuttcp -S and
# iperf -s (Debian's 3.12, 6.1.2, 2.1.8) on 127.0.0.1, each tested by the exe under Wine. For
# iperf3 and nuttcp, whose servers send their figures back, both ends' bytes in the exe's
# --json agree (and with iperf3 -s's own -J document); iperf -s's own CSV line counts the exe's
# bytes plus iperf2's 60-byte header; with --bidir its two lines, both ways; with -u -r its bytes
# sent, the exe's datagrams and loss. UDP against iperf3 too: the datagrams both ends count.
NEEDS="wine"
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1
need_jq

# both NAME WAY: the exe's --json has WAY's bytes at both ends, equal and non-zero; echoes them.
both() {
  local mine theirs
  mine=$(jq -r "[.tests[] | select(.direction == \"$2\") | .bytes] | add" "$TMP/$1.out")
  theirs=$(jq -r "[.server_tests[] | select(.direction == \"$2\") | .bytes] | add" "$TMP/$1.out")
  [ "${mine:-0}" -gt 0 ] 2>/dev/null || fail "$1: the exe's end moved no bytes ($mine)"
  [ "$mine" = "$theirs" ] || fail "$1: the exe's $mine bytes, the server's $theirs"
  echo "$mine"
}

# exe NAME ARGS...: ttcpw.exe -C ARGS --json 127.0.0.1 (stdout in CR LF: made plain), exit 0.
exe() {
  local name=$1; shift
  run "$name" "$WTTCP" -C --json "$@" 127.0.0.1
  crlf "$name" out err
  expect_rc "$name" 0
  expect_json "$name"
}

if command -v iperf3 >/dev/null; then
  for way in send recv; do
    flag=-t; [ $way = recv ] && flag=-r
    listen_on i3$way tcp iperf3 -s -1 -J -p @P@ || continue
    exe iperf3_$way --iperf3 -p "$P" "$flag" -n 500 -l 65536
    reap i3$way
    bytes=$(both iperf3_$way $way)
    key=$([ $way = send ] && echo sum_received || echo sum_sent)
    expect_eq i3$way "iperf3 -s's own -J bytes" "$(jq -r ".end.$key.bytes" "$TMP/i3$way.out")" "$bytes"
    measured "ttcpw.exe --iperf3 $flag -n 500 -l 65536: $bytes bytes at both ends"
  done
  listen_on i3u tcp iperf3 -s -1 -J -p @P@ &&
    { exe iperf3_udp --iperf3 -p "$P" -u -l 1400 -R 5m --time 1; reap i3u
      both iperf3_udp send >/dev/null
      expect_eq i3u "the datagrams iperf3 -s counted (the exe's sends)" \
        "$(jq -r '.end.sum.packets' "$TMP/i3u.out")" "$(jq -r '.tests[0].io_calls' "$TMP/iperf3_udp.out")"
      expect_eq iperf3_udp "the datagrams iperf3's results give" \
        "$(jq -r '.server_tests[0].udp.datagrams' "$TMP/iperf3_udp.out")" \
        "$(jq -r '.end.sum.packets' "$TMP/i3u.out")"; }
else
  echo "NOTE: iperf3 is not installed: its part is left out"
fi

if command -v nuttcp >/dev/null; then
  for way in send recv; do
    flag=-t; [ $way = recv ] && flag=-r
    listen_on nu$way tcp nuttcp -S -P @P@ --nofork -1 || continue
    exe nuttcp_$way --nuttcp -p "$P" "$flag" -n 500 -l 65536
    reap nu$way
    bytes=$(both nuttcp_$way $way)
    measured "ttcpw.exe --nuttcp $flag -n 500 -l 65536: $bytes bytes at both ends"
  done
else
  echo "NOTE: nuttcp is not installed: its part is left out"
fi

if command -v iperf >/dev/null && iperf -v 2>&1 | grep -q '^iperf version 2\.'; then
  listen_on i2 tcp iperf -s -p @P@ -y C || exit
  run iperf2_send "$WTTCP" -C --iperf2 -p "$P" -n 500 -l 65536 127.0.0.1
  expect_rc iperf2_send 0
  wait_for "$WAIT" i2 lines_at_least i2 out '^[0-9]+,' 1 || fail "iperf -s printed no CSV line"
  stop i2
  expect_eq i2 "the bytes iperf -s counted (the exe's and iperf2's 60-byte header)" \
    "$(awk -F, 'NF >= 9 { s += $8 } END { printf "%.0f\n", s }' "$TMP/i2.out")" $((500 * 65536 + 60))
  # --bidir (iperf2's --full-duplex, both ways on the one connection): iperf -s's line of what it
  # received (local port not its own) and of what it sent, against the exe's two ways
  listen_on i2b tcp iperf -s -p @P@ -y C || exit
  run iperf2_bidir "$WTTCP" -C --iperf2 --bidir -p "$P" -n 200 -l 65536 127.0.0.1
  crlf iperf2_bidir out err
  expect_rc iperf2_bidir 0
  wait_for "$WAIT" i2b lines_at_least i2b out '^[0-9]+,' 2 || fail "iperf -s printed no 2 CSV lines"
  stop i2b
  expect_eq i2b "what iperf -s received (the exe's and the header)" \
    "$(awk -F, -v p="$P" 'NF >= 9 && $3 != p { print $8 }' "$TMP/i2b.out")" $((200 * 65536 + 60))
  expect_eq i2b "what iperf -s sent, as the exe counted it" \
    "$(awk -F, -v p="$P" 'NF >= 9 && $3 == p { print $8 }' "$TMP/i2b.out")" \
    "$(sed -nE 's/^ttcp-r: ([0-9]+) bytes in .*\+\+\+$/\1/p' "$TMP/iperf2_bidir.out")"
  # -u -r (iperf2's -u -R): the server's datagrams counted by the exe, its bytes sent by its line
  listen_on i2u udp iperf -s -u -p @P@ -y C || exit
  run iperf2_ur "$WTTCP" -C --iperf2 -u -r -l 1470 -R 20m --time 1 -p "$P" 127.0.0.1
  crlf iperf2_ur out err
  expect_rc iperf2_ur 0
  wait_for "$WAIT" i2u lines_at_least i2u out '^[0-9]+,' 1 || fail "iperf -s -u printed no CSV line"
  stop i2u
  read -r got lost <<<"$(sed -nE 's/^ttcp-r: udp: ([0-9]+) datagrams, ([0-9]+) lost .*/\1 \2/p' \
                           "$TMP/iperf2_ur.out")"
  expect_eq i2u "iperf -s -u's bytes sent, as the exe's count and loss say" \
    "$(awk -F, 'NF >= 9 { print $8 }' "$TMP/i2u.out")" "$(((${got:-0} + ${lost:-0}) * 1470))"
  measured "ttcpw.exe --iperf2 -u -r -R 20m --time 1: ${got:-?} datagrams, ${lost:-?} lost"
else
  echo "NOTE: iperf 2 is not installed: its part is left out"
fi
finish
