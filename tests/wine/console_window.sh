# "Press Enter to close." only where the console window was opened for ttcpw.exe alone (started
# from Explorer): typed with no arguments into a cmd window, which shares its console, the dialog
# and the test run and it ends as any command does. script(1) gives Wine a terminal, which Wine's
# conhost makes a Windows console; `wine cmd /c ttcpw.exe` is ttcpw typed into a cmd window,
# `wine ttcpw.exe` a console of its own. Keys are typed once the prompt shows and Wine has put the
# terminal in raw mode (-icrnl): typed earlier, the line discipline turns each CR into an LF, which
# Wine's console takes as a ^J character, not Enter (seen once in CI on a busy machine).
NEEDS="native wine"
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1
command -v script >/dev/null || wine_skip "script(1) is not installed (bsdutils)"

# the terminal's text: no escape sequences, CRs or spaces (conhost moves the cursor instead)
screen() { sed 's/\x1b\[[0-9?;]*[A-Za-z]//g; s/[\r ]//g' "$TMP/$1.out"; }
shows() { screen "$1" | grep -q -- "$2"; }
prompted() { shows "$1" 'transmitorreceive\[receive\]:'; }
asks_enter() { shows "$1" 'PressEntertoclose\.'; }

# raw_tty NAME: the terminal that script(1), started as NAME, gave its child is in raw mode.
raw_tty() {
  local s c tty
  s=$(worker_pid "$1") || return 1
  for c in $(pgrep -P "$s"); do
    tty=$(readlink "/proc/$c/fd/0") || continue
    case $tty in /dev/pts/*) stty -F "$tty" -a 2>/dev/null | grep -qw -- -icrnl && return 0 ;; esac
  done
  return 1
}
# ready NAME: the dialog's first prompt shows and keys typed now reach it as typed.
ready() { prompted "$1" && raw_tty "$1"; }

# closing NAME: the screen asks for Enter, and the terminal is raw (Enter typed now is Enter).
closing() { asks_enter "$1" && raw_tty "$1"; }
# taken NAME: ttcpw.exe's screen says its port is in use (WSAEADDRINUSE).
taken() { shows "$1" '^errno=10048$'; }
listens_or_taken() { listening tcp "$P" "$1" || taken "$1"; }

# answer_on_P NAME COMMAND: COMMAND (a shell line) under script(1), answering the dialog as a
# receiver on port P (every other answer the default); returns once ttcpw.exe listens, or once it
# has said the port is taken and ended (its window closed with Enter where it asks for one), its
# screen then in $TMP/NAME.err, where on_free_port's port_lost looks for errno=10048.
answer_on_P() {
  local name=$1 cmd=$2
  stop_any "$name-keys"; rm -f "$TMP/$name-keys"   # the last port's
  silent_fifo "$name-keys" w || return 1
  IN=$TMP/$name-keys start "$name" script -qefc "$cmd" /dev/null
  if ! wait_for "$WAIT" "$name" ready "$name"; then
    fail "$name: no prompt on a raw terminal"; screen "$name" | tail -n 5; stop "$name"; return 1
  fi
  printf 'r\r\r\r\r\r%s\r\r\r\r\r' "$P" >"$TMP/$name-keys"
  wait_for "$LISTEN_WAIT" "$name" listens_or_taken "$name"
  taken "$name" || return 0
  wait_for "$WAIT" "$name" closing "$name" && printf '\r' >"$TMP/$name-keys"
  wait_for "$WAIT" - gone "$name" && screen "$name" >"$TMP/$name.err"
}
# window NAME COMMAND: answer_on_P on a fresh port (on the next one when it was taken: lib.sh's
# on_free_port), then a native transmitter sends 10 buffers.
window() {
  on_free_port "tcp:$1" answer_on_P "$1" "$2" || return 1
  run "$1-t" "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
  expect_rc "$1-t" 0
}

# A cmd window: the figures, no question at the end, exit 0 by itself.
window cmd "exec wine cmd /c '$TTCPW'"
if wait_for "$WAIT" - gone cmd; then
  reap cmd
  expect_rc cmd 0
else
  fail "cmd: ttcpw.exe did not end after its test"; stop cmd
fi
shows cmd 'ttcp-r:81920bytesin' || { fail "cmd: no figures"; screen cmd | tail -n 5; }
! shows cmd 'PressEnter' || { fail "cmd: a cmd window was asked to press Enter"; screen cmd | tail -n 5; }
stop_any cmd-keys

# A console of its own: the figures, then "Press Enter to close." until Enter comes.
window own "exec wine '$TTCPW'"
if wait_for "$WAIT" own asks_enter own && wait_for "$WAIT" own raw_tty own; then
  expect_running own
  printf '\r' >"$TMP/own-keys"
  if wait_for "$WAIT" - gone own; then reap own; expect_rc own 0; else fail "own: Enter did not close it"; stop own; fi
else
  fail "own: no 'Press Enter to close.' in a console window of its own"; screen own | tail -n 5; stop_any own
fi
shows own 'ttcp-r:81920bytesin' || { fail "own: no figures"; screen own | tail -n 5; }
stop_any own-keys

finish
