"""A --json-stream consumer, as a dashboard would be: runs the ttcp command line given (argv[2:])
with its stdout on a pipe, and reads the lines as they come, noting when each came (monotonic
seconds from the first). Writes to argv[1] one line per event: "<event> <from> <arrival>"
(from: local or server, - for start and end), then the end event's document as a last line.
Bounded: gives up (exit 3) after 60 s; each line must be one JSON object."""
import json
import subprocess
import sys
import time

out_path, cmd = sys.argv[1], sys.argv[2:]
deadline = time.monotonic() + 60
proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
rows, first, document = [], None, None
for raw in proc.stdout:
    now = time.monotonic()
    first = now if first is None else first
    event = json.loads(raw)
    data = event["data"]
    rows.append("%s %s %.3f" % (event["event"], data.get("from", "-") if event["event"] == "interval" else "-", now - first))
    if event["event"] == "end":
        document = data
    if now > deadline:
        proc.kill()
        sys.exit(3)
rc = proc.wait(timeout=max(1, deadline - time.monotonic()))
with open(out_path, "w") as f:
    f.write("\n".join(rows) + "\n")
    f.write(json.dumps(document) + "\n")
sys.exit(rc)
