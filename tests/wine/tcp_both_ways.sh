# TCP sink mode both ways: ttcpw.exe -> native ttcp and native -> ttcpw.exe, 2000 x 8192 bytes,
# exact counts and the classic report lines on both sides.
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

for dir in w2n n2w; do
  wpair "$dir" tcp -r -s -- -t -s -n 2000 127.0.0.1
  expect_rc r 0; expect_rc t 0
  crlf "$EXE" out err
  expect_report t out "$(hdr t 8192 2000 "$P" tcp 127.0.0.1)" 16384000 2000
  expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 16384000 "$ANY"
  expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
  expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
  expect_shape t out t_tcp.out; expect_shape r out r_tcp.out
done

finish
