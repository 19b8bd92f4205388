# --json against its schema (issue #24: "--analyze --json validates against the JSON schema in
# the man page"), on 127.0.0.1. The schema is taken from docs/ttcp.1's "The schema" as mandoc
# renders it (and groff, where installed: both must give the same), so the page is its one
# source; python3-jsonschema (Debian's, under /usr/bin/python3) validates, through
# peers/json_schema.py. Documents: the classic pair with --analyze at both ends, RFC 6349's
# --link-rate/--mtu/--framing, -C --analyze (TCP, -r, -P 2), -C --latency, the classic
# transmitter's --latency, -C --compression, each line of the server's -S --json, and two
# failed runs' (an error object); each must also hold the member it is there for, so no check
# passes on a document without it. Then documents broken on purpose must fail validation, each
# for its own reason, so the check can fail.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
PY=/usr/bin/python3
CHECK=$E2E_DIR/peers/json_schema.py
PAGE=$E2E_DIR/../../docs/ttcp.1
[ -f "$PAGE" ] || { fail "no man page at $PAGE"; finish; }
if ! [ -x "$PY" ] || ! "$PY" -c 'import jsonschema' 2>/dev/null; then
  fail "no python3-jsonschema for $PY: the documents are checked by a real validator (apt-get install python3-jsonschema; ci/deps)"
  finish
fi
command -v mandoc >/dev/null || { fail "mandoc is not installed: the schema is read from the rendered page (ci/deps)"; finish; }

# The schema, as a reader of the page sees it.
mandoc -T utf8 "$PAGE" >"$TMP/page.mandoc" 2>"$TMP/mandoc.err" ||
  fail "mandoc could not render $PAGE: $(head -n 3 "$TMP/mandoc.err")"
run schema "$PY" "$CHECK" extract "$TMP/page.mandoc"
expect_rc schema 0
cp "$TMP/schema.out" "$TMP/schema.json"
if command -v groff >/dev/null; then
  groff -man -T utf8 -P -c "$PAGE" >"$TMP/page.groff" 2>/dev/null
  run schema_groff "$PY" "$CHECK" extract "$TMP/page.groff"
  expect_rc schema_groff 0
  cmp -s "$TMP/schema.out" "$TMP/schema_groff.out" ||
    fail "groff renders another schema than mandoc: $(diff "$TMP/schema.out" "$TMP/schema_groff.out" | head -n 5)"
fi
expect_jq schema '.["$schema"]' https://json-schema.org/draft/2020-12/schema \
  '.title' ttcp-result/1 '.["$defs"].test_document.properties.schema.const' ttcp-result/1
[ -s "$TMP/schema.json" ] || { fail "no schema to validate with"; finish; }

# valid NAME...: each NAME's stdout is valid, one document or (a server's) one a line.
valid() {
  local n
  for n; do
    run "v_$n" "$PY" "$CHECK" validate "$TMP/schema.json" "$TMP/$n.out"
    [ "${RC[v_$n]}" = 0 ] && continue
    fail "$n's --json is not valid against the man page's schema"; show "v_$n"; show "$n"
  done
}
# invalid NAME JQ-FILTER WHY: NAME's document changed by the filter must fail, and the
# validator's reasons must name WHY (an ERE).
invalid() {
  local n=$1 m=broken_$1_$((++BROKEN))
  jq -c "$2" "$TMP/$n.out" >"$TMP/$m.out" || { fail "jq '$2' on $n"; return; }
  run "v_$m" "$PY" "$CHECK" validate "$TMP/schema.json" "$TMP/$m.out"
  CMD[v_$m]+="   (the document: $n's, with $2)"
  expect_rc "v_$m" 1
  expect_match "v_$m" out "$3"
}
BROKEN=0

# The classic pair, --analyze at both ends (-i: the intervals too).
pair tcp -r -s --analyze --json -- -t -s --time 1 -i 0.5 --analyze --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_jq t '.tests[0].analysis.role' sender '.tests[0].analysis.known' true \
  '.tests[0].intervals | length > 0' true
expect_jq r '.tests[0].analysis.role' receiver
valid t r
cp "$TMP/t.out" "$TMP/classic.out"
# RFC 6349's figures: --link-rate, --mtu, --framing.
pair tcp -r -s -- -t -s -n 2048 --analyze --link-rate 10g --mtu 1500 --framing ethernet --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].analysis.rfc6349 | "\(.mtu_source) \(.framing_bytes) \(.max_tcp_bits_per_second > 0)"' 'given 38 true'
valid t
# The classic transmitter's --latency: its test's latency object.
pair tcp -r -s -- -t -s --time 1 --latency --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].latency.source' tcp_info
valid t
cp "$TMP/t.out" "$TMP/classic_latency.out"

# Through a server: -C --analyze (TCP; -r; -P 2), --latency, --compression; the server's lines.
listen_on srv tcp "$TTCP" -S --json -p @P@
run c_tcp "$TTCP" -C --time 1 --analyze --json -p "$P" 127.0.0.1
run c_r "$TTCP" -C -r --time 1 --analyze --json -p "$P" 127.0.0.1
run c_p2 "$TTCP" -C -P 2 --time 1 --analyze --json -p "$P" 127.0.0.1
run c_lat "$TTCP" -C --time 1 --latency --latency-idle 0.5 --json -p "$P" 127.0.0.1
run c_comp "$TTCP" -C -n 4096 --compression --json -p "$P" 127.0.0.1
for n in c_tcp c_r c_p2 c_lat c_comp; do expect_rc "$n" 0; done
expect_jq c_tcp '.tests[0].analysis.role' sender '.server_tests[0].analysis.role' receiver \
  '.summary | length' 1
expect_jq c_r '.tests[0].analysis.role' receiver '.server_tests[0].analysis.role' sender
expect_jq c_p2 '.tests[0].streams | length' 2 '.server_tests[0].streams | length' 2 \
  '[.tests[0].streams[].analysis.known] | unique' '[true]'
expect_jq c_lat '.latency.source' udp_echo '.latency.loaded.probes > 0' true
expect_jq c_comp '.compression.runs | length' 2 '.compression.finding != null' true
valid c_tcp c_r c_p2 c_lat c_comp
stop srv
expect_awk srv "the server wrote a line per test, per stream and per total (8)" \
  "$(grep -c '^{' "$TMP/srv.out") == 8"
valid srv

# Failed runs: the error object (nothing listens on a fresh port).
DEAD=$(free_port)
run f_t "$TTCP" -t -s --analyze --json -p "$DEAD" 127.0.0.1
run f_c "$TTCP" -C --analyze --json -p "$DEAD" 127.0.0.1
expect_rc f_t 1; expect_rc f_c 1
expect_jq f_t '.error.operation' connect '.tests | length' 0
expect_jq f_c '.error.native_code != 0' true '.summary | length' 0
valid f_t f_c

# Broken on purpose: each must fail, for its own reason.
invalid classic '.tests[0].analysis.role = "banana"' "'banana' is not one of"
invalid classic 'del(.tests[0].analysis.findings)' "'findings' is a required property"
invalid classic '.tests[0].analysis.findings += ["slow"]' "'slow' is not one of"
invalid classic '.tests[0].analysis.limited_by = "network"' "'network' is not one of"
invalid classic '.tests[0].analysis.rfc6349.mtu_source = "guessed"' "'guessed' is not one of"
invalid classic '.tests[0].surprise = 1' "'surprise' (was|were) unexpected"
invalid classic 'del(.error)' "'error' is a required property"
invalid classic '.summary = []' 'False schema does not allow'
invalid classic '.tests[0].bytes = 1.5' "1.5 is not of type 'integer'"
invalid classic_latency '.tests[0].latency.grade = "G"' "'G' is not one of"
invalid classic_latency 'del(.tests[0].latency.idle.p99_ms)' "'p99_ms' is a required property"
invalid c_tcp 'del(.summary)' "'summary' is a required property"
invalid c_tcp 'del(.tests[0].direction)' "'direction' is a required property"
invalid c_p2 '.tests[0].streams[1].extra = true' "'extra' was unexpected"
invalid c_lat '.latency.source = "ping"' "'ping' is not one of"
invalid c_comp '.compression.finding = "maybe"' "'maybe' is not one of"

finish
