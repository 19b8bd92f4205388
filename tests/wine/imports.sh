# ttcpw.exe is one file: it imports system DLLs only (no libgcc_s, libwinpthread, ...).
# bcrypt.dll (CNG: HMAC-SHA256 and the secure random source for -S and -C) is part of Windows since Vista.
# (Its version resource is not checked here.)
NEEDS=
. "$(dirname "${BASH_SOURCE[0]}")/wine-lib.sh" || exit 1

OBJDUMP=x86_64-w64-mingw32-objdump
command -v "$OBJDUMP" >/dev/null || skip "$OBJDUMP is not installed"
run d "$OBJDUMP" -p "$TTCPW"
expect_rc d 0
sed -n 's/^[[:space:]]*DLL Name: //p' "$TMP/d.out" >"$TMP/dlls"
[ -s "$TMP/dlls" ] || fail "objdump lists no DLL imports for $TTCPW"
allowed='^(kernel32|msvcrt|ws2_32|advapi32|user32|api-ms-win-crt-.*|ucrtbase|ntdll|iphlpapi|psapi|bcrypt)\.dll$'
while read -r dll; do
  [[ ${dll,,} =~ $allowed ]] || fail "ttcpw.exe imports $dll, not a system DLL"
done <"$TMP/dlls"

finish
