# Without -s: stdin -> network -> stdout, byte for byte; the receiver's report goes to stderr.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# send_file tcp|udp FILE [ARGS...]: `ttcp -r ARGS > r.out` gets FILE from `ttcp -t ARGS < FILE`;
# checks the copy, the exit codes and both reports (CALLS = the transmitter's I/O calls).
send_file() {
  local proto=$1 file=$2 calls=$3 buflen=$4; shift 4
  local size accept=()
  size=$(stat -c %s "$file")
  pair "$proto" -r "$@" -- -t "$@" 127.0.0.1 <"$file"
  expect_rc r 0; expect_rc t 0
  cmp -s "$file" "$TMP/r.out" || fail "received data differs from $file (cmp: $(cmp "$file" "$TMP/r.out" 2>&1))"
  [ "$proto" = tcp ] && accept=('^ttcp-r: accept from 127\.0\.0\.1$')
  expect_lines r err "$(hdr r "$buflen" 2048 "$P" "$proto")" '^ttcp-r: socket$' "${accept[@]}" \
    "$(rate r "$size")" "$(calls r "$ANY")" "$(rusage r)"
  expect_report t out "$(hdr t "$buflen" 2048 "$P" "$proto" 127.0.0.1)" "$size" "$calls"
}

head -c 3145728 /dev/urandom >"$TMP/random.bin"
send_file tcp "$TMP/random.bin" 384 8192                  # 3 MiB in 8 KiB reads of a regular file

for i in $(seq 2000); do printf 'a\x1a\r\n\x00\xff\r'; done >"$TMP/special.bin"   # 14000 bytes
send_file tcp "$TMP/special.bin" 2 8192

head -c 10240 /dev/urandom >"$TMP/small.bin"               # 10 datagrams of 1024 bytes
send_file udp "$TMP/small.bin" "$ANY" 1024 -u -l 1024

finish
