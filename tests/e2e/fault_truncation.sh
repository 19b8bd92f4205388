# A UDP receiver whose -l is smaller than the sender's datagrams: the kernel cuts each one to -l
# bytes. The receiver counts what -l let in (512 per datagram) and says so in one warning line;
# the run is not an error (exit 0 on both sides).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

TRUNC='^ttcp-r: warning: datagrams longer than -l were cut short; bytes counted are what -l let in$'

# With ttcp's sequence header (the default) and with plain 1.12 datagrams (--no-udp-stats).
for plain in '' --no-udp-stats; do
  pair udp -r -s -u -l 512 -- -t -s -u -l 1024 -n 10 $plain 127.0.0.1
  expect_rc r 0; expect_rc t 0
  # start marker + 10 datagrams + end marker; the transmitter adds 4 trailing markers
  expect_report r out "$(hdr r 512 2048 "$P" udp)" 5120 12
  expect_report t out "$(hdr t 1024 10 "$P" udp 127.0.0.1)" 10240 16
  expect_lines r err '^ttcp-r: socket$' "$TRUNC"
  expect_lines t err '^ttcp-t: socket$'
done

finish
