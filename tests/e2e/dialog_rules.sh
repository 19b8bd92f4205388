# The -I dialog: what its answers make passes the same option rules as a command line; Ctrl+C
# ends it at once; started with no arguments on a terminal, it never asks for Enter at the end
# (only a console window opened for ttcp alone, on Windows, does).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# receiver_answers FILE PORT SINK: a receiver's answers, all defaults but the port and sinkmode.
receiver_answers() {
  printf '%s\n' r '' '' '' '' "$2" "$3" '' '' '' >"$TMP/$1"
}

# 1. --discard (or --json) with sinkmode answered n: the rules refuse it, nothing is received.
P=$(free_port)
for opt in --discard --json; do
  receiver_answers ans "$P" n
  run d "$TTCP" -r -s "$opt" -I <"$TMP/ans"
  expect_rc d 2
  case $opt in
    --discard) why='--discard is for a TCP receiver in sink mode (-r -s), without --verify, -T or -B: the bytes are never seen' ;;
    --json) why='--json needs -s on a receiver: its stdout carries the data' ;;
  esac
  grep -qxF "ttcp: $why" "$TMP/d.err" || { fail "d: the rule is not named"; show d; }
  expect_empty d out
  ! grep -q '^ttcp-r: socket$' "$TMP/d.err" || fail "a receiver was started anyway"
done

# 2. Ctrl+C while the dialog waits for an answer: it ends at once, no test is run.
mkfifo "$TMP/silent"
exec 8<>"$TMP/silent"                         # open both ways: the dialog sees no end of input
IN=$TMP/silent start i "$TTCP" -I
wait_line i err 'transmit or receive \[receive\]: $' || true
interrupt i
exec 8>&-
expect_rc i 2
expect_match i err '^ttcp: interrupted: no test was run$'

# 3. No arguments on a terminal (script(1) gives it one): the dialog, the test, and no
# "Press Enter to close." at the end.
command -v script >/dev/null || skip "script(1) is not installed (bsdutils)"
term() { receiver_answers term.in "$P" ''; IN=$TMP/term.in start term script -qefc "$TTCP" /dev/null; }
on_free_port tcp:term term || { stop term; finish; }
run t "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
expect_rc t 0
reap term
expect_rc term 0
expect_match term out '^ttcp-r: 81920 bytes in '
grep -q 'Press Enter' "$TMP/term.out" && { fail "a terminal was asked to press Enter"; show term; }

finish
