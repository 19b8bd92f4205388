# UDP sink mode: start/end markers counted as in 1.12, buflen forced up to 5.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# 1 start + 20 data + 1 end (+ 4 more end markers on the transmitter): fixtures r_udp2/t_udp2.
pair udp -r -s -u -- -t -s -u -l 1024 -n 20 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_report r out "$(hdr r 8192 2048 "$P" udp)" 20480 22
expect_report t out "$(hdr t 1024 20 "$P" udp 127.0.0.1)" 20480 26
expect_lines r err '^ttcp-r: socket$'
expect_lines t err '^ttcp-t: socket$'
expect_shape r out r_udp2.out; expect_shape t out t_udp2.out

# -l 2 is raised to 5, more than a marker (fixtures r_udp3/t_udp3).
pair udp -r -s -u -l 2 -- -t -s -u -l 2 -n 10 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_report r out "$(hdr r 5 2048 "$P" udp)" 50 12
expect_report t out "$(hdr t 5 10 "$P" udp 127.0.0.1)" 50 16
expect_shape r out r_udp3.out; expect_shape t out t_udp3.out

finish
