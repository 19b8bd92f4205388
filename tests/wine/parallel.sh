# -P under Wine: ttcpw.exe with four TCP streams against the native ttcp, both ways (each stream
# on its own port, -p + i - 1), two UDP streams, and ttcpw.exe -C -P 2 against a native ttcp -S.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# figure NAME SIDE: the "+++" bytes of the ttcp-SIDE: lines (SIDE may hold a tag: 't\[2\]').
figure() { sed -nE "s/^ttcp-$2: ([0-9]+) bytes in .* \+\+\+$/\1/p" "$TMP/$1.out" | tr '\n' ' '; }
# expect_streams NAME SIDE N BYTES: N streams of BYTES and their total.
expect_streams() {
  local i
  for ((i = 1; i <= $3; i++)); do
    expect_eq "$1" "ttcp-$2[$i] bytes" "$(figure "$1" "$2\\[$i\\]")" "$4 "
  done
  expect_eq "$1" "ttcp-$2 bytes (the total)" "$(figure "$1" "$2")" "$(($3 * $4)) "
}
# streams_pair w2n|n2w tcp|udp N RECEIVER-ARGS -- TRANSMITTER-ARGS: the receiver ("r", -P N on
# ports P..P+N-1, all bound) and then the transmitter ("t", -P N), as wpair does.
start_streams() { local name=$1 exe=$2 n=$3; shift 3; start "$name" "$exe" -p "$P" -P "$n" "$@"; }
streams_pair() {
  local rx=$TTCP tx=$WTTCP proto=$2 n=$3 i
  EXE=t
  [ "$1" = n2w ] && { rx=$WTTCP tx=$TTCP EXE=r; }
  shift 3
  local -a rargs=()
  while [ "$1" != -- ]; do rargs+=("$1"); shift; done; shift
  on_free_port "$proto:r" start_streams r "$rx" "$n" "${rargs[@]}" || { stop r; return 1; }
  for ((i = 1; i < n; i++)); do wait_listen "$proto" $((P + i)) r || { stop r; return 1; }; done
  run t "$tx" -p "$P" -P "$n" "$@"
  reap r
}

for dir in w2n n2w; do
  streams_pair "$dir" tcp 4 -r -s -- -t -s -n 1000 127.0.0.1
  expect_rc r 0; expect_rc t 0
  crlf "$EXE" out err
  expect_streams t t 4 8192000
  expect_streams r r 4 8192000
  measured "$dir TCP -P 4: $(grep -h '^ttcp-[tr]: .*+++$' "$TMP/t.out" "$TMP/r.out" | tr '\n' ';')"

  streams_pair "$dir" udp 2 -r -s -u -l 1024 -- -t -s -u -l 1024 -n 100 -R 5m 127.0.0.1
  expect_rc r 0; expect_rc t 0
  crlf "$EXE" out err
  expect_streams t t 2 102400
  expect_match r out '^ttcp-r\[2\]: [0-9]+ bytes in '
done

# ttcpw.exe -C -P 2 against the native server, both ways.
if on_free_port "tcp:ns udp:ns" start_on_P ns "$TTCP" -S -p @P@; then
  for way in -t -r; do
    run wc "$WTTCP" -C "$way" -P 2 -n 500 -p "$P" 127.0.0.1
    expect_rc wc 0
    crlf wc out err
    expect_streams wc t 2 4096000
    expect_streams wc r 2 4096000
    expect_match wc out '^ttcp-C: (send|recv) 8192000 bytes / '
  done
  interrupt ns
fi
stop_any ns

finish
