# -I: IOS's questions on stderr, answers from stdin (piped answers echoed after each prompt),
# then a blank line and the test with the classic output and an IOS connect / accept line.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# The system's receive window of a new TCP socket: the rcvwndsize default.
RMEM=$(awk '{ print $2 }' /proc/sys/net/ipv4/tcp_rmem)

# dialog NAME PROMPT ANSWER [PROMPT ANSWER | "% COMPLAINT"]...: the answers, one a line, into
# $TMP/NAME.in; the transcript stderr must show into WANT (regexes, in order): "PROMPT: ANSWER"
# for each pair, and a "% ..." argument as a line of its own (a refused answer's complaint).
dialog() {
  local f=$TMP/$1.in; shift
  : >"$f"; WANT=()
  while [ $# -gt 0 ]; do
    if [ "${1:0:2}" = '% ' ]; then lit_re "$1"; WANT+=("$REPLY"); shift; continue; fi
    printf '%s\n' "$2" >>"$f"; lit_re "$1: $2"; WANT+=("$REPLY"); shift 2
  done
}
# dialog_receiver NAME SETUP [ARGS...]: on a fresh port P, SETUP (which writes NAME's answers
# with `dialog`, P among them, and keeps WANT in rwant), then `ttcp -I ARGS` (@P@ = the port)
# answering from $TMP/NAME.in in the background; returns once it listens on P. (Should P have
# been taken, all of it again on another port: lib.sh's on_free_port.)
dialog_receiver() {
  local name=$1 setup=$2
  shift 2
  on_free_port "tcp:$name" dialog_start "$name" "$setup" "$@"
}
dialog_start() {
  local name=$1 setup=$2
  shift 2
  "$setup"
  IN=$TMP/$name.in start_on_P "$name" "$TTCP" -I "$@"
}

# 1. Every default taken but the port (and the transmitter's nbuf): the prompts in IOS order.
r1() {
  dialog r 'transmit or receive [receive]' r 'perform tcp half close [n]' '' \
    'receive buflen [8192]' '' 'bufalign [16384]' '' 'bufoffset [0]' '' 'port [5001]' "$P" \
    'sinkmode [y]' '' "rcvwndsize [$RMEM]" '' 'delayed ACK [y]' '' \
    'show tcp information at end [n]' ''
  rwant=("${WANT[@]}")
}
dialog_receiver r r1
dialog t 'transmit or receive [receive]' t 'Target IP address' 127.0.0.1 \
  'perform tcp half close [n]' '' 'send buflen [8192]' '' 'send nbuf [2048]' 100 \
  'bufalign [16384]' '' 'bufoffset [0]' '' 'port [5001]' "$P" 'sinkmode [y]' '' \
  'buffering on writes [y]' '' 'show tcp information at end [n]' ''
run t "$TTCP" -I <"$TMP/t.in"
reap r
expect_rc t 0; expect_rc r 0
expect_lines t err "${WANT[@]}" '^$' '^ttcp-t: socket$' "$(ios_connect t)"
expect_lines r err "${rwant[@]}" '^$' '^ttcp-r: socket$' "$(ios_connect r)"
figures_ok t; figures_ok r
expect_report t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" 819200 100
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 819200 "$ANY"

# 2. Half close: each side is also asked about the other direction (transmitter: receive
# buflen, rcvwndsize, delayed ACK; receiver: send buflen, send nbuf, buffering on writes).
# The receiver sends 5 x 1000 bytes back; the transmitter shows its TCP statistics.
r2() {
  dialog r 'transmit or receive [receive]' receive 'perform tcp half close [n]' y \
    'receive buflen [8192]' 4096 'send buflen [4096]' 1000 'send nbuf [2048]' 5 \
    'bufalign [16384]' '' 'bufoffset [0]' '' 'port [5001]' "$P" 'sinkmode [y]' '' \
    'buffering on writes [y]' '' "rcvwndsize [$RMEM]" '' 'delayed ACK [y]' '' \
    'show tcp information at end [n]' ''
  rwant=("${WANT[@]}")
}
dialog_receiver r r2
dialog t 'transmit or receive [receive]' transmit 'Target IP address' 127.0.0.1 \
  'perform tcp half close [n]' yes 'send buflen [8192]' '' 'send nbuf [2048]' 100 \
  'receive buflen [8192]' '' 'bufalign [16384]' '' 'bufoffset [0]' '' 'port [5001]' "$P" \
  'sinkmode [y]' '' 'buffering on writes [y]' '' "rcvwndsize [$RMEM]" '' 'delayed ACK [y]' '' \
  'show tcp information at end [n]' y
run t "$TTCP" -I <"$TMP/t.in"
reap r
expect_rc t 0; expect_rc r 0
expect_lines t err "${WANT[@]}" '^$' '^ttcp-t: socket$' "$(ios_connect t)"
expect_lines r err "${rwant[@]}" '^$' '^ttcp-r: socket$' "$(ios_connect r)"
expect_lines t out "$(hdr t 8192 100 "$P" tcp 127.0.0.1)" "$(rate t 819200)" "$(calls t 100)" \
  "$(rusage t)" "$(half_close t 5000)" "$(tcpinfo t)"
expect_lines r out "$(hdr r 4096 5 "$P" tcp)" "$(rate r 819200)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(half_close r 5000)"

# 3. Bad answers are refused with a "% " line and the same prompt comes again; the answers
# finally taken hold (buflen 4096, the port), against a classic transmitter.
r3() {
  dialog r 'transmit or receive [receive]' x '% answer transmit or receive' \
    'transmit or receive [receive]' rec \
    'perform tcp half close [n]' maybe '% answer y or n' 'perform tcp half close [n]' no \
    'receive buflen [8192]' 0 "% '0' is out of range (1 to 268435456)" \
    'receive buflen [8192]' 4096 'bufalign [16384]' '' 'bufoffset [0]' '' \
    'port [5001]' 70000 "% '70000' is out of range (1 to 65535)" 'port [5001]' "$P" \
    'sinkmode [y]' maybe '% answer y or n' 'sinkmode [y]' yes \
    "rcvwndsize [$RMEM]" abc "% 'abc' is not a number" "rcvwndsize [$RMEM]" '' \
    'delayed ACK [y]' '' 'show tcp information at end [n]' ''
  rwant=("${WANT[@]}")
}
dialog_receiver r r3
run t "$TTCP" -t -s -n 100 -l 1000 -p "$P" 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
expect_lines r err "${rwant[@]}" '^$' '^ttcp-r: socket$' "$(ios_connect r)"
expect_report r out "$(hdr r 4096 2048 "$P" tcp)" 100000 "$ANY"
expect_report t out "$(hdr t 1000 100 "$P" tcp 127.0.0.1)" 100000 100

# 4. End of input before the dialog is complete: no test, exit 2, nothing on stdout.
# eof_dialog NAME ARGS...: `ttcp -I ARGS` answering from $TMP/NAME.in stops at its end after
# the transcript WANT, then the prompt LAST.
eof_dialog() {
  local name=$1; shift
  run "$name" "$TTCP" -I "$@" <"$TMP/$name.in"
  expect_rc "$name" 2; expect_empty "$name" out
  expect_lines "$name" err "${WANT[@]}" "$(lit "$LAST: ")" '^ttcp: end of input: no test was run$'
}
dialog e1 'transmit or receive [receive]' t 'Target IP address' 127.0.0.1
LAST='perform tcp half close [n]' eof_dialog e1
dialog e2
LAST='transmit or receive [receive]' eof_dialog e2
dialog e3 'transmit or receive [receive]' t 'Target IP address' '' '% a target is needed'
LAST='Target IP address' eof_dialog e3
dialog e4 'transmit or receive [receive]' '' 'perform tcp half close [n]' '' \
  'receive buflen [8192]' '' 'bufalign [16384]' '' 'bufoffset [0]' ''
LAST='port [5001]' eof_dialog e4

# 5. Options given with -I are the defaults shown; all-empty answers take them.
r5() {
  dialog r 'transmit or receive [receive]' '' 'perform tcp half close [n]' '' \
    'receive buflen [4096]' '' 'bufalign [16384]' '' 'bufoffset [0]' '' "port [$P]" '' \
    'sinkmode [y]' '' 'rcvwndsize [65536]' '' 'delayed ACK [n]' '' \
    'show tcp information at end [y]' ''
  rwant=("${WANT[@]}")
}
dialog_receiver r r5 -l 4096 -p @P@ --rcvwnd 65536 --no-delayed-ack --tcp-info
dialog t 'transmit or receive [transmit]' '' 'Target IP address' 127.0.0.1 \
  'perform tcp half close [n]' '' 'send buflen [1000]' '' 'send nbuf [100]' '' \
  'bufalign [4096]' '' 'bufoffset [16]' '' "port [$P]" '' 'sinkmode [y]' '' \
  'buffering on writes [n]' '' 'show tcp information at end [n]' ''
run t "$TTCP" -I -t -n 100 -l 1000 -D -A 4096 -O 16 -p "$P" <"$TMP/t.in"
reap r
expect_rc t 0; expect_rc r 0
expect_lines t err "${WANT[@]}" '^$' '^ttcp-t: socket$' '^ttcp-t: nodelay$' "$(ios_connect t)"
expect_lines r err "${rwant[@]}" '^$' '^ttcp-r: socket$' "$(ios_connect r)"
expect_report t out "$(ALIGN=4096/16 hdr t 1000 100 "$P" tcp 127.0.0.1)" 100000 100
expect_lines r out "$(hdr r 4096 2048 "$P" tcp)" "$(rate r 100000)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(tcpinfo r)"

# 6. Not sink mode: the data that follows the answers on the transmitter's stdin is sent, byte
# for byte; the receiver writes it to stdout and its report goes to stderr.
head -c 100000 /dev/urandom >"$TMP/data"
r6() {
  dialog r 'transmit or receive [receive]' r 'perform tcp half close [n]' '' \
    'receive buflen [8192]' '' 'bufalign [16384]' '' 'bufoffset [0]' '' 'port [5001]' "$P" \
    'sinkmode [y]' n "rcvwndsize [$RMEM]" '' 'delayed ACK [y]' '' \
    'show tcp information at end [n]' ''
  rwant=("${WANT[@]}")
}
dialog_receiver r r6
dialog t 'transmit or receive [receive]' t 'Target IP address' 127.0.0.1 \
  'perform tcp half close [n]' '' 'send buflen [8192]' '' 'send nbuf [2048]' '' \
  'bufalign [16384]' '' 'bufoffset [0]' '' 'port [5001]' "$P" 'sinkmode [y]' n \
  'buffering on writes [y]' '' 'show tcp information at end [n]' ''
cat "$TMP/data" >>"$TMP/t.in"
run t "$TTCP" -I <"$TMP/t.in"
reap r
expect_rc t 0; expect_rc r 0
cmp -s "$TMP/data" "$TMP/r.out" || { fail "receiver's stdout is not the data sent"; show r; }
expect_lines t err "${WANT[@]}" '^$' '^ttcp-t: socket$' "$(ios_connect t)"
expect_report t out "$(hdr t 8192 2048 "$P" tcp 127.0.0.1)" 100000 "$SOME"
expect_lines r err "${rwant[@]}" '^$' "$(hdr r 8192 2048 "$P" tcp)" '^ttcp-r: socket$' \
  "$(ios_connect r)" "$(rate r 100000)" "$(calls r "$ANY")" "$(rusage r)"

# 7. No arguments and piped answers (stdin not a terminal): the usage on stderr, exit 2, no dialog.
run h "$TTCP" -h
dialog none 'transmit or receive [receive]' r
run none "$TTCP" <"$TMP/none.in"
expect_rc none 2; expect_empty none out
cmp -s "$TMP/h.out" "$TMP/none.err" || { fail "no arguments: stderr is not the -h usage text"; show none; }

# 8. No arguments on a terminal (script(1) gives ttcp a pty): the dialog, not the usage; the
# answers there are the terminal's to echo, so only the dialog's own lines are looked for.
if command -v script >/dev/null; then
  answers tty.in r ''
  CMD[tty]="script -qec $TTCP /dev/null"
  "${BOUNDED[@]}" script -qec "$TTCP" /dev/null <"$TMP/tty.in" >"$TMP/tty.out" 2>"$TMP/tty.err"
  RC[tty]=$?
  expect_rc tty 2
  expect_match tty out 'transmit or receive \[receive\]: '
  expect_match tty out 'receive buflen \[8192\]: '
  expect_match tty out 'ttcp: end of input: no test was run'
  if grep -q '^Usage' "$TMP/tty.out"; then fail "no arguments on a terminal printed the usage"; show tty; fi
else
  echo "no script(1) here: the no-arguments-on-a-terminal check is skipped"
fi

finish
