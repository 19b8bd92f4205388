# Issue 22's settings on Windows (127.0.0.1 only): --cport's port and --bind's address in the
# native receiver's JSON (the exe binds before it connects; getsockname gives its own end);
# --omit's figures, the omitted line and the intervals; --json-stream's events on stdout, one a
# line; --logfile appended to (in text mode: CR LF, as on the console) and --title before each
# line.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1
need_jq

Q=$(free_port)
wpair w2n tcp -r -s --json -- -t -s -n 100 --bind 127.0.0.1 --cport "$Q" --json 127.0.0.1
expect_rc r 0; expect_rc t 0
crlf t out err
expect_jq r '.tests[0].peer_port' "$Q" '.tests[0].bytes' 819200
expect_jq t '.tests[0].local' 127.0.0.1 '.tests[0].local_port' "$Q"

# --omit with intervals: those of the omitted second marked, the rest adding up to the figures.
wpair w2n tcp -r -s -- -t -s --time 2 -R 8m -i 0.5 --omit 1 --json-stream 127.0.0.1
expect_rc t 0
crlf t out err
[ "$(grep -c '"event":"interval"' "$TMP/t.out")" -ge 4 ] || { fail "t: fewer than 4 interval events"; show t; }
tail -n 1 "$TMP/t.out" | jq -e '.event == "end" and .data.tests[0].omitted.seconds == 1 and
  .data.tests[0].bytes == ([.data.tests[0].intervals[] | select(.omitted | not) | .bytes] | add)' \
  >/dev/null || { fail "t: the end event's figures are not the intervals after the omitted second"; show t; }
expect_match t err '^ttcp-t: omitted: the first 1\.00 s, [0-9]+ bytes, not in the figures$'

# --logfile and --title: the exe appends its lines to the file, nothing to the console.
WLOG="Z:${TMP//\//\\}\\log"   # the file's Windows name (Wine's Z: drive is /)
for k in 1 2; do
  wpair w2n tcp -r -s -- -t -s -n 10 --logfile "$WLOG" --title "w$k" 127.0.0.1
  expect_rc t 0; expect_empty t out; expect_empty t err
done
[ "$(grep -c $'^w[12]:  ttcp-t: 81920 bytes in .*\r$' "$TMP/log")" = 2 ] ||
  { fail "log: not both runs' figures"; cat -A "$TMP/log" | head; }
finish
