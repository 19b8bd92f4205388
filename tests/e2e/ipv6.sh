# IPv6 on ::1: the default receiver is dual-stack; -4 / -6 force a family; an IPv4-mapped
# address is its IPv4 host.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

ip -6 addr show lo | grep -q '::1' || skip "::1 is not configured on lo"

pair tcp -r -s -- -t -s -n 100 ::1
expect_rc r 0; expect_rc t 0
expect_report t out "$(hdr t 8192 100 "$P" tcp ::1)" 819200 100
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 819200 "$ANY"
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from ::1$'

pair tcp -r -s -6 -- -t -s -6 -n 1 ::1
expect_rc r 0; expect_rc t 0
expect_match r out "$(rate r 8192)"

pair tcp -r -s -- -t -s -4 -n 1 localhost
expect_rc r 0; expect_rc t 0
expect_report t out "$(hdr t 8192 1 "$P" tcp localhost)" 8192 1
expect_lines r err '^ttcp-r: socket$' '^ttcp-r: accept from 127\.0\.0\.1$'

# An IPv4-mapped IPv6 address names the IPv4 host (ttcp's IPv6 sockets are IPv6-only): reached
# over IPv4, also through a server (ttcp -C).
pair tcp -r -s -4 -- -t -s -n 2 ::ffff:127.0.0.1
expect_rc r 0; expect_rc t 0
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 16384 "$ANY"
listen_on srv tcp "$TTCP" -S -4 -p @P@
run c "$TTCP" -C -n 2 -p "$P" ::ffff:127.0.0.1
expect_rc c 0
expect_match c out '^ttcp-C: send 16384 bytes'
stop srv

# A -4 receiver does not take IPv6 connections; it still waits for, and counts, an IPv4 one.
receiver r tcp -r -s -4
run t "$TTCP" -t -s -6 -n 1 -p "$P" ::1
expect_rc t 1
expect_lines t err '^ttcp-t: socket$' '^ttcp-t: connect: Connection refused$' '^errno=111$'
expect_running r
run t4 "$TTCP" -t -s -n 2 -p "$P" 127.0.0.1
reap r
expect_rc r 0
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 16384 "$ANY"

finish
