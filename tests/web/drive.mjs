// Drives ttcp -S --web's page in Debian's chromium (headless) through puppeteer-core, for
// tests/e2e/web.sh. Every step is bounded in time; the browser is closed at the end whatever
// happens. Usage:
//   node drive.mjs run URL OUT.json [SHOTS_DIR]  load URL (no ?start), press the button; with
//                                                 SHOTS_DIR, screenshots before, during, after
//   node drive.mjs start URL OUT.json            load URL (with ?start): the test runs at once
//   node drive.mjs status URL OUT.json           load URL, keep the answer's status and text
//   node drive.mjs abandon URL N OUT.json        N pages at once, each closed mid-download
//   node drive.mjs lie URL SECONDS OUT.json      load URL, then a test's upload alone as a
//                                                 page that trusted the browser would time it
//                                                 (XMLHttpRequest's upload progress events)
// OUT.json: {result, requests: [every URL the pages asked for], status, text, errors}.
import puppeteer from 'puppeteer-core';
import fs from 'node:fs';

const [mode, url, a3, a4] = process.argv.slice(2);
const LIMIT_MS = 90000;
const out = {requests: [], errors: []};

function watch(page) {
  page.on('request', (r) => out.requests.push(r.url()));
  page.on('pageerror', (e) => out.errors.push('pageerror: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') out.errors.push('console: ' + m.text()); });
}

async function newPage(browser) {
  const page = await browser.newPage();
  await page.setViewport({width: 900, height: 760});
  watch(page);
  return page;
}

async function run(browser, shots) {
  const page = await newPage(browser);
  await page.goto(url, {waitUntil: 'load', timeout: 20000});
  if (shots) await page.screenshot({path: shots + '/web-before.png'});
  await page.click('#go');
  await page.waitForFunction(
    () => /Download/.test(document.getElementById('status').textContent), {timeout: 20000});
  await new Promise((r) => setTimeout(r, 1500));
  if (shots) await page.screenshot({path: shots + '/web-during.png'});
  await page.waitForFunction('window.ttcpResult', {timeout: LIMIT_MS});
  if (shots) await page.screenshot({path: shots + '/web-after.png', fullPage: true});
  out.result = await page.evaluate(() => window.ttcpResult);
  out.element = JSON.parse(await page.$eval('#result-json', (e) => e.textContent));
  out.summary = await page.$eval('#summary', (e) => e.value);
  out.plotted = await page.$$eval('#plot-svg polyline', (l) => l.length);
}

async function start(browser) {
  const page = await newPage(browser);
  await page.goto(url, {waitUntil: 'load', timeout: 20000});
  await page.waitForFunction('window.ttcpResult', {timeout: LIMIT_MS});
  out.result = await page.evaluate(() => window.ttcpResult);
}

async function status(browser) {
  const page = await newPage(browser);
  const answer = await page.goto(url, {waitUntil: 'load', timeout: 20000});
  out.status = answer.status();
  out.text = await answer.text();
}

// N pages start at once, each in a browser context of its own (as N users: one profile holds
// at most 6 connections to a host, which N tests would share); each is closed once its
// download runs (or its test stopped: busy).
async function abandon(browser, n) {
  const pages = [], t0 = Date.now();
  out.abandon_ms = {};
  for (let i = 0; i < n; i++) pages.push(browser.createBrowserContext().then(newPage));
  for (let i = 0; i < n; i++) pages[i] = await pages[i];
  out.abandon_ms.opened = Date.now() - t0;
  await Promise.all(pages.map((p) => p.goto(url, {waitUntil: 'load', timeout: 20000})));
  out.abandon_ms.loaded = Date.now() - t0;
  out.states = await Promise.all(pages.map(async (p) => {
    await p.waitForFunction(() => window.ttcpResult ||
      /Download/.test(document.getElementById('status').textContent), {timeout: 30000});
    return p.evaluate(() => window.ttcpResult ? 'ended: ' + window.ttcpResult.error : 'download');
  }));
  out.abandon_ms.running = Date.now() - t0;
  await Promise.all(pages.map((p) => p.close()));
  out.abandon_ms.closed = Date.now() - t0;
}

// The browser's own count of an upload: a test of SECONDS each way begun (POST /start), one
// POST /up of 4 MiB whose upload progress events are read until SECONDS are over, then the
// request dropped; after the server's grace, POST /done, whose answer is the server's count.
// out.lie: {seconds, browser_bytes, browser_bps (what left the browser's buffers, per second),
// server: the answer}.
async function lie(browser, seconds) {
  const page = await newPage(browser);
  await page.goto(url, {waitUntil: 'load', timeout: 20000});
  out.lie = await page.evaluate(async (secs) => {
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const st = await (await fetch('/start?time=' + secs, {method: 'POST'})).json();
    if (!st.id) return {error: JSON.stringify(st)};
    const block = new Uint8Array(1 << 20);
    for (let o = 0; o < block.length; o += 65536) crypto.getRandomValues(block.subarray(o, o + 65536));
    const body = new Blob([block, block, block, block], {type: 'application/octet-stream'});
    let loaded = 0;
    const x = new XMLHttpRequest();
    const t0 = performance.now();
    x.upload.onprogress = (e) => { if (performance.now() - t0 <= secs * 1000) loaded = e.loaded; };
    x.onerror = () => {};
    x.open('POST', '/up?id=' + st.id);
    x.send(body);
    await sleep(secs * 1000);
    x.abort();
    await sleep((st.grace_seconds + 0.5) * 1000);
    const server = await (await fetch('/done?id=' + st.id, {method: 'POST'})).json();
    return {seconds: secs, browser_bytes: loaded, browser_bps: loaded * 8 / secs, server: server};
  }, seconds);
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-default-apps'],
});
const guard = setTimeout(() => { out.errors.push('drive.mjs: out of time'); finish(2); },
                         LIMIT_MS + 30000);
let finished = false;
async function finish(code) {
  if (finished) return;
  finished = true;
  clearTimeout(guard);
  fs.writeFileSync(mode === 'abandon' || mode === 'lie' ? a4 : a3, JSON.stringify(out, null, 1));
  try { await browser.close(); } catch (e) { /* already gone */ }
  process.exit(code);
}
try {
  if (mode === 'run') await run(browser, a4);
  else if (mode === 'start') await start(browser);
  else if (mode === 'status') await status(browser);
  else if (mode === 'abandon') await abandon(browser, Number(a3));
  else if (mode === 'lie') await lie(browser, Number(a3));
  else throw new Error('unknown mode ' + mode);
  await finish(0);
} catch (e) {
  out.errors.push('drive.mjs: ' + (e.message || e));
  await finish(1);
}
