# --tos, --dscp, --congestion (Linux) and --mss: the marks read back from each end's socket, in the
# marks line and the JSON, through -C at both ends; the TOS byte seen on the wire (root:
# loopback read with AF_PACKET); bad names refused with a reason; -w is -b.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
[ -r /proc/sys/net/ipv4/tcp_allowed_congestion_control ] ||
  skip "no per-connection congestion control here (not Linux)"
SNIFF=$(dirname "${BASH_SOURCE[0]}")/peers/tos_sniff.py

# The classic pair: each end's own marks; the receiver's --tos 40 is its own.
pair tcp -r -s --tos 0x28 -- -t -s -n 100 --dscp ef --congestion reno 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_match t out '^ttcp-t: marks: tos 0xb8 \(dscp 46\), congestion reno$'
expect_match r out '^ttcp-r: marks: tos 0x28 \(dscp 10\)$'

# JSON: the algorithm in use whether or not one was asked for; the mark when asked.
pair tcp -r -s --json -- -t -s -n 100 --congestion reno --dscp af41 --json 127.0.0.1
expect_rc t 0
expect_jq t '.tests[0].congestion' reno '.tests[0].tos' 136 '.tests[0].dscp' 34
expect_jq r '.tests[0].congestion | type' string '.tests[0].tos' null
grep -q '"tos"' "$TMP/r.out" && fail "r: a tos member without --tos"

# IPv6: the traffic class, where ::1 is up.
if ip -6 addr show dev lo 2>/dev/null | grep -q '::1'; then
  pair tcp -r -s -6 -- -t -s -n 50 -6 --dscp cs4 ::1
  expect_rc t 0
  expect_match t out '^ttcp-t: marks: tos 0x80 \(dscp 32\)$'
fi

# On the wire: every data segment of the transmitter carries the mark (root only).
if [ "$(id -u)" = 0 ]; then
  # (only segments to this script's own ports: other tests' traffic on lo cannot crowd them out)
  start sniff python3 "$SNIFF" 6 100000 lo "$PORT_BASE" "$((PORT_BASE + PORT_BLOCK - 1))"
  wait_for 5 sniff lines_at_least sniff out '^ready$' 1
  pair tcp -r -s --tos 40 -- -t -s -n 200 --dscp ef 127.0.0.1
  reap sniff
  expect_rc t 0
  # the transmitter's data segments (to P) all carry 0xb8; the receiver sends none
  marks=$(awk -v p="$P" '$2 == p { print $3 }' "$TMP/sniff.out" | sort -u | tr '\n' ' ')
  [ "$marks" = "0xb8 " ] || { fail "sniff: the data to port $P carried TOS '${marks}', wanted 0xb8"; show sniff; }
fi

# Through a server: the client's marks go to the server's end too, read back there.
listen_on srv tcp "$TTCP" -S -p @P@ -1
run c "$TTCP" -C -t -n 100 -p "$P" --dscp ef --congestion reno 127.0.0.1
reap srv
expect_rc c 0
expect_match c out '^ttcp-t: marks: tos 0xb8 \(dscp 46\), congestion reno$'
expect_match c out '^ttcp-r: marks: tos 0xb8 \(dscp 46\), congestion reno$'
expect_match srv out '^ttcp-r: marks: tos 0xb8 \(dscp 46\), congestion reno$'

# Refused before any traffic: an algorithm the kernel does not offer, a bad name, UDP, a
# DSCP out of range or unknown, a TOS past a byte.
for bad in "--congestion nosuchcc" "--congestion Reno!" "-u --congestion reno" "--dscp 64" \
           "--dscp af51" "--tos 256"; do
  run b "$TTCP" -t -s -n 1 -p "$(free_port)" $bad 127.0.0.1
  expect_rc b 2; expect_empty b out
done
run b "$TTCP" -t -s -n 1 --congestion nosuchcc 127.0.0.1
expect_match b err '^ttcp: --congestion nosuchcc: not allowed here; this kernel allows: .*reno'

# --mss 536: no larger segment at either end (536 less the 12 bytes of the timestamp option);
# through a server the client's SYN announces it, so the server's end sends no larger either.
pair tcp -r -s -v --mss 536 -- -t -s -v -n 100 --mss 536 127.0.0.1
expect_rc t 0
for side in t r; do
  mss=$(sed -nE 's/.*\(mss ([0-9]+), .*/\1/p' "$TMP/$side.err")
  [ "${mss:-0}" -gt 0 ] && [ "${mss:-0}" -le 536 ] ||
    { fail "$side: --mss 536 gave segments of ${mss:-?} bytes"; show "$side"; }
done
listen_on srv tcp "$TTCP" -S -p @P@ -1
run c "$TTCP" -C -r -n 100 --tcp-info --json --mss 600 -p "$P" 127.0.0.1
reap srv
expect_rc c 0
mss=$(jq -r '[.tests[0].tcp.mss, .server_tests[0].tcp.mss] | map(tostring) | join(" ")' "$TMP/c.out")
for m in $mss; do
  [ "$m" -gt 0 ] && [ "$m" -le 600 ] || { fail "c: --mss 600 through -C gave segments of $mss"; show c; }
done
[ -n "$mss" ] || fail "c: no tcp.mss in the JSON"
run b "$TTCP" -t -s -u --mss 536 -p "$(free_port)" 127.0.0.1
expect_rc b 2; expect_lines b err '^ttcp: --mss works with TCP only, not with -u$'

# -w is -b: the sndbuf progress line of 1.12's -b.
pair tcp -r -s -- -t -s -n 10 -w 65536 127.0.0.1
expect_rc t 0
expect_match t err '^ttcp-t: sndbuf$'

finish
