# --json: one JSON document ("ttcp-result/1") on stdout at the end, the human lines on stderr;
# an error object and exit status 1 on failure. Parsed with jq: without jq this test fails.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq

# expect_result NAME transmit|receive [FILTER WANT]...: one document, the schema, no error, one
# test whose bytes are those of the "+++" line on stderr; then the further checks given.
expect_result() {
  local name=$1 side=$2
  shift 2
  expect_json "$name"
  expect_jq "$name" .schema ttcp-result/1 .side "$side" .error null '.tests | length' 1 \
    '.tests[0].bytes' "$(bytes_of "$name" err)" "$@"
}

pair tcp -r -s --json -- -t -s -n 1000 --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_result t transmit '.tests[0].bytes' 8192000 '.tests[0].io_calls' 1000 \
  '.options.protocol + " " + (.options.port | tostring)' "tcp $P"
expect_result r receive '.tests[0].bytes' 8192000
expect_match t err "$(rate t 8192000)"; expect_match r err "$(rate r 8192000)"

pair udp -r -s -u --json -- -t -s -u -l 1024 -n 50 --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_result t transmit '.tests[0].bytes' 51200 .options.protocol udp
expect_result r receive '.tests[0].udp.datagrams * 1024' "$(bytes_of r err)"

# Nothing listens: exit status 1, and stdout still carries the document, with the error.
P=$(free_port)
run t "$TTCP" -t -s -n 10 --json -p "$P" 127.0.0.1
expect_rc t 1
expect_json t
expect_jq t .schema ttcp-result/1 .error.operation connect '.error.message | length > 0' true \
  '.tests | length' 0
expect_match t err '^ttcp-t: connect: '

# -i with --json: the intervals are in the document (as many as the lines on stderr), back to
# back, adding up to the bytes.
pair tcp -r -s -i 0.2 --json -- -t -s -i 0.2 --time 1 --json 127.0.0.1
expect_rc r 0; expect_rc t 0
for s in t:transmit r:receive; do
  name=${s%:*}
  expect_result "$name" "${s#*:}" \
    '.tests[0].intervals | length >= 4' true \
    '.tests[0].intervals | length' "$(count "$name" err "$(interval "$name" tcp)")" \
    '([.tests[0].intervals[].bytes] | add) == .tests[0].bytes' true \
    '.tests[0].intervals as $i | [range(1; $i | length) | $i[.].start == $i[. - 1].end] | all' true
done

# A receiver that writes the data to stdout cannot put a document there too.
run r "$TTCP" -r --json -p "$(free_port)"
expect_rc r 2
expect_empty r out
expect_match r err '--json needs -s'

finish
