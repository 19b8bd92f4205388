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
  TTCP=$rx receiver r "$proto" "${rargs[@]}" || { stop r; return 1; }
  run t "$tx" -p "$P" "$@"
  reap r
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
