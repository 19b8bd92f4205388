# Help with /? and -h: the usage text on stdout, exit 0; --version: one line naming cJSON;
# a bad -l: one line on stderr, exit 2.
NEEDS=wine
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

run h "$WTTCP" -h
expect_rc h 0; expect_empty h err
crlf h out
expect_match h out '^Usage: ttcpw -t'
expect_match h out '^ +ttcpw -r'
run q "$WTTCP" '/?'
expect_rc q 0; expect_empty q err
crlf q out
cmp -s "$TMP/h.out" "$TMP/q.out" || { fail "/? and -h print different text"; show q; }

# --version: one line whose build details name the cJSON linked into ttcpw.exe.
run v "$WTTCP" --version
expect_rc v 0; expect_empty v err
crlf v out
expect_lines v out '^ttcp [0-9.]+ \(Windows.*, cJSON [0-9]+\.[0-9]+\.[0-9]+\)'

P=$(free_port)   # no traffic expected, but never the default port 5001
run l "$WTTCP" -t -s -l 0 -p "$P" 127.0.0.1
expect_rc l 2; expect_empty l out
crlf l err
expect_lines l err "^ttcp: -l: '0' is out of range"

finish
