# ttcp -S answers a real nuttcp client (Debian's 6.1.2) on --nuttcp-port: TCP both ways, UDP
# both ways with -R, -N 2, -T 2, -i 1, -w, -l. The client's summary line (MB / sec = Mbps
# %TX %RX) has a rate, and its MB are the server's bytes (4 decimals of MiB: within 53 bytes),
# also in -fparse's key=value shape;
# a nuttcp client and a ttcp -C client at once; a parameter line of 1 MB is refused with KO and
# the server goes on serving. The data port is always given (-p): 6.1.2's own is 5001. With -r
# the client listens on it, so on loopback it is another port than the server's -p.
BOUND=${BOUND:-90}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v nuttcp >/dev/null || skip "nuttcp is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"

C=$(free_port)   # nuttcp's control port
on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -p @P@ --nuttcp-port "$C"
wait_listen tcp "$C" s || { finish; exit; }
D=$(free_port)   # -r's data port (the client's)

# last_figure: the server's last "ttcp-x: N bytes in" line without a stream number (the test's
# total), as it stands.
last_figure() { sed -nE 's/^ttcp-[rt]: ([0-9]+) bytes in .* \+\+\+$/\1/p' "$TMP/$1.out" | tail -1; }

# nut NAME ARGS...: nuttcp -P C ARGS 127.0.0.1 as NAME; its summary has a rate above 0 and
# its MB are the server's bytes (SLACK: the server sent up to that many bytes more).
nut() {
  local name=$1 mb rate bytes slack=${SLACK:-0}; shift
  run "$name" nuttcp -P "$C" "$@" 127.0.0.1
  expect_rc "$name" 0
  read -r mb rate <<<"$(sed -nE 's/^ *([0-9.]+) MB \/ +[0-9.]+ sec = +([0-9.]+) Mbps [0-9]+ %TX [0-9]+ %RX.*/\1 \2/p' \
    "$TMP/$name.out" | tail -1)"
  sleep 0.2   # the server's figures are printed as its end of the test closes
  bytes=$(last_figure "${SERVER:-s}")
  expect_awk "$name" "a summary line with a rate (MB ${mb:-none}, Mbps ${rate:-none})" \
    "${rate:-0} > 0 && ${mb:-0} > 0"
  expect_awk "$name" "the client's MB (${mb:-none}) are the server's bytes (${bytes:-none})" \
    "${bytes:-0} > 0 && ${mb:-0} * 1048576 - ${bytes:-0} <= 53 &&
     ${bytes:-0} - ${mb:-0} * 1048576 <= 53 + $slack"
}

nut t1 -p "$P" -T 1
nut r1 -r -p "$D" -T 1
nut u1 -u -R 10m -p "$P" -T 1
expect_match u1 out ' [0-9]+ / +[0-9]+ drop/pkt [0-9.]+ %loss'
nut ur -u -r -R 10m -p "$D" -T 1
nut n2 -N 2 -p "$P" -T 1
expect_match s out '^ttcp-r\[2\]: [0-9]+ bytes in '
# -r -N 2 with -n: 6.1.2's receiver stops at its first stream's end and resets the others, so a
# timed test's in-flight bytes are sent, not received (tens of MiB under valgrind); with the
# same count on each stream both ends' bytes agree
nut nr2 -r -N 2 -p "$D" -n 2000 -l 65536
nut t2 -p "$P" -T 2
nut i1 -i 1 -p "$P" -T 2
expect_awk i1 "interval lines from the server ($(count i1 out ' MB / +1\.00 sec = '))" \
  "$(count i1 out ' MB / +1\.00 sec = ') >= 1"
nut w1 -w 256 -p "$P" -T 1
nut l1 -l 16384 -p "$P" -T 1
expect_match s out '^ttcp-r: buflen=16384, '

# -fparse: the client asks for key=value lines and reads the server's figures only in that
# shape (its summary is zero otherwise); its megabytes are the server's bytes
parsed() {
  local name=$1 mb bytes; shift
  run "$name" nuttcp -P "$C" -fparse "$@" 127.0.0.1
  expect_rc "$name" 0
  mb=$(sed -nE 's/^megabytes=([0-9.]+) real_seconds=[0-9.]+ rate_Mbps=.* rx_cpu=[0-9]+.*/\1/p' \
    "$TMP/$name.out" | tail -1)
  sleep 0.2
  bytes=$(last_figure s)
  expect_awk "$name" "-fparse: megabytes (${mb:-none}) are the server's bytes (${bytes:-none})" \
    "${mb:-0} > 0 && ${bytes:-0} > 0 && ${mb:-0} * 1048576 - ${bytes:-0} <= 53 &&
     ${bytes:-0} - ${mb:-0} * 1048576 <= 53"
}
parsed p1 -p "$P" -T 1 -i 0.5
expect_match p1 out '^megabytes=[0-9.]+ real_sec=0\.50 rate_Mbps=[0-9.]+ retrans=[0-9]+$'
parsed pr -r -p "$D" -n 2000 -l 65536
parsed pu -u -R 10m -p "$P" -T 1
expect_match pu out ' drop=[0-9]+ pkt=[0-9]+ data_loss=[0-9.]+$'

# a nuttcp client and a ttcp -C client at once
start bg nuttcp -P "$C" -p "$P" -T 2 127.0.0.1
sleep 0.3
run c1 "$TTCP" -C -p "$P" --time 1 127.0.0.1
expect_rc c1 0
expect_match c1 out '^ttcp-C: send [0-9]+ bytes / '
reap bg
expect_rc bg 0
expect_match bg out ' MB / +[0-9.]+ sec = +[0-9.]+ Mbps [0-9]+ %TX [0-9]+ %RX'

# a parameter line of 1 MB: KO, the reason, KO; the server goes on serving
run big python3 - "$C" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"HELO nuttcp v6.1.2\n")
f = s.makefile("rb")
print(f.readline().decode().strip())
try:
    s.sendall(b"buflen = " + b"1" * (1 << 20) + b"\n")
except OSError:
    pass
for _ in range(3):
    print(f.readline().decode().strip())
PY
expect_lines big out '^HELO nuttcp v6\.1\.2$' '^KO$' '^nuttcp-r: Error: a parameter line longer than 4096 bytes$' '^KO$'
nut after -p "$P" -T 1
expect_running s

stop s

# --max-clients 1: a second nuttcp client is turned away in words its client prints; one
# killed mid-test frees its slot, and the next is served
C=$(free_port)
on_free_port "tcp:b udp:b" start_on_P b "$TTCP" -S -p @P@ --nuttcp-port "$C" --max-clients 1
wait_listen tcp "$C" b || { finish; exit; }
start first nuttcp -P "$C" -p "$P" -T 2 127.0.0.1
sleep 0.5
run second nuttcp -P "$C" -p "$P" -T 1 127.0.0.1
expect_rc second 1
expect_match second err 'Error: busy: this ttcp -S runs its --max-clients tests'
reap first
expect_rc first 0
run gone timeout -s KILL 1 nuttcp -P "$C" -p "$P" -T 5 127.0.0.1
sleep 0.5
SERVER=b nut next -p "$P" -T 1
expect_match b err 'turned away: busy'
stop b

# --max-time 1 --max-rate 50m: a receiving server refuses a longer test and a buffer beyond
# 4 MiB with the reason; a sending one caps the client's -T 3 to 1 s and its rate to 50 Mbit/s
C=$(free_port)
on_free_port "tcp:m udp:m" start_on_P m "$TTCP" -S -p @P@ --nuttcp-port "$C" --max-time 1 \
  --max-rate 50m
wait_listen tcp "$C" m || { finish; exit; }
run long nuttcp -P "$C" -p "$P" -T 3 -R 20m 127.0.0.1
expect_rc long 1
expect_match long err "Error: timeout: longer than this server's --max-time"
run huge nuttcp -P "$C" -p "$P" -T 1 -R 20m -l 8m 127.0.0.1
expect_rc huge 1
expect_match huge err 'Error: buflen: at most 4 MiB a buffer'
SERVER=m nut capped -r -p "$D" -T 3
read -r secs rate <<<"$(sed -nE 's/^ *[0-9.]+ MB \/ +([0-9.]+) sec = +([0-9.]+) Mbps.*/\1 \2/p' \
  "$TMP/capped.out")"
expect_awk capped "the test capped to 1 s and 50 Mbit/s (${secs:-?} s, ${rate:-?} Mbit/s)" \
  "${secs:-9} < 1.5 && ${rate:-99} <= 52"
stop m
finish
