"""Shared code of the ttcp tool plugin for perfSONAR pScheduler.

Every method of the plugin is a small executable beside this module; each
reads one JSON document on stdin and writes one on stdout.  Python 3 standard
library only: the plugin does not import pScheduler's own Python package, so
it can be tested (and used) without it.
"""

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

NAME = "ttcp"
VERSION = "1.0"

# Seconds the client participant waits for the server participant's
# ttcp -S -1 to be listening (both runs start at the scheduled time).
WAIT_SECONDS = 2
# Seconds on top of the test for the conversation, the server's result and
# the end of the test.
MARGIN_SECONDS = 8
DEFAULT_DURATION = 10
# The port the server participant listens at; 5001 is left to a resident
# "ttcp -S" service (single-ended tests go there).
DEFAULT_PORT = 5002
SINGLE_ENDED_PORT = 5001
# UDP without a bandwidth: iperf3's default, not a flood.
UDP_DEFAULT_BANDWIDTH = 1000000
UDP_DEFAULT_BUFLEN = 1400

SUPPORTED = {
    "schema", "source", "source-node", "dest", "dest-node", "duration",
    "interval", "parallel", "udp", "bandwidth", "reverse", "window-size",
    "buffer-length", "omit", "ip-version", "single-ended",
    "single-ended-port",
}
# What ttcp cannot do, and why (can-run gives these as reasons).
UNSUPPORTED = {
    "mss": "ttcp cannot set the TCP maximum segment size",
    "ip-tos": "ttcp cannot set the IP type of service",
    "dscp": "ttcp cannot set the DSCP",
    "local-address": "ttcp -C cannot bind to a local address",
    "congestion": "ttcp cannot choose the congestion control algorithm",
    "zero-copy": "ttcp has no zero-copy send",
    "flow-label": "ttcp cannot set the IPv6 flow label",
    "client-cpu-affinity": "the plugin does not map CPU affinity",
    "server-cpu-affinity": "the plugin does not map CPU affinity",
    "loopback": "ttcp has no loopback-only mode",
    "no-delay": "the plugin does not map no-delay",
    "fq-rate": "ttcp has no fair-queue pacing",
    "bandwidth-strict": "ttcp has no strict bandwidth mode",
    "burst-size": "the plugin does not map burst-size",
    "link-rtt": "the plugin does not map link-rtt",
}


def ttcp_binary():
    """The ttcp to run: $TTCP, else ttcp on PATH (None when there is none)."""
    path = os.environ.get("TTCP")
    if path:
        return path if os.access(path, os.X_OK) else None
    return shutil.which("ttcp")


def server_port():
    try:
        return int(os.environ.get("TTCP_PSCHEDULER_PORT", DEFAULT_PORT))
    except ValueError:
        return DEFAULT_PORT


def load_input():
    """The JSON document on stdin (an empty input is an empty object)."""
    text = sys.stdin.read()
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except ValueError as ex:
        fail("the input is not JSON: %s" % ex)


def succeed(doc):
    json.dump(doc, sys.stdout, sort_keys=True, indent=2)
    sys.stdout.write("\n")
    sys.exit(0)


def fail(message):
    """A method that cannot answer: a message on stderr, exit status 1."""
    sys.stderr.write("ttcp tool: %s\n" % message)
    sys.exit(1)


_ISO = re.compile(r"^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?"
                  r"(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def iso_seconds(text):
    """Seconds in an ISO 8601 duration such as PT30S, PT1M or P0DT10S."""
    m = _ISO.match(str(text).strip().upper()) if text is not None else None
    if not m or text.strip().upper() in ("P", "PT"):
        raise ValueError("not an ISO 8601 duration: %r" % (text,))
    d, h, mi, s = (float(g) if g else 0.0 for g in m.groups())
    return d * 86400 + h * 3600 + mi * 60 + s


def iso_duration(seconds):
    return "PT%dS" % int(round(seconds))


def spec_of(doc):
    """The test spec of a can-run or duration input: {"type", "spec"} or
    the spec itself."""
    if isinstance(doc, dict) and isinstance(doc.get("spec"), dict):
        return doc["spec"]
    if isinstance(doc, dict) and isinstance(doc.get("test"), dict):
        return doc["test"].get("spec", {})
    return doc if isinstance(doc, dict) else {}


def test_seconds(spec):
    if spec.get("duration") is None:
        return DEFAULT_DURATION
    return iso_seconds(spec["duration"])


def reasons_against(spec):
    """Why ttcp cannot run this spec (an empty list when it can)."""
    reasons = []
    for key in sorted(spec):
        if key in SUPPORTED:
            continue
        reasons.append(UNSUPPORTED.get(key, "ttcp does not support %s" % key))
    try:
        secs = test_seconds(spec)
        if secs < 1:
            reasons.append("the duration must be at least one second")
    except ValueError as ex:
        reasons.append(str(ex))
    if spec.get("omit") is not None:
        try:
            if iso_seconds(spec["omit"]) > 0:
                reasons.append("ttcp cannot omit the start of a test from "
                               "its figures (omit must be PT0S)")
        except ValueError as ex:
            reasons.append(str(ex))
    if spec.get("interval") is not None:
        try:
            if iso_seconds(spec["interval"]) <= 0:
                reasons.append("the interval must be above zero")
        except ValueError as ex:
            reasons.append(str(ex))
    if spec.get("ip-version") not in (None, 4, 6):
        reasons.append("ip-version must be 4 or 6")
    parallel = spec.get("parallel", 1)
    if not isinstance(parallel, int) or not 1 <= parallel <= 128:
        reasons.append("parallel must be 1 to 128 (ttcp -P)")
    if not spec.get("dest"):
        reasons.append("the test has no dest")
    if ttcp_binary() is None:
        reasons.append("no ttcp binary (set TTCP or put ttcp on PATH)")
    if not reasons:
        reasons += ttcp_refuses(spec)
    return reasons


def ttcp_refuses(spec):
    """What ttcp itself says of the command lines the spec makes (ttcp
    --check: every bound and rule of ttcp's own, nothing run), so that a
    spec it would refuse is refused now and not at its scheduled time."""
    reasons = []
    for args in (client_args(spec, server_port()), server_args(spec, server_port())):
        status, _, err = run_bounded(args + ["--check"], 10)
        if status != 0:
            line = (err.strip().splitlines() or ["exit %s" % status])[-1]
            reasons.append(line[len("ttcp: "):] if line.startswith("ttcp: ")
                           else line)
    return reasons


def analyzing(spec):
    """Whether the test runs with --analyze: every TCP test, unless the
    environment variable TTCP_PSCHEDULER_ANALYZE is 0. pScheduler's
    throughput spec has no field to ask for it (and rejects any key it does
    not define); the analysis costs the test an RTT sample per interval."""
    return not spec.get("udp") and \
        os.environ.get("TTCP_PSCHEDULER_ANALYZE", "1").strip() != "0"


def client_args(spec, port):
    """ttcp -C's command line for the spec, toward the dest at port."""
    args = [ttcp_binary() or "ttcp", "-C", "-p", str(port), "--json"]
    if analyzing(spec):
        args.append("--analyze")
    if spec.get("reverse"):
        args.append("-r")
    parallel = spec.get("parallel") or 1
    if parallel > 1:
        args += ["-P", str(parallel)]
    args += ["--time", "%g" % test_seconds(spec)]
    interval = 1
    if spec.get("interval") is not None:
        interval = iso_seconds(spec["interval"])
    args += ["-i", "%g" % interval]
    bandwidth = spec.get("bandwidth")
    if spec.get("udp"):
        args.append("-u")
        if not bandwidth:
            bandwidth = UDP_DEFAULT_BANDWIDTH
        if not spec.get("buffer-length"):
            args += ["-l", str(UDP_DEFAULT_BUFLEN)]
    if bandwidth:
        # pScheduler's bandwidth is per stream (as iperf3 -b); ttcp's -R is
        # the test's total
        args += ["-R", str(int(bandwidth) * parallel)]
    if spec.get("buffer-length"):
        args += ["-l", str(int(spec["buffer-length"]))]
    if spec.get("window-size"):
        args += ["-b", str(int(spec["window-size"]))]
    if spec.get("ip-version") == 4:
        args.append("-4")
    elif spec.get("ip-version") == 6:
        args.append("-6")
    args.append(str(spec["dest"]))
    return args


def new_key():
    """A fresh key for one test's two ends (ttcp --key-file's form)."""
    return secrets.token_hex(32)


def key_file(key):
    """The key in a file only its owner may read (ttcp refuses others); the
    caller removes it."""
    fd, path = tempfile.mkstemp(prefix="ttcp-key-")
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return path


def server_args(spec, port):
    """ttcp -S -1's command line: one test, bounded by --max-time."""
    args = [ttcp_binary() or "ttcp", "-S", "-1", "-p", str(port),
            "--max-time", "%g" % (test_seconds(spec) + MARGIN_SECONDS)]
    if spec.get("ip-version") == 4:
        args.append("-4")
    elif spec.get("ip-version") == 6:
        args.append("-6")
    return args


# ttcp's JSON (schema ttcp-result/1, the client's document) to pScheduler's
# throughput result.

def _udp_fields(entry, udp):
    entry["sent"] = udp.get("expected", udp.get("datagrams"))
    entry["lost"] = udp.get("lost")
    entry["jitter"] = udp.get("jitter_ms")


def _tcp_fields(entry, tcp, retransmits):
    entry["retransmits"] = retransmits
    srtt = tcp.get("srtt_ms")
    # microseconds, as iperf3's plugin gives rtt
    entry["rtt"] = None if srtt is None else round(srtt * 1000, 3)
    entry["tcp-window-size"] = tcp.get("cwnd")


def _base(stream_id, start, end, nbytes, bps):
    entry = {"start": start, "end": end, "throughput-bytes": nbytes,
             "throughput-bits": bps, "receiver-throughput-bits": bps,
             "omitted": False}
    if stream_id is not None:
        entry["stream-id"] = stream_id
    return entry


def _pairs(rx, tx):
    """(stream number, the receiver's figures, the transmitter's) per
    stream."""
    if "streams" in rx:
        txs = {s.get("stream"): s for s in (tx or {}).get("streams", [])}
        return [(s.get("stream"), s, txs.get(s.get("stream"), {}))
                for s in rx["streams"]]
    return [(1, rx, tx or {})]


def _ends(doc, spec):
    """(the receiving end's test, the transmitting end's) of the spec's
    direction in a client's ttcp JSON document (None where missing)."""
    direction = "recv" if spec.get("reverse") else "send"
    ends = [t for t in doc.get("tests", []) + doc.get("server_tests", [])
            if t.get("direction") == direction]
    rx = next((t for t in ends if t.get("side") == "receive"), None)
    tx = next((t for t in ends if t.get("side") == "transmit"), None)
    return rx, tx


LIMIT_WORDS = {"rwnd": "the receiver's window", "sndbuf": "its send buffer",
               "cwnd": "the network (congestion window)",
               "app": "the application (nothing to send)"}


def _limits_words(analysis):
    limits = analysis.get("limits")
    if not limits:
        return ["the sender's limits not counted by its system"]
    shares = ", ".join("%s %.1f %%" % (k, 100 * limits[k])
                       for k in ("rwnd", "sndbuf", "cwnd", "app")
                       if limits.get(k) is not None)
    by = analysis.get("limited_by")
    return ["sender limited by %s" % LIMIT_WORDS.get(by, by) if by
            else "no one limit held the sender half the time",
            "sender's time %s of %.2f s" % (shares, limits.get("seconds", 0))]


def analysis_note(doc, spec):
    """ttcp --analyze's findings in one line for diags (pScheduler's
    result has no field for them), or None: what held the sender back,
    the baseline RTT, the -b that would lift a window's limit, an end that
    was CPU-bound."""
    rx, tx = _ends(doc, spec)
    sender = (tx or {}).get("analysis")
    if not sender:
        return None
    parts = _limits_words(sender)
    if sender.get("min_rtt_ms") is not None:
        parts.append("baseline RTT %.3f ms" % sender["min_rtt_ms"])
    advice = sender.get("advice")
    if advice:
        parts.append("set -b %d or more on the %s"
                     % (advice["sockbufsize"], advice["side"]))
    for name, end in (("sender", tx), ("receiver", rx)):
        if "cpu_bound" in ((end or {}).get("analysis") or {}).get(
                "findings", []):
            parts.append("the %s used most of a core: the figure measures "
                         "that host" % name)
    return "ttcp analysis: " + "; ".join(parts)


def to_throughput(doc, spec):
    """The throughput result of a client's ttcp JSON document."""
    udp = bool(spec.get("udp"))
    direction = "recv" if spec.get("reverse") else "send"
    rx, tx = _ends(doc, spec)
    total = next((s for s in doc.get("summary", [])
                  if s.get("direction") == direction), None)
    if rx is None or total is None:
        raise ValueError("ttcp's JSON has no figures from the receiving end")

    summary = _base(None, 0, total["seconds"], total["bytes"],
                    total["bits_per_second"])
    if udp:
        summary["sent"] = total.get("datagrams_sent")
        summary["lost"] = total.get("datagrams_lost")
        summary["jitter"] = total.get("jitter_ms")
    else:
        summary["retransmits"] = total.get("retransmits")
        rtt = total.get("rtt_ms")
        summary["rtt"] = None if rtt is None else round(rtt * 1000, 3)

    pairs = _pairs(rx, tx)
    streams = []
    for sid, srx, stx in pairs:
        entry = _base(sid, 0, srx["seconds"], srx["bytes"],
                      srx["bits_per_second"])
        if udp:
            _udp_fields(entry, srx.get("udp", {}))
        elif stx.get("tcp"):
            _tcp_fields(entry, stx["tcp"], stx["tcp"].get("retransmits"))
        streams.append(entry)

    intervals = []
    previous = {}  # a stream's cumulative retransmits so far
    for i, whole in enumerate(rx.get("intervals", [])):
        istreams = []
        for sid, srx, stx in pairs:
            ivs = srx.get("intervals", [])
            if i >= len(ivs):
                continue
            iv = ivs[i]
            entry = _base(sid, iv["start"], iv["end"], iv["bytes"],
                          iv["bits_per_second"])
            if udp:
                _udp_fields(entry, iv.get("udp", {}))
            else:
                txiv = stx.get("intervals", [])
                tcp = txiv[i].get("tcp") if i < len(txiv) else None
                if tcp:
                    # ttcp's retransmits are the connection's so far
                    count = tcp.get("retransmits", 0)
                    _tcp_fields(entry, tcp, count - previous.get(sid, 0))
                    previous[sid] = count
            istreams.append(entry)
        isum = _base(None, whole["start"], whole["end"], whole["bytes"],
                     whole["bits_per_second"])
        if udp:
            if len(istreams) == 1:
                _udp_fields(isum, whole.get("udp", {}))
            else:
                isum["sent"] = sum(s.get("sent") or 0 for s in istreams)
                isum["lost"] = sum(s.get("lost") or 0 for s in istreams)
                jit = [s["jitter"] for s in istreams
                       if s.get("jitter") is not None]
                isum["jitter"] = max(jit) if jit else None
        else:
            have = [s for s in istreams if "retransmits" in s]
            if have:
                isum["retransmits"] = sum(s["retransmits"] for s in have)
                rtts = [s["rtt"] for s in have if s.get("rtt") is not None]
                isum["rtt"] = (round(sum(rtts) / len(rtts), 3)
                               if rtts else None)
        intervals.append({"streams": istreams, "summary": isum})

    result = {"schema": 1, "succeeded": True,
              "summary": {"streams": streams, "summary": summary},
              "intervals": intervals, "diags": ""}
    if not udp and (tx or {}).get("tcp", {}).get("mss"):
        result["mss"] = tx["tcp"]["mss"]
    # --analyze: the path MTU the sender's connection held (the schema's mtu)
    mtu = (((tx or {}).get("analysis") or {}).get("rfc6349") or {}).get("mtu")
    if isinstance(mtu, int) and mtu > 0:
        result["mtu"] = mtu
    if spec.get("window-size"):
        result["requested-tcp-window-size"] = int(spec["window-size"])
    return result


def run_bounded(args, seconds):
    """Run args for at most seconds; (exit status or None on timeout,
    stdout, stderr).  subprocess.run kills the child when time is up."""
    try:
        done = subprocess.run(args, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=seconds, universal_newlines=True)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as ex:
        out = ex.stdout or ""
        err = ex.stderr or ""
        if isinstance(out, bytes):
            out = out.decode("utf-8", "replace")
        if isinstance(err, bytes):
            err = err.decode("utf-8", "replace")
        return None, out, err
    except OSError as ex:
        return 127, "", str(ex)


def now():
    return time.monotonic()
