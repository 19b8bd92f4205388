# One ttcp -S with all three other tools' ports open (issue 23): 320 hostile openings of their
# protocols (peers/peer_hostile.py: an iperf3 length of 0xFFFFFFFF, a 1 MiB iperf3 parameters
# message, a cookie then silence, half a cookie, a 1 MiB nuttcp parameter line, HELO then
# silence, an iperf2 header then silence, half a header), each from an address of its own. The
# server answers each kind with its line, keeps serving (an iperf3, a nuttcp and an iperf
# client and a ttcp -C each get their test after), and its memory and threads stay within
# docs/PROTOCOL.md's bound.
BOUND=${BOUND:-90}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
for tool in iperf3 nuttcp iperf; do
  command -v "$tool" >/dev/null || skip "$tool is not installed"
done
need_jq
HOSTILE=$E2E_DIR/peers/peer_hostile.py
RSS_BOUND_KIB=65536   # docs/PROTOCOL.md, section 4: 64 MiB

I3=$(free_port) NU=$(free_port)
# --max-clients 256 (the most it takes): room for every connection the openings hold (200 at
# most), so that each reaches its parser rather than the "busy" line, however slowly the
# server (under valgrind) takes them in
on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -p @P@ --iperf3-port "$I3" \
  --nuttcp-port "$NU" --idle-timeout 2 --max-clients 256
wait_listen tcp "$I3" s && wait_listen tcp "$NU" s || { finish; exit; }
SPID=$(worker_pid s)

run h python3 "$HOSTILE" "$P" "$I3" "$NU" 40 8
expect_rc h 0
cat "$TMP/h.out"
expect_match h out '^peer_hostile: 320 connections opened'
expect_running s

# A line for each kind, naming its address (127.0.0.21 on, in peer_hostile.py's order); the
# kinds that hold their connection end within --idle-timeout or the hello's 5 s.
for re in '^ttcp-S: 127\.0\.0\.21: refused: the test asked for is out of range$' \
          '^ttcp-S: 127\.0\.0\.22: refused: the test asked for is out of range$' \
          '^ttcp-S: 127\.0\.0\.23: closed: no hello within 5 s$' \
          '^ttcp-S: 127\.0\.0\.24: closed: nothing sent within --idle-timeout$' \
          '^ttcp-S: 127\.0\.0\.25: refused: the test asked for is out of range$' \
          '^ttcp-S: 127\.0\.0\.26: ended: the client went away or stalled$' \
          '^ttcp-r: accept from 127\.0\.0\.27$' \
          '^ttcp-r: accept from 127\.0\.0\.28$'; do
  expect_match s err "$re"
done

# Every tool's client still gets its test.
run i3 iperf3 -c 127.0.0.1 -p "$I3" -t 1 -J
expect_rc i3 0
expect_awk i3 "iperf3's bytes after the openings" \
  "$(jq -r '.end.sum_received.bytes // 0' "$TMP/i3.out") > 0"
run nu nuttcp -P "$NU" -p "$P" -T 1 127.0.0.1
expect_rc nu 0
expect_match nu out ' MB / +[0-9.]+ sec = +[0-9.]*[1-9][0-9.]* Mbps [0-9]+ %TX [0-9]+ %RX'
run i2 iperf -c 127.0.0.1 -p "$P" -n 1000000 -y C
expect_rc i2 0
expect_match i2 out ',1000000,[0-9]+$'
run c "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c 0
expect_match c out '^ttcp-C: send 819200 bytes'

# Memory and threads: the peak resident set and the threads once the tests are over.
no_held() { [ "$(awk '/^Threads:/ { print $2 }' "/proc/$SPID/status")" -le 6 ]; }
wait_for 10 s no_held || fail "s: threads are left after every connection closed"
rss=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SPID/status")
threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SPID/status")
measured "server peak RSS ${rss} KiB, ${threads} threads after 320 hostile openings and 4 tests"
case $(readlink "/proc/$SPID/exe") in
  *memcheck* | *valgrind*)   # (ci/valgrind) the figure is valgrind's shadow memory, not ttcp's
    echo "note: under valgrind: the peak RSS is not judged against the bound" ;;
  *) [ "${rss:-999999}" -le "$RSS_BOUND_KIB" ] || fail "s: peak RSS $rss KiB is over $RSS_BOUND_KIB KiB" ;;
esac

interrupt s
expect_rc s 0
finish
