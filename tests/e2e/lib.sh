# Shared helpers for the end-to-end tests; every script here sources this file.
# Environment: TTCP = the binary under test, FIXTURES = tests/fixtures/classic-1.12.
# Traffic goes to 127.0.0.1 / ::1 only; every process runs under `timeout` and the
# EXIT trap kills only the processes this script started, then removes its temp dir.
# Exit status of a script: 0 pass, 1 fail, 77 skip.
set -u

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TTCP=${TTCP:-$E2E_DIR/../../build/ttcp}
FIXTURES=${FIXTURES:-$E2E_DIR/../fixtures/classic-1.12}
[ -x "$TTCP" ] || { echo "FAIL: no ttcp binary at $TTCP (set TTCP)"; exit 1; }
[ -d "$FIXTURES" ] || { echo "FAIL: no fixtures at $FIXTURES (set FIXTURES)"; exit 1; }

BOUND=${BOUND:-20}          # seconds any process of ours may live
# --foreground: a signal sent to timeout reaches ttcp once (without it timeout also signals its
# process group, and ttcp takes a second SIGINT/SIGTERM as "stop outright").
BOUNDED=(timeout --foreground -k 2 "$BOUND")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ttcp-e2e.XXXXXX") || exit 1
declare -A PID=() RC=() CMD=()
FAILED=0

cleanup() {
  local p
  for p in "${PID[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- verdicts ---------------------------------------------------------------
fail() { printf 'FAIL: %s\n' "$*"; FAILED=1; }
skip() { printf 'SKIP: %s\n' "$*"; exit 77; }
finish() {
  if [ "$FAILED" = 0 ]; then echo "PASS: ${0##*/}"; exit 0; fi
  echo "FAILED: ${0##*/}"; exit 1
}
# show NAME: the command behind NAME and what it printed, for a failure message.
show() {
  printf '  command: %s\n  exit status: %s\n' "${CMD[$1]}" "${RC[$1]-running}"
  local s
  for s in out err; do
    printf '  std%s:\n' "$s"
    if [ -n "$(tr -d '\t\n\040-\176\200-\377' <"$TMP/$1.$s" | head -c 1)" ]; then
      printf '    (%s bytes of binary data)\n' "$(stat -c %s "$TMP/$1.$s")"
    else
      sed 's/^/    | /' "$TMP/$1.$s" | head -n 20
    fi
  done
}

# ---- processes --------------------------------------------------------------
# free_port: a random port in 20000-60999 that no TCP or UDP socket uses now.
free_port() {
  local used p
  used=$(ss -Htuan | awk '{ n = split($5, a, ":"); print a[n] }')
  while :; do
    p=$(( 20000 + ${SRANDOM:-$((RANDOM * 32768 + RANDOM))} % 41000 ))
    grep -qx "$p" <<<"$used" || { echo "$p"; return; }
  done
}
# start NAME CMD...: run CMD in the background (stdin /dev/null, or the file $IN when set),
# output in $TMP/NAME.{out,err}.
start() {
  local name=$1; shift
  CMD[$name]="$*"; unset "RC[$name]"
  "${BOUNDED[@]}" "$@" <"${IN:-/dev/null}" >"$TMP/$name.out" 2>"$TMP/$name.err" &
  PID[$name]=$!
}
# run NAME CMD...: run CMD in the foreground (stdin inherited), record its exit status.
run() {
  local name=$1; shift
  CMD[$name]="$*"
  "${BOUNDED[@]}" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  RC[$name]=$?
}
# reap NAME: wait for a background process to end by itself, record its exit status.
reap() {
  wait "${PID[$1]}"; RC[$1]=$?
  unset "PID[$1]"
  [ "${RC[$1]}" != 124 ] || fail "$1 did not end within $BOUND s"
}
# expect_running NAME: the background process has not ended.
expect_running() {
  kill -0 "${PID[$1]}" 2>/dev/null && return
  fail "$1 ended, it should still be running"; show "$1"
}
# stop NAME: end a background process (if it is still running).
stop() {
  kill "${PID[$1]}" 2>/dev/null
  wait "${PID[$1]}" 2>/dev/null; RC[$1]=stopped
  unset "PID[$1]"
}
# wait_listen tcp|udp PORT NAME: poll up to LISTEN_WAIT s (default 5) until PORT is bound;
# give up early if NAME died.
wait_listen() {
  local flags=-Hltn i
  [ "$1" = udp ] && flags=-Hlun
  for i in $(seq $(( ${LISTEN_WAIT:-5} * 10 ))); do
    [ -n "$(ss $flags "sport = :$2")" ] && return 0
    kill -0 "${PID[$3]}" 2>/dev/null || break
    sleep 0.1
  done
  fail "$3 is not listening on $1 port $2"; show "$3"; return 1
}
# receiver NAME tcp|udp ARGS...: a fresh port P, `ttcp -p P ARGS` in the background as NAME,
# returning once it listens.
receiver() {
  local name=$1 proto=$2; shift 2
  P=$(free_port)
  start "$name" "$TTCP" -p "$P" "$@"
  wait_listen "$proto" "$P" "$name"
}
# pair tcp|udp RECEIVER-ARGS... -- TRANSMITTER-ARGS...: receiver "r" as above, then the
# transmitter "t" (`ttcp -p P ARGS`, stdin inherited) in the foreground, then "r" is reaped.
pair() {
  local proto=$1; shift
  local -a rargs=()
  while [ "$1" != -- ]; do rargs+=("$1"); shift; done; shift
  receiver r "$proto" "${rargs[@]}" || { stop r; return 1; }
  run t "$TTCP" -p "$P" "$@"
  reap r
}

# ---- expectations ----------------------------------------------------------
expect_rc() {   # NAME STATUS
  [ "${RC[$1]}" = "$2" ] && return
  fail "$1: exit status ${RC[$1]}, expected $2"; show "$1"
}
expect_lines() {   # NAME out|err REGEX...: exactly these lines, in this order
  local name=$1 file=$TMP/$1.$2 i=0 re ok=1
  shift 2
  local -a got
  mapfile -t got <"$file"
  [ "${#got[@]}" = "$#" ] || ok=0
  for re; do [[ ${got[i]-} =~ $re ]] || ok=0; i=$((i + 1)); done
  [ "$ok" = 1 ] && return
  fail "$name: std${file##*.} is not as expected; wanted lines matching:"
  printf '    ~ %s\n' "$@"; show "$name"
}
expect_match() {   # NAME out|err REGEX: some line matches
  grep -Eq -- "$3" "$TMP/$1.$2" && return
  fail "$1: no line of std$2 matches /$3/"; show "$1"
}
expect_empty() {   # NAME out|err
  [ -s "$TMP/$1.$2" ] || return 0
  fail "$1: std$2 should be empty"; show "$1"
}
# expect_shape NAME out|err FIXTURE: same lines as the classic fixture once every number is N.
shape() { sed -E 's/0x[0-9a-f]+/ADDR/g; s/[0-9]+/N/g' "$1"; }
expect_shape() {
  local d
  d=$(diff <(shape "$FIXTURES/$3") <(shape "$TMP/$1.$2")) && return
  fail "$1: std$2 differs in shape from fixture $3:"; printf '%s\n' "$d" | sed 's/^/    /'
}

# ---- regexes for the classic 1.12 lines (compat.md §1.5) --------------------
N2='[0-9]+\.[0-9]{2}'
# hdr t|r BUFLEN NBUF PORT tcp|udp [HOST]; SOCKBUF=n adds ", sockbufsize=n", ALIGN=a/o the alignment.
hdr() {
  local re="^ttcp-$1: buflen=$2, nbuf=$3, align=${ALIGN:-16384/0}, port=$4${SOCKBUF:+, sockbufsize=$SOCKBUF}  $5"
  [ $# -ge 6 ] && re+="  -> ${6//./\\.}"
  printf '%s$\n' "$re"
}
rate()   { printf '^ttcp-%s: %s bytes in %s real seconds = %s %s/sec \\+\\+\\+$\n' "$1" "$2" "$N2" "$N2" "${3:-KB}"; }
cpurate() { printf '^ttcp-%s: %s bytes in %s CPU seconds = %s %s/cpu sec$\n' "$1" "$2" "$N2" "$N2" "${3:-KB}"; }
calls()  { printf '^ttcp-%s: %s I/O calls, msec/call = %s, calls/sec = %s$\n' "$1" "$2" "$N2" "$N2"; }
rusage() { printf '^ttcp-%s: [0-9]+\\.[0-9]user [0-9]+\\.[0-9]sys [0-9]+:[0-9]{2}real [0-9]+%% [0-9]+i\\+[0-9]+d [0-9]+maxrss [0-9]+\\+[0-9]+pf [0-9]+\\+[0-9]+csw$\n' "$1"; }
bufaddr() { printf '^ttcp-%s: buffer address 0x[0-9a-f]+$\n' "$1"; }
ANY='[0-9]+'      # a count the spec leaves to the kernel (e.g. TCP receiver reads)
SOME='[1-9][0-9]*'
# expect_report NAME out|err HEADER-REGEX BYTES CALLS [UNIT]: header + the three statistics lines only.
expect_report() {
  local s=${3:6:1}   # t or r, from "^ttcp-t: ..."
  expect_lines "$1" "$2" "$3" "$(rate "$s" "$4" "${6:-KB}")" "$(calls "$s" "$5")" "$(rusage "$s")"
}
# bytes_of NAME out|err: the byte count of the "+++" line.
bytes_of() { sed -nE 's/^ttcp-[tr]: ([0-9]+) bytes in .*\+\+\+$/\1/p' "$TMP/$1.$2"; }

# ---- extensions (-I, --half-close, -c, --tcp-info) ----------------------------
# lit TEXT: a regex for a line that is exactly TEXT (lit_re: the same into REPLY, no subshell).
lit_re() {
  local s=$1 c i
  REPLY='^'
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in [][\\.*^\$+?\(\)\{\}\|]) REPLY+="\\$c" ;; *) REPLY+=$c ;; esac
  done
  REPLY+='$'
}
lit() { lit_re "$1"; printf '%s\n' "$REPLY"; }
# answers FILE LINE...: the lines, one per line, into $TMP/FILE (a dialog's stdin, for IN=).
answers() { local f=$TMP/$1; shift; printf '%s\n' "$@" >"$f"; }
# interrupt NAME: SIGINT to a background process, which must end within a few seconds
# (a loose bound against a hang, not a timing), then its exit status is recorded.
interrupt() {
  local sent_at
  kill -INT "${PID[$1]}"       # timeout(1) passes one SIGINT on to ttcp
  sent_at=$SECONDS
  reap "$1"
  [ $((SECONDS - sent_at)) -le 4 ] || fail "$1 took $((SECONDS - sent_at)) s to end after SIGINT"
}
# half_close t|r BYTES: the --half-close statistics line (no "+++": it is not the test's figure).
half_close() {
  local dir="received back"
  [ "$1" = r ] && dir="sent back"
  printf '^ttcp-%s: half close: %s bytes %s in %s real seconds = %s KB/sec$\n' "$1" "$2" "$dir" "$N2" "$N2"
}
# tcpinfo t|r: the --tcp-info line (mss at least 1).
tcpinfo() {
  printf '^ttcp-%s: tcp info: mss [1-9][0-9]*, sndwnd [0-9]+, rcvwnd [0-9]+, cwnd [0-9]+, srtt [0-9]+\\.[0-9]{3} ms, rttvar [0-9]+\\.[0-9]{3} ms, retransmits [0-9]+$\n' "$1"
}
# ios_connect t|r: the connect / accept line of -v or -I, with the connection's TCP figures.
ios_connect() {
  local what=connect
  [ "$1" = r ] && what='accept from 127\.0\.0\.1'
  printf '^ttcp-%s: %s \\(mss [0-9]+, sndwnd [0-9]+, rcvwnd [0-9]+\\)$\n' "$1" "$what"
}
# figures_ok NAME: every figure of its IOS connect / accept line (stderr) is > 0, the mss
# at least 500.
figures_ok() {
  local mss snd rcv
  read -r mss snd rcv < <(sed -nE 's/.*\(mss ([0-9]+), sndwnd ([0-9]+), rcvwnd ([0-9]+)\)$/\1 \2 \3/p' \
    "$TMP/$1.err")
  [ "${mss:-0}" -ge 500 ] && [ "${snd:-0}" -gt 0 ] && [ "${rcv:-0}" -gt 0 ] && return
  fail "$1: connection figures mss ${mss:-?} (>= 500), sndwnd ${snd:-?}, rcvwnd ${rcv:-?} (> 0)"
  show "$1"
}

# classic_sink NAME [MAX]: on a fresh port P, a listener that is not ttcp (perl, as in
# perl-base) reads one connection to EOF (or until MAX bytes), prints the byte count, closes.
# Returns 1 without perl: the caller skips that check.
classic_sink() {
  command -v perl >/dev/null || return 1
  P=$(free_port)
  start "$1" perl -MIO::Socket::INET -e '
    my ($port, $max) = @ARGV;
    my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $port, Listen => 1,
                                  ReuseAddr => 1) or die "listen: $!\n";
    my $c = $l->accept or die "accept: $!\n";
    my ($n, $r, $buf) = (0);
    $n += $r while (!$max || $n < $max) && ($r = sysread($c, $buf, 65536));
    print "$n\n"; close $c;' "$P" "${2:-0}"
  wait_listen tcp "$P" "$1"
}

# ---- measurement extensions (-i, --time, -R, SI -f, --link-rate, --json, --pattern, udp) ----
N3='[0-9]+\.[0-9]{3}'
# sirate t|r BYTES UNIT: the "+++" line with an SI unit (bps kbps Mbps Gbps): 3 decimals, no "/sec".
sirate() { printf '^ttcp-%s: %s bytes in %s real seconds = %s %s \\+\\+\\+$\n' "$1" "$2" "$N2" "$N3" "$3"; }
# interval t|r tcp|udp: an -i line in KB/sec; the transmitter's says "written", TCP's end with
# the connection's figures.
interval() {
  local w='' tcp=''
  [ "$1" = t ] && w=' written'
  [ "$2" = tcp ] && tcp='  retransmits [0-9]+, cwnd [0-9]+, srtt [0-9]+\.[0-9]{3} ms'
  printf '^ttcp-%s: +[0-9]+\\.[0-9]{2}- +[0-9]+\\.[0-9]{2} sec +[0-9]+ bytes%s = %s KB/sec%s$\n' \
    "$1" "$w" "$N2" "$tcp"
}
# cpuline t|r: the CPU line that any measurement option adds to the summary.
cpuline() {
  printf '^ttcp-%s: cpu: [0-9]+\\.[0-9] %% of the elapsed time, (%s CPU seconds per GB|no data moved)$\n' \
    "$1" "$N3"
}
# udpline: the receiver's line from ttcp's UDP sequence header (docs/UDP-HEADER.md).
udpline() {
  printf '^ttcp-r: udp: [0-9]+ datagrams, [0-9]+ lost \\([0-9]+\\.[0-9]{2} %%\\), [0-9]+ duplicate, [0-9]+ out of order, jitter %s ms$\n' "$N3"
}
# grab NAME out|err ERE [AS]: the first line matching ERE (no "~" in it) rewritten as AS (sed's
# replacement, default \1: the first group); nothing when no line matches.
grab() { sed -nE "s~$3~${4:-\\1}~p" "$TMP/$1.$2" | head -n 1; }
# rate_of NAME out|err: the figure of the "+++" line.
rate_of() { grab "$1" "$2" '^ttcp-[tr]: .* real seconds = ([0-9.]+) .* \+\+\+$'; }
# expect_eq NAME WHAT GOT WANT: a figure of NAME's output is exactly WANT.
expect_eq() {
  [ "$3" = "$4" ] && return
  fail "$1: $2 is '$3', expected '$4'"; show "$1"
}
# expect_awk NAME WHAT CONDITION: an awk condition on figures holds, e.g. "19 <= 19.8 && 19.8 <= 21".
expect_awk() {
  awk "BEGIN { exit !($3) }" 2>/dev/null && return
  fail "$1: $2 (false: $3)"; show "$1"
}
# count NAME out|err ERE: how many lines match.
count() { grep -Ec -- "$3" "$TMP/$1.$2"; }
# interval_bytes NAME out|err: the sum of the byte counts of the -i lines.
interval_bytes() {
  local b s=0
  while read -r b; do s=$((s + b)); done < <(
    sed -nE 's/^ttcp-[tr]: +[0-9.]+- +[0-9.]+ sec +([0-9]+) bytes.*/\1/p' "$TMP/$1.$2")
  echo "$s"
}
# now: the wall clock in seconds, with microseconds.
now() { echo "${EPOCHREALTIME/,/.}"; }

# need_jq: --json output is checked with a real JSON parser; without jq that is a failure, not a skip.
need_jq() {
  command -v jq >/dev/null && return
  fail "jq is not installed: the --json checks need a JSON parser (apt-get install jq; ci/deps)"
  finish
}
# expect_json NAME: NAME's stdout is exactly one JSON document.
expect_json() {
  local n
  n=$(jq -s length "$TMP/$1.out" 2>&1) && [ "$n" = 1 ] && return
  fail "$1: stdout is not exactly one JSON document (jq: $n)"; show "$1"
}
# expect_jq NAME FILTER WANT [FILTER WANT]...: on NAME's stdout each FILTER gives one value,
# WANT as jq -r prints it (strings bare, null as null); one jq run for them all, a line a FILTER.
expect_jq() {
  local name=$1 prog='' i bad=0
  shift
  local -a f=() w=() got=()
  while [ $# -ge 2 ]; do
    f+=("$1"); w+=("$2")
    prog+="${prog:+, }(try ([$1] | if length == 1 then .[0] | tostring"
    prog+=" else \"\\(length) values\" end) catch \"jq error: \\(.)\")"
    shift 2
  done
  mapfile -t got < <(jq -r "$prog" "$TMP/$name.out" 2>&1)
  for i in "${!f[@]}"; do
    [ "${got[i]-}" = "${w[i]}" ] && continue
    fail "$name: jq '${f[i]}' gives '${got[i]-}', expected '${w[i]}'"; bad=1
  done
  [ "$bad" = 0 ] || show "$name"
}

# classic_data FILE BUFS BUFLEN [AT]: into $TMP/FILE, BUFS buffers of 1.12's pattern (each one
# restarting at ' '), the byte at offset AT (if given) changed to 'X' (or 'Y' where it was 'X').
classic_data() {
  awk -v bufs="$2" -v len="$3" -v at="${4:--1}" 'BEGIN {
    for (o = 0; o < bufs * len; o++) {
      c = 32 + (o % len) % 95
      if (o == at) c = (c == 88) ? 89 : 88
      printf "%c", c
    } }' >"$TMP/$1"
}
# udp_send PORT FORMAT [ARG...]: one datagram, printf'd, to 127.0.0.1:PORT (bash's /dev/udp).
udp_send() { local p=$1; shift; printf "$@" >"/dev/udp/127.0.0.1/$p"; }
MARKER=' !"#'   # 1.12's start and end datagram
# udp_blank PORT LEN: a datagram of LEN spaces, as a classic sender's data would be.
udp_blank() { udp_send "$1" "%$2s" ''; }
# udp_seq PORT SEQ: a 100-byte datagram carrying ttcp's sequence header (version 1, classic,
# sequence SEQ, sent time 0, seed 0) and 68 spaces. (printf -v: no subshell per byte.)
udp_seq() {
  local i b le='' zeros
  for i in 0 1 2 3 4 5 6 7; do printf -v b '\\x%02x' $(( ($2 >> (8 * i)) & 255 )); le+=$b; done
  printf -v zeros '%.0s\\x00' {1..16}
  udp_send "$1" "tTcU\\x01\\x00\\x00\\x00$le$zeros%68s" ''
}
# udp_by_hand SENDER ARG...: a receiver "r" in extended mode (-r -s -u -f Mbps) on a fresh port P,
# fed by hand: the start marker, `SENDER P ARG` for each ARG, the end marker; then "r" is reaped.
udp_by_hand() {
  local sender=$1 a
  shift
  receiver r udp -r -s -u -f Mbps || { stop r; return 1; }
  udp_send "$P" "$MARKER"
  for a; do "$sender" "$P" "$a"; done
  udp_send "$P" "$MARKER"
  reap r
}

# ---- fault injection (fault_*.sh) ------------------------------------------
# worker_pid NAME: the process doing NAME's work: below NAME's timeout(1), through any shell
# wrapper in $TTCP (bash, sh, dash with one child), the first process that is not a shell.
worker_pid() {
  local p exe
  p=$(pgrep -P "${PID[$1]-0}")
  while [ -n "$p" ] && [ "$(wc -w <<<"$p")" = 1 ]; do
    exe=$(readlink "/proc/$p/exe") || return 1
    case ${exe##*/} in bash | sh | dash) p=$(pgrep -P "$p") ;; *) echo "$p"; return 0 ;; esac
  done
  return 1
}
# kill_hard NAME: SIGKILL to the process doing NAME's work (not its timeout), then reap it.
kill_hard() {
  local p
  p=$(worker_pid "$1") || { fail "$1: no process to kill"; show "$1"; return 1; }
  kill -KILL "$p"
  wait "${PID[$1]}" 2>/dev/null; RC[$1]=$?   # (timeout(1) dies of the same signal: no "Killed")
  unset "PID[$1]"
}
# stop_any NAME...: stop those of the NAMEs that were started and not yet reaped.
stop_any() { local n; for n; do [ -z "${PID[$n]-}" ] || stop "$n"; done; }
# wait_flowing NAME PORT: poll up to 5 s until a TCP connection to or from PORT is established
# (giving up early if NAME died), then let data flow for half a second.
wait_flowing() {
  local i
  for i in $(seq 50); do
    if [ -n "$(ss -Htn state established "( sport = :$2 or dport = :$2 )")" ]; then
      sleep 0.5; return 0
    fi
    kill -0 "${PID[$1]}" 2>/dev/null || break
    sleep 0.1
  done
  fail "no connection on port $2 while $1 runs"; show "$1"; return 1
}
# expect_partial NAME HEADER-REGEX: the partial figures of a run that moved data before it
# failed or was cut short: stdout is the header and the three statistics lines, bytes and
# calls > 0.
expect_partial() { expect_report "$1" out "$2" "$SOME" "$SOME"; }
# IO_ERR: the system's message for a peer that reset the connection or vanished mid-transfer.
IO_ERR='(Connection reset by peer|Broken pipe)'
# expect_io_error NAME t|r LINE-REGEX...: stderr is LINE-REGEX... then "ttcp-X: IO: <reset or
# broken pipe>" and its own errno= line (104 for a reset, 32 for a broken pipe, as on Linux).
expect_io_error() {
  local name=$1 s=$2 msg
  shift 2
  expect_lines "$name" err "$@" "^ttcp-$s: IO: $IO_ERR\$" '^errno=(104|32)$'
  msg=$(grep -E "^ttcp-$s: IO: " "$TMP/$name.err" | head -n 1)
  case "$msg|$(grep -E '^errno=' "$TMP/$name.err" | head -n 1)" in
    *reset*"|errno=104" | *pipe*"|errno=32" | "|") ;;
    *) fail "$name: the errno= line does not belong to '$msg'"; show "$name" ;;
  esac
}
# udp_marker PORT: one 1.12 start/end marker datagram; udp_plain PORT COUNT LEN: COUNT plain
# datagrams of LEN spaces (1.12's data, without ttcp's sequence header).
udp_marker() { udp_send "$1" '%s' "$MARKER"; }
udp_plain() { local i; for ((i = 0; i < $2; i++)); do udp_send "$1" "%$3s" ''; done; }
# wait_line NAME out|err ERE: poll up to 10 s until a line of NAME's output matches ERE; gives
# up early if NAME ended.
wait_line() {
  local i
  for i in $(seq 100); do
    grep -Eq -- "$3" "$TMP/$1.$2" && return 0
    kill -0 "${PID[$1]}" 2>/dev/null || break
    sleep 0.1
  done
  fail "$1: no line of std$2 matches /$3/ (waited 10 s)"; show "$1"; return 1
}
