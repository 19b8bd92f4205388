# --bind and --cport: the transmitter's and the client's local address and port, seen at the
# far end (the accept line, the JSON's peer and peer_port); a receiver and a server that listen
# on the --bind address alone; a fixed port again at once; the mistakes refused with a reason.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
need_jq
# ports N: the first of N consecutive free ports, none of which a later free_port hands out.
ports() {
  local q k p
  q=$(free_port) k=1
  while [ "$k" -lt "$1" ]; do
    p=$(free_port)
    if [ "$p" = $((q + k)) ]; then k=$((k + 1)); else q=$p k=1; fi
  done
  echo "$q"
}

# The classic pair: from 127.0.0.2, port Q, to a receiver on 127.0.0.1.
Q=$(free_port)
pair tcp -r -s --json -- -t -s -n 100 --bind 127.0.0.2 --cport "$Q" --json 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_match r err '^ttcp-r: accept from 127\.0\.0\.2$'
expect_jq r '.tests[0].peer' 127.0.0.2 '.tests[0].peer_port' "$Q"
expect_jq t '.tests[0].local' 127.0.0.2 '.tests[0].local_port' "$Q" '.tests[0].bytes' 819200
# The same port again at once (the last connection may be in TIME_WAIT on it).
pair tcp -r -s --json -- -t -s -n 10 --bind 127.0.0.2 --cport "$Q" 127.0.0.1
expect_rc t 0; expect_jq r '.tests[0].peer_port' "$Q"

# A receiver on --bind 127.0.0.2 alone: a transmitter to 127.0.0.1 finds no one.
receiver r tcp -r -s --bind 127.0.0.2
run t0 "$TTCP" -t -s -n 10 -p "$P" 127.0.0.1
expect_rc t0 1; expect_match t0 err '^ttcp-t: connect: .*[Rr]efused'
run t1 "$TTCP" -t -s -n 10 -p "$P" 127.0.0.2
reap r
expect_rc t1 0; expect_rc r 0; expect_match r err '^ttcp-r: accept from 127\.0\.0\.1$'

# -P: stream k from --cport + k - 1.
Q=$(ports 2)
pair tcp -r -s -P 2 -- -t -s -n 10 -P 2 --cport "$Q" --json 127.0.0.1
expect_rc t 0
expect_jq t '[.tests[].streams[].local_port] | sort | map(tostring) | join(" ")' "$Q $((Q + 1))"

# A server on 127.0.0.2 alone, and a client from 127.0.0.3 with --cport: each data connection
# from its own port (the control connection's the OS picks), TCP and UDP.
listen_on srv tcp "$TTCP" -S -p @P@ --bind 127.0.0.2
run c0 "$TTCP" -C -n 10 -p "$P" 127.0.0.1
expect_rc c0 1; expect_match c0 err 'cannot reach the server at 127\.0\.0\.1'
Q=$(ports 4)
run c "$TTCP" -C -n 100 -P 2 --bidir --bind 127.0.0.3 --cport "$Q" --json -p "$P" 127.0.0.2
expect_rc c 0
expect_jq c '[.tests[].streams[].local_port] | sort | map(tostring) | join(" ")' \
  "$Q $((Q + 1)) $((Q + 2)) $((Q + 3))" '[.tests[].streams[].local] | unique | join(" ")' 127.0.0.3
Q=$(free_port)
run cu "$TTCP" -C -u -n 100 -l 1000 --bind 127.0.0.3 --cport "$Q" --json -p "$P" 127.0.0.2
expect_rc cu 0
expect_jq cu '.tests[0].local' 127.0.0.3 '.tests[0].local_port' "$Q"
interrupt srv
expect_rc srv 0
[ "$(count srv err '127\.0\.0\.3')" -ge 4 ] || { fail "srv: fewer than 4 lines name 127.0.0.3"; show srv; }

# A server on every address, a client's UDP test to another of them (127.0.0.3): the server's
# socket for the stream binds the address the client reached, so its datagrams reach the test,
# not the classic receiver on the port (bound to any, the connected socket would take 127.0.0.1).
listen_on srv tcp "$TTCP" -S -1 -p @P@
run cu "$TTCP" -C -u --bidir -n 100 -l 1000 -R 5m --json -p "$P" 127.0.0.3
reap srv
expect_rc cu 0
expect_jq cu '[.summary[].datagrams_lost] | map(tostring) | join(" ")' '0 0' \
  '.server_tests[0].udp.datagrams' 100

# A port that is taken (a listener holds it): the client says which, and fails.
receiver busy tcp -r -s
B=$P
listen_on srv tcp "$TTCP" -S -1 -p @P@
run c "$TTCP" -C -n 10 --cport "$B" -p "$P" 127.0.0.1
expect_rc c 1
expect_match c err "cannot bind a data socket to any address port $B: .*in use"
stop busy; stop srv

# A --bind name that does not resolve: each end names it, not the host.
receiver r tcp -r -s
run b "$TTCP" -t -s -n 1 -p "$P" --bind nosuch.invalid 127.0.0.1
expect_rc b 1; expect_match b err '^ttcp-t: bind: --bind nosuch\.invalid: '
run b "$TTCP" -C -n 1 -p "$P" --bind nosuch.invalid 127.0.0.1
expect_rc b 1; expect_lines b err '^ttcp-C: --bind nosuch\.invalid: '
stop r
run b "$TTCP" -r -s -p "$(free_port)" --bind nosuch.invalid
expect_rc b 1; expect_match b err '^ttcp-r: bind: --bind nosuch\.invalid: '

# Refused before any traffic, each with its reason.
bad() { run b "$TTCP" "$@"; expect_rc b 2; expect_empty b out; }
bad -r --cport 5000
expect_lines b err '^ttcp: --cport is the sending end.s port \(-t, -C\); a receiver listens on -p$'
bad -S --cport 5000
bad -t -4 --bind ::1 127.0.0.1
expect_lines b err '^ttcp: --bind ::1 is an IPv6 address, and -4 asks for IPv4$'
bad -t --bind 127.0.0.2 ::1
expect_lines b err '^ttcp: --bind 127\.0\.0\.2 is an IPv4 address, the host ::1 IPv6$'
bad -C -P 2 --bidir --cport 65533 127.0.0.1
expect_lines b err '^ttcp: --cport 65533: 4 data sockets would reach port 65536$'
bad -r -u -g 239.1.1.1 --bind 127.0.0.1
bad -t --cport 0 127.0.0.1
bad -t --cport 65536 127.0.0.1
finish
