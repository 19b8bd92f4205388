# ttcp -S on an open network (issue #12): fifty idle connections take no client slot; after 500
# hostile connections (garbage, oversized lengths, idle, half-open, a close mid-hello) a normal
# test still passes, the server has a line for each kind, and its memory and threads stay within
# docs/PROTOCOL.md's bound; a client that stops mid-test loses its test within --idle-timeout;
# classic connections that hold every classic place do not turn a ttcp client away.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
HOSTILE=$E2E_DIR/peers/hostile.py
RSS_BOUND_KIB=65536   # docs/PROTOCOL.md, section 4: 64 MiB with the default limits

on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -p @P@ --idle-timeout 2 --max-clients 2
SPID=$(worker_pid s)

# Fifty connections that send nothing: a real client still gets its test at once.
fds=()
for i in $(seq 50); do exec {fd}<>"/dev/tcp/127.0.0.1/$P" && fds+=("$fd"); done
expect_eq s "idle connections open" "${#fds[@]}" 50
run c1 "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c1 0
expect_match c1 out '^ttcp-C: send 819200 bytes'
for fd in "${fds[@]}"; do exec {fd}<&-; done

# 500 hostile connections, held at most 8 s.
run h python3 "$HOSTILE" "$P" 500 8
expect_rc h 0
cat "$TMP/h.out"
expect_match h out '^hostile: 500 connections opened'
expect_running s

# The server goes on: a normal test passes, both ways.
run c2 "$TTCP" -C --bidir -n 200 -p "$P" 127.0.0.1
expect_rc c2 0
expect_eq c2 "summary lines" "$(count c2 out '^ttcp-C: (send|recv) 1638400 bytes')" 2

# Memory and threads: the peak resident set and the threads now, within the bound.
rss=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SPID/status")
threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SPID/status")
measured "server peak RSS ${rss} KiB, ${threads} threads after 550 connections"
case $(readlink "/proc/$SPID/exe") in
  *memcheck* | *valgrind*)   # (ci/valgrind) the figure is valgrind's shadow memory, not ttcp's
    echo "note: under valgrind: the peak RSS is not judged against the bound" ;;
  *) [ "${rss:-999999}" -le "$RSS_BOUND_KIB" ] || fail "s: peak RSS $rss KiB is over $RSS_BOUND_KIB KiB" ;;
esac
[ "${threads:-99}" -le 6 ] || fail "s: $threads threads left after the tests ended"

# A line for each kind (hostile.py sends each kind from an address of its own): garbage is a
# classic transmitter (its first byte is not the whole magic), measured, or turned away while
# both slots are taken; the others are closed, each for its reason.
for re in '^ttcp-(r: accept from 127\.0\.0\.11|S: 127\.0\.0\.11: turned away: busy \(--max-clients\))$' \
          '^ttcp-S: 127\.0\.0\.12: closed: not the ttcp protocol$' \
          '^ttcp-S: 127\.0\.0\.13: closed: nothing sent within --idle-timeout$' \
          '^ttcp-S: 127\.0\.0\.14: closed: no hello within 5 s$' \
          '^ttcp-S: 127\.0\.0\.15: closed: not the ttcp protocol$'; do
  expect_match s err "$re"
done

# A client that stops mid-test (SIGSTOP to ttcp itself, not to the timeout(1) above it): the
# server ends that test once nothing has moved for --idle-timeout (2 s), and says the peer went
# idle; 10 s is a bound against a hang, not a timing. Killed then, the client leaves no slot
# taken: two tests at once (--max-clients 2) still pass.
start stuck "$TTCP" -C --time 10 -R 10m -i 0.25 -p "$P" 127.0.0.1
wait_line stuck out '^ttcp-t: +0\.00- '
if stuck_pid=$(worker_pid stuck); then
  kill -STOP "$stuck_pid"
  t0=$(now)
  wait_for 10 - lines_at_least s err '^ttcp-r: IO: the peer went idle: nothing moved for 2 s \(--idle-timeout\)$' 1 ||
    { fail "s: a stopped client's test was not ended within 10 s"; show s; }
  measured "a stopped client's test ended $(since "$t0") s after SIGSTOP"
else
  fail "stuck: no ttcp process to stop"
fi
kill_hard stuck
# (the server sees the killed client's connections close a moment later: waited for)
unconnected() { [ -z "$(ss -Htn state established "( sport = :$1 )")" ]; }
wait_for "$WAIT" - unconnected "$P" || fail "s: the killed client's connections are still open"
start c3 "$TTCP" -C --time 1 -R 10m -p "$P" 127.0.0.1
start c4 "$TTCP" -C -r --time 1 -R 10m -p "$P" 127.0.0.1
for c in c3 c4; do reap "$c"; expect_rc "$c" 0; done
expect_match c3 out '^ttcp-C: send [0-9]+ bytes'
expect_match c4 out '^ttcp-C: recv [0-9]+ bytes'

# Classic connections that send a byte now and then fill the classic tests' places (each is a
# classic test until it goes quiet), and a third is turned away; a ttcp client still gets its
# test: the two kinds each have --max-clients places.
accepts=$(count s err '^ttcp-r: accept from 127\.0\.0\.1$')
busy=$(count s err '^ttcp-S: 127\.0\.0\.1: turned away: busy \(--max-clients\)$')
exec {k1}<>"/dev/tcp/127.0.0.1/$P" {k2}<>"/dev/tcp/127.0.0.1/$P"
( for _ in $(seq 60); do printf x >&"$k1" && printf x >&"$k2" || break; sleep 0.25; done ) &
feeder=$!
wait_line s err '^ttcp-r: accept from 127\.0\.0\.1$' $((accepts + 2))
run c5 "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c5 0
expect_match c5 out '^ttcp-C: send 819200 bytes'
exec {k3}<>"/dev/tcp/127.0.0.1/$P"
printf x >&"$k3"
wait_line s err '^ttcp-S: 127\.0\.0\.1: turned away: busy \(--max-clients\)$' $((busy + 1))
kill "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null
exec {k1}<&- {k2}<&- {k3}<&-

interrupt s
expect_rc s 0
finish
