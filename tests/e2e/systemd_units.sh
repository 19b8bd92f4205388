# The systemd units of docs/systemd (issue #22, item 7): ttcp-server.service on its own, and
# with ttcp-server.socket, pass `systemd-analyze verify` with nothing to say, on copies whose
# ExecStart is the binary under test (verify wants it to exist). Skips without systemd-analyze.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
command -v systemd-analyze >/dev/null ||
  skip "systemd-analyze is not installed (package systemd): the units cannot be verified here"
UNITS=$E2E_DIR/../../docs/systemd
[ -f "$UNITS/ttcp-server.socket" ] || { fail "no docs/systemd/ttcp-server.socket"; finish; }
BIN=$(readlink -f "$TTCP") # verify wants an absolute path
mkdir -p "$TMP/units"
sed "s|/usr/local/bin/ttcp|$BIN|g" "$UNITS/ttcp-server.service" >"$TMP/units/ttcp-server.service"
cp "$UNITS/ttcp-server.socket" "$TMP/units/"
grep -q "^ExecStart=$BIN -S " "$TMP/units/ttcp-server.service" ||
  fail "ttcp-server.service: no ExecStart=/usr/local/bin/ttcp -S ... to point at the binary"
grep -qx 'ListenStream=5001' "$TMP/units/ttcp-server.socket" &&
  grep -qx 'ListenDatagram=5001' "$TMP/units/ttcp-server.socket" ||
  fail "ttcp-server.socket: not ListenStream=5001 and ListenDatagram=5001 (the service's port)"
# verified UNIT...: systemd-analyze verify passes and prints nothing.
verified() {
  run verify timeout 30 systemd-analyze verify --man=no "$@"
  [ "${RC[verify]}" = 0 ] && [ ! -s "$TMP/verify.out" ] && [ ! -s "$TMP/verify.err" ] && return
  fail "systemd-analyze verify ${*##*/}"; show verify
}
verified "$TMP/units/ttcp-server.service"
verified "$TMP/units/ttcp-server.socket" "$TMP/units/ttcp-server.service"
# The check can fail: a socket unit naming a service that does not exist.
sed 's/^Service=.*/Service=ttcp-nothing.service/' "$TMP/units/ttcp-server.socket" >"$TMP/units/bad.socket"
run bad timeout 30 systemd-analyze verify --man=no "$TMP/units/bad.socket"
[ "${RC[bad]}" != 0 ] || [ -s "$TMP/bad.err" ] || fail "systemd-analyze verify found nothing wrong in a broken socket unit"
finish
