# -P between two ttcp's: n streams, each on its own port (-p + i - 1) and thread; each stream's
# lines tagged ttcp-t[i]: / ttcp-r[i]:, then the total in the classic shape (the only line a
# script reading "^ttcp-t: ... bytes in" finds); -i per stream and in total; JSON with every
# stream; a stream that fails is told by number while the others finish; Ctrl+C ends them all.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# streams_receiver NAME tcp|udp N ARGS...: `ttcp -r -P N ARGS` on ports P..P+N-1, once every
# stream's socket is bound.
start_streams() { local name=$1 n=$2; shift 2; start "$name" "$TTCP" -p "$P" -P "$n" "$@"; }
streams_receiver() {
  local name=$1 proto=$2 n=$3 i
  shift 3
  on_free_port "$proto:$name" start_streams "$name" "$n" "$@" || return 1
  for ((i = 1; i < n; i++)); do wait_listen "$proto" $((P + i)) "$name" || return 1; done
}
# stream_figure NAME out|err SIDE I: stream I's "+++" bytes (I empty: the total's).
stream_figure() {
  local tag=${4:+\\[$4\\]}
  sed -nE "s/^ttcp-$3$tag: ([0-9]+) bytes in .* real seconds = .*\+\+\+$/\1/p" "$TMP/$1.$2"
}
# expect_streams NAME SIDE N BYTES: N stream figures of BYTES each (tags 1..N, once each) and
# one total of N x BYTES, after them.
expect_streams() {
  local name=$1 side=$2 n=$3 bytes=$4 i
  for ((i = 1; i <= n; i++)); do
    expect_eq "$name" "stream $i's bytes" "$(stream_figure "$name" out "$side" "$i")" "$bytes"
  done
  expect_eq "$name" "streams beyond $n" "$(count "$name" out "^ttcp-$side\\[([0-9]+)\\]: [0-9]+ bytes in" )" "$n"
  expect_eq "$name" "the total" "$(stream_figure "$name" out "$side")" $((n * bytes))
  expect_eq "$name" "lines a 1.12 script reads as the figure" \
    "$(count "$name" out "^ttcp-$side: [0-9]+ bytes in .* real seconds")" 1
  [ "$(tail -n 3 "$TMP/$name.out" | head -n 1 | cut -d: -f1)" = "ttcp-$side" ] ||
    { fail "$name: the total is not the last figure"; show "$name"; }
}

# 1. What the issue asks: four TCP streams of 1000 buffers, 8192000 bytes each, 32768000 in all.
streams_receiver r tcp 4 -r -s
run t "$TTCP" -t -s -P 4 -n 1000 -p "$P" 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
expect_streams t t 4 8192000
expect_streams r r 4 8192000
expect_match t out "$(rate t 32768000)"
expect_match t out "$(calls t 4000)"
expect_match t out "$(rusage t)"
for i in 1 2 3 4; do
  expect_match t out "^ttcp-t\\[$i\\]: buflen=8192, nbuf=1000, align=16384/0, port=$((P + i - 1))  tcp  -> 127\\.0\\.0\\.1$"
  expect_match r err "^ttcp-r\\[$i\\]: accept from 127\\.0\\.0\\.1$"
done
measured "TCP -P 4 over loopback: $(grep -h '^ttcp-[tr]: .*+++$' "$TMP/t.out" "$TMP/r.out" | tr '\n' ';')"

# 2. --json: the total is the test, its streams inside it.
streams_receiver r tcp 2 -r -s --json
run t "$TTCP" -t -s -P 2 -n 100 --json -p "$P" 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
for s in t r; do
  expect_jq "$s" '.tests | length' 1 '.tests[0].bytes' 1638400 '.tests[0].streams | length' 2 \
    '[.tests[0].streams[].bytes] | unique' '[819200]' '[.tests[0].streams[].stream]' '[1,2]' \
    "[.tests[0].streams[].port] == [$P, $((P + 1))]" true '.options.streams' 2 '.error' null
done

# 3. -i: each stream's interval lines and the total's (iperf3's [SUM]); the total's intervals
# add up to the total's bytes.
streams_receiver r tcp 2 -r -s -i 0.4
run t "$TTCP" -t -s -P 2 --time 1.2 -i 0.4 -p "$P" 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
for s in t r; do
  for tag in '\[1\]' '\[2\]' ''; do
    n=$(count "$s" out "^ttcp-$s$tag: +[0-9]+\\.[0-9]{2}- +[0-9]+\\.[0-9]{2} sec +[0-9]+ bytes")
    [ "$n" -ge 3 ] || { fail "$s: $n interval lines tagged '$tag', expected at least 3"; show "$s"; }
  done
  expect_eq "$s" "the total's interval bytes" "$(interval_bytes "$s" out)" "$(stream_figure "$s" out "$s")"
done

# 4. UDP, two paced streams: each its own flow and port, its own loss line; the sender's bytes
# are exact.
streams_receiver r udp 2 -r -s -u -l 1024 --link-rate 1g   # (the extra lines: udp)
run t "$TTCP" -t -s -u -P 2 -l 1024 -n 200 -R 20m -p "$P" 127.0.0.1
reap r
expect_rc t 0; expect_rc r 0
expect_streams t t 2 204800
expect_match r out '^ttcp-r\[1\]: udp: [0-9]+ datagrams, [0-9]+ lost'
expect_match r out '^ttcp-r\[2\]: udp: [0-9]+ datagrams, [0-9]+ lost'
expect_match r out '^ttcp-r: udp: [0-9]+ datagrams, [0-9]+ lost'
[ "$(stream_figure r out r)" -le 409600 ] || fail "r: more UDP bytes than were sent"
measured "UDP -P 2 at 20 Mbit/s: $(grep -h '^ttcp-r: udp' "$TMP/r.out")"

# 5. A stream that fails: three streams against two receivers; stream 3 is refused, told by
# number, and the other two finish with their figures and the total of what moved.
streams_receiver r tcp 2 -r -s
run t "$TTCP" -t -s -P 3 -n 100 -p "$P" 127.0.0.1
reap r
expect_rc t 1; expect_rc r 0
expect_match t err '^ttcp-t\[3\]: connect: .*[Rr]efused'
expect_eq t "stream 1's bytes" "$(stream_figure t out t 1)" 819200
expect_eq t "stream 2's bytes" "$(stream_figure t out t 2)" 819200
expect_eq t "the total" "$(stream_figure t out t)" 1638400

# 6. Ctrl+C ends every stream with its figures, and the total.
streams_receiver r tcp 2 -r -s
start t "$TTCP" -t -s -P 2 --time 30 -p "$P" 127.0.0.1
wait_flowing t "$P" && wait_flowing t $((P + 1))   # both streams mid-test
interrupt t
reap r
for i in 1 2; do
  expect_match t out "^ttcp-t\\[$i\\]: [0-9]+ bytes in .* real seconds"
  expect_match r out "^ttcp-r\\[$i\\]: [0-9]+ bytes in .* real seconds"
done
expect_match t out '^ttcp-t: [0-9]+ bytes in .* real seconds'
expect_match r out '^ttcp-r: [0-9]+ bytes in .* real seconds'

# 7. --cpu: each stream's thread is kept on its CPU (where there are two).
if [ "$(nproc)" -ge 2 ]; then
  streams_receiver r tcp 2 -r -s
  start t "$TTCP" -t -s -P 2 --time 3 --cpu 1 -p "$P" 127.0.0.1
  wait_for 10 t lines_at_least t err "^ttcp-t\\[[12]\\]: connect$" 2 || true
  # pinned N: at least N threads of t, besides its first, are kept on CPU 1 (PINNED: how many).
  pinned() {
    local p task
    PINNED=0 p=$(worker_pid t) || return 1
    for task in /proc/"$p"/task/*; do
      [ "$task" = "/proc/$p/task/$p" ] && continue
      grep -q '^Cpus_allowed_list:[[:space:]]*1$' "$task/status" 2>/dev/null && PINNED=$((PINNED + 1))
    done
    [ "$PINNED" -ge "$1" ]
  }
  case $(readlink "/proc/$(worker_pid t)/exe") in
    *memcheck* | *valgrind*)   # (ci/valgrind) its threads are its own, not the program's
      echo "note: under valgrind: the threads' CPUs are not looked at" ;;
    *) wait_for 10 t pinned 2   # each stream's thread pins itself as it starts
       expect_eq t "stream threads kept on CPU 1" "$PINNED" 2 ;;
  esac
  reap t; reap r
  expect_rc t 0
fi
# a CPU the OS will not give: warned, the test runs anyway
streams_receiver r tcp 2 -r -s
run t "$TTCP" -t -s -P 2 -n 10 --cpu 1023 -p "$P" 127.0.0.1
reap r
expect_rc t 0
expect_match t err '^ttcp-t\[1\]: warning: --cpu: the OS would not keep this stream on CPU 1023'

# 8. Options it does not take.
for args in "-t -P 2 127.0.0.1" "-r -s -c -P 2" "-t -s -P 0 127.0.0.1" "-t -s -P 129 127.0.0.1" \
            "-t -s -P 2 -p 65535 127.0.0.1" "-t -s --cpu 0 127.0.0.1" "-t -s -P 2 --cpu x 127.0.0.1" \
            "-S -P 2"; do
  # shellcheck disable=SC2086
  run bad "$TTCP" $args
  expect_rc bad 2
  [ "$(wc -l <"$TMP/bad.err")" = 1 ] && grep -q '^ttcp: ' "$TMP/bad.err" ||
    { fail "ttcp $args: not a one-line error"; show bad; }
done

finish
