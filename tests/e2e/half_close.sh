# --half-close (IOS's tcp half close): after the transmitter's FIN the receiver sends -n
# buffers back on the same connection; each side adds a "half close:" line. Against a receiver
# that does not send back, the transmitter finds 0 bytes and still succeeds.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# half_close_ok T-BACK R-HEADER-ARGS... : 100 x 8192 forward, T-BACK bytes back on both sides.
half_close_ok() {
  local back=$1; shift
  expect_rc r 0; expect_rc t 0
  expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" "$(calls t 100)" \
    "$(rusage t)" "$(half_close t "$back")"
  expect_lines r out "$(hdr r "$@" "$P" tcp)" "$(rate r 819200)" "$(calls r "$ANY")" \
    "$(rusage r)" "$(half_close r "$back")"
  expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
  expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
}

# Both sides: the receiver's -n 10 buffers of its -l come back.
pair tcp -r -s --half-close -n 10 -- -t -s -n 100 --half-close 127.0.0.1
half_close_ok 81920 8192 10
pair tcp -r -s --half-close -n 10 -l 1000 -- -t -s -n 100 --half-close 127.0.0.1
half_close_ok 10000 1000 10

# A transmitter without --half-close still counts what comes back (and says so).
pair tcp -r -s --half-close -n 10 -- -t -s -n 100 127.0.0.1
half_close_ok 81920 8192 10

# A plain ttcp receiver (as 1.12: reads to EOF and closes): 0 bytes back, exit 0.
pair tcp -r -s -- -t -s -n 100 --half-close 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" "$(calls t 100)" \
  "$(rusage t)" "$(half_close t 0)"
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 819200 "$ANY"

# A classic-style receiver that is not ttcp at all: the same.
if classic_sink c; then
  run t "$TTCP" -t -s -n 100 --half-close -p "$P" 127.0.0.1
  reap c
  expect_rc c 0; expect_rc t 0
  expect_lines c out '^819200$'
  expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" "$(calls t 100)" \
    "$(rusage t)" "$(half_close t 0)"
  expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
else
  echo "no perl here: the check against a receiver that is not ttcp is skipped"
fi

finish
