# wine ttcpw.exe -r -s > log 2>&1: one file for both streams keeps the order in which the lines
# were printed (msvcrt buffers a stdout that is a file, so each line must be flushed): the
# socket and accept lines come before the figures; with -c, each accept before its own test's
# figures, test after test, until Ctrl+C.
BOUND=30
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# logged NAME ARGS...: ttcpw.exe ARGS on a fresh port P, stdout and stderr both to $TMP/NAME.out,
# returning once it listens (on the next port when P was taken: lib.sh's on_free_port).
logged() { on_free_port "tcp:$1" start_logged "$@"; }
start_logged() {
  local name=$1; shift
  CMD[$name]="$WTTCP -p $P $* >log 2>&1"
  "${BOUNDED[@]}" "$WTTCP" -p "$P" "$@" </dev/null >"$TMP/$name.out" 2>&1 {PORT_FD}<&- &
  PID[$name]=$!
  : >"$TMP/$name.err"
}
# line_of NAME ERE [NTH]: the number of the NTH (default first) line of NAME's log matching ERE.
line_of() { grep -En -- "$2" "$TMP/$1.out" | sed -n "${3:-1}s/:.*//p"; }
# before NAME ERE1 N1 ERE2 N2: the N1th line matching ERE1 comes before the N2th matching ERE2.
before() {
  local a b
  a=$(line_of "$1" "$2" "$3"); b=$(line_of "$1" "$4" "$5")
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && return
  fail "$1: line $3 matching /$2/ (${a:-none}) should come before line $5 matching /$4/ (${b:-none})"
  show "$1"
}
ACCEPT='^ttcp-r: accept from 127\.0\.0\.1$'
FIGURES='^ttcp-r: [0-9]+ bytes in .* real seconds = .* \+\+\+$'

logged one -r -s || { stop one; finish; }
run t "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
reap one
expect_rc t 0; expect_rc one 0
crlf one out
before one '^ttcp-r: socket$' 1 "$FIGURES" 1
before one "$ACCEPT" 1 "$FIGURES" 1
expect_lines one out "$(hdr r 8192 2048 "$P" tcp)" '^ttcp-r: socket$' "$ACCEPT" \
  "$(rate r 819200)" "$(calls r "$ANY")" "$(rusage r)"

logged many -r -s -c || { stop many; finish; }
run t1 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
run t2 "$TTCP" -t -s -n 200 -p "$P" 127.0.0.1
expect_rc t1 0; expect_rc t2 0
wait_line many out '^ttcp-r: [0-9]+ bytes in .* \+\+\+' 2   # (lines still end in CR LF here)
expect_running many
ctrl_c many
expect_rc many 0
crlf many out
before many "$ACCEPT" 1 "$FIGURES" 1
before many "$FIGURES" 1 "$ACCEPT" 2
before many "$ACCEPT" 2 "$FIGURES" 2
expect_match many out "$(rate r 819200)"
expect_match many out "$(rate r 1638400)"
[ "$(grep -Ec "$FIGURES" "$TMP/many.out")" = 2 ] || { fail "many: not two tests' figures"; show many; }

finish
