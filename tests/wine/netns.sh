# in_netns: true when this process runs in another network namespace than one of its ancestors or
# PID 1 (unshare -n, ip netns exec). Wine must never run there: its sockets are made by the
# wineserver, in the wineserver's namespace. Sourced by wine-lib.sh and ci/wine-env.
in_netns() {
  local me ns p=$$
  me=$(readlink /proc/self/ns/net) || return 1
  while [ -n "$p" ] && [ "$p" -gt 1 ]; do   # /proc/1 may be unreadable, even to root
    ns=$(readlink "/proc/$p/ns/net" 2>/dev/null) && [ "$ns" != "$me" ] && return 0
    p=$(awk '$1 == "PPid:" { print $2 }' "/proc/$p/status" 2>/dev/null)
  done
  ns=$(readlink /proc/1/ns/net 2>/dev/null) && [ "$ns" != "$me" ]
}
