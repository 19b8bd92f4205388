# Absurd numbers on the command line (0, negative, overflowing, over a bound): one line
# "ttcp: OPTION: 'VALUE' ..." on stderr, nothing on stdout, exit 2, before any socket is made.
# Then the largest buffer allowed (-l 256m) really moves, byte for byte, over loopback.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# Nothing listens on P: a command line taken as valid would try to connect and exit 1, not 2.
P=$(free_port)
# absurd REGEX ARGS...: the one stderr line must match ^ttcp: REGEX.
absurd() {
  local re=$1; shift
  run u "$TTCP" "$@"
  expect_rc u 2
  expect_empty u out
  expect_lines u err "^ttcp: $re"
}
RANGE='is out of range \('
absurd "-l: '0' $RANGE"                               -t -s -l 0 -p "$P" 127.0.0.1
absurd "-l: '-1' is negative"                         -t -s -l -1 -p "$P" 127.0.0.1
absurd "-l: '99999999999999999999' is too large"      -t -s -l 99999999999999999999 -p "$P" 127.0.0.1
absurd "-l: '300m' ${RANGE}1 to 268435456\)"          -t -s -l 300m -p "$P" 127.0.0.1
absurd "-n: '0' $RANGE"                               -t -s -n 0 -p "$P" 127.0.0.1
absurd "-b: '0' $RANGE"                               -t -s -b 0 -p "$P" 127.0.0.1
absurd "-p: '65536' ${RANGE}1 to 65535\)"             -t -s -p 65536 127.0.0.1
absurd "-R: '0' $RANGE"                               -t -s -R 0 -p "$P" 127.0.0.1
absurd "-R: '5' ${RANGE}100 to "                      -t -s -R 5/0 -p "$P" 127.0.0.1  # the rate is checked first
absurd "-R: '0' ${RANGE}1 to 1000000\)"               -t -s -R 5m/0 -p "$P" 127.0.0.1 # a burst of 0 buffers
absurd "-i: '0' $RANGE"                               -t -s -i 0 -p "$P" 127.0.0.1
absurd "--time: '0' $RANGE"                           -t -s --time 0 -p "$P" 127.0.0.1
absurd "--idle-timeout: '100000' ${RANGE}0\.01 to 86400 seconds\)" \
                                                      -t -s --idle-timeout 100000 -p "$P" 127.0.0.1
# the receiver checks the same way
absurd "-l: '0' $RANGE"                               -r -s -l 0 -p "$P"
absurd "-b: '0' $RANGE"                               -r -s -b 0 -p "$P"
absurd "--idle-timeout: '0' $RANGE"                   -r -s -u --idle-timeout 0 -p "$P"

# The largest buffer there is, 256 MiB, once: exactly 268435456 bytes on both sides (each side
# allocates its 256 MiB buffer; ~0.6 GB in all with the socket buffers). Filling and moving it
# takes about 2 s of CPU, which a busy machine can stretch past the usual 20 s: 60 s for this run.
BOUND=60 BOUNDED=(timeout --foreground -k 2 60)
pair tcp -r -s -l 256m -- -t -s -l 256m -n 1 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_report r out "$(hdr r 268435456 2048 "$P" tcp)" 268435456 "$SOME"
expect_report t out "$(hdr t 268435456 1 "$P" tcp 127.0.0.1)" 268435456 "$SOME"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'

finish
