# --plot FILE (issue 16): each end of a timed test writes its SVG, well-formed XML with one point
# of the throughput line per interval line it printed; -P 4 draws four streams and their total,
# -C --bidir both ways at both ends; a test ended by Ctrl+C is still drawn; without -i the
# classic lines stay as they were; a UDP receiver's loss and jitter are drawn and in the JSON's
# intervals; a file that cannot be written fails before the test; --latency adds panel 3, a
# circle per answered probe (idle ones left of 0) and a cross per lost one, as the JSON counts
# them, and the grade in its words. Headless Chromium renders
# every document to a PNG of the document's size, which must not be blank.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1

CHECK=$E2E_DIR/peers/plot_check.py
command -v python3 >/dev/null || { fail "python3 is not installed: it checks the SVG and PNG (ci/deps)"; finish; }

# need_chromium: Debian's chromium, installed through ci/deps when it is missing (CI installs
# packages); a failure, not a skip, when it cannot be had.
need_chromium() {
  command -v chromium >/dev/null && return 0
  echo "note: chromium is missing; ci/deps installs it"
  timeout 900 "$E2E_DIR/../../ci/deps" >"$TMP/deps.log" 2>&1
  command -v chromium >/dev/null && return 0
  fail "chromium is missing and ci/deps could not install it (it renders the SVG):"
  sed 's/^/    | /' "$TMP/deps.log" | tail -n 5
  return 1
}

# svg_facts NAME: plot_check's lines for $TMP/NAME.svg into $TMP/NAME.facts (a failure when the
# document is not well formed or holds a coordinate that is not a finite number).
svg_facts() {
  python3 "$CHECK" svg "$TMP/$1.svg" >"$TMP/$1.facts" 2>"$TMP/$1.check" && return 0
  fail "$1.svg: $(cat "$TMP/$1.check")"; return 1
}
# points NAME CLASS: the points of each polyline of that class, space separated, in order.
points() { sed -n "s/^$2=//p" "$TMP/$1.facts" | tr '\n' ' ' | sed 's/ $//'; }
# elements NAME WORD: how many of the other elements have that class word (0: none).
elements() { local n; n=$(sed -n "s/^count:$2=//p" "$TMP/$1.facts"); echo "${n:-0}"; }

# render NAME: Chromium draws $TMP/NAME.svg at the document's size into NAME.png (bounded, with
# no network: every name resolves to nothing); the PNG must have that size, more than a few
# colours, and ink on more than 1 % of it.
render() {
  local name=$1 height w h colours ink
  height=$(head -n 1 "$TMP/$name.facts")
  timeout -k 5 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$TMP/chromium" --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --host-resolver-rules='MAP * ~NOTFOUND' \
    --screenshot="$TMP/$name.png" --window-size=960,"$height" "file://$TMP/$name.svg" \
    >"$TMP/$name.chromium" 2>&1 </dev/null
  [ -s "$TMP/$name.png" ] || { fail "$name: chromium wrote no PNG:"; tail -n 5 "$TMP/$name.chromium"; return 1; }
  read -r w h colours ink < <(python3 "$CHECK" png "$TMP/$name.png" 2>&1)
  expect_eq "$name.png" "its size" "$w x $h" "960 x $height"
  expect_awk "$name.png" "more than 8 colours ($colours) and ink on more than 1 % ($ink %)" \
    "${colours:-0} > 8 && ${ink:-0} > 1"
  measured "$name.png: ${w}x$h, $colours colours, $ink % ink"
}
# plotted NAME: the document is well formed and Chromium renders it.
plotted() {
  [ -s "$TMP/$1.svg" ] || { fail "$1: no plot was written"; show "$1"; return 1; }
  svg_facts "$1" && [ "$CHROMIUM" = 1 ] && render "$1"
}
CHROMIUM=0
need_chromium && CHROMIUM=1

# 1. The issue's test (paced, to keep the load light): each end's throughput line has one point
# per interval line it printed, and it has RTT figures.
pair tcp -r -s -i 0.5 --plot "$TMP/r.svg" -- -t -s --time 3 -i 0.5 -R 200m --plot "$TMP/t.svg" 127.0.0.1
expect_rc r 0; expect_rc t 0
for s in t r; do
  plotted "$s" || continue
  expect_eq "$s" "the points of the throughput line" "$(points "$s" 'rate total')" \
    "$(count "$s" out "$(interval "$s" tcp)")"
  [ "$(points "$s" detail)" -ge 1 ] 2>/dev/null || fail "$s: no RTT line ($(points "$s" detail))"
  expect_eq "$s" "panel 3 without --latency" "$(grep -c '<g id="latency">' "$TMP/$s.svg")" 0
done

# 2. Without -i the intervals are taken for the plot but not printed: the classic lines, as 1.12.
pair tcp -r -s --plot "$TMP/rc.svg" -- -t -s -n 2000 --plot "$TMP/tc.svg" 127.0.0.1
expect_rc r 0; expect_rc t 0
expect_shape t out t_tcp.out; expect_shape t err t_tcp.err
expect_shape r out r_tcp.out; expect_shape r err r_tcp.err
svg_facts tc && [ "$(points tc 'rate total')" -ge 1 ] || fail "tc: no interval drawn"

# 3. -P 4: a thin line for each stream, and their total.
start_streams() { start "$1" "$TTCP" -r -s -P 4 -p "$P"; }
on_free_port "tcp:pr" start_streams pr
for ((i = 1; i < 4; i++)); do wait_listen tcp $((P + i)) pr; done
run pt "$TTCP" -t -s -P 4 --time 1 -R 200m -p "$P" --plot "$TMP/pt.svg" 127.0.0.1
reap pr
expect_rc pt 0
if plotted pt; then
  expect_eq pt "the streams' lines" "$(points pt 'rate stream' | wc -w)" 4
  expect_eq pt "the totals' lines" "$(points pt 'rate total' | wc -w)" 1
fi

# 4. -C --bidir against a ttcp -S -1: both ways at both ends, four lines with points.
on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -1 -p @P@
run c "$TTCP" -C --bidir --time 1 -R 100m -p "$P" --plot "$TMP/c.svg" 127.0.0.1
reap s
expect_rc c 0
if plotted c; then
  expect_eq c "the ends' lines" "$(points c 'rate total' | wc -w)" 4
  for n in $(points c 'rate total'); do [ "$n" -ge 10 ] || fail "c: a line of $n points (1 s / 0.05 s)"; done
fi

# 5. UDP: the receiver draws its jitter, and its JSON intervals carry the loss.
need_jq
pair udp -r -s -u -i 0.25 --json --plot "$TMP/ur.svg" -- -t -s -u -l 1k --time 1 -R 20m 127.0.0.1
expect_rc r 0; expect_rc t 0
cp "$TMP/r.out" "$TMP/ur.out" && cp "$TMP/r.err" "$TMP/ur.err"
CMD[ur]=${CMD[r]} RC[ur]=${RC[r]}
expect_jq ur '.tests[0].intervals | length > 2' true \
  '([.tests[0].intervals[].udp.expected] | add) == .tests[0].udp.expected' true \
  '.tests[0].intervals[0].udp | has("lost") and has("lost_percent") and has("jitter_ms")' true
plotted ur && { [ "$(points ur detail)" -ge 3 ] 2>/dev/null || fail "ur: no jitter line"; }

# 6. Ctrl+C: the figures so far, and their plot.
receiver r tcp -r -s
start i "$TTCP" -t -s -n 100000000 -R 50m -p "$P" --plot "$TMP/i.svg" 127.0.0.1
wait_flowing i "$P"
interrupt i
reap r
expect_rc i 0
plotted i && grep -q 'interrupted (Ctrl+C)' "$TMP/i.svg" || fail "i.svg does not say it was interrupted"

# 7. A file that cannot be written: one line naming it, exit 2, before any connection.
run bad "$TTCP" -t -s -p "$(free_port)" --plot "$TMP/no/such/dir/x.svg" 127.0.0.1
expect_rc bad 2
expect_lines bad err "$(lit "ttcp: --plot $TMP/no/such/dir/x.svg: No such file or directory")"
expect_empty bad out

# 8. --latency: panel 3 holds each answered probe as a circle, each lost one as a cross, as the
# JSON counts them; the idle ones left of 0 (the loaded ones' left); both medians; the grade in
# its words. -C: 1 s idle and 3 s of data, a probe every 0.01 s: about 400 points.
# latency_panel NAME JQPATH: those checks of $TMP/NAME.svg against the JSON's object at JQPATH.
latency_panel() {
  local n=$1 lat=$2 answered lost idle grade left right
  answered=$(jq "$lat | .idle.answered + .loaded.answered" "$TMP/$n.out")
  lost=$(jq "$lat | .idle.lost + .loaded.lost" "$TMP/$n.out")
  idle=$(jq "$lat.idle.answered" "$TMP/$n.out")
  grade=$(jq -r "$lat.grade" "$TMP/$n.out")
  expect_eq "$n" "panel 3" "$(grep -c '<g id="latency">' "$TMP/$n.svg")" 1
  expect_eq "$n" "a circle per answered probe" "$(elements "$n" lat-probe)" "$answered"
  expect_eq "$n" "the idle ones" "$(elements "$n" idle-probe)" "$idle"
  expect_eq "$n" "a cross per lost probe" "$(elements "$n" lat-lost)" "$lost"
  expect_eq "$n" "the medians' lines" "$(elements "$n" lat-median)" 2
  grep -qF "grade $grade" "$TMP/$n.svg" || fail "$n: the words do not say grade $grade"
  left=$(grep -o 'class="lat-probe idle-probe" cx="[0-9.]*"' "$TMP/$n.svg" | tr -dc '0-9.\n' |
    sort -g | tail -n 1)
  right=$(grep -o 'class="lat-probe loaded-probe" cx="[0-9.]*"' "$TMP/$n.svg" | tr -dc '0-9.\n' |
    sort -g | head -n 1)
  expect_awk "$n" "idle circles ($left) left of the loaded ones ($right)" "${left:-0} <= ${right:-0}"
  measured "$n: $answered probes drawn ($idle idle), $lost lost, grade $grade"
}
on_free_port "tcp:s udp:s" start_on_P s "$TTCP" -S -1 -p @P@
run l "$TTCP" -C --time 3 -R 100m --latency --latency-idle 1 --latency-interval 0.01 --json \
  -p "$P" --plot "$TMP/l.svg" 127.0.0.1
reap s
expect_rc l 0; expect_json l
plotted l && latency_panel l .latency
expect_awk l "idle shaded" "$(grep -c 'class="idle"' "$TMP/l.svg") >= 3"
# The classic transmitter: its connection's RTT, the handshake's at 0 as idle.
pair tcp -r -s -- -t -s --time 1 --latency --json --plot "$TMP/lt.svg" 127.0.0.1
expect_rc t 0
cp "$TMP/t.out" "$TMP/lt.out"
plotted lt && latency_panel lt '.tests[0].latency'

finish
