# Non-sink mode through ttcpw.exe's stdin and stdout, byte for byte: 0x1A (msvcrt's text-mode
# end of file), CR LF and NUL at the start, middle and end of 1 MiB of random data; then a
# small file over UDP. Both directions each time.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

# send_file tcp|udp FILE CALLS BUFLEN [ARGS...]: both ways, `ttcp -r ARGS > r.out` gets FILE from
# `ttcp -t ARGS < FILE`; checks the copy and both reports (CALLS = the transmitter's I/O calls).
send_file() {
  local proto=$1 file=$2 calls=$3 buflen=$4 dir size accept=()
  shift 4
  size=$(stat -c %s "$file")
  [ "$proto" = tcp ] && accept=('^ttcp-r: accept from 127\.0\.0\.1$')
  for dir in w2n n2w; do
    wpair "$dir" "$proto" -r "$@" -- -t "$@" 127.0.0.1 <"$file"
    expect_rc r 0; expect_rc t 0
    cmp -s "$file" "$TMP/r.out" || fail "$dir: received data differs from $file (cmp: $(cmp "$file" "$TMP/r.out" 2>&1))"
    if [ "$EXE" = t ]; then crlf t out err; else crlf r err; fi
    expect_lines r err "$(hdr r "$buflen" 2048 "$P" "$proto")" '^ttcp-r: socket$' "${accept[@]}" \
      "$(rate r "$size")" "$(calls r "$ANY")" "$(rusage r)"
    expect_report t out "$(hdr t "$buflen" 2048 "$P" "$proto" 127.0.0.1)" "$size" "$calls"
  done
}

special() { printf '\x1a\r\n\x00\r\n\x1a\x00'; }                 # 8 bytes
{ special; head -c 524276 /dev/urandom; special; head -c 524276 /dev/urandom; special; } >"$TMP/random.bin"
[ "$(stat -c %s "$TMP/random.bin")" = 1048576 ] || fail "test file is not 1048576 bytes"
send_file tcp "$TMP/random.bin" 128 8192

head -c 10240 /dev/urandom >"$TMP/small.bin"               # 10 datagrams of 1024 bytes
send_file udp "$TMP/small.bin" "$ANY" 1024 -u -l 1024

finish
