// Cloudflare's speed-test engine (@cloudflare/speedtest, from this folder's node_modules) in
// Debian's chromium (headless, puppeteer-core) against a ttcp -S --web server, for
// tests/netns/web_engines.sh. The engine's page is served by a tiny static server of this
// script's own on 127.0.0.1 (the page and the engine's module, nothing else), so the engine
// talks to the ttcp server across origins as it would to a server of its own. Its measurements
// are the idle latency (5 requests), then download and upload of the sizes given (no loaded
// latency, which would share the link with the transfers; no packet loss or result logging:
// those reach Cloudflare's own services). Every step is bounded in time; the browser and the
// static server are closed at the end whatever happens. Usage:
//   node engine.mjs BASE OUT.json [DOWN_BYTES UP_BYTES COUNT]
// BASE: the ttcp server's http://ADDRESS:PORT; the engine is given BASE/__down and BASE/__up.
// OUT.json: {summary: the engine's getSummary() (download, upload in bit/s, latency in ms), points: its
// measurements each way, requests: every URL the page asked for, static: the page's origin,
// errors}.
import puppeteer from 'puppeteer-core';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const [base, outFile, downBytes = '1000000', upBytes = '1000000', count = '8'] =
  process.argv.slice(2);
const LIMIT_MS = 120000;
const here = path.dirname(fileURLToPath(import.meta.url));
const engineJs = fs.readFileSync(
  path.join(here, 'node_modules/@cloudflare/speedtest/dist/speedtest.js'), 'utf8')
  .replace(/\n\/\/# sourceMappingURL=.*$/m, ''); // no request for a map nobody reads
const out = {requests: [], errors: []};

// The engine's page: its measurements as the query says, the result left in window.engineResult.
const page = `<!doctype html><meta charset="utf-8"><title>engine</title>
<script type="module">
import SpeedTest from '/speedtest.js';
const q = new URLSearchParams(location.search);
const n = Number(q.get('count'));
const engine = new SpeedTest({
  autoStart: false,
  downloadApiUrl: q.get('base') + '/__down',
  uploadApiUrl: q.get('base') + '/__up',
  logAimApiUrl: null,
  measureDownloadLoadedLatency: false,
  measureUploadLoadedLatency: false,
  measurements: [
    {type: 'latency', numPackets: 5}, // GET /__down?bytes=0, one after another
    {type: 'download', bytes: Number(q.get('down')), count: n},
    {type: 'upload', bytes: Number(q.get('up')), count: n},
  ],
});
engine.onFinish = (results) => {
  window.engineResult = {summary: results.getSummary(),
    points: {down: results.getDownloadBandwidthPoints(), up: results.getUploadBandwidthPoints()}};
};
engine.onError = (e) => { window.engineResult = {error: String(e)}; };
engine.play();
</script>`;

const files = {'/': ['text/html; charset=utf-8', page], '/favicon.ico': ['image/x-icon', ''],
               '/speedtest.js': ['text/javascript; charset=utf-8', engineJs]};
const server = http.createServer((req, res) => {
  const f = files[new URL(req.url, 'http://x').pathname];
  res.writeHead(f ? 200 : 404, {'Content-Type': f ? f[0] : 'text/plain'});
  res.end(f ? f[1] : 'not here\n');
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
out.static = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-default-apps'],
});
let finished = false;
async function finish(code) {
  if (finished) return;
  finished = true;
  clearTimeout(guard);
  fs.writeFileSync(outFile, JSON.stringify(out, null, 1));
  try { await browser.close(); } catch (e) { /* already gone */ }
  server.close();
  process.exit(code);
}
const guard = setTimeout(() => { out.errors.push('engine.mjs: out of time'); finish(2); },
                         LIMIT_MS + 30000);
try {
  const tab = await browser.newPage();
  tab.on('request', (r) => out.requests.push(r.url()));
  tab.on('pageerror', (e) => out.errors.push('pageerror: ' + e.message));
  tab.on('console', (m) => { if (m.type() === 'error') out.errors.push('console: ' + m.text()); });
  const q = new URLSearchParams({base, down: downBytes, up: upBytes, count});
  await tab.goto(out.static + '?' + q, {waitUntil: 'load', timeout: 20000});
  await tab.waitForFunction('window.engineResult', {timeout: LIMIT_MS});
  Object.assign(out, await tab.evaluate(() => window.engineResult));
  await finish(out.error ? 1 : 0);
} catch (e) {
  out.errors.push('engine.mjs: ' + (e.message || e));
  await finish(1);
}
