# ttcp -S --daemon --pidfile (issue #22, item 7): the command returns once the server listens,
# the pid file then holds the pid of the server, which runs in a session of its own, serves a
# classic transmitter and ttcp -C, and ends at SIGTERM (and at SIGINT) removing the pid file. A
# pid file naming a live process is refused; a stale one is taken over; a daemon that cannot
# start says why on the terminal and its command fails; with --logfile its lines go on there.
# Without --daemon, --pidfile alone.
# Each daemon is bounded: a watchdog of the script's own ends it after DAEMON_BOUND s even if
# this script is killed, and the EXIT trap ends it at once (each by its pid, checked first).
BOUND=${BOUND:-40}
DAEMON_BOUND=40
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out"; }
DAEMONS=()
# ours PID: PID is a ttcp server of this script's (its command line names this script's $TMP).
ours() { { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null | grep -qF -- "$TMP/"; }
end_daemons() { local d; for d in "${DAEMONS[@]}"; do ours "$d" && kill "$d"; done; cleanup; }
trap end_daemons EXIT
# watch PID: end the daemon PID after DAEMON_BOUND s, unless it has ended by then.
watch() {
  local pid=$1 tmp=$TMP
  DAEMONS+=("$pid")
  ( for ((i = 0; i < DAEMON_BOUND * 10; i++)); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
    { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "$tmp/" && kill "$pid" ) \
    </dev/null >/dev/null 2>&1 {PORT_FD}<&- &
  PID[watch_$pid]=$!
}
# daemon NAME PIDFILE ARGS...: `ttcp -S -p P --daemon --pidfile PIDFILE ARGS` on a fresh port.
daemon() {
  local name=$1 file=$2; shift 2
  P=$(free_port)
  run "$name" "$TTCP" -S -p "$P" --daemon --pidfile "$file" "$@"
  [ -s "$file" ] && watch "$(cat "$file")"
}
gone() { ! kill -0 "$1" 2>/dev/null; }

F=$TMP/ttcp.pid
daemon d1 "$F"
expect_rc d1 0
[ -s "$F" ] || { fail "no pid file after --daemon returned"; show d1; finish; }
D=$(cat "$F")
expect_eq d1 "the pid file" "$(cat "$F")" "$(pgrep -f -- "--pidfile $F" | head -n 1)"
# (the words after the binary's: a wrapper such as ci/valgrind's may run it)
[[ "$(tr '\0' ' ' <"/proc/$D/cmdline")" == *" -S -p $P --daemon --pidfile $F " ]] ||
  fail "pid $D is not the server: $(tr '\0' ' ' <"/proc/$D/cmdline")"
expect_eq d1 "the daemon's session" "$(ps -o sid= -p "$D" | tr -d ' ')" "$D"
expect_eq d1 "the daemon's directory" "$(readlink "/proc/$D/cwd")" /
expect_eq d1 "the daemon's stdout" "$(readlink "/proc/$D/fd/1")" /dev/null
# listening when the command returned: no wait
listening tcp "$P" || fail "the server was not listening when --daemon returned"
expect_match d1 err "^ttcp-S: serving on port $P, TCP and UDP$"

# It serves.
run t1 "$TTCP" -t -s -n 100 -p "$P" 127.0.0.1
expect_rc t1 0
expect_eq t1 "ttcp-t bytes" "$(figure t1 t)" 819200
run c1 "$TTCP" -C -n 100 -p "$P" 127.0.0.1
expect_rc c1 0
expect_eq c1 "ttcp-r bytes (the daemon's)" "$(figure c1 r)" 819200

# A second server with the same pid file: refused, the first untouched.
run d2 "$TTCP" -S -p "$(free_port)" --daemon --pidfile "$F"
expect_rc d2 1
expect_lines d2 err "^ttcp: --pidfile $F: a server already runs as pid $D\$"
expect_eq d2 "the pid file" "$(cat "$F")" "$D"

# SIGTERM ends it; the pid file goes with it.
kill -TERM "$D"
wait_for 10 - gone "$D" || fail "the daemon did not end at SIGTERM"
wait_for 5 - test ! -e "$F" || fail "the pid file is still there after SIGTERM"

# A stale pid file (a process that has ended) is taken over; SIGINT ends that one.
sh -c 'exit 0' & stale=$!; wait "$stale"
echo "$stale" >"$F"
daemon d3 "$F"
expect_rc d3 0
D3=$(cat "$F")
[ "$D3" != "$stale" ] && kill -0 "$D3" 2>/dev/null || fail "the stale pid file was not taken over"
kill -INT "$D3"
wait_for 10 - gone "$D3" || fail "the daemon did not end at SIGINT"
wait_for 5 - test ! -e "$F" || fail "the pid file is still there after SIGINT"

# With --logfile the daemon's lines go on into the file (not to the null device): the test it
# serves appears there.
daemon d5 "$F" --logfile "$TMP/dlog"
expect_rc d5 0
D5=$(cat "$F")
run t5 "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
expect_rc t5 0
logged() { grep -q -- "$1" "$TMP/dlog" 2>/dev/null; }
wait_for 10 - logged '^ttcp-r: 81920 bytes in ' ||
  { fail "dlog: the daemon's figures are not in --logfile's file"; cat "$TMP/dlog"; }
expect_eq d5 "the daemon's stderr" "$(readlink "/proc/$D5/fd/2")" "$TMP/dlog"
kill -TERM "$D5"
wait_for 10 - gone "$D5" || fail "the daemon did not end at SIGTERM"

# It cannot start (the port is held): the reason on the terminal, the command fails, no pid file.
listen_on hold tcp "$TTCP" -r -s -p @P@
run d4 "$TTCP" -S -p "$P" --daemon --pidfile "$F"
expect_rc d4 1
expect_match d4 err 'Address already in use'
[ ! -e "$F" ] || { fail "a pid file for a server that never started"; watch "$(cat "$F")"; }
stop hold

# --pidfile without --daemon: the foreground server writes it once listening, removes it at exit.
G=$TMP/fg.pid
listen_on fg tcp "$TTCP" -S -p @P@ --pidfile "$G"
wait_for 5 - test -s "$G" || fail "no pid file from the foreground server"
[ -s "$G" ] && { expect_eq fg "the pid file's parent" "$(ps -o ppid= -p "$(cat "$G")" | tr -d ' ')" "${PID[fg]}"; }
stop fg
[ ! -e "$G" ] || fail "the foreground server left its pid file"
finish
