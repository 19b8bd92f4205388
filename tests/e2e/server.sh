# ttcp -S and ttcp -C (issue #12): a client's tests both ways and both at once, both ends'
# figures and the summary on the client; classic TCP and UDP transmitters measured by the same
# server on the same port; several clients at once; "busy" at --max-clients; -1; Ctrl+C.
# The one server s lives through most of the script: well past lib.sh's usual 20 s under valgrind.
BOUND=${BOUND:-120}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# server NAME ARGS...: `ttcp -S -p P ARGS` on a fresh port, up once it listens on TCP and UDP.
server() { local name=$1; shift; on_free_port "tcp:$name udp:$name" start_on_P "$name" "$TTCP" -S -p @P@ "$@"; }
# figure NAME SIDE: the bytes of the "ttcp-SIDE: N bytes in" lines of NAME's stdout, one a line.
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out"; }
summary_re() { printf '^ttcp-C: %s %s bytes / [0-9]+\\.[0-9]{2} sec = [0-9.]+ KB/sec [0-9]+ %%TX [0-9]+ %%RX [0-9]+ retrans [0-9.]+ msRTT$' "$1" "$2"; }

server s
# -t (the default): the client sends 100 buffers; its ttcp-t figure, the server's ttcp-r figure
# with the same bytes, the summary with the receiver's bytes.
run c1 "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c1 0
expect_eq c1 "ttcp-t bytes" "$(figure c1 t)" 819200
expect_eq c1 "ttcp-r bytes (the server's)" "$(figure c1 r)" 819200
expect_match c1 out "$(summary_re send 819200)"
expect_match c1 out "$(rusage r)"

# -r: the server sends.
run c2 "$TTCP" -C -r -n 50 -l 4k -p "$P" 127.0.0.1
expect_rc c2 0
expect_eq c2 "ttcp-t bytes (the server's)" "$(figure c2 t)" 204800
expect_eq c2 "ttcp-r bytes" "$(figure c2 r)" 204800
expect_match c2 out "$(summary_re recv 204800)"

# --bidir, timed: two streams, each with a transmitter and a receiver figure that agree.
run c3 "$TTCP" -C --bidir --time 0.5 -p "$P" 127.0.0.1
expect_rc c3 0
expect_eq c3 "figures" "$(figure c3 t | sort | tr '\n' ' ')" "$(figure c3 r | sort | tr '\n' ' ')"
expect_eq c3 "summaries" "$(count c3 out '^ttcp-C: (send|recv) [0-9]+ bytes')" 2
expect_match c3 out '^ttcp-C: send '
expect_match c3 out '^ttcp-C: recv '

# -u, paced (unpaced UDP overruns a loopback receiver's buffer, as with classic ttcp): both
# ways, the summary tells the datagrams lost of those sent and the jitter.
udp_re() { printf '^ttcp-C: %s [0-9]+ bytes / [0-9]+\\.[0-9]{2} sec = [0-9.]+ KB/sec [0-9]+ %%TX [0-9]+ %%RX [0-9]+ / 200 lost \\([0-9.]+%%\\) [0-9.]+ ms jitter$' "$1"; }
run u1 "$TTCP" -C -u -n 200 -l 1k -R 20m -p "$P" 127.0.0.1
expect_rc u1 0
expect_eq u1 "ttcp-t bytes" "$(figure u1 t)" 204800
expect_match u1 out "$(udp_re send)"
expect_match u1 out '^ttcp-r: udp: [0-9]+ datagrams, [0-9]+ lost'
run u2 "$TTCP" -C -u -r -n 200 -l 1k -R 20m -p "$P" 127.0.0.1
expect_rc u2 0
expect_eq u2 "ttcp-t bytes (the server's)" "$(figure u2 t)" 204800
expect_match u2 out "$(udp_re recv)"
run u3 "$TTCP" -C -u --bidir -n 200 -l 1k -R 20m --json -p "$P" 127.0.0.1
expect_rc u3 0
expect_jq u3 '.summary | length' 2 '.summary[0].datagrams_sent' 200 '.summary[1].datagrams_sent' 200 \
  '.summary[1].jitter_ms >= 0' true
measured "UDP at 20 Mbit/s over loopback: $(grep -h '^ttcp-C' "$TMP/u1.out" "$TMP/u2.out" | sed 's/.*%RX //' | tr '\n' ';')"

# -i from the receiving end while it runs: the server's ttcp-r interval lines on the client,
# as they happen: the first one is in the file ahead of the client's own figures, which it
# prints when its sending ends (lines relayed only at the end would come after them). Paced:
# the lines are the point, not the rate.
run c4 "$TTCP" -C --time 1 -i 0.25 -R 20m -p "$P" 127.0.0.1
expect_rc c4 0
[ "$(count c4 out '^ttcp-r: +[0-9.]+- +[0-9.]+ sec +[0-9]+ bytes')" -ge 3 ] ||
  { fail "c4: fewer than 3 of the server's interval lines"; show c4; }
# line_no NAME out|err ERE: the number of the first line that matches (nothing if none does).
line_no() { grep -nE -m 1 -- "$3" "$TMP/$1.$2" | cut -d: -f1; }
first_iv=$(line_no c4 out '^ttcp-r: +0\.00- +[0-9.]+ sec +[0-9]+ bytes')
own=$(line_no c4 out '^ttcp-t: [0-9]+ bytes in .* \+\+\+$')
[ -n "$first_iv" ] && [ -n "$own" ] && [ "$first_iv" -lt "$own" ] ||
  { fail "c4: the server's first interval line (line ${first_iv:-none}) is not ahead of the client's figures (line ${own:-none})"; show c4; }

# --json: one document with both ends' tests and the summary; the text goes to stderr.
need_jq
run j1 "$TTCP" -C --bidir -n 100 --json -p "$P" 127.0.0.1
expect_rc j1 0
expect_json j1
expect_jq j1 .side client '.tests | length' 2 '.server_tests | length' 2 '.summary | length' 2 \
  '.tests[0] | .direction + " " + .side' "send transmit" \
  '.server_tests[0] | .direction + " " + .side' "send receive" \
  '.server_tests[1] | .direction + " " + .side' "recv transmit" \
  '[.tests[], .server_tests[], .summary[]] | map(.bytes) | unique' "[819200]" \
  '.summary[0].transmitter_cpu_percent >= 0' true .error null
expect_match j1 err '^ttcp-C: send 819200 bytes'

# --half-close (IOS's): the receiving end sends -n buffers back after the FIN, whichever end it is.
run h1 "$TTCP" -C --half-close -n 20 -p "$P" 127.0.0.1
expect_rc h1 0
expect_match h1 out '^ttcp-t: half close: 163840 bytes received back in '
expect_match h1 out '^ttcp-r: half close: 163840 bytes sent back in '
run h2 "$TTCP" -C -r --half-close -n 20 -p "$P" 127.0.0.1
expect_rc h2 0
expect_match h2 out '^ttcp-r: half close: 163840 bytes sent back in '
expect_match h2 out '^ttcp-t: half close: 163840 bytes received back in '

# --verify checks at whichever end receives: the server when the client sends (-t, the
# default), the client with -r, each end with --bidir; the server's verify line comes back
# with its figures.
verified() { printf '^ttcp-r: verify: %s pattern, %s bytes checked, 0 corrupted$' "$1" "$2"; }
run v1 "$TTCP" -C --verify -n 100 -p "$P" 127.0.0.1
expect_rc v1 0
expect_eq v1 "verify lines" "$(count v1 out "$(verified classic 819200)")" 1
expect_match v1 out "$(summary_re send 819200)"
run v2 "$TTCP" -C --bidir --verify -n 100 -p "$P" 127.0.0.1
expect_rc v2 0
expect_eq v2 "verify lines" "$(count v2 out "$(verified classic 819200)")" 2
run v3 "$TTCP" -C -r --verify --pattern random -n 100 -p "$P" 127.0.0.1
expect_rc v3 0
expect_eq v3 "verify lines" "$(count v3 out "$(verified random 819200)")" 1

# Each measurement option a client passes on (docs/ttcp.1, -C): the test ends well, with its
# summary line.
for opt in "--pattern random" "--seed 7" --tcp-info "--link-rate 1g" "-b 256k" -D "-A 4096" \
           "-O 16" -4; do
  read -ra words <<<"$opt"
  name=opt${opt//[^a-zA-Z0-9]/}
  run "$name" "$TTCP" -C -n 20 "${words[@]}" -p "$P" 127.0.0.1
  expect_rc "$name" 0
  expect_match "$name" out "$(summary_re send 163840)"
done

# A client of a later protocol (min_version 2) is refused with a sentence a person can read.
python3 - "$P" >"$TMP/v2.out" 2>&1 <<'PY'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
body = b"msg=hello\nversion=2\nmin_version=2\nprogram=ttcp 9\n"
s.sendall(b"\xffTCTL\r\n\x1a" + struct.pack(">H", len(body)) + body)
n = struct.unpack(">H", s.recv(2))[0]
print(s.recv(n).decode())
PY
grep -q '^message=this server speaks protocol 1 to 1; the client needs 2 or later: upgrade the server$' \
  "$TMP/v2.out" || { fail "no readable refusal for protocol 2:"; cat "$TMP/v2.out"; }

# Classic transmitters at the server's port: TCP with the classic pattern, TCP from a file that
# starts with 0xFF (the first byte of the magic; not one byte may be lost), UDP.
run k1 "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
expect_rc k1 0
head -c 5000 /dev/urandom >"$TMP/ff.bin"
printf '\377' | dd of="$TMP/ff.bin" conv=notrunc status=none
run k2 sh -c "exec '$TTCP' -t -p $P 127.0.0.1 <'$TMP/ff.bin'"
expect_rc k2 0
run k3 "$TTCP" -t -s -u -n 10 -p "$P" 127.0.0.1
expect_rc k3 0
# the server's figures: 81920 bytes twice (TCP, UDP), the file's 5000 bytes once
wait_for "$WAIT" s lines_at_least s out '^ttcp-r: 81920 bytes in .* \+\+\+$' 2 ||
  { fail "s: no figures of 81920 bytes for the classic TCP and UDP tests"; show s; }
expect_eq s "tests of 5000 bytes" "$(count s out '^ttcp-r: 5000 bytes in .* \+\+\+$')" 1

# A real third-party classic transmitter: nuttcp falls back to plain ttcp data when its control
# port is refused (interop_nuttcp.sh shows it against a classic receiver); the server counts
# exactly what it sent.
if command -v nuttcp >/dev/null; then
  C=$(free_port)
  run nut nuttcp -t -p "$P" -P "$C" -n 1000 -l 8192 127.0.0.1
  expect_rc nut 0
  wait_for "$WAIT" s lines_at_least s out '^ttcp-r: 8192000 bytes in .* \+\+\+$' 1 ||
    { fail "s: no figures of nuttcp's 8192000 bytes"; show s; }
else
  echo "note: nuttcp is not installed: the third-party classic transmitter is not tried"
fi

# Three clients at once all complete.
for i in 1 2 3; do start "m$i" "$TTCP" -C --time 1 -R 20m -p "$P" 127.0.0.1; done
for i in 1 2 3; do reap "m$i"; expect_rc "m$i" 0; done

expect_running s
interrupt s
expect_rc s 0

# --max-clients 1: a second client is told "busy" at once and exits non-zero: within 2 s, a
# bound against a hang (a busy answer that waited for the first test would take 3 s), not a
# timing.
server b --max-clients 1
start long "$TTCP" -C --time 3 -R 20m -p "$P" 127.0.0.1
wait_for "$WAIT" long lines_at_least b err '^ttcp-r: accept from' 1 ||
  { fail "long: its test did not start"; show long; }
t0=$(now)
run busy "$TTCP" -C -n 10 -p "$P" 127.0.0.1
took=$(since "$t0")
measured "busy answered after $took s"
expect_rc busy 1
expect_awk busy "answered within 2 s (took $took s)" "$took <= 2"
expect_match busy err '^ttcp-C: the server at 127\.0\.0\.1 is busy: '
run busyj "$TTCP" -C -n 10 --json -p "$P" 127.0.0.1
expect_rc busyj 1
expect_json busyj
expect_jq busyj '.error.message | startswith("the server at 127.0.0.1 is busy")' true
reap long
expect_rc long 0
interrupt b

# -S --json: a document per test, a line each, on stdout (the text goes to stderr). SIGTERM in
# the middle of a test: that test ends with its figures, and the server exits 0.
server js --json
run j2 "$TTCP" -C -n 10 -p "$P" 127.0.0.1
expect_rc j2 0
run j3 "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
expect_rc j3 0
start long2 "$TTCP" -C --time 8 -R 20m -p "$P" 127.0.0.1
wait_for "$WAIT" long2 lines_at_least js err '^ttcp-r: accept from' 3 ||
  { fail "long2: its test did not start"; show js; }
kill -TERM "${PID[js]}"
reap js
expect_rc js 0
expect_eq js "documents" "$(jq -s length "$TMP/js.out")" 3
expect_eq js "lines" "$(wc -l <"$TMP/js.out")" 3
expect_eq js "their bytes and peers" "$(jq -r '.tests[0] | "\(.bytes) \(.peer)"' "$TMP/js.out" | head -n 2 | tr '\n' ' ')" \
  "81920 127.0.0.1 81920 127.0.0.1 "
expect_eq js "the test cut short" "$(jq -r 'select(.tests[0].interrupted) | .side' "$TMP/js.out")" receive
reap long2

# -1: one test, then the server exits 0 by itself.
server one -1
run c5 "$TTCP" -C -n 10 -p "$P" 127.0.0.1
expect_rc c5 0
reap one
expect_rc one 0
expect_match one err '^ttcp-S: serving on port [0-9]+, TCP and UDP, one test$'

# -S -6 and -C -6 over ::1.
if ip -6 addr show lo | grep -q '::1'; then
  server s6 -6
  run c6 "$TTCP" -C -6 -n 20 -p "$P" ::1
  expect_rc c6 0
  expect_match c6 out "$(summary_re send 163840)"
  expect_match s6 err '^ttcp-r: accept from ::1$'
  interrupt s6
  expect_rc s6 0
else
  echo "note: ::1 is not configured on lo: the IPv6 server and client are not tried"
fi

# A client pointed at a classic receiver: the receiver takes the connection and says nothing;
# after its 10 s wait for the welcome the client says what it likely is, exit 1.
receiver cr tcp -r -s
run cc "$TTCP" -C --time 1 -p "$P" 127.0.0.1
expect_rc cc 1
expect_lines cc err '^ttcp-C: 127\.0\.0\.1 took the connection but did not answer: is a ttcp -S listening there\? \(a classic receiver, ttcp -r, says nothing\)$'
stop cr

finish
