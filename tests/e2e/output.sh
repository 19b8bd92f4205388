# --json-stream, --logfile, --timestamps and --title: how ttcp's output goes out. A consumer
# reads the JSON events while the test runs (the intervals come spread over the test, not at
# its end), through -C both ends' intervals; a log file takes the lines, run after run; each
# line of text carries the time and the title; the JSON the title; mistakes refused.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
READER=$(dirname "${BASH_SOURCE[0]}")/peers/json_stream_reader.py

# The receiver's events, read live: start first, end last, an interval every 0.25 s between.
listen_on r tcp python3 "$READER" "$TMP/events" "$TTCP" -r -s -i 0.25 --json-stream -p @P@
run t "$TTCP" -t -s --time 2 -R 20m -p "$P" 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
[ "$(sed -n 1p "$TMP/events" | cut -d' ' -f1)" = start ] || fail "events: the first is not start"
[ "$(grep -c '^interval local ' "$TMP/events")" -ge 7 ] || fail "events: fewer than 7 intervals"
[ "$(tail -n 2 "$TMP/events" | head -n 1 | cut -d' ' -f1)" = end ] || fail "events: the last is not end"
# live: the 2nd interval (closed 0.5 s into a 2 s test) came at least a second before the end
# did; had they all come at the end, it would be milliseconds
spread=$(awk '$1 == "interval" { n++; if (n == 2) a = $3 } $1 == "end" { e = $3 } END { print e - a }' "$TMP/events")
awk -v s="$spread" 'BEGIN { exit !(s >= 1.0) }' ||
  { fail "events: the intervals came at the end (2nd to end: ${spread} s), not as the test ran"; cat "$TMP/events"; }
tail -n 1 "$TMP/events" >"$TMP/doc.out"
expect_jq doc '.schema' ttcp-result/1 '.tests[0].bytes > 0' true

# Through a server: the server's intervals come to the client as they close, and its own.
listen_on srv tcp "$TTCP" -S -1 -p @P@
run c python3 "$READER" "$TMP/cevents" "$TTCP" -C --time 1.5 -i 0.25 -R 20m --json-stream -p "$P" 127.0.0.1
reap srv
expect_rc c 0
[ "$(grep -c '^interval local ' "$TMP/cevents")" -ge 5 ] && [ "$(grep -c '^interval server ' "$TMP/cevents")" -ge 5 ] ||
  { fail "c: not both ends' intervals in the events"; cat "$TMP/cevents"; }
tail -n 1 "$TMP/cevents" >"$TMP/cdoc.out"
expect_jq cdoc '.server_tests | length' 1 '.side' client

# --logfile appends: two runs, both in the file, nothing on the terminal; a receiver's data
# (no -s) stays on stdout.
for k in 1 2; do
  pair tcp -r -s -- -t -s -n 10 --logfile "$TMP/log" --title "run $k" 127.0.0.1
  expect_rc t 0; expect_empty t out; expect_empty t err
done
[ "$(grep -c '^run [12]:  ttcp-t: 81920 bytes in ' "$TMP/log")" = 2 ] ||
  { fail "log: not both runs' figures"; cat "$TMP/log"; }
printf 'through the log\n' >"$TMP/data"
receiver r tcp -r --logfile "$TMP/rlog"
run t "$TTCP" -t -p "$P" 127.0.0.1 <"$TMP/data"
reap r
expect_lines r out '^through the log$'
expect_empty r err
grep -q '^ttcp-r: 16 bytes in ' "$TMP/rlog" || { fail "rlog: no figures"; cat "$TMP/rlog"; }

# --timestamps and --title: before each line of text, the time first; the title in the JSON.
pair tcp -r -s -- -t -s -n 10 --timestamps --title 'lab 1' --json 127.0.0.1
expect_rc t 0
bad=$(grep -cvE '^20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9]{3} lab 1:  ttcp-t: ' "$TMP/t.err")
[ "$bad" = 0 ] || { fail "t: $bad lines without the time and the title"; show t; }
expect_jq t '.title' 'lab 1'

# Refused, with the reason.
for bad in "--title=" "--logfile /nonexistent/dir/log" "--logfile="; do
  run b "$TTCP" -t -s -n 1 -p "$(free_port)" $bad 127.0.0.1
  expect_rc b 2; expect_empty b out
done
expect_lines b err "^ttcp: --logfile: the file's name is empty$"
run b "$TTCP" -t -s -n 1 -p "$(free_port)" --logfile /nonexistent/dir/log 127.0.0.1
expect_lines b err '^ttcp: --logfile /nonexistent/dir/log: No such file or directory$'
run b "$TTCP" -r --json-stream
expect_rc b 2; expect_lines b err '^ttcp: --json-stream needs -s on a receiver: its stdout carries the data$'
finish
