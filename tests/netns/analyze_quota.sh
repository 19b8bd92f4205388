# --analyze's CPU-bound end (issue #24, "A CPU-bound end: the transmitter in a cgroup with
# cpu.max at 20 % of a core: the finding names it"), on 127.0.0.1. Checks:
#   1. a transmitter in a cgroup of the test's own, held to 20 % of a core (cgroup v1's
#      cpu.cfs_quota_us 20000 of cpu.cfs_period_us 100000 where v1 holds the cpu controller, as
#      on this machine's hybrid hierarchy; else cgroup v2's cpu.max "20000 100000"), sends to a
#      receiver outside it for a few seconds: its --analyze names it CPU-bound by the quota (the
#      JSON's cpu_bound and cpu_quota findings, cpu_quota_percent 20, and the line "cpu-bound:
#      the transmitter was held back by a CPU quota (20.0 % of a core) ..."), and the cgroup's
#      own cpu.stat shows it throttled (or the test did not test that);
#   2. the control: the same transmitter outside the cgroup names no quota (no cpu_quota
#      finding, no quota line). Unconstrained on loopback it may well be CPU-bound by itself:
#      that is not judged. Where the runner's own cgroup has a CPU quota the control cannot be
#      one, and is left out with a note.
# The CPU, wait and throttled shares are reported (MEASURED), never judged beyond the findings.
# Needs root and a cgroup cpu controller with a CPU quota (v1 or v2); otherwise it skips (exit
# 77), saying which. No network namespace: loopback only. About 10 s.
#
# Rules: traffic to 127.0.0.1 only; every process runs under `timeout` and is ended only by its
# own PID (lib.sh). The cgroup holds only the transmitter this test started (a `sh` that writes
# its own PID to cgroup.procs, then execs ttcp); the EXIT trap removes the cgroup (and, on v2,
# undoes the cpu controller's enabling in the hierarchy's root where this test enabled it), on
# failure and interruption too.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C

SECS=3                            # each test
QUOTA_US=20000 PERIOD_US=100000   # 20 % of a core
# The transmitter writes 1 KiB a call and the receiver reads up to 1 MiB: a system call per KiB
# costs the transmitter far more CPU a byte than the receiver, so the transmitter wants most of
# a core whatever else the host runs, and a quota of a fifth of one holds it back. (With equal
# 8 KiB buffers, on this 2-core machine busy with other tests, the receiver was the limit: the
# transmitter used 15 to 26 % of a core unconstrained, and the quota held it back 5 to 33 % of
# the test, run to run.)
TX_LEN=1024 RX_LEN=1048576
BOUND=$((SECS + 20)); BOUNDED=(timeout --foreground -k 2 "$BOUND")
began=$SECONDS

[ "$(id -u)" = 0 ] || skip "the CPU quota test needs root (a cgroup of its own); running as uid $(id -u)"
need_jq

# ---- the cgroup ------------------------------------------------------------------------------
# cg_find: CG_KIND (v1 or v2) and CG_ROOT, the mount of the hierarchy whose cpu controller this
# test uses, or a skip naming why there is none. v1 first: where a v1 hierarchy holds the cpu
# controller (a hybrid mount), cgroup2 cannot offer it.
CG='' CG_KIND='' CG_ROOT='' CG_ENABLED=''
cg_find() {
  local mnt type opts v2=''
  while read -r _ mnt type opts _; do
    if [ "$type" = cgroup ] && [[ ,$opts, == *,cpu,* ]] && [ -e "$mnt/cpu.cfs_quota_us" ]; then
      CG_KIND=v1 CG_ROOT=$mnt; return 0
    fi
    [ "$type" = cgroup2 ] && [ -z "$v2" ] && v2=$mnt
  done </proc/mounts
  [ -n "$v2" ] || skip "no cgroup cpu controller: no cgroup v1 cpu hierarchy and no cgroup2 mount"
  grep -qw cpu "$v2/cgroup.controllers" 2>/dev/null ||
    skip "no cgroup cpu controller: cgroup2 at $v2 offers '$(cat "$v2/cgroup.controllers" 2>/dev/null)'"
  CG_KIND=v2 CG_ROOT=$v2
}
# cg_make: the test's own cgroup CG with the quota; false with CG_ERR saying why it cannot be had.
cg_make() {
  local err
  if [ "$CG_KIND" = v2 ] && ! grep -qw cpu "$CG_ROOT/cgroup.subtree_control"; then
    err=$( (echo +cpu >"$CG_ROOT/cgroup.subtree_control") 2>&1) ||
      { CG_ERR="cannot enable the cpu controller in $CG_ROOT: $err"; return 1; }
    CG_ENABLED=$CG_ROOT
  fi
  err=$(mkdir "$CG_ROOT/ttcp-test-$$" 2>&1) || { CG_ERR="cannot make a cgroup: $err"; return 1; }
  CG=$CG_ROOT/ttcp-test-$$
  if [ "$CG_KIND" = v2 ]; then
    err=$( (echo "$QUOTA_US $PERIOD_US" >"$CG/cpu.max") 2>&1)
  else
    err=$( (echo "$PERIOD_US" >"$CG/cpu.cfs_period_us" && echo "$QUOTA_US" >"$CG/cpu.cfs_quota_us") 2>&1)
  fi || { CG_ERR="cannot set the cgroup's CPU quota: $err"; return 1; }
}
# cg_remove: the cgroup goes once its process (the transmitter, ended by lib.sh's cleanup) has.
cg_remove() {
  local i
  if [ -n "$CG" ] && [ -d "$CG" ]; then
    for ((i = 0; i < 40; i++)); do
      rmdir "$CG" 2>/dev/null && break
      sleep 0.05
    done
    [ -d "$CG" ] && echo "WARNING: could not remove the cgroup $CG ($(cat "$CG/cgroup.procs" 2>/dev/null | wc -l) processes in it)"
  fi
  if [ -n "$CG_ENABLED" ]; then   # (fails, harmlessly, where another cgroup uses it meanwhile)
    (echo -cpu >"$CG_ENABLED/cgroup.subtree_control") 2>/dev/null ||
      echo "note: the cpu controller stays enabled in $CG_ENABLED (in use)"
  fi
}
trap 'cleanup; cg_remove' EXIT
throttled() { sed -nE 's/^nr_throttled ([0-9]+)$/\1/p' "$CG/cpu.stat" 2>/dev/null; }

cg_find
cg_make || skip "a cgroup ($CG_KIND under $CG_ROOT) with a CPU quota cannot be had: $CG_ERR"
echo "cgroup: $CG ($CG_KIND), $QUOTA_US us of CPU each $PERIOD_US us"

# quota_test NAME [CGROUP]: a sink receiver, then the transmitter with --analyze --json for SECS
# seconds, in CGROUP (its PID written to cgroup.procs before it becomes ttcp) if given.
quota_test() {
  local name=$1 cg=${2-}
  receiver "r$name" tcp -r -s -l "$RX_LEN" || { stop "r$name"; return 1; }
  local -a tx=("$TTCP" -t -s -l "$TX_LEN" --time "$SECS" --analyze --json -p "$P" 127.0.0.1)
  if [ -n "$cg" ]; then
    start "t$name" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "${tx[@]}"
  else
    start "t$name" "${tx[@]}"
  fi
  reap "t$name"; reap "r$name"
  expect_rc "t$name" 0; expect_rc "r$name" 0
  expect_json "t$name"
  measured "$name: $(grep -E '^ttcp-t: .* \+\+\+$' "$TMP/t$name.err");" \
    "$(jq -c '.tests[0].analysis | {findings, cpu_percent, cpu_wait_percent, cpu_throttled_percent, cpu_quota_percent}' "$TMP/t$name.out")"
  measured "$name: $(grep -E '^ttcp-t: analysis: cpu' "$TMP/t$name.err")"
}
QUOTA_LINE='^ttcp-t: analysis: cpu-bound: the transmitter was held back by a CPU quota \(20\.0 % of a core\) [0-9.]+ % of the time; it used [0-9.]+ % of a core( and waited [0-9.]+ % of the time for one)? over the test: the figure measures this host, not the link$'

# 1. Held to 20 % of a core: CPU-bound, and the quota named.
before=$(throttled)
if quota_test 1 "$CG"; then
  after=$(throttled)
  echo "cgroup: throttled in ${before:-?} periods before the test, ${after:-?} after"
  [ "${after:-0}" -gt "${before:-0}" ] ||
    fail "the cgroup's quota never throttled the transmitter (cpu.stat nr_throttled ${before:-?} -> ${after:-?})"
  expect_jq t1 '.tests[0].analysis.findings | index("cpu_bound") != null' true \
    '.tests[0].analysis.findings | index("cpu_quota") != null' true \
    '.tests[0].analysis.cpu_quota_percent' 20 \
    '.tests[0].analysis.cpu_throttled_percent >= 10' true
  expect_match t1 err "$QUOTA_LINE"
fi

# 2. The control: the same transmitter outside the cgroup names no quota.
if quota_test 2; then
  if jq -e '.tests[0].analysis.cpu_quota_percent != null' "$TMP/t2.out" >/dev/null; then
    echo "note: this runner's own cgroup has a CPU quota ($(jq '.tests[0].analysis.cpu_quota_percent' "$TMP/t2.out") % of a core): no control here"
  else
    expect_jq t2 '.tests[0].analysis.findings | index("cpu_quota")' null
    if grep -q 'held back by a CPU quota' "$TMP/t2.err"; then
      fail "t2: a CPU quota named outside the cgroup"; show t2
    fi
  fi
fi

echo "took $((SECONDS - began)) s"
finish
