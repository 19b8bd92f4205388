# ttcp -S on an open network (issue #12): fifty idle connections take no client slot; after 500
# hostile connections (garbage, oversized lengths, idle, half-open, a close mid-hello) a normal
# test still passes, and the server's memory and threads stay within docs/PROTOCOL.md's bound.
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
grep -Eq 'closed: (nothing sent within --idle-timeout|not the ttcp protocol|no hello within 5 s)' \
  "$TMP/s.err" || { fail "s: no line for a connection it closed"; show s; }

interrupt s
expect_rc s 0
finish
