# A second receiver on a port in use fails with the classic bind error; the first one still works.
# A server there fails with its own tag.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# in_use tcp|udp RECEIVER-FLAGS TRANSMITTER-FLAGS BYTES: r1 listens, r2 on the same port fails.
in_use() {
  local proto=$1 rflags=$2 tflags=$3 bytes=$4
  receiver r1 "$proto" -r $rflags || return
  run r2 "$TTCP" -r $rflags -p "$P"
  expect_rc r2 1
  expect_lines r2 out "$(hdr r 8192 2048 "$P" "$proto")"
  expect_lines r2 err '^ttcp-r: socket$' '^ttcp-r: bind: Address already in use$' '^errno=98$'
  expect_running r1
  run t "$TTCP" -t $tflags -p "$P" 127.0.0.1
  reap r1
  expect_rc r1 0; expect_rc t 0
  expect_match r1 out "$(rate r "$bytes")"
}

in_use tcp "-s" "-s -n 10" 81920
in_use udp "-s -u" "-s -u -n 10 -l 1024" 10240

# A server on a port in use says so with its own tag (ttcp-S:, as its other lines), exit 1.
receiver r1 tcp -r -s
run s2 "$TTCP" -S -p "$P"
expect_rc s2 1
expect_lines s2 err '^ttcp-S: bind: Address already in use$' '^errno=98$'
stop r1

finish
