# --analyze's CPU-bound finding (issue #24, "A CPU-bound end"): a veth pair between two
# namespaces, unshaped, so that the transmitter's CPU, not the link, sets the pace. Checks:
#   1. the transmitter in a cgroup of its own held to 20 % of a core (cgroup v2's cpu.max
#      "20000 100000", or where the cpu controller is cgroup v1's, as on a hybrid hierarchy,
#      cpu.cfs_quota_us 20000 of cpu.cfs_period_us 100000): its --analyze names the end
#      CPU-bound ("cpu-bound: ... the figure measures this host, not the link"), its JSON
#      analysis has the cpu_bound finding and the waiting time that makes it, though its CPU
#      time is far below the 75 % of a core (the quota held it: the cgroup's cpu.stat must
#      show throttling, or the test did not test that);
#   2. the control: the same transmitter outside the cgroup, over the same link shaped by tbf
#      to 50 Mbit/s (on a 2-core machine an unconstrained sender over a veth can itself be
#      CPU-bound: it carries the receiver's softirq work too), names no CPU-bound end.
# The CPU shares themselves are reported (MEASURED), never judged beyond those findings.
# Needs root, `ip netns`, tc and a cgroup cpu controller (v2 or v1) with a CPU quota; otherwise
# it skips (exit 77), saying which. About 15 s.
#
# Network rules: a blackhole route for the test's subnet goes into the root namespace first; the
# namespaces (with their veths) and then that route are removed by the EXIT trap (netns-lib), on
# failure and interruption too. Traffic flows only between the namespaces made here. Every
# process runs under `timeout` and is ended only by its own PID (lib.sh). The cgroup holds only
# the transmitter this test started; the trap removes it (and undoes the cpu controller's
# enabling in cgroup v2's root where this test enabled it).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" || exit 1
export LC_ALL=C

SECS=5                 # each test
QUOTA_US=20000 PERIOD_US=100000   # 20 % of a core
SHAPED=50mbit          # the control's link
began=$SECONDS
bound() { BOUND=$1; BOUNDED=(timeout --foreground -k 2 "$BOUND"); }

. "$(dirname "${BASH_SOURCE[0]}")/netns-lib" || exit 1
netns_require "CPU-bound analysis tests"
command -v tc >/dev/null || skip "CPU-bound analysis tests need tc (Debian: iproute2)"
need_jq

# ---- the cgroup: found before anything is made, made after the guard route ------------------
# cg_find: CG_KIND (v2 or v1) and CG_ROOT, the hierarchy whose cpu controller this test uses,
# or a skip naming why there is none. cgroup v2 first; its cpu controller is unavailable where
# a v1 hierarchy holds it (a hybrid mount), and v1's cpu hierarchy serves then.
CG='' CG_KIND='' CG_ROOT='' CG_ENABLED=''
cg_find() {
  local mnt type opts why=''
  while read -r _ mnt type opts _; do
    if [ "$type" = cgroup2 ] && [ -z "$CG_KIND" ]; then
      if grep -qw cpu "$mnt/cgroup.controllers" 2>/dev/null; then
        CG_KIND=v2 CG_ROOT=$mnt; return 0
      fi
      why="cgroup2 at $mnt offers no cpu controller (cgroup.controllers: $(cat "$mnt/cgroup.controllers" 2>/dev/null))"
    fi
  done </proc/self/mounts
  while read -r _ mnt type opts _; do
    [ "$type" = cgroup ] && [[ ,$opts, == *,cpu,* ]] && [ -e "$mnt/cpu.cfs_quota_us" ] || continue
    echo "cgroup: ${why:-no cgroup2 mount}; cgroup v1's cpu hierarchy at $mnt serves"
    CG_KIND=v1 CG_ROOT=$mnt; return 0
  done </proc/self/mounts
  skip "no cgroup cpu controller with a CPU quota here: ${why:-no cgroup2 mount}, and no cgroup v1 cpu hierarchy"
}
# cg_make: a child cgroup of the test's own with the quota (CG; the trap removes it); 1 when it
# cannot, CG_ERR saying why.
cg_make() {
  local err
  if [ "$CG_KIND" = v2 ] && ! grep -qw cpu "$CG_ROOT/cgroup.subtree_control"; then
    err=$( (echo +cpu >"$CG_ROOT/cgroup.subtree_control") 2>&1) ||
      { CG_ERR="cannot enable the cpu controller in $CG_ROOT: $err"; return 1; }
    CG_ENABLED=$CG_ROOT
  fi
  err=$(mkdir "$CG_ROOT/ttcp-analyze-cpu-$$" 2>&1) || { CG_ERR="cannot make a cgroup: $err"; return 1; }
  CG=$CG_ROOT/ttcp-analyze-cpu-$$
  if [ "$CG_KIND" = v2 ]; then
    err=$( (echo "$QUOTA_US $PERIOD_US" >"$CG/cpu.max") 2>&1)
  else
    err=$( (echo "$PERIOD_US" >"$CG/cpu.cfs_period_us" && echo "$QUOTA_US" >"$CG/cpu.cfs_quota_us") 2>&1)
  fi || { CG_ERR="cannot set the cgroup's CPU quota: $err"; return 1; }
}
# cg_remove: the cgroup goes once its processes (ours: only the transmitter went in) have ended.
cg_remove() {
  local i p
  if [ -n "$CG" ] && [ -d "$CG" ]; then
    for ((i = 0; i < 40; i++)); do
      rmdir "$CG" 2>/dev/null && break
      for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do kill "$p" 2>/dev/null; done
      sleep 0.05
    done
    [ -d "$CG" ] && echo "WARNING: could not remove the cgroup $CG"
  fi
  if [ -n "$CG_ENABLED" ]; then   # (fails, harmlessly, where another cgroup uses it meanwhile)
    (echo -cpu >"$CG_ENABLED/cgroup.subtree_control") 2>/dev/null ||
      echo "note: the cpu controller stays enabled in $CG_ENABLED (in use)"
  fi
}
cpu_cleanup() { netns_cleanup; cg_remove; }
trap cpu_cleanup EXIT
throttled() { sed -nE 's/^nr_throttled ([0-9]+)$/\1/p' "$CG/cpu.stat" 2>/dev/null; }

cg_find
NS_TX="ttcp-cpu-tx-$$" NS_RX="ttcp-cpu-rx-$$"
netns_claim 77 127 1 || finish
TX_ADDR=10.200.$NETNS_N.1 RX_ADDR=10.200.$NETNS_N.2
echo "guard: blackhole ${NETNS_GUARDS[*]} in the root namespace; namespaces $NS_TX ($TX_ADDR), $NS_RX ($RX_ADDR)"
netns_add "$NS_TX" "$NS_RX"
netns_veth "$NS_TX" vtx "$TX_ADDR" "$NS_RX" vrx "$RX_ADDR" ||
  { fail "could not set up the veth pair between $NS_TX and $NS_RX"; finish; }
cg_make || skip "a cgroup ($CG_KIND, $CG_ROOT) with a CPU quota cannot be had: $CG_ERR"
echo "cgroup: $CG ($CG_KIND), $QUOTA_US us of CPU each $PERIOD_US us"

ns_listening() { [ -n "$(ip netns exec "$1" ss -Hltn "sport = :$2")" ]; }
# cpu_test NAME PORT [CGROUP]: a sink receiver, then the transmitter with --analyze --json for
# SECS seconds, in CGROUP (its PID written to cgroup.procs before it becomes ttcp) if given.
cpu_test() {
  local name=$1 port=$2 cg=${3-}
  local -a tx=(ip netns exec "$NS_TX" "$TTCP" -t -s --time "$SECS" --analyze --json -p "$port" "$RX_ADDR")
  start "r$name" ip netns exec "$NS_RX" "$TTCP" -r -s -p "$port"
  wait_for "$WAIT" "r$name" ns_listening "$NS_RX" "$port" ||
    { fail "r$name is not listening"; stop "r$name"; return 1; }
  if [ -n "$cg" ]; then
    start "t$name" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "${tx[@]}"
  else
    start "t$name" "${tx[@]}"
  fi
  reap "t$name"; reap "r$name"
  expect_rc "t$name" 0; expect_rc "r$name" 0
  expect_json "t$name"
  measured "$name: $(grep -E '^ttcp-t: .* \+\+\+$' "$TMP/t$name.err");" \
    "$(jq -c '.tests[0].analysis | {findings, cpu_percent, cpu_wait_percent, limited_by}' "$TMP/t$name.out")"
}
BOUND_LINE='^ttcp-t: analysis: cpu-bound: this end used [0-9.]+ % of a core( and waited [0-9.]+ % of the time for one)? over the test: the figure measures this host, not the link$'

bound $((SECS + 20))
# 1. Held to 20 % of a core: CPU-bound, by the time it waited for the CPU the quota withheld.
before=$(throttled)
if cpu_test 1 5001 "$CG"; then
  after=$(throttled)
  echo "cgroup: throttled in ${before:-?} periods before the test, ${after:-?} after"
  [ "${after:-0}" -gt "${before:-0}" ] ||
    fail "the cgroup's quota never throttled the transmitter (cpu.stat nr_throttled ${before:-?} -> ${after:-?})"
  expect_jq t1 '.tests[0].analysis.findings | index("cpu_bound") != null' true \
    '.tests[0].analysis.cpu_wait_percent != null' true \
    '.tests[0].analysis | .cpu_percent + .cpu_wait_percent >= 75' true \
    '.tests[0].analysis.cpu_percent < 50' true
  expect_match t1 err "$BOUND_LINE"
fi

# 2. The control: no quota, over the link shaped to 50 Mbit/s: not CPU-bound.
err=$(tc -n "$NS_TX" qdisc add dev vtx root tbf rate "$SHAPED" burst 20000 limit 1m 2>&1) ||
  skip "the tbf qdisc is not available here: $err"
echo "link: $(tc -n "$NS_TX" qdisc show dev vtx) on $NS_TX's vtx"
if cpu_test 2 5002; then
  expect_jq t2 '.tests[0].analysis.findings | index("cpu_bound")' null \
    '.tests[0].analysis | .cpu_percent + (.cpu_wait_percent // 0) < 75' true
  expect_match t2 err '^ttcp-t: analysis: cpu: this end used [0-9.]+ % of a core( and waited [0-9.]+ % of the time for one)?: not the limit$'
  if grep -q 'cpu-bound' "$TMP/t2.err"; then fail "t2: a CPU-bound finding without the quota"; show t2; fi
fi

echo "took $((SECONDS - began)) s"
finish
