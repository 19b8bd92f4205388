# Windows words for help, and words that are not options: /help, /h, -help and /? print the usage
# (headed "ttcpw") on stdout, exit 0; /r (a DOS-style switch that is not one of ttcp's) and a stray
# word after a receiver's options exit 2 with one line and start nothing; so does a -f unit that
# does not exist, with a line that lists the units there are.
NEEDS=wine
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

run h "$WTTCP" -h
expect_rc h 0; expect_empty h err
crlf h out
[[ $(head -n 1 "$TMP/h.out") =~ ^Usage:\ ttcpw\ -t ]] ||
  { fail "-h: the usage's first line does not name ttcpw"; show h; }
n=0
for w in /help /h -help '/?'; do
  n=$((n + 1))
  run "w$n" "$WTTCP" "$w"
  expect_rc "w$n" 0; expect_empty "w$n" err
  crlf "w$n" out
  cmp -s "$TMP/h.out" "$TMP/w$n.out" || { fail "$w and -h print different text"; show "w$n"; }
done

# A receiver that started anyway would print its header and socket line and wait (exit 124).
P=$(free_port)
run r1 "$WTTCP" /r
run r2 "$WTTCP" -r -s -p "$P" stray
for n in r1 r2; do
  expect_rc $n 2; expect_empty $n out
  crlf $n err
done
expect_lines r1 err "^ttcp: .*'/r'"
expect_lines r2 err "^ttcp: .*'stray'"

run f "$WTTCP" -t -s -f Mbit -p "$P" 127.0.0.1
expect_rc f 2; expect_empty f out
crlf f err
expect_lines f err "^ttcp: -f: 'Mbit' .*"
for unit in k K m M g G bps kbps Mbps Gbps; do
  grep -Eq "[ ,]$unit([ ,)]|$)" "$TMP/f.err" || { fail "-f: the error line does not list '$unit'"; show f; }
done

finish
