# --pattern classic|random|zeros on the transmitter, --verify on the receiver: intact streams are
# checked to the last byte, a damaged one is caught at the right offset; --seed repeats a stream.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# verified PATTERN BYTES [CORRUPTED-TAIL]: the receiver's verify line, as a regex.
verified() { lit "ttcp-r: verify: $1 pattern, $2 bytes checked, ${3:-0 corrupted}"; }

# The three patterns over TCP: the receiver tells which one came and checks every byte.
pair tcp -r -s --verify -- -t -s -n 1000 --pattern random 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines r out "$(hdr r 8192 2048 "$P" tcp)" "$(rate r 8192000)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(tcpinfo r)" "$(cpuline r)" "$(verified random 8192000)"
expect_match t out '^ttcp-t: pattern: random, seed [0-9]+$'

pair tcp -r -s --verify -- -t -s -n 1000 -l 1000 127.0.0.1   # classic, restarting every 1000 bytes
expect_rc r 0; expect_rc t 0
expect_match r out "$(verified classic 1000000)"

pair tcp -r -s --verify -- -t -s -n 1000 --pattern zeros 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_match r out "$(verified zeros 8192000)"

# UDP: each datagram is checked on its own after ttcp's 32-byte header.
pair udp -r -s -u --verify -- -t -s -u -l 1024 -n 50 --pattern random 127.0.0.1
expect_rc r 0; expect_rc t 0
got=$(bytes_of r out)
re=$(verified random $((got / 1024 * 992)) '0 corrupted, ')
expect_match r out "${re%\$}[0-9]+ datagrams missing\$"

# --seed: the same seed sends the same bytes (a 16-byte preamble "ttcpRND1" + the seed, then
# the stream), another seed other bytes. A non-sink receiver keeps them.
for take in 7a 7b 8; do
  pair tcp -r -- -t -s -n 4 --pattern random --seed "${take%[ab]}" 127.0.0.1
  expect_rc r 0; expect_rc t 0
  expect_match t out "^ttcp-t: pattern: random, seed ${take%[ab]}\$"
  cp "$TMP/r.out" "$TMP/seed$take"
done
expect_eq r "size of a 4-buffer random stream" "$(stat -c %s "$TMP/seed7a")" 32768
expect_eq r "its first 8 bytes" "$(head -c 8 "$TMP/seed7a")" ttcpRND1
cmp -s "$TMP/seed7a" "$TMP/seed7b" || fail "--seed 7 twice sent different bytes"
cmp -s "$TMP/seed7a" "$TMP/seed8" && fail "--seed 7 and --seed 8 sent the same bytes"

# A damaged stream: 3 buffers of the classic pattern sent from stdin, one byte changed: in the
# first buffer (before the receiver knows the buffer length), in the second, the very last byte.
for at in 100 9192 24575; do
  classic_data bad.bin 3 8192 "$at"
  pair tcp -r -s --verify -- -t 127.0.0.1 <"$TMP/bad.bin"
  expect_rc r 0; expect_rc t 0
  expect_match r out "$(verified classic 24576 "1 corrupted (the first at byte $at)")"
done

finish
