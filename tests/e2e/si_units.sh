# -f bps|kbps|Mbps|Gbps: SI rates with three decimals and no "/sec"; --link-rate adds the
# efficiency, which must be the printed rate over the nominal one. The letters keep 1.12's units.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

# An SI unit makes the summary extended: the TCP figures and the CPU line follow the classic ones.
# Each side has its own -f: two runs show the four units.
for units in kbps:Mbps Gbps:bps; do
  tu=${units%:*} ru=${units#*:}
  pair tcp -r -s -f "$ru" -- -t -s -n 1000 -f "$tu" 127.0.0.1
  expect_rc r 0; expect_rc t 0
  expect_lines t out "$(hdr t 8192 1000 "$P" tcp 127.0.0.1)" "$(sirate t 8192000 "$tu")" \
    "$(calls t 1000)" "$(rusage t)" "$(tcpinfo t)" "$(cpuline t)"
  expect_lines r out "$(hdr r 8192 2048 "$P" tcp)" "$(sirate r 8192000 "$ru")" \
    "$(calls r "$ANY")" "$(rusage r)" "$(tcpinfo r)" "$(cpuline r)"
done

# The classic letters are untouched: -f k is still Kbit/sec, with 1.12's lines only.
pair tcp -r -s -f k -- -t -s -n 1000 -f k 127.0.0.1
expect_report t out "$(hdr t 8192 1000 "$P" tcp 127.0.0.1)" 8192000 1000 Kbit
expect_report r out "$(hdr r 8192 2048 "$P" tcp)" 8192000 "$ANY" Kbit

# --link-rate 45.333k with -f kbps, paced to a modem's speed (-R 32k: 5 buffers of 512 bytes,
# one every 0.128 s): "link: X kbps of 45.333 kbps nominal, efficiency E %", where X is the
# "+++" line's kbps and E = 100 X / 45.333 (the printed figures, to 0.1).
expect_link() {   # NAME t|r
  local kbps got unit nominal eff
  kbps=$(rate_of "$1" out)
  read -r got unit nominal eff < <(grab "$1" out \
    '^ttcp-[tr]: link: ([0-9.]+) ([a-zA-Z]+) of ([0-9.]+) kbps nominal, efficiency ([0-9]+\.[0-9]) %$' \
    '\1 \2 \3 \4')
  expect_eq "$1" "the link line's measured rate" "$got $unit" "$kbps kbps"
  expect_eq "$1" "the link line's nominal rate" "$nominal" "45.333"
  expect_awk "$1" "efficiency $eff % is not 100 x $kbps / 45.333 (+-0.1)" \
    "$eff - 100 * $kbps / 45.333 <= 0.1 && 100 * $kbps / 45.333 - $eff <= 0.1"
}
pair tcp -r -s -f kbps --link-rate 45.333k -- -t -s -l 512 -n 5 -R 32k -f kbps --link-rate 45.333k 127.0.0.1
expect_rc r 0; expect_rc t 0
link='^ttcp-[tr]: link: [0-9]+\.[0-9]{3} [a-zA-Z]+ of 45\.333 kbps nominal, efficiency [0-9]+\.[0-9] %$'
expect_lines t out "$(hdr t 512 5 "$P" tcp 127.0.0.1)" "$(sirate t 2560 kbps)" "$(calls t 5)" \
  "$(rusage t)" "$(tcpinfo t)" "$(cpuline t)" "$link"
expect_lines r out "$(hdr r 8192 2048 "$P" tcp)" "$(sirate r 2560 kbps)" "$(calls r "$ANY")" \
  "$(rusage r)" "$(tcpinfo r)" "$(cpuline r)" "$link"
expect_link t; expect_link r
echo "measured: $(grab r out '^ttcp-r: link: (.*)$')"

finish
