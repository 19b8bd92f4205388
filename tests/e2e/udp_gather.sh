# A UDP receiver at a high datagram rate lets batches gather (a 50 us wait after a batch that
# emptied the queue, once a test has run a second: engine/udp_recv.c, gather()); at a low rate
# it reads each datagram as it comes and never waits. Seen from outside as the receiver's sleeps,
# traced with strace (only those calls stop the process: --seccomp-bpf).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
command -v strace >/dev/null || skip "strace is not installed"
[ "$(head -c 4 "$TTCP" | od -An -c | tr -d ' ')" = '177ELF' ] ||
  skip "ttcp runs under a wrapper (valgrind): its datagram rate is not this test's"
SLEEPS='clock_nanosleep|nanosleep'

# traced_pair NAME TRANSMITTER-ARGS...: a traced receiver NAME of 64-byte datagrams, then the
# transmitter; NAME.trace holds the receiver's sleeps.
traced_pair() {
  local name=$1; shift
  # (LeakSanitizer cannot work under ptrace: off for the traced receiver of an ASan build)
  listen_on "$name" udp env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace --seccomp-bpf -f -qq -e trace=clock_nanosleep,nanosleep \
    -o "$TMP/$name.trace" "$TTCP" -p @P@ -r -u -s -l 64 --json || { stop "$name"; return 1; }
  run "$name-t" "$TTCP" -p "$P" -t -u -s -l 64 "$@" 127.0.0.1
  reap "$name"
  expect_rc "$name-t" 0; expect_rc "$name" 0
}

# Unpaced for 2 s: the rate is far above 50 000 datagrams a second on any machine that can run
# the suite; where it is not (a slow or loaded machine), the test says so and does not judge.
traced_pair fast --time 2
rate=$(jq -r '.tests[0] | (.udp.datagrams / .seconds | floor)' "$TMP/fast.out")
measured "unpaced 64-byte datagrams received: $rate a second"
if [ "${rate:-0}" -ge 100000 ]; then
  expect_awk fast "the receiver's sleeps ($(grep -Ec "$SLEEPS" "$TMP/fast.trace"))" \
    "$(grep -Ec "$SLEEPS" "$TMP/fast.trace") >= 1"
else
  echo "note: $rate datagrams a second is too close to the 50 000 threshold to judge"
fi

# Paced at 2 Mbit/s (about 3 900 datagrams a second): never a wait.
traced_pair slow --time 2 -R 2m
expect_eq slow "the receiver's sleeps" "$(grep -Ec "$SLEEPS" "$TMP/slow.trace")" 0
expect_jq slow '.tests[0].udp.lost' 0

finish
