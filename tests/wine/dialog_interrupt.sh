# Ctrl+C while ttcpw.exe -I waits for an answer ends the dialog at once: "interrupted", no test,
# exit 2. Its stdin is a FIFO (under Wine a Unix pipe, read by a thread of ttcpw's own) and then,
# where script(1) is installed, Wine's console on a pseudo-terminal.
BOUND=40   # the silent stdin must outlive the 15 s (twice) this test allows ttcpw.exe after Ctrl+C
NEEDS=wine
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# exe_pid NAME: ttcpw.exe's process below NAME (through timeout(1), sh or script(1)): Wine's
# loader running it, whose /proc/PID/exe is wine64 (qemu-i386 for ci/test-windows32's 32-bit Wine).
exe_pid() {
  local p=${PID[$1]-} i
  for ((i = 0; i < 5; i++)); do
    [ -n "$p" ] || return 1
    case $(readlink "/proc/$p/exe") in */wine64* | */qemu-i386) echo "$p"; return 0 ;; esac
    p=$(pgrep -P "$p" | head -n 1)
  done
  return 1
}
# stdin_waits NAME: a thread of ttcpw.exe other than its first waits in read(2) (system call 0 on
# x86_64): the thread that reads stdin for it (platform/win/stdio.c), in the read of a FIFO
# itself, or on Wine's console in its wait for conhost's answer (without -I, waiting in accept,
# ttcpw.exe has one thread).
stdin_waits() {
  local p t nr _
  p=$(exe_pid "$1") || return 1
  for t in /proc/"$p"/task/*; do
    [ "$t" = "/proc/$p/task/$p" ] && continue
    read -r nr _ <"$t/syscall" 2>/dev/null && [ "$nr" = 0 ] && return 0
  done
  return 1
}

silent_fifo silent w || exit 1
IN=$TMP/silent start d "$WTTCP" -I
# the prompt comes just before the read; the Ctrl+C is for a read that waits (the dialog looks
# at the flag before each read, and a read begun after Ctrl+C waits as ever: platform.h)
wait_line d err '^transmit or receive \[receive\]: ' &&
  { wait_for "$WAIT" d stdin_waits d || fail "ttcpw.exe -I: no thread waits in a read of stdin"; }
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
  wait_for "$WAIT" c stdin_waits c || fail "console: no thread of ttcpw.exe waits for its input"
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
