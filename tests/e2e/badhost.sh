# A host name that does not resolve: exit 1, one line on stderr naming it, no hang.
# The name has an empty label, so the C library rejects it without asking a DNS server
# (a plain *.invalid name would send a query to the machine's resolver).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

host=no-such-host..invalid
run t "$TTCP" -t -s -n 1 -p "$(free_port)" "$host"
expect_rc t 1
expect_lines t err "^ttcp(-t)?: .*${host//./\\.}"

finish
