# Shared helpers for the Wine tests: ttcpw.exe under 64-bit Wine against the native ttcp, over
# 127.0.0.1 only, on top of ../e2e/lib.sh (every process bounded, own PIDs killed on exit).
# Environment: TTCPW = ttcpw.exe, TTCP = the native (Linux) ttcp, WINEPREFIX = a prefix made by
# ci/wine-env (with its persistent wineserver running). Exit status 0 pass, 1 fail, 77 skip.
# NEEDS, set before sourcing: what the script uses besides ttcpw.exe ("native wine" by default).
# Never run these inside a network namespace: Wine's sockets live in the wineserver's namespace.
set -u

wine_skip() { printf 'SKIP: %s\n' "$*"; exit 77; }
NEEDS=${NEEDS-native wine}
[ -f "${TTCPW-}" ] || { echo "FAIL: no ttcpw.exe at '${TTCPW-}' (set TTCPW)"; exit 1; }
case " $NEEDS " in *" native "*)
  [ -x "${TTCP-}" ] || wine_skip "no native ttcp at '${TTCP-}' (configure with -DTTCP_NATIVE=.../build/ttcp)";;
*) TTCP=$(type -P true);;   # lib.sh wants a binary; this script starts no native ttcp
esac
case " $NEEDS " in *" wine "*)
  command -v wine >/dev/null || wine_skip "wine is not installed"
  . "$(dirname "${BASH_SOURCE[0]}")/netns.sh"
  if in_netns; then echo "FAIL: never run Wine inside a network namespace"; exit 1; fi
  [ -f "${WINEPREFIX:-/nonexistent}/system.reg" ] ||
    wine_skip "no Wine prefix at '${WINEPREFIX-}': run eval \"\$(ci/wine-env DIR)\" first (or -DTTCP_WINEPREFIX=DIR)"
  export WINEPREFIX WINEDEBUG=-all;;
esac

# Wine may take seconds to start an exe on a busy machine (a new prefix, a
# first run): give a listener longer than a native one.
LISTEN_WAIT=${LISTEN_WAIT:-30}
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1

# never_started NAME (lib.sh's hook for on_free_port): NAME, an exe started under Wine, ended
# without a byte on stdout or stderr. ttcpw.exe prints a line on every way it fails, so this is
# Wine not running it (seen in CI: a -S gone in under a second, status unknown, nothing printed).
# Said, and reaped; on_free_port starts it again, and fails on the fifth time.
never_started() {
  [ -n "${PID[$1]-}" ] && ! kill -0 "${PID[$1]}" 2>/dev/null || return 1
  [ ! -s "$TMP/$1.out" ] && [ ! -s "$TMP/$1.err" ] || return 1
  case ${CMD[$1]-} in "$WTTCP "*) ;; *) return 1 ;; esac
  wait "${PID[$1]}" 2>/dev/null; RC[$1]=$?
  unset "PID[$1]"
  echo "NOTE: Wine ended $1 (ttcpw.exe) with status ${RC[$1]} before it printed a byte"
}

# $WTTCP runs ttcpw.exe under Wine; one word, so lib.sh's helpers can take it where they take $TTCP.
WTTCP=$TMP/wine-ttcpw
printf '#!/bin/sh\nexec wine "%s" "$@"\n' "$TTCPW" >"$WTTCP" && chmod +x "$WTTCP"

# wpair w2n|n2w tcp|udp RECEIVER-ARGS... -- TRANSMITTER-ARGS...: lib.sh's pair with ttcpw.exe on one
# side: w2n = the exe transmits to the native receiver, n2w = the native ttcp transmits to the exe.
# Receiver "r", transmitter "t" (stdin inherited); EXE names the exe's side (t or r).
wpair() {
  local rx=$TTCP tx=$WTTCP proto=$2
  EXE=t
  [ "$1" = n2w ] && { rx=$WTTCP tx=$TTCP EXE=r; }
  shift 2
  local -a rargs=()
  while [ "$1" != -- ]; do rargs+=("$1"); shift; done; shift
  local try
  for try in 1 2; do
    TTCP=$rx receiver r "$proto" "${rargs[@]}" || { stop r; return 1; }
    run t "$tx" -p "$P" "$@"
    # ttcpw.exe prints a line on every way it fails; status 1 with no output at all is Wine not
    # starting it (seen once in CI on a new prefix: the native receiver then waited out its
    # bound). Said, and tried once more on a new port; a second time fails the test.
    if [ "$try" = 1 ] && [ "$EXE" = t ] && [ "${RC[t]}" = 1 ] &&
       [ ! -s "$TMP/t.out" ] && [ ! -s "$TMP/t.err" ]; then
      echo "NOTE: Wine ended ttcpw.exe with status 1 before it printed a byte; once more"
      stop r
      continue
    fi
    reap r
    return 0
  done
}

# crlf NAME out|err...: the exe's text output ends every line in CR LF (msvcrt text mode, as any
# Windows console program); checks that, then strips the CRs so lib.sh's expectations apply.
crlf() {
  local name=$1 s f
  shift
  for s; do
    f=$TMP/$name.$s
    if [ "$(grep -c $'\r$' "$f")" != "$(wc -l <"$f")" ] || [ -n "$(tail -c 1 "$f")" ] ||
       grep -q $'\r.' "$f"; then
      fail "$name: std$s of ttcpw.exe does not end every line in CR LF (and nowhere else):"
      od -c "$f" | head -n 8 | sed 's/^/    /'
    fi
    sed -i 's/\r$//' "$f"
  done
}

# ctrl_c NAME [LIMIT]: Ctrl+C to ttcpw.exe started as NAME (lib.sh's start), then waits up to
# LIMIT s (default 20: a bound against a hang, not a timing) for it to end; records its exit
# status and reports how long it took as a MEASURED line. Fails (and stops it) when it still runs.
# How Ctrl+C reaches a Windows program here: the child of NAME's timeout(1) is the program's own
# process ($WTTCP's sh and then wine exec into Wine's loader, which keeps the PID; its
# /proc/PID/exe is /usr/lib/wine/wine64). Wine's SIGINT handler starts a thread in that process
# that runs the console control handlers with CTRL_C_EVENT, as Windows does for a Ctrl+C typed
# into a console; with a handler that returns TRUE the process goes on, so one SIGINT is one
# Ctrl+C. (SIGINT to timeout(1) itself would arrive too: --foreground passes it on to the child
# only. Never signal the process group: timeout would pass it on as a second Ctrl+C, which ends
# the program at once.) The wineserver and Wine's other processes are left alone.
# gone NAME: the background process NAME has ended (for wait_for).
gone() { ! kill -0 "${PID[$1]}" 2>/dev/null; }
ctrl_c() {
  local name=$1 limit=${2:-20} p t0
  p=$(worker_pid "$name") || { fail "$name: no process to send Ctrl+C to"; show "$name"; return 1; }
  t0=$(now)
  kill -INT "$p"
  if ! wait_for "$limit" - gone "$name"; then
    fail "$name: still running $limit s after Ctrl+C"
    stop "$name"; show "$name"
    return 1
  fi
  reap "$name"
  measured "$name ended $(since "$t0") s after Ctrl+C"
}

# silent_fifo NAME r|w: a FIFO $TMP/NAME held open (for writing: w, or reading: r) by a bounded
# process of ours that never writes or reads a byte: a peer's stdin that stays silent, or a
# stdout nobody reads. The holder blocks in open() until the other side opens it too.
silent_fifo() {
  mkfifo "$TMP/$1" || return 1
  CMD[$1]="holder of $TMP/$1"
  if [ "$2" = w ]; then "${BOUNDED[@]}" sleep "$BOUND" >"$TMP/$1" {PORT_FD}<&- &
  else "${BOUNDED[@]}" sleep "$BOUND" <"$TMP/$1" {PORT_FD}<&- &
  fi
  PID[$1]=$!
}
