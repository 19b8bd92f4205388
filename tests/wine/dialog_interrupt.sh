# Ctrl+C while ttcpw.exe -I waits for an answer ends the dialog at once: "interrupted", no test,
# exit 2. Its stdin is a FIFO (under Wine a Unix pipe, read by a thread of ttcpw's own) and then,
# where script(1) is installed, Wine's console on a pseudo-terminal.
BOUND=40   # the silent stdin must outlive the 15 s (twice) this test allows ttcpw.exe after Ctrl+C
NEEDS=wine
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

silent_fifo silent w || exit 1
IN=$TMP/silent start d "$WTTCP" -I
# the prompt comes just before the read; the Ctrl+C is for a read that waits (the dialog looks
# at the flag before each read, and a read begun after Ctrl+C waits as ever: platform.h)
wait_line d err '^transmit or receive \[receive\]: ' && sleep 0.2
expect_running d
ctrl_c d 15
expect_rc d 2
expect_empty d out
crlf d err
expect_lines d err '^transmit or receive \[receive\]: $' '^ttcp: interrupted: no test was run$'

# The console: script(1) gives ttcpw.exe a terminal, Wine's conhost makes it a Windows console
# (whose ReadFile Ctrl+C does not cut short under Wine); a Ctrl+C typed there is the byte 0x03.
if command -v script >/dev/null; then
  silent_fifo keys w || exit 1
  IN=$TMP/keys start c script -qefc "exec wine '$TTCPW' -I" /dev/null
  # the terminal's text: no escape sequences, CRs or spaces (conhost moves the cursor instead)
  screen() { sed 's/\x1b\[[0-9?;]*[A-Za-z]//g; s/[\r ]//g' "$TMP/c.out"; }
  prompted() { screen | grep -q 'transmitorreceive\[receive\]:'; }
  wait_for "$WAIT" c prompted || { fail "console: no prompt"; screen | tail -n 5 | sed 's/^/    | /'; }
  sleep 0.2   # as above
  expect_running c
  t0=$(now)
  printf '\003' >"$TMP/keys"
  if ! wait_for 15 - gone c; then
    fail "console: still running 15 s after Ctrl+C"; stop c
  else
    reap c
    measured "console: ttcpw.exe ended $(since "$t0") s after Ctrl+C"
    expect_rc c 2
  fi
  screen | grep -q 'ttcp:interrupted:notestwasrun' ||
    { fail "console: no 'interrupted: no test was run'"; screen | tail -n 5 | sed 's/^/    | /'; }
  stop_any keys
fi
stop_any silent

finish
