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

BOUND=20          # seconds any process of ours may live
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
# wait_listen tcp|udp PORT NAME: poll up to 5 s until PORT is bound; give up early if NAME died.
wait_listen() {
  local flags=-Hltn i
  [ "$1" = udp ] && flags=-Hlun
  for i in $(seq 50); do
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
# lit TEXT: a regex for a line that is exactly TEXT.
lit() {
  local s=$1 re='' c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in [][\\.*^\$+?\(\)\{\}\|]) re+="\\$c" ;; *) re+=$c ;; esac
  done
  printf '^%s$\n' "$re"
}
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
