# ttcp -S and ttcp -C (issue #12) between ttcpw.exe and the native ttcp. ttcpw.exe -S serves the
# native ttcp -C (-t, -r, --bidir) and a classic native transmitter on the same port, then ends
# at Ctrl+C with status 0; the native ttcp -S serves ttcpw.exe -C the same three tests (its lines
# in CR LF), then ends at SIGINT with status 0. On the client: its own classic lines, the
# server's figures, one summary line per direction. Then --key-file both ways, and UDP (-C -u)
# both ways on the server's one port.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# server NAME BINARY ARGS...: `BINARY -S -p P ARGS` on a fresh port, up once it listens on TCP
# and UDP (under Wine, the wineserver holds the sockets: lib.sh's listening knows).
server() {
  local name=$1 bin=$2
  shift 2
  on_free_port "tcp:$name udp:$name" start_on_P "$name" "$bin" -S -p @P@ "$@"
}
# figure NAME SIDE: the bytes of the "ttcp-SIDE: N bytes in" lines of NAME's stdout, sorted, on
# one line.
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out" | sort | tr '\n' ' '; }
# summary_re send|recv yes|maybe: the client's summary line of 819200 bytes; the TCP figures
# (retrans, msRTT) come from the stream's sender: "yes" for the native ttcp (Linux's TCP_INFO),
# "maybe" for ttcpw.exe (SIO_TCP_INFO, which Wine does not have; Windows 10 1703 and later do).
summary_re() {
  local tcp=' [0-9]+ retrans [0-9]+\.[0-9]{2} msRTT'
  [ "$2" = maybe ] && tcp="($tcp)?"
  printf '^ttcp-C: %s 819200 bytes / %s sec = %s KB/sec [0-9]+ %%TX [0-9]+ %%RX%s$' "$1" "$N2" "$N2" "$tcp"
}
# lines_are NAME out|err REGEX...: exactly these lines, in this order (quiet: the status only).
lines_are() {
  local file=$TMP/$1.$2 i=0 re
  shift 2
  local -a got
  mapfile -t got <"$file"
  [ "${#got[@]}" = "$#" ] || return 1
  for re; do [[ ${got[i]} =~ $re ]] || return 1; i=$((i + 1)); done
}

# client NAME t|r|bidir SEND RECV CLIENT-BINARY: runs `CLIENT-BINARY -C -MODE -n 100` against
# the server on P and checks it: exit 0; stdout is its own header(s) and figures, then the
# server's figures, then the summaries (SEND, RECV: summary_re's yes|maybe for that stream),
# every ttcp-t figure with the bytes of a ttcp-r one (819200); stderr its connect line(s).
client() {
  local name=$1 mode=$2 snd=$3 rcv=$4 bin=$5 ok=0 ht hr flag=-$2
  local -a bt br
  [ "$mode" = bidir ] && flag=--bidir
  run "$name" "$bin" -C "$flag" -n 100 -p "$P" 127.0.0.1
  [ "$bin" = "$WTTCP" ] && crlf "$name" out err
  expect_rc "$name" 0
  ht=$(hdr t 8192 100 "$P" tcp 127.0.0.1); hr=$(hdr r 8192 100 "$P" tcp)
  bt=("$(rate t 819200)" "$(calls t 100)" "$(rusage t)")
  br=("$(rate r 819200)" "$(calls r "$ANY")" "$(rusage r)")
  case $mode in
  t)
    expect_lines "$name" out "$ht" "${bt[@]}" "${br[@]}" "$(summary_re send "$snd")"
    expect_lines "$name" err '^ttcp-t: connect$'
    expect_eq "$name" "ttcp-t bytes" "$(figure "$name" t)" "819200 "
    expect_eq "$name" "ttcp-r bytes (the server's)" "$(figure "$name" r)" "819200 "
    expect_eq "$name" "summaries" "$(count "$name" out '^ttcp-C: send ')" 1 ;;
  r)
    expect_lines "$name" out "$hr" "${br[@]}" "${bt[@]}" "$(summary_re recv "$rcv")"
    expect_lines "$name" err '^ttcp-r: connect$'
    expect_eq "$name" "ttcp-t bytes (the server's)" "$(figure "$name" t)" "819200 "
    expect_eq "$name" "ttcp-r bytes" "$(figure "$name" r)" "819200 "
    expect_eq "$name" "summaries" "$(count "$name" out '^ttcp-C: recv ')" 1 ;;
  bidir)
    # the two streams run side by side: each one's header comes before its figures (a block of
    # 3 lines), but the two streams' lines interleave in any order (the first 8 lines); then the
    # server's figures for the send stream (ttcp-r) and the recv stream (ttcp-t), then the
    # summaries, send first.
    head -n 8 "$TMP/$name.out" | grep '^ttcp-t: ' >"$TMP/$name-own-t.out"
    head -n 8 "$TMP/$name.out" | grep '^ttcp-r: ' >"$TMP/$name-own-r.out"
    tail -n +9 "$TMP/$name.out" >"$TMP/$name-far.out"
    lines_are "$name-own-t" out "$ht" "${bt[@]}" && lines_are "$name-own-r" out "$hr" "${br[@]}" &&
      lines_are "$name-far" out "${br[@]}" "${bt[@]}" "$(summary_re send "$snd")" "$(summary_re recv "$rcv")" ||
      ok=1
    if [ "$ok" = 1 ]; then
      fail "$name: stdout is not as expected; wanted the lines of stream t (~t) and of stream r (~r), those of the two in any interleaving, then the others (~) in this order:"
      printf '    ~t %s\n' "$ht" "${bt[@]}"; printf '    ~r %s\n' "$hr" "${br[@]}"
      printf '    ~ %s\n' "${br[@]}" "${bt[@]}" "$(summary_re send "$snd")" "$(summary_re recv "$rcv")"
      show "$name"
    fi
    expect_eq "$name" "stderr, sorted" "$(sort "$TMP/$name.err" | tr '\n' '|')" \
      "ttcp-r: connect|ttcp-t: connect|"
    expect_eq "$name" "ttcp-t bytes" "$(figure "$name" t)" "819200 819200 "
    expect_eq "$name" "ttcp-r bytes" "$(figure "$name" r)" "819200 819200 "
    expect_eq "$name" "summaries" \
      "$(count "$name" out '^ttcp-C: send '),$(count "$name" out '^ttcp-C: recv ')" 1,1 ;;
  esac
}
# served NAME [1]: the server's lines after client's three tests (with 1: and the classic
# transmitter's 81920 bytes): its figures, one per side of each test; on stderr the listening
# line and an accept line per connection, nothing else.
served() {
  local name=$1 classic=${2-} rk=2
  [ -n "$classic" ] && rk=3
  expect_eq "$name" "ttcp-r figures of 819200 bytes" "$(count "$name" out '^ttcp-r: 819200 bytes in .* \+\+\+$')" 2
  expect_eq "$name" "ttcp-t figures of 819200 bytes" "$(count "$name" out '^ttcp-t: 819200 bytes in .* \+\+\+$')" 2
  expect_eq "$name" "ttcp-r figures of 81920 bytes" "$(count "$name" out '^ttcp-r: 81920 bytes in .* \+\+\+$')" "${classic:-0}"
  expect_eq "$name" "listening lines" "$(count "$name" err "^ttcp-S: serving on port $P, TCP and UDP\$")" 1
  expect_eq "$name" "ttcp-r accept lines" "$(count "$name" err '^ttcp-r: accept from 127\.0\.0\.1$')" "$rk"
  expect_eq "$name" "ttcp-t accept lines" "$(count "$name" err '^ttcp-t: accept from 127\.0\.0\.1$')" 2
  # iperf3's and nuttcp's own ports: served, or not when another process holds them
  expect_eq "$name" "other tools' port lines" \
    "$(count "$name" err '^ttcp-S: (not )?serving (iperf3|nuttcp) clients')" 2
  expect_eq "$name" "other stderr lines" \
    "$(grep -Evc '^ttcp-S: serving on port |^ttcp-[rt]: accept from |^ttcp-S: (not )?serving (iperf3|nuttcp) clients' "$TMP/$name.err")" 0
}

# 1. ttcpw.exe -S, the native ttcp -C. The send stream's sender is the native client (TCP
# figures), the recv stream's is ttcpw.exe.
if server ws "$WTTCP"; then
  client n2w_t t yes maybe "$TTCP"
  client n2w_r r yes maybe "$TTCP"
  client n2w_bidir bidir yes maybe "$TTCP"
  # a classic transmitter at the same port: the server measures it as a classic receiver
  run k "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
  expect_rc k 0
  wait_line ws out '^ttcp-r: 81920 bytes in .* \+\+\+'
  expect_running ws
  ctrl_c ws
  expect_rc ws 0
  crlf ws out err
  served ws 1
fi
stop_any ws

# 2. The native ttcp -S, ttcpw.exe -C. The send stream's sender is ttcpw.exe, the recv stream's
# the native server (TCP figures).
if server ns "$TTCP"; then
  client w2n_t t maybe yes "$WTTCP"
  client w2n_r r maybe yes "$WTTCP"
  client w2n_bidir bidir maybe yes "$WTTCP"
  expect_running ns
  interrupt ns
  expect_rc ns 0
  served ns
fi
stop_any ns

# 3. --key-file: Windows' CNG and libsodium agree on HMAC-SHA256, both ways; a wrong key is
# refused. The key files are the same bytes; Wine reads them through its Z: drive.
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$TMP/key" && chmod 600 "$TMP/key"
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$TMP/wrong" && chmod 600 "$TMP/wrong"
wkey="Z:${TMP//\//\\}\\key" wwrong="Z:${TMP//\//\\}\\wrong"
if on_free_port "tcp:nk udp:nk" start_on_P nk "$TTCP" -S -p @P@ --key-file "$TMP/key"; then
  run wk "$WTTCP" -C -n 10 --key-file "$wkey" -p "$P" 127.0.0.1
  expect_rc wk 0
  crlf wk out err
  expect_match wk out '^ttcp-C: send 81920 bytes'
  run ww "$WTTCP" -C -n 10 --key-file "$wwrong" -p "$P" 127.0.0.1
  expect_rc ww 1
  crlf ww out err
  expect_match ww err 'refused the test: authentication failed: the keys differ'
  interrupt nk
fi
stop_any nk
if on_free_port "tcp:wk2 udp:wk2" start_on_P wk2 "$WTTCP" -S -p @P@ --key-file "$wkey"; then
  run nk2 "$TTCP" -C -r -n 10 --key-file "$TMP/key" -p "$P" 127.0.0.1
  expect_rc nk2 0
  expect_match nk2 out '^ttcp-C: recv 81920 bytes'
  run nw2 "$TTCP" -C -n 10 --key-file "$TMP/wrong" -p "$P" 127.0.0.1
  expect_rc nw2 1
  expect_match nw2 err 'the keys differ'
  ctrl_c wk2
fi
stop_any wk2

# 4. UDP on the server's one port, both ways: the token datagram, the test's own socket sharing
# the port (Wine maps it to Linux's SO_REUSEADDR: real Windows is not tried here).
# The receiver's bytes are a measurement (a loaded machine loses datagrams even at 20 Mbit/s); the
# 200 sent are not.
udp_summary() { printf '^ttcp-C: %s [0-9]+ bytes / .* [0-9]+ / 200 lost \\([0-9.]+%%\\) [0-9.]+ ms jitter$' "$1"; }
if on_free_port "tcp:wu udp:wu" start_on_P wu "$WTTCP" -S -p @P@; then
  run nu1 "$TTCP" -C -u -R 20m -l 1k -n 200 -p "$P" 127.0.0.1
  expect_rc nu1 0
  expect_match nu1 out "$(udp_summary send)"
  expect_eq nu1 "ttcp-t bytes" "$(figure nu1 t)" "204800 "
  run nu2 "$TTCP" -C -u -r -R 20m -l 1k -n 200 -p "$P" 127.0.0.1
  expect_rc nu2 0
  expect_match nu2 out "$(udp_summary recv)"
  expect_eq nu2 "ttcp-t bytes (the server's)" "$(figure nu2 t)" "204800 "
  ctrl_c wu
  expect_rc wu 0
fi
stop_any wu
if on_free_port "tcp:nu udp:nu" start_on_P nu "$TTCP" -S -p @P@; then
  run wu3 "$WTTCP" -C -u --bidir -R 20m -l 1k -n 200 -p "$P" 127.0.0.1
  expect_rc wu3 0
  crlf wu3 out err
  expect_match wu3 out "$(udp_summary send)"
  expect_match wu3 out "$(udp_summary recv)"
  interrupt nu
fi
stop_any nu

finish
