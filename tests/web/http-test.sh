#!/usr/bin/env bash
# tests/web/http-test.sh BASE-URL DIR: one short browser's test against `ttcp -S --web`, made
# with curl the way the page makes it (docs/ttcp.1, "THE BROWSER'S TEST"), for builds that have
# no browser beside them (ttcpw.exe under Wine, the static release binary): GET / (the page),
# POST /start?time=1, GET /down to the end of its window, POST /up with 2000000 bytes, POST /done
# with made-up page figures (down 8 Mbit/s, idle 1 ms, loaded 3 ms, jitter 0.1 ms). Checks each
# answer: the page is the page; the upload's count is the bytes sent; the download's count is
# the bytes curl got. Prints one line, `page PAGE-BYTES down DOWN-BYTES up UP-BYTES grade G`;
# exit status 0, or 1 with the reason. The server's own line for it then reads
#   ttcp-S: web 127.0.0.1: down 8.00 Mbit/s, up ..., idle 1.0 ms, loaded 3.0 ms, grade A+
# Every request is bounded in time (curl -m); DIR keeps the answers.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: tests/web/http-test.sh BASE-URL DIR" >&2; exit 2; }
base=${1%/} dir=$2
command -v curl >/dev/null || { echo "http-test: curl is not installed (ci/deps)"; exit 1; }
mkdir -p "$dir" || exit 1
bad() { echo "http-test: $*"; exit 1; }
# req NAME MAX-SECONDS CURL-ARGS...: the answer's body in DIR/NAME, "STATUS BYTES" printed.
req() {
  local name=$1 max=$2
  shift 2
  curl -sS -m "$max" -o "$dir/$name" -D "$dir/$name.headers" -w '%{http_code} %{size_download}' "$@" \
    2>"$dir/$name.err" || echo " (curl: $(head -n 1 "$dir/$name.err"))"
}
# member NAME KEY: a number or string member of DIR/NAME's JSON object.
member() { sed -nE "s/.*\"$2\":\"?([^\",}]*).*/\1/p" "$dir/$1"; }

got=$(req page 10 "$base/")
grep -qs '<title>ttcp: throughput test</title>' "$dir/page" && [ "${got%% *}" = 200 ] &&
  grep -qi '^content-type: text/html' "$dir/page.headers" || bad "GET /: $got, not the page"
page_bytes=${got#* }

got=$(req start 10 -X POST "$base/start?time=1")
id=$(member start id)
[ "${got%% *}" = 200 ] && [[ $id =~ ^[0-9a-f]{32}$ ]] && [ "$(member start seconds)" = 1.000 ] ||
  bad "POST /start?time=1: $got, $(head -c 200 "$dir/start")"

got=$(req down 20 "$base/down?id=$id")
down_bytes=${got#* }
[ "${got%% *}" = 200 ] && [ "$down_bytes" -gt 0 ] || bad "GET /down: $got"

head -c 2000000 /dev/zero >"$dir/body"
got=$(req up 20 -H 'Content-Type: application/octet-stream' --data-binary "@$dir/body" "$base/up?id=$id")
[ "${got%% *}" = 200 ] && [ "$(member up up_bytes)" = 2000000 ] ||
  bad "POST /up (2000000 bytes): $got, $(head -c 200 "$dir/up")"
[ "$(member up down_sent)" = "$down_bytes" ] ||
  bad "the server sent $(member up down_sent) bytes to /down, curl got $down_bytes"

got=$(req done 10 -X POST "$base/done?id=$id&down_bps=8000000&down_bytes=$down_bytes&idle_us=1000&loaded_us=3000&jitter_us=100")
grade=$(member done grade)
[ "${got%% *}" = 200 ] && [ "$(member done up_bytes)" = 2000000 ] && [ -n "$grade" ] ||
  bad "POST /done: $got, $(head -c 200 "$dir/done")"
echo "page $page_bytes down $down_bytes up 2000000 grade $grade"
