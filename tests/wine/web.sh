# ttcpw.exe -S --web (issue 25): the Windows build serves the browser's test through its static
# libmicrohttpd (w32 threads, Winsock). Under Wine, on 127.0.0.1: the page and one short test
# made by curl from the Linux side as the page makes it (tests/web/http-test.sh: POST /start,
# GET /down, POST /up, POST /done); the server tells the test in its line on stdout (CR LF), and
# ends at Ctrl+C with status 0, its --web port closed.
NEEDS=wine
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1
command -v curl >/dev/null || fail "curl is not installed (ci/deps installs it)"

W=$(free_port)
if on_free_port "tcp:s" start_on_P s "$WTTCP" -S -p @P@ --iperf3-port 0 --nuttcp-port 0 \
     --web "127.0.0.1:$W" && wait_listen tcp "$W" s; then
  run h bash "$(dirname "${BASH_SOURCE[0]}")/../web/http-test.sh" "http://127.0.0.1:$W" "$TMP/http"
  expect_rc h 0
  expect_match h out '^page [0-9]+ down [0-9]+ up 2000000 grade A\+$'
  measured "ttcpw.exe --web: $(cat "$TMP/h.out")"
  line='^ttcp-S: web 127\.0\.0\.1: down 8\.00 Mbit/s, up [0-9.]+ [kMG]?bit/s, idle 1\.0 ms, loaded 3\.0 ms, grade A\+'$'\r''$'
  wait_for "$WAIT" s lines_at_least s out "$line" 1 || { fail "s: no line for the test made by curl"; show s; }
  ctrl_c s
  expect_rc s 0
  crlf s out err
  expect_match s err "^ttcp-S: serving browsers on port $W \\(a page at /\\)\$"
  listening tcp "$W" && fail "port $W still listens after ttcpw.exe ended"
fi
stop_any s
finish
