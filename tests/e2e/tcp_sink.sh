# TCP sink mode: exact byte and call counts, the classic report lines, -f units and -v.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

pair tcp -r -s -- -t -s -n 1000 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_report t out "$(hdr t 8192 1000 "$P" tcp 127.0.0.1)" 8192000 1000
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 8192000 "$ANY"
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect$'
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'
expect_shape t out t_tcp.out; expect_shape t err t_tcp.err
expect_shape r out r_tcp.out; expect_shape r err r_tcp.err

# -f: every letter, both sides (fixtures r_fX/t_fX). 1.12 printed KB for any other letter
# (fixtures r_fb, r_fx); ttcp refuses one, and -f K gives what 1.12 gave for them.
for f in k:Kbit:k K:KB:K m:Mbit:m M:MB:M g:Gbit:g G:GB:G K:KB:b K:KB:x; do
  IFS=: read -r letter unit fixture <<<"$f"
  pair tcp -r -s -f "$letter" -- -t -s -n 1000 -f "$letter" 127.0.0.1
  expect_report t out "$(hdr t 8192 1000 "$P" tcp 127.0.0.1)" 8192000 1000 "$unit"
  expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 8192000 "$ANY" "$unit"
  expect_shape t out "t_f$fixture.out"; expect_shape r out "r_f$fixture.out"
done
for bad in x b Mbit; do
  run fx "$TTCP" -r -s -f "$bad"
  expect_rc fx 2
  expect_match fx err "^ttcp: -f: '$bad' is not a unit: use one of k K m M g G \\(1024-based\\), bps kbps Mbps Gbps \\(1000-based\\)\$"
done

# -v: the CPU-seconds line and the buffer address (fixtures r_tcpv/t_tcpv, same options).
pair tcp -r -s -v -f m -- -t -s -v -n 4 -l 1000 -f k 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_lines t out "$(hdr t 1000 4 "$P" tcp 127.0.0.1)" "$(rate t 4000 Kbit)" \
  "$(cpurate t 4000 Kbit)" "$(calls t 4)" "$(rusage t)" "$(bufaddr t)"
expect_lines r out "$(hdr r 8192 2048 "$P" tcp)" "$(rate r 4000 Mbit)" \
  "$(cpurate r 4000 Mbit)" "$(calls r "$ANY")" "$(rusage r)" "$(bufaddr r)"
expect_shape t out t_tcpv.out; expect_shape r out r_tcpv.out

finish
