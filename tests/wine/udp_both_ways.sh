# UDP sink mode both ways: 50 datagrams of 1024 bytes; 1 start + 50 data + 1 end marker read by
# the receiver, 4 more end markers sent by the transmitter (as in 1.12).
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

for dir in w2n n2w; do
  wpair "$dir" udp -r -s -u -l 1024 -- -t -s -u -l 1024 -n 50 127.0.0.1
  expect_rc r 0; expect_rc t 0
  crlf "$EXE" out err
  expect_report t out "$(hdr t 1024 50 "$P" udp 127.0.0.1)" 51200 56
  expect_report r out "$(hdr r 1024 2048 "$P" udp)" 51200 52
  expect_lines t err '^ttcp-t: socket$'
  expect_lines r err '^ttcp-r: socket$'
done

finish
