# ttcpw.exe -S serving the other tools' own clients (issue #23): a real iperf3 -c, nuttcp and
# iperf -c (Debian's 3.12, 6.1.2, 2.1.8) against the exe under Wine on 127.0.0.1, through the
# ports ttcp -S gives them (--iperf3-port, --nuttcp-port, the shared -p). Each client ends well.
# iperf3 -c -J, TCP -t 1, -R, -u -b 10m and -u -R: the figure iperf3 reports for the server's
# end (end.sum_received, or end.sum_sent when the exe sends) is the exe's own (its --json line),
# and for TCP into the exe the client's own sent bytes are that figure too (every byte sent
# before TEST_END read), and with -R it received no more than the exe sent. This is the test
# of a receive woken by the socket's shutdown (TEST_END): under Wine select() never reports
# such a socket readable, and the results waited for the idle timeout. nuttcp prints its
# summary line with a rate above 0, iperf -c's CSV bytes are the exe's own figure, and so are
# iperf -c -u's Server Report bytes (the exe's shared UDP port).
BOUND=${BOUND:-40} # the exe's server lives through all the clients
NEEDS="wine"
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1
need_jq

# The exe's server: the shared port P (TCP and UDP), iperf3's on I3, nuttcp's on NC. Its idle
# timeout is past every process's bound: a receive that its socket's shutdown does not wake
# would end only by it (after TEST_END, 30 s by default), and shows here as a hang.
I3=$(free_port); NC=$(free_port)
on_free_port "tcp:ws udp:ws" start_on_P ws "$WTTCP" -S --json -p @P@ --iperf3-port "$I3" \
  --nuttcp-port "$NC" --idle-timeout $((BOUND * 3)) || exit
wait_listen tcp "$NC" ws
wait_listen tcp "$I3" ws
# json_bytes SIDE: the bytes of the exe's last --json line of that side (receive|transmit).
json_bytes() {
  tr -d '\r' <"$TMP/ws.out" | jq -s -r "[.[] | select(.side == \"$1\")] | last | .tests[0].bytes"
}
# sides SIDE: how many --json lines of that side the exe has printed; more_sides SIDE N: more
# than N (a client's test has its line).
sides() { grep -c "\"side\":\"$1\"" "$TMP/ws.out"; }
more_sides() { [ "$(sides "$1")" -gt "$2" ]; }

# iperf3_case NAME SIDE KEY ARGS...: iperf3 -c -J ARGS against the exe ends well, and its
# end.KEY.bytes (the server's figure, from the results exchange) is the exe's own SIDE figure;
# status 1 when the client did not end well (the case's other checks are then left out).
iperf3_case() {
  local name=$1 side=$2 key=$3 before mine
  shift 3
  before=$(sides "$side")
  run "$name" iperf3 -c 127.0.0.1 -p "$I3" -J "$@"
  expect_rc "$name" 0
  [ "${RC[$name]}" = 0 ] || return 1
  wait_for "$WAIT" ws more_sides "$side" "$before" # (printed before the results: there by now)
  mine=$(json_bytes "$side")
  [ "${mine:-0}" -gt 0 ] 2>/dev/null || fail "$name: the exe counted no bytes (${mine:-none})"
  expect_eq "$name" "iperf3's end.$key bytes against the exe's own" \
    "$(jq -r ".end.$key.bytes" "$TMP/$name.out")" "$mine"
}
# i3_bytes NAME KEY: end.KEY.bytes of NAME's iperf3 -J document.
i3_bytes() { jq -r ".end.$2.bytes" "$TMP/$1.out"; }

if command -v iperf3 >/dev/null; then
  if iperf3_case i3 receive sum_received -t 1; then
    expect_eq i3 "iperf3's own sent bytes against the exe's received" "$(i3_bytes i3 sum_sent)" \
      "$(json_bytes receive)"
    measured "iperf3 -c against the exe: $(json_bytes receive) bytes at both ends"
  fi
  if iperf3_case i3r transmit sum_sent -t 1 -R; then
    expect_awk i3r "iperf3 -R received no more than the exe sent" \
      "0 < $(i3_bytes i3r sum_received) && $(i3_bytes i3r sum_received) <= $(json_bytes transmit)"
    measured "iperf3 -c -R against the exe: $(json_bytes transmit) bytes sent," \
      "$(i3_bytes i3r sum_received) received"
  fi
  if iperf3_case i3u receive sum_received -t 1 -u -b 10m; then
    measured "iperf3 -c -u against the exe: $(json_bytes receive) bytes," \
      "$(jq -r '.end.sum.lost_packets' "$TMP/i3u.out") datagrams lost"
  fi
  iperf3_case i3ur transmit sum_sent -t 1 -u -b 10m -R
else
  echo "NOTE: iperf3 is not installed: its part is left out"
fi

if command -v nuttcp >/dev/null; then
  D=$(free_port)
  run nu nuttcp -P "$NC" -p "$D" -n 500 -l 65536 127.0.0.1
  expect_rc nu 0
  expect_match nu out '^ *[0-9.]+ MB / +[0-9.]+ sec = +[0-9.]*[1-9][0-9.]* Mbps'
else
  echo "NOTE: nuttcp is not installed: its part is left out"
fi

if command -v iperf >/dev/null && iperf -v 2>&1 | grep -q '^iperf version 2\.'; then
  before=$(sides receive)
  run i2 iperf -c 127.0.0.1 -p "$P" -n 1000000 -y C
  expect_rc i2 0
  wait_for "$WAIT" ws more_sides receive "$before"
  expect_eq i2 "iperf -c's CSV bytes against the exe's own" \
    "$(awk -F, 'NF >= 9 { print $8; exit }' "$TMP/i2.out")" "$(json_bytes receive)"
  # iperf -c -u on the shared UDP port: its Server Report (-f B) carries the exe's bytes
  before=$(sides receive)
  run i2u iperf -c 127.0.0.1 -p "$P" -u -b 10m -t 1 -f B
  expect_rc i2u 0
  wait_for "$WAIT" ws more_sides receive "$before"
  reported=$(awk '/Server Report:/ { want = 1; next } want && / Bytes\/sec / {
      for (i = 1; i <= NF; i++) if ($i == "Bytes") { print $(i - 1); exit } }' "$TMP/i2u.out")
  expect_eq i2u "iperf -c -u's Server Report bytes against the exe's own" "$reported" \
    "$(json_bytes receive)"
  measured "iperf -c -u against the exe: Server Report of $reported bytes"
else
  echo "NOTE: iperf 2 is not installed: its part is left out"
fi
ctrl_c ws
expect_rc ws 0
finish
