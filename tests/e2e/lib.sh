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

# ---- ports ------------------------------------------------------------------
# Tests run side by side (ctest -j) must never be handed the same port. Each script claims a
# block of PORT_BLOCK consecutive ports for its whole life: a flock(1) lock on a file of its
# own per block in PORT_LOCKS (one directory for every run on this machine), held on a
# descriptor of this shell, so the kernel drops the lock when the script ends, however it ends
# (no stale locks). Two scripts never hold the same block, so never the same port. The blocks
# lie below the kernel's ephemeral range (ip_local_port_range): no connection's source port
# lands on them. free_port hands out the block's ports in turn (the turn is kept in $TMP, so
# `P=$(free_port)` works too), skipping any a socket uses now. A process that is not one of
# these tests may still bind one between that look and our bind: on_free_port (under receiver,
# listen_on) then takes the next port (the listener's "Address already in use" is the sign).
PORT_LOCKS=${PORT_LOCKS:-/tmp/ttcp-test-ports}
PORT_BLOCK=64
claim_ports() {
  local lo=32768 first=20000 last nblocks b i start f _
  read -r lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null
  last=$((lo - 1))
  # an unusual ephemeral range (starting below 21024): the ports above it instead
  [ "$last" -ge $((first + 16 * PORT_BLOCK - 1)) ] || { first=61000 last=65535; }
  nblocks=$(( (last - first + 1) / PORT_BLOCK ))
  start=$(( ${SRANDOM:-$((RANDOM * 32768 + RANDOM))} % nblocks ))
  PORT_BASE=$((first + start * PORT_BLOCK))   # without flock or PORT_LOCKS: a random block
  if command -v flock >/dev/null &&
     { [ -d "$PORT_LOCKS" ] || mkdir -m 1777 "$PORT_LOCKS" 2>/dev/null || [ -d "$PORT_LOCKS" ]; }; then
    for ((i = 0; i < 2 * nblocks; i++)); do
      b=$(( (start + i) % nblocks ))
      f=$PORT_LOCKS/block-$((first + b * PORT_BLOCK))
      { [ -e "$f" ] || : >>"$f"; exec {PORT_FD}<"$f"; } 2>/dev/null || continue
      # the first round takes a free block at once; the second waits for one (all taken: more
      # than $nblocks scripts at once), up to 2 s a block
      if flock -n "$PORT_FD" || { [ "$i" -ge "$nblocks" ] && flock -w 2 "$PORT_FD"; }; then
        PORT_BASE=$((first + b * PORT_BLOCK)); return 0
      fi
      exec {PORT_FD}<&-
    done
  fi
  echo "note: no port block could be locked in $PORT_LOCKS; ports $PORT_BASE-$((PORT_BASE + PORT_BLOCK - 1)) unlocked"
  exec {PORT_FD}</dev/null   # (start and run close PORT_FD for their commands)
}
claim_ports
# free_port: the next port of this script's block that no TCP or UDP socket uses now.
free_port() {
  local used n i p
  used=" $(ss -Htuan | awk '{ n = split($5, a, ":"); m = split($6, b, ":"); printf "%s %s ", a[n], b[m] }') "
  read -r n 2>/dev/null <"$TMP/ports.next" || n=0
  for ((i = 0; i < PORT_BLOCK; i++)); do
    p=$((PORT_BASE + (n + i) % PORT_BLOCK))
    case $used in *" $p "*) continue ;; esac
    echo $(( (n + i + 1) % PORT_BLOCK )) >"$TMP/ports.next"
    echo "$p"; return 0
  done
  echo "note: every port of $PORT_BASE-$((PORT_BASE + PORT_BLOCK - 1)) is in use" >&2
  echo "$PORT_BASE"
}

# ---- waiting for a condition --------------------------------------------------------
# wait_for SECONDS NAME CMD...: run CMD every 0.05 s until it succeeds (status 0), at most
# SECONDS (a whole number); gives up early, status 2, once the background process NAME has
# ended and CMD still fails ("-": no process to watch); status 1 when the time ran out. The
# limits are bounds against a hang, not timings: generous, so a slow machine only waits longer.
wait_for() {
  local name=$2 end
  end=$(( ${EPOCHREALTIME/[.,]/} + $1 * 1000000 ))
  shift 2
  while :; do
    "$@" && return 0
    if [ "$name" != - ] && { [ -z "${PID[$name]-}" ] || ! kill -0 "${PID[$name]}" 2>/dev/null; }; then
      "$@" && return 0
      return 2
    fi
    [ "${EPOCHREALTIME/[.,]/}" -lt "$end" ] || return 1
    sleep 0.05
  done
}
WAIT=${WAIT:-15}   # seconds any wait_for of ours may wait (processes live BOUND = 20 s)
# listening tcp|udp PORT [NAME]: a TCP socket listens on PORT, or a UDP socket is bound to it;
# with NAME, one that NAME's process or a process below it holds (or a wineserver: Wine's
# sockets live there), not one of some other program that took the port first.
listening() {
  local flags=-Hltn out p
  [ "$1" = udp ] && flags=-Hlun
  [ -n "${3-}" ] || { [ -n "$(ss $flags "sport = :$2")" ]; return; }
  out=$(ss ${flags}p "sport = :$2")
  case $out in '') return 1 ;; *'(("wineserver'* | *',("wineserver'*) return 0 ;; esac
  for p in $(grep -o 'pid=[0-9]*' <<<"$out"); do
    below "${p#pid=}" "${PID[$3]-}" && return 0
  done
  return 1
}
# below PID ANCESTOR: PID is ANCESTOR or a process below it.
below() {
  local p=$1 i k v
  for ((i = 0; i < 30; i++)); do
    [ "$p" = "$2" ] && return 0
    [ "${p:-1}" -gt 1 ] || return 1
    while read -r k v; do [ "$k" = PPid: ] && break; done <"/proc/$p/status" 2>/dev/null || return 1
    p=$v
  done
  return 1
}
# received_at_least PORT BYTES: an established TCP connection whose local port is PORT (the
# accepting side) has received at least BYTES (ss -i's bytes_received; absent while 0).
received_at_least() {
  local n
  n=$(ss -Htni state established "( sport = :$1 )" | grep -o 'bytes_received:[0-9]*' | head -n 1)
  [ "${n#*:}" -ge "$2" ] 2>/dev/null
}
# received_by PORT COUNT BYTES: at least COUNT connections accepted on PORT have each received
# BYTES (a server's port carries control connections too: those stay small).
received_by() {
  local n
  n=$(ss -Htni state established "( sport = :$1 )" | grep -o 'bytes_received:[0-9]*' |
    awk -F: -v b="$3" '$2 >= b' | wc -l)
  [ "$n" -ge "$2" ]
}
# drained udp PORT: every UDP socket bound to PORT has read all it was sent (receive queue 0).
drained() { [ -z "$(ss -Hlun "sport = :$2" | awk '$2 != 0')" ]; }
# lines_at_least NAME out|err ERE COUNT: at least COUNT lines of NAME's output match ERE.
lines_at_least() {
  local n
  n=$(grep -Ec -- "$3" "$TMP/$1.$2" 2>/dev/null)
  [ "${n:-0}" -ge "$4" ]
}

# ---- processes --------------------------------------------------------------
# start NAME CMD...: run CMD in the background (stdin /dev/null, or the file $IN when set),
# output in $TMP/NAME.{out,err}.
start() {
  local name=$1; shift
  CMD[$name]="$*"; unset "RC[$name]"
  "${BOUNDED[@]}" "$@" <"${IN:-/dev/null}" >"$TMP/$name.out" 2>"$TMP/$name.err" {PORT_FD}<&- &
  PID[$name]=$!
}
# run NAME CMD...: run CMD in the foreground (stdin inherited), record its exit status.
run() {
  local name=$1; shift
  CMD[$name]="$*"
  "${BOUNDED[@]}" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" {PORT_FD}<&-
  RC[$name]=$?
}
# reap NAME: wait for a background process to end by itself, record its exit status (nothing
# to do when it was reaped already).
reap() {
  [ -n "${PID[$1]-}" ] || return 0
  wait "${PID[$1]}"; RC[$1]=$?
  unset "PID[$1]"
  [ "${RC[$1]}" != 124 ] || fail "$1 did not end within $BOUND s"
}
# expect_running NAME: the background process has not ended.
expect_running() {
  kill -0 "${PID[$1]-0}" 2>/dev/null && [ -n "${PID[$1]-}" ] && return
  fail "$1 ended, it should still be running"; show "$1"
}
# stop NAME: end a background process (if it is still running).
stop() {
  [ -n "${PID[$1]-}" ] || return 0
  kill "${PID[$1]}" 2>/dev/null
  wait "${PID[$1]}" 2>/dev/null; RC[$1]=stopped
  unset "PID[$1]"
}
# await_listen tcp|udp PORT NAME: wait up to LISTEN_WAIT s (default WAIT) until NAME has bound
# PORT (lib.sh's listening), giving up early if NAME ended; quiet (wait_for's status).
await_listen() { wait_for "${LISTEN_WAIT:-$WAIT}" "$3" listening "$1" "$2" "$3"; }
# wait_listen tcp|udp PORT NAME: the same, a failure when NAME has not bound PORT.
wait_listen() {
  await_listen "$@" && return 0
  fail "$3 is not listening on $1 port $2"; show "$3"; return 1
}
# port_lost NAME: NAME has ended because its port was taken ("Address already in use"; Winsock's
# WSAEADDRINUSE is 10048): reaps it. Otherwise false, NAME left as it is.
port_lost() {
  [ -n "${PID[$1]-}" ] && ! kill -0 "${PID[$1]}" 2>/dev/null || return 1
  grep -Eqs 'Address already in use|^errno=(98|10048)\b' "$TMP/$1.err" "$TMP/$1.out" || return 1
  wait "${PID[$1]}" 2>/dev/null; RC[$1]=$?
  unset "PID[$1]"
}
# never_started NAME: NAME ended in a way that says its program never ran (not its own failure),
# reaped, so on_free_port starts it again. Native programs always run: false; wine-lib.sh
# overrides it (Wine at times ends an exe before it runs a line of it).
never_started() { return 1; }
# on_free_port "tcp|udp:NAME..." CMD...: P = a fresh port, then CMD (which starts each NAME, to
# listen on $P with that protocol: a function, say), returning once they all listen. Should
# the port have been taken after all (see "ports" above), or one of them never started
# (never_started), they are stopped and CMD runs again on the next port, up to 5 ports in all.
on_free_port() {
  local socks=$1 try s bad lost
  shift
  for ((try = 1; ; try++)); do
    P=$(free_port)
    "$@"
    bad='' lost=0
    for s in $socks; do
      await_listen "${s%%:*}" "$P" "${s#*:}" && continue
      bad=${bad:-$s}
      { port_lost "${s#*:}" || never_started "${s#*:}"; } && lost=1
    done
    [ -z "$bad" ] && return 0
    if [ "$try" -lt 5 ] && [ "$lost" = 1 ]; then
      echo "note: ${bad#*:} did not bind port $P (taken, or never started); once more, on another port"
      for s in $socks; do stop_any "${s#*:}"; done
      continue
    fi
    fail "${bad#*:} is not listening on ${bad%%:*} port $P"; show "${bad#*:}"; return 1
  done
}
# listen_on NAME tcp|udp CMD...: on_free_port with `start NAME CMD...`, every @P@ in the words
# of CMD replaced by the port.
listen_on() { local name=$1 proto=$2; shift 2; on_free_port "$proto:$name" start_on_P "$name" "$@"; }
start_on_P() {
  local name=$1 a
  shift
  local -a cmd=()
  for a; do cmd+=("${a//@P@/$P}"); done
  start "$name" "${cmd[@]}"
}
# receiver NAME tcp|udp ARGS...: a fresh port P, `ttcp -p P ARGS` in the background as NAME,
# returning once it listens.
receiver() {
  local name=$1 proto=$2; shift 2
  listen_on "$name" "$proto" "$TTCP" -p @P@ "$@"
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
# interrupt NAME: SIGINT to a background process, which must then end by itself (a hang is
# caught by its BOUND: reap fails); its exit status is recorded and how long it took reported.
interrupt() {
  local sent_at
  kill -INT "${PID[$1]}"       # timeout(1) passes one SIGINT on to ttcp
  sent_at=$(now)
  reap "$1"
  measured "$1 ended $(since "$sent_at") s after SIGINT"
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
  listen_on "$1" tcp perl -MIO::Socket::INET -e '
    my ($port, $max) = @ARGV;
    my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $port, Listen => 1,
                                  ReuseAddr => 1) or die "listen: $!\n";
    my $c = $l->accept or die "accept: $!\n";
    my ($n, $r, $buf) = (0);
    $n += $r while (!$max || $n < $max) && ($r = sysread($c, $buf, 65536));
    print "$n\n"; close $c;' @P@ "${2:-0}"
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
# since T: the seconds (2 decimals) from T (a `now`) to now.
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# measured TEXT: a figure about speed or time, reported (a "MEASURED:" line), never judged: no
# test fails because the machine was slow.
measured() { printf 'MEASURED: %s\n' "$*"; }

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
# wait_flowing NAME PORT [BYTES]: wait (up to WAIT s, giving up early if NAME ended) until the
# TCP connection accepted on PORT has received BYTES (default 1 MiB): data is flowing.
wait_flowing() {
  wait_for "$WAIT" "$1" received_at_least "$2" "${3:-1048576}" && return 0
  fail "no connection on port $2 has received ${3:-1048576} bytes while $1 runs"; show "$1"
  return 1
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
# wait_line NAME out|err ERE [COUNT]: wait (up to WAIT s, giving up early if NAME ended) until
# COUNT (default 1) lines of NAME's output match ERE.
wait_line() {
  wait_for "$WAIT" "$1" lines_at_least "$1" "$2" "$3" "${4:-1}" && return 0
  fail "$1: fewer than ${4:-1} lines of std$2 match /$3/ (waited up to $WAIT s)"; show "$1"
  return 1
}

# ---- a receiver that stops reading (interrupt_stalled.sh, wine/interrupt_send.sh) ----------
# stalled_receiver NAME: on a fresh port P, a native `ttcp -r` in non-sink mode, started as NAME,
# whose stdout is a FIFO that a process of ours (NAME-holder) holds open and never reads: once
# the FIFO and the socket buffers are full, it stops reading the connection.
stalled_receiver() {
  local name=$1 fifo=$TMP/$1.fifo
  rm -f "$fifo"   # the last round's
  mkfifo "$fifo" || { fail "$name: no FIFO at $fifo"; return 1; }
  CMD[$name-holder]="holder of $fifo"
  "${BOUNDED[@]}" sleep "$BOUND" <"$fifo" {PORT_FD}<&- &
  PID[$name-holder]=$!
  P=$(free_port)
  CMD[$name]="$TTCP -r -p $P > FIFO nobody reads"
  "${BOUNDED[@]}" "$TTCP" -r -p "$P" </dev/null >"$fifo" 2>"$TMP/$name.err" {PORT_FD}<&- &
  PID[$name]=$!
  : >"$TMP/$name.out"
  wait_listen tcp "$P" "$name"
}
# stalled PORT: the receiver's socket on PORT holds unread bytes and the transmitter's holds
# bytes the receiver has no room for: the transmitter's send now waits.
stalled() {
  [ -n "$(ss -Htn state established "( sport = :$1 )" | awk '$1 > 0')" ] &&
    [ -n "$(ss -Htn state established "( dport = :$1 )" | awk '$2 > 0')" ]
}

# ---- a host name whose first address is ::1 (the client ends' address fallback) --------------
# V6FIRST resolves to ::1 first, then 127.0.0.1, for a command run through "${V6FIRST_RUN[@]}":
# a mount namespace of its own (unshare -m; no network namespace) with a hosts file of ours
# bound over /etc/hosts there, so the machine's own file is never changed. v6first_ready: 0
# when this host can do that (root, unshare, ::1 sorted first), else 1 and the case skips.
V6FIRST=ttcp-v6first
V6FIRST_RUN=(unshare -m sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' "$TMP/hosts.v6first")
v6first_ready() {
  command -v unshare >/dev/null && command -v getent >/dev/null || return 1
  printf '::1 %s\n127.0.0.1 %s\n' "$V6FIRST" "$V6FIRST" >"$TMP/hosts.v6first" || return 1
  [ "$("${BOUNDED[@]}" "${V6FIRST_RUN[@]}" getent ahosts "$V6FIRST" 2>/dev/null |
       awk 'NR == 1 { print $1 }')" = ::1 ]
}
