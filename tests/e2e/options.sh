# Classic options: -b, -D, -B, -T, -A/-O, attached and clustered arguments, options after the host.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# tcp_ok TRANSMITTER-HEADER-ARGS... : both sides succeeded with the counts a 100 x 1000 run gives.
tcp_ok() {
  expect_rc r 0; expect_rc t 0
  expect_report t out "$(hdr t "$@")" 100000 100
  expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 100000 "$ANY"
}

# -b and -D: header ", sockbufsize=", mes lines in the 1.12 order (fixtures r_long/t_long).
pair tcp -r -s -b 262144 -- -t -s -D -b 262144 -n 100 -l 1000 127.0.0.1
SOCKBUF=262144 tcp_ok 1000 100 "$P" tcp 127.0.0.1
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: sndbuf$' '^ttcp-t: nodelay$' '^ttcp-t: connect$'
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: rcvbuf$' '^ttcp-r: accept from 127\.0\.0\.1$'
expect_shape t err t_long.err; expect_shape r err r_long.err

# -B (full blocks) and -T (touch) on the receiver keep the byte count exact.
for opt in -B -T "-B -T"; do
  pair tcp -r -s $opt -- -t -s -n 100 -l 1000 127.0.0.1
  tcp_ok 1000 100 "$P" tcp 127.0.0.1
done

# Attached arguments and clustered flags.
listen_on r tcp "$TTCP" -rs -p@P@ && run t "$TTCP" -ts -n100 -l1000 -p"$P" 127.0.0.1
reap r
tcp_ok 1000 100 "$P" tcp 127.0.0.1

# Options after the host.
pair tcp -r -s -- -t 127.0.0.1 -s -n 100 -l 1000
tcp_ok 1000 100 "$P" tcp 127.0.0.1

# -A/-O: shown in the header; the buffer address honours them (-v).
pair tcp -r -s -v -A 4096 -O 16 -- -t -s -n 100 -l 1000 -A 0 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_report t out "$(ALIGN=0/0 hdr t 1000 100 "$P" tcp 127.0.0.1)" 100000 100
expect_lines r out "$(ALIGN=4096/16 hdr r 8192 2048 "$P" tcp)" "$(rate r 100000)" \
  "$(cpurate r 100000)" "$(calls r "$ANY")" "$(rusage r)" '^ttcp-r: buffer address 0x[0-9a-f]*010$'

finish
