# ttcp -C --nuttcp against a real nuttcp server (Debian's 6.1.2: nuttcp -S --nofork -1, one
# test each): TCP both ways, -P 2, UDP both ways with -R, and a name whose first address is ::1
# against a server on IPv4 alone. The byte count at our end equals the server's (both ends in
# ttcp's --json), and UDP's loss is told at both ends.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

command -v nuttcp >/dev/null || skip "nuttcp is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"

# nut NAME ARGS...: a one-shot nuttcp server on a free control port P (its data ports: P + 1
# onwards, as ttcp -C --nuttcp names them), then ttcp -C --nuttcp -p P ARGS --json as NAME.
nut() {
  local name=$1; shift
  listen_on "s$name" tcp nuttcp -S -P @P@ --nofork -1 || return 1
  run "$name" "$TTCP" -C --nuttcp -p "$P" --json "$@" 127.0.0.1
  reap "s$name"
  expect_rc "$name" 0
}

# ends NAME: "our-bytes their-bytes receiver's-lost datagrams-sent" from the JSON (lost: the
# receiving end's count, ours or the server's; sent: the summary's, the sender's count).
ends() {
  python3 - "$TMP/$1.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mine, theirs = d["tests"][0], d["server_tests"][0]
def lost(t):
    u = t.get("udp")
    return "-" if u is None else str(u.get("lost", "-"))
rx = mine if mine["side"] == "receive" else theirs
print(mine["bytes"], theirs["bytes"], lost(rx), d["summary"][0].get("datagrams_sent", "-"))
PY
}

# same NAME [SLACK]: both ends counted the same bytes, and some; SLACK: within that many bytes
# (a sending nuttcp server's count is its MiB to 4 decimals, 53 bytes either way, and its
# timed last write may be cut short, so it is not rounded to whole buffers).
same() {
  local f slack=${2:-0}
  read -r -a f <<<"$(ends "$1")"
  expect_awk "$1" "bytes at both ends (ours ${f[0]-?}, the server's ${f[1]-?}, within $slack)" \
    "${f[0]-0} > 0 && ${f[0]-0} - ${f[1]-1} <= $slack && ${f[1]-1} - ${f[0]-0} <= $slack"
  REPLY="${f[2]-} ${f[3]-}"
}

nut t1 -t --time 1 -l 65536
same t1
expect_match t1 err '^ttcp-r\(nuttcp\): [0-9]+ bytes in [0-9.]+ real seconds'
expect_match t1 err '^ttcp-C: send [0-9]+ bytes / '

nut r1 -r --time 1 -l 65536
same r1 53
expect_match r1 err '^ttcp-t\(nuttcp\): [0-9]+ bytes in [0-9.]+ real seconds'

# -P 2: with -n each stream sends its count (6.1.2 reads or writes its streams in turn and
# totals them when the first ends, so equal counts are what makes both ends agree)
nut p2 -t -P 2 -n 2000 -l 65536
same p2
nut p2r -r -P 2 -n 2000 -l 65536
same p2r

# UDP, paced: nuttcp's markers and the byte count at offset 24; the loss each end tells
# (6.1.2's server puts no count in the datagrams it sends: our loss then is what it said it
# sent against what came)
nut u1 -t -u -R 20m --time 1 -l 1000
same u1
read -r lost sent <<<"$REPLY"
read -r -a f <<<"$(ends u1)"
expect_awk u1 "UDP: the server's loss ($lost) of our datagrams ($sent)" \
  "\"$lost\" != \"-\" && $sent * 1000 == ${f[0]} && $lost <= $sent"
expect_match u1 err '^ttcp-r\(nuttcp\): udp: [0-9]+ datagrams, [0-9]+ lost'
expect_match u1 err '^ttcp-C: send [0-9]+ bytes / .* [0-9]+ / [0-9]+ lost'

nut u2 -r -u -R 20m --time 1 -l 1000
same u2
read -r lost sent <<<"$REPLY"
expect_awk u2 "UDP: our loss ($lost) of the server's datagrams" "\"$lost\" != \"-\""
expect_match u2 err '^ttcp-C: recv [0-9]+ bytes / .* [0-9]+ / [0-9]+ lost' 

# A name whose first address is ::1: nuttcp -S listens on IPv4 alone (its -4, the default), so
# ::1 refuses and the control connection (then the data's) takes the next address.
if v6first_ready; then
  listen_on sfb tcp nuttcp -S -P @P@ --nofork -1 || finish
  run fb "${V6FIRST_RUN[@]}" "$TTCP" -C --nuttcp -p "$P" --json -t -n 100 -l 65536 "$V6FIRST"
  reap sfb
  expect_rc fb 0
  same fb
else
  echo "SKIP: the ::1-first name (needs root and unshare -m for a hosts file of its own)"
fi

# what nuttcp cannot carry is refused before anything is sent
run bd "$TTCP" -C --nuttcp --bidir -p "$(free_port)" 127.0.0.1
expect_rc bd 2
expect_match bd err 'bidir'

finish
