#!/usr/bin/env python3
"""Tests of the ttcp pScheduler tool plugin: each method fed the JSON
pScheduler would send (fixtures/), and loopback runs of both participants.

TTCP names the ttcp binary (default: ttcp on PATH).  Traffic goes to
127.0.0.1 only; every process is bounded by a timeout.
"""

import json
import os
import random
import socket
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures")
METHODS = ["enumerate", "can-run", "duration", "participant-data", "run",
           "merged-results"]
THROUGHPUT_KEYS = {"throughput-bits", "throughput-bytes",
                   "receiver-throughput-bits", "sent", "lost", "jitter",
                   "stream-id", "start", "end", "rtt", "tcp-window-size",
                   "retransmits", "omitted"}


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def call(method, doc, timeout=20, env=None):
    """Run one method with doc on stdin: (exit status, parsed stdout)."""
    done = subprocess.run([os.path.join(PLUGIN, method)],
                          input=json.dumps(doc), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=timeout, env=env)
    out = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, out


def start(method, doc, timeout=30):
    """Start one method in the background (its Popen, stdin fed)."""
    import tempfile
    with tempfile.TemporaryFile("w+") as f:
        json.dump(doc, f)
        f.seek(0)
        return subprocess.Popen([os.path.join(PLUGIN, method)], stdin=f,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                universal_newlines=True)


def free_port():
    """A port free for TCP and UDP on 127.0.0.1 just now."""
    for _ in range(50):
        port = random.randint(20000, 60000)
        try:
            for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
                s = socket.socket(socket.AF_INET, kind)
                s.bind(("127.0.0.1", port))
                s.close()
            return port
        except OSError:
            continue
    raise RuntimeError("no free port")


class Methods(unittest.TestCase):
    def test_executables(self):
        for m in METHODS:
            path = os.path.join(PLUGIN, m)
            self.assertTrue(os.access(path, os.X_OK), m)
            with open(path) as f:
                self.assertEqual(f.readline().strip(),
                                 "#!/usr/bin/env python3", m)

    def test_enumerate(self):
        status, out = call("enumerate", {})
        self.assertEqual(status, 0)
        self.assertEqual(out["schema"], 1)
        self.assertEqual(out["name"], "ttcp")
        self.assertEqual(out["tests"], ["throughput"])
        self.assertIsInstance(out["preference"], int)
        self.assertIsInstance(out["version"], str)
        self.assertIn("name", out["maintainer"])
        self.assertTrue(out["description"])

    def test_can_run_supported(self):
        status, out = call("can-run", fixture("can-run-tcp.json"))
        self.assertEqual(status, 0)
        self.assertEqual(out, {"can-run": True})

    def test_can_run_refuses_with_reasons(self):
        status, out = call("can-run", fixture("can-run-unsupported.json"))
        self.assertEqual(status, 0)
        self.assertIs(out["can-run"], False)
        reasons = " | ".join(out["reasons"])
        self.assertIn("maximum segment size", reasons)   # mss
        self.assertIn("type of service", reasons)        # ip-tos
        self.assertIn("omit", reasons)                   # omit PT5S
        self.assertEqual(len(out["reasons"]), 3)

    def test_can_run_asks_ttcp(self):
        # limits of ttcp's own (ttcp --check), not of the plugin
        doc = fixture("can-run-tcp.json")
        doc["spec"].update({"udp": True, "buffer-length": 70000})
        status, out = call("can-run", doc)
        self.assertEqual(status, 0)
        self.assertIs(out["can-run"], False)
        self.assertTrue(any("65507" in r for r in out["reasons"]), out)
        doc = fixture("can-run-tcp.json")
        doc["spec"]["window-size"] = 2 ** 31
        status, out = call("can-run", doc)
        self.assertIs(out["can-run"], False)
        self.assertTrue(any(r.startswith("-b:") for r in out["reasons"]), out)

    def test_analyze_for_tcp_only(self):
        # pScheduler's spec cannot ask for it: every TCP test runs with
        # --analyze, unless TTCP_PSCHEDULER_ANALYZE=0
        sys.path.insert(0, PLUGIN)
        try:
            import ttcp_tool
        finally:
            sys.path.pop(0)
        saved = os.environ.pop("TTCP_PSCHEDULER_ANALYZE", None)
        try:
            self.assertIn("--analyze", ttcp_tool.client_args({"dest": "h"}, 5002))
            self.assertNotIn("--analyze", ttcp_tool.client_args(
                {"dest": "h", "udp": True}, 5002))
            self.assertNotIn("--analyze", ttcp_tool.server_args({"dest": "h"}, 5002))
            os.environ["TTCP_PSCHEDULER_ANALYZE"] = "0"
            self.assertNotIn("--analyze", ttcp_tool.client_args({"dest": "h"}, 5002))
        finally:
            os.environ.pop("TTCP_PSCHEDULER_ANALYZE", None)
            if saved is not None:
                os.environ["TTCP_PSCHEDULER_ANALYZE"] = saved

    def test_analysis_note_words(self):
        # a recorded document's sender analysis into diags' line
        sys.path.insert(0, PLUGIN)
        try:
            import ttcp_tool
        finally:
            sys.path.pop(0)
        doc = {"tests": [
            {"side": "transmit", "direction": "send", "analysis": {
                "role": "sender", "findings": ["rwnd_limited", "cpu_bound"],
                "limits": {"seconds": 2.5, "rwnd": 0.75, "sndbuf": None,
                           "cwnd": 0.2, "app": 0.05},
                "limited_by": "rwnd", "min_rtt_ms": 50.0,
                "advice": {"side": "receiver", "sockbufsize": 1048576},
                "rfc6349": {"mtu": 1500}}}],
            "server_tests": [{"side": "receive", "direction": "send",
                              "analysis": {"role": "receiver",
                                           "findings": [], "limits": None}}]}
        note = ttcp_tool.analysis_note(doc, {"dest": "h"})
        self.assertEqual(
            note, "ttcp analysis: sender limited by the receiver's window; "
            "sender's time rwnd 75.0 %, cwnd 20.0 %, app 5.0 % of 2.50 s; "
            "baseline RTT 50.000 ms; set -b 1048576 or more on the receiver; "
            "the sender used most of a core: the figure measures that host")
        # reverse: no figures of that direction, no note
        self.assertIsNone(ttcp_tool.analysis_note(doc, {"reverse": True}))

    def test_can_run_other_test_type(self):
        status, out = call("can-run", fixture("can-run-rtt.json"))
        self.assertEqual(status, 0)
        self.assertIs(out["can-run"], False)
        self.assertEqual(out["reasons"], ["ttcp runs throughput tests only"])

    def test_can_run_without_binary(self):
        env = dict(os.environ, TTCP="/nonexistent/ttcp")
        status, out = call("can-run", fixture("can-run-tcp.json"), env=env)
        self.assertIs(out["can-run"], False)
        self.assertEqual(len(out["reasons"]), 1)
        self.assertIn("no ttcp binary", out["reasons"][0])

    def test_duration(self):
        # PT30S + 2 s for the server participant to start + 8 s margin
        status, out = call("duration", fixture("duration.json"))
        self.assertEqual(status, 0)
        self.assertEqual(out, {"duration": "PT40S"})
        status, out = call("duration", {"type": "throughput",
                                        "spec": {"dest": "x"}})
        self.assertEqual(out, {"duration": "PT20S"})  # 10 s default
        status, out = call("duration", {"dest": "x", "duration": "PT1M"})
        self.assertEqual(out, {"duration": "PT70S"})
        status, out = call("duration", {"dest": "x", "duration": "soon"})
        self.assertEqual(status, 1)

    def test_participant_data(self):
        status, out = call("participant-data",
                           fixture("participant-data-0.json"))
        self.assertEqual((status, out), (0, {}))
        status, out = call("participant-data",
                           fixture("participant-data-1.json"))
        self.assertEqual((status, sorted(out)), (0, ["key", "server-port"]))
        self.assertEqual(out["server-port"], 5002)
        self.assertRegex(out["key"], "^[0-9a-f]{64}$")
        env = dict(os.environ, TTCP_PSCHEDULER_PORT="6123")
        status, again = call("participant-data",
                             fixture("participant-data-1.json"), env=env)
        self.assertEqual(again["server-port"], 6123)
        self.assertNotEqual(again["key"], out["key"])  # a key per test
        doc = fixture("participant-data-1.json")
        doc["participant"] = 2
        status, out = call("participant-data", doc)
        self.assertEqual(status, 1)

    def test_run_refused_spec(self):
        doc = fixture("run-tcp.json")
        doc["test"]["spec"]["mss"] = 1400
        status, out = call("run", doc)
        self.assertEqual(status, 0)
        self.assertIs(out["succeeded"], False)
        self.assertIn("maximum segment size", out["error"])
        self.assertIs(out["result"]["succeeded"], False)

    def test_run_no_server(self):
        # nothing listens: a clean failure, bounded by the schedule
        doc = fixture("run-tcp.json")
        doc["participant-data"][1]["server-port"] = free_port()
        doc["schedule"]["duration"] = "PT6S"
        status, out = call("run", doc, timeout=20)
        self.assertEqual(status, 0)
        self.assertIs(out["succeeded"], False)
        self.assertIn("ttcp -C", out["error"])
        self.assertEqual(out["result"]["summary"], {})

    def test_merged_results_without_measure(self):
        status, out = call("merged-results", {
            "test": fixture("can-run-tcp.json"),
            "results": [{"succeeded": False, "error": "boom"},
                        {"succeeded": True}]})
        self.assertEqual(status, 0)
        self.assertIs(out["succeeded"], False)
        self.assertIn("participant 0: boom", out["error"])


class Loopback(unittest.TestCase):
    """Both participants' run on 127.0.0.1, then merged-results."""

    def server_data(self):
        """Participant 1's data as its participant-data method gives it:
        a free port and a fresh key."""
        env = dict(os.environ, TTCP_PSCHEDULER_PORT=str(free_port()))
        status, data = call("participant-data",
                            fixture("participant-data-1.json"), env=env)
        self.assertEqual(status, 0)
        return data

    def both(self, fixture_name, **spec):
        doc = fixture(fixture_name)
        doc["participant-data"][1] = self.server_data()
        doc["test"]["spec"].update(spec)
        server = dict(doc, participant=1)
        server_run = start("run", server)  # the server participant first
        try:
            status, client = call("run", doc, timeout=30)
            out, err = server_run.communicate(timeout=30)
        finally:
            if server_run.poll() is None:
                server_run.kill()
                server_run.wait()
        self.assertEqual(status, 0)
        self.assertEqual(server_run.returncode, 0, err)
        server = json.loads(out)
        self.assertIs(server["succeeded"], True, server.get("error"))
        self.assertIs(client["succeeded"], True, client.get("error"))
        status, merged = call("merged-results", {
            "test": doc["test"],
            "results": [client["result"], server["result"]]})
        self.assertEqual(status, 0)
        return doc, client, merged

    def shape(self, merged):
        self.assertIs(merged["succeeded"], True)
        self.assertIn("Participant 0:", merged["diags"])
        self.assertIn("Participant 1:", merged["diags"])
        self.assertIn("ttcp -S -1", merged["diags"])
        self.assertNotIn("error", merged)
        allowed = {"schema", "succeeded", "error", "diags", "mss", "mtu",
                   "tcp-window-size", "requested-tcp-window-size",
                   "intervals", "summary"}
        self.assertLessEqual(set(merged), allowed)
        entries = [merged["summary"]["summary"]] + \
            merged["summary"]["streams"]
        for iv in merged["intervals"]:
            self.assertEqual(set(iv), {"streams", "summary"})
            entries += [iv["summary"]] + iv["streams"]
        for e in entries:
            self.assertLessEqual(set(e), THROUGHPUT_KEYS)
            self.assertGreaterEqual(e["end"], e["start"])
            self.assertIs(e["omitted"], False)

    def ttcp_json(self, client):
        """ttcp -C's own JSON document of the same run, from the diags."""
        lines = [l for l in client["diags"].splitlines()
                 if l.startswith('{"schema":"ttcp-result/1"')]
        self.assertEqual(len(lines), 1)
        return json.loads(lines[0])

    def test_tcp_3s(self):
        doc, client, merged = self.both("run-tcp.json")
        self.shape(merged)
        self.assertIn(" -C ", client["diags"])
        self.assertIn(" --key-file ", client["diags"])
        self.assertIn(" --key-file ", merged["diags"].split("Participant 1:")[1])
        self.assertIn("--time 3 ", client["diags"])
        s = merged["summary"]["summary"]
        own = self.ttcp_json(client)
        self.assertEqual(own["side"], "client")
        self.assertIsNone(own["error"])
        total = own["summary"][0]
        self.assertEqual(total["direction"], "send")
        # ttcp's own figures, exactly: the receiver's bits per second, bytes,
        # seconds, the sender's retransmits and RTT (ms -> microseconds)
        self.assertEqual(s["throughput-bits"], total["bits_per_second"])
        self.assertEqual(s["throughput-bytes"], total["bytes"])
        self.assertEqual(s["end"], total["seconds"])
        self.assertEqual(s["retransmits"], total["retransmits"])
        self.assertEqual(s["rtt"], round(total["rtt_ms"] * 1000, 3))
        rx = own["server_tests"][0]
        self.assertEqual(rx["side"], "receive")
        self.assertEqual(len(merged["intervals"]), len(rx["intervals"]))
        self.assertGreater(s["throughput-bytes"], 0)
        self.assertAlmostEqual(s["end"], 3, delta=0.5)
        self.assertEqual(s["throughput-bits"], s["receiver-throughput-bits"])
        self.assertAlmostEqual(s["throughput-bits"],
                               s["throughput-bytes"] * 8 / s["end"],
                               delta=s["throughput-bits"] * 1e-6)
        self.assertIsInstance(s["retransmits"], int)
        self.assertIsInstance(s["rtt"], (int, float))
        self.assertEqual(len(merged["summary"]["streams"]), 1)
        st = merged["summary"]["streams"][0]
        self.assertEqual(st["stream-id"], 1)
        self.assertEqual(st["throughput-bytes"], s["throughput-bytes"])
        self.assertGreaterEqual(len(merged["intervals"]), 3)
        self.assertEqual(sum(iv["summary"]["throughput-bytes"]
                             for iv in merged["intervals"]),
                         s["throughput-bytes"])
        first = merged["intervals"][0]
        self.assertEqual((first["summary"]["start"], first["summary"]["end"]),
                         (0, 1))
        self.assertEqual(first["streams"][0]["stream-id"], 1)
        self.assertIn("retransmits", first["summary"])
        self.assertIn("rtt", first["summary"])
        self.assertEqual(sum(iv["summary"]["retransmits"]
                             for iv in merged["intervals"]
                             if "retransmits" in iv["summary"]),
                         st["retransmits"])
        self.analysis_checked(client, merged, own["tests"][0])

    def analysis_checked(self, client, merged, sender):
        """--analyze's figures in the result: the schema's mtu from the
        sender's analysis, its findings as diags' first line."""
        self.assertIn(" --analyze ", client["diags"])
        analysis = sender["analysis"]
        self.assertEqual(analysis["role"], "sender")
        self.assertEqual(merged["mtu"], analysis["rfc6349"]["mtu"])
        self.assertIsInstance(merged["mtu"], int)
        note = merged["diags"].split("Participant 0:\n", 1)[1].splitlines()[0]
        self.assertTrue(note.startswith("ttcp analysis: "), note)
        limits = analysis["limits"]
        self.assertIsNotNone(limits, "Linux counts the sender's limits")
        self.assertIn("of %.2f s" % limits["seconds"], note)
        for k in ("rwnd", "sndbuf", "cwnd", "app"):
            if limits[k] is not None:
                self.assertIn("%s %.1f %%" % (k, 100 * limits[k]), note)
        if analysis["limited_by"]:
            self.assertIn("sender limited by ", note)
        else:
            self.assertIn("no one limit held the sender", note)
        self.assertIn("baseline RTT %.3f ms" % analysis["min_rtt_ms"], note)
        # the shares cover the sender's time, no more
        self.assertLessEqual(sum(limits[k] or 0 for k in
                                 ("rwnd", "sndbuf", "cwnd", "app")), 1.0001)

    def test_tcp_reverse(self):
        # reverse: the dest sends, ttcp -C -r; the client end receives
        doc, client, merged = self.both("run-tcp.json", duration="PT2S",
                                        reverse=True)
        self.shape(merged)
        self.assertIn(" -r ", client["diags"])
        own = self.ttcp_json(client)
        total = own["summary"][0]
        self.assertEqual(total["direction"], "recv")
        s = merged["summary"]["summary"]
        self.assertEqual(s["throughput-bits"], total["bits_per_second"])
        self.assertEqual(s["throughput-bytes"], own["tests"][0]["bytes"])
        self.assertEqual(len(merged["intervals"]),
                         len(own["tests"][0]["intervals"]))
        # the dest sent: its analysis, relayed in the client's document
        sender = own["server_tests"][0]
        self.assertEqual(sender["side"], "transmit")
        self.analysis_checked(client, merged, sender)

    def test_other_key_cannot_take_the_test(self):
        # a client with another key is refused, and the one test the
        # server waits for is still there for the right client
        doc = fixture("run-tcp.json")
        doc["participant-data"][1] = self.server_data()
        doc["schedule"]["duration"] = "PT15S"
        doc["test"]["spec"]["duration"] = "PT1S"
        server_run = start("run", dict(doc, participant=1))
        try:
            other = json.loads(json.dumps(doc))
            other["participant-data"][1]["key"] = "5a" * 32
            status, intruder = call("run", other, timeout=30)
            self.assertEqual(status, 0)
            self.assertIs(intruder["succeeded"], False)
            self.assertIn("keys differ", intruder["error"])
            status, client = call("run", doc, timeout=30)
            self.assertIs(client["succeeded"], True, client.get("error"))
            out, err = server_run.communicate(timeout=30)
        finally:
            if server_run.poll() is None:
                server_run.kill()
                server_run.wait()
        self.assertIs(json.loads(out)["succeeded"], True)

    def test_udp_loss_jitter(self):
        doc, client, merged = self.both("run-udp.json")
        self.shape(merged)
        self.assertIn(" -u", client["diags"])
        self.assertIn("-R 10000000", client["diags"])
        s = merged["summary"]["summary"]
        total = self.ttcp_json(client)["summary"][0]
        self.assertEqual(s["throughput-bits"], total["bits_per_second"])
        self.assertEqual(s["sent"], total["datagrams_sent"])
        self.assertEqual(s["lost"], total["datagrams_lost"])
        self.assertEqual(s["jitter"], total["jitter_ms"])
        self.assertGreater(s["sent"], 0)
        self.assertIsInstance(s["lost"], int)
        self.assertGreaterEqual(s["lost"], 0)
        self.assertIsInstance(s["jitter"], (int, float))
        self.assertNotIn("retransmits", s)
        # no --analyze for UDP: no mtu, no note
        self.assertNotIn("--analyze", client["diags"])
        self.assertNotIn("mtu", merged)
        self.assertNotIn("ttcp analysis:", merged["diags"])
        # 10 Mbit/s paced for 2 s
        self.assertAlmostEqual(s["throughput-bits"], 1e7, delta=2e6)
        for iv in merged["intervals"]:
            self.assertIn("sent", iv["summary"])
            self.assertIn("lost", iv["summary"])
            self.assertIn("jitter", iv["summary"])
            self.assertIn("jitter", iv["streams"][0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
