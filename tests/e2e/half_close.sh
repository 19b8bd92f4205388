# --half-close (IOS's tcp half close): after the transmitter's FIN the receiver sends -n
# buffers back on the same connection; each side adds a "half close:" line. Against a receiver
# that does not send back, the transmitter finds 0 bytes and still succeeds; against a classic
# transmitter, which closes both ways, the receiver warns. --json tells the same as the text.
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

# --json: the document tells the half close as the text does (the text goes to stderr then):
# .tests[0].half_close with the bytes of the "half close:" line, absent where there is no line.
need_jq
# expect_half_close NAME BYTES|absent|some: NAME's "half close:" line and its document's
# .tests[0].half_close.bytes agree, and are BYTES (some: any number; absent: neither is there).
expect_half_close() {
  local text json
  text=$(grab "$1" err '^ttcp-[tr]: half close: ([0-9]+) bytes (sent|received) back in .*')
  json=$(jq -r '.tests[0] | if has("half_close") then .half_close.bytes else "absent" end' "$TMP/$1.out")
  if [ "$json" != "${text:-absent}" ]; then
    fail "$1: the text's half close is '${text:-absent}', the JSON's '$json'"; show "$1"
  elif [ "$2" = some ]; then
    [ "$json" != absent ] || { fail "$1: no half close in the text or the JSON"; show "$1"; }
  else
    expect_eq "$1" "the half close's bytes (text and JSON)" "$json" "$2"
  fi
}
pair tcp -r -s --half-close -n 10 --json -- -t -s -n 100 --half-close --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_half_close t 81920; expect_half_close r 81920
# a plain receiver: its text and document have no half close; the transmitter's both say 0
pair tcp -r -s --json -- -t -s -n 100 --half-close --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_half_close t 0; expect_half_close r absent

# A classic transmitter closes both ways (1.12 exits; here bash closes its /dev/tcp socket): the
# receiver's sends back fail once that close reaches them (-n 1000: more than the socket buffers
# hold), the warning says so; text and JSON tell the same bytes and the same warning.
receiver r tcp -r -s --half-close -n 1000 --json || { stop r; finish; }
run ct bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && head -c 819200 /dev/zero >&3' - "$P"
reap r
expect_rc ct 0; expect_rc r 0
expect_half_close r some
REFUSED='half close: the transmitter closed both ways, nothing more could be sent back'
expect_match r err "^ttcp-r: warning: $REFUSED\$"
expect_jq r '.tests[0].bytes' 819200 \
  '[.tests[0].warnings[] | select(.code == "half_close_refused") | .message]' "[\"$REFUSED\"]"

finish
