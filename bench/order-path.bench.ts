// From the click on the ladder to the signed request leaving main, at p99 (target < 5 ms).
//
// The real app in headless Chromium (browser host, real main services) trades on a sandbox
// exchange that runs in its own process behind a loopback proxy on a thread of its own. The page stamps
// each click (pointerdown, capture phase); the proxy stamps the arrival of each signed
// POST /v1/session/actions, which is the moment the request has left main (loopback adds a few
// microseconds). Both stamps are `performance.timeOrigin + performance.now()` on the same machine
// clock. The peer figure is the bridge alone, measured in the same run: the click to the moment main
// received the page's placeOrder call (the host's bridge record) — the floor every order path pays
// before main's own work (market rules, nonce, journal entry written, signing, rate limiter, the
// HTTP write). The first WARM_UP clicks are traded but not counted. The notes also give the device
// flush alone, measured in the same run on the same file system: every order waits for its journal
// entry to be on the device, so that flush is part of the floor.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeFrame } from '../shared/ipc/codec';
import type { Result } from '../shared/result';
import { startHost } from '../test/support/browser-host';
import { connectBridge } from '../test/support/bridge-client';
import { launchChromium } from '../test/support/chromium';
import { startSandboxProcess } from '../test/support/sandbox-process';

// The first WARM_UP clicks (cold code paths, first connection) are traded but not counted.
const WARM_UP = 5;
const CLICKS = 200;
const PACE_MS = 350; // under the 5 per second signed-request budget, so no click waits in the limiter

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

/**
 * The device flush alone, on the file system of the host's data directory, with the app still
 * running: the journal entry of every order must be on the device before the order leaves, so
 * this is part of the floor under the figure. Same pacing as the journal sees it (idle between
 * flushes), preallocated like the journal so each flush is data-only.
 */
async function flushAlone(directory: string, count: number): Promise<number[]> {
  const fd = openSync(join(directory, 'flush-probe'), 'w+', 0o600);
  try {
    writeSync(fd, Buffer.alloc(1 << 20), 0, 1 << 20, 0);
    fdatasyncSync(fd);
    const line = Buffer.from(`${'x'.repeat(600)}\n`);
    const times: number[] = [];
    for (let index = 0; index < count; index++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      writeSync(fd, line, 0, line.length, index * line.length);
      fdatasyncSync(fd);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    closeSync(fd);
  }
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

// A loopback proxy to the sandbox that stamps each signed order batch as it arrives. It runs on
// its own thread, so neither Playwright nor the market data it relays delays a stamp.
const PROXY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createServer, request } = require('node:http');
const { connect } = require('node:net');
const target = new URL(workerData.target);
const server = createServer((incoming, outgoing) => {
  if (incoming.method === 'POST' && incoming.url === '/v1/session/actions') parentPort.postMessage({ arrival: performance.timeOrigin + performance.now() });
  const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
    outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(outgoing);
  });
  forwarded.on('error', () => outgoing.destroy());
  incoming.pipe(forwarded);
});
server.on('upgrade', (incoming, socket, head) => {
  const upstream = connect(Number(target.port), target.hostname, () => {
    const headers = Object.entries(incoming.headers).map(([name, value]) => name + ': ' + (Array.isArray(value) ? value.join(', ') : value));
    upstream.write(incoming.method + ' ' + incoming.url + ' HTTP/1.1\\r\\n' + headers.join('\\r\\n') + '\\r\\n\\r\\n');
    upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => { server.closeAllConnections(); server.close(() => process.exit(0)); });
`;

async function startProxy(target: URL, arrivals: number[]): Promise<{ url: string; close(): Promise<void> }> {
  const worker = new Worker(PROXY_WORKER, { eval: true, workerData: { target: target.href } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { port?: number; arrival?: number }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.arrival !== undefined) arrivals.push(message.arrival);
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}

export async function run() {
  const sandbox = await startSandboxProcess();
  const arrivals: number[] = [];
  const proxy = await startProxy(new URL(sandbox.url), arrivals);
  const record = join(mkdtempSync(join(tmpdir(), 'lt-order-path-')), 'bridge.log');
  const host = await startHost({ args: ['--exchange-url', proxy.url, '--record-bridge', record] });
  const browser = await launchChromium();
  try {
    const bridge = await connectBridge(host);
    const api = bridge.api;
    for (let attempt = 0; attempt < 100 && !(await api.listMarkets({})).ok; attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
    const markets = value(await api.listMarkets({})).markets;
    value(await api.createOwnerKey({ style: 'ledger' }));
    value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    value(await api.whitelistAccount({}));
    value(await api.createSession({ marketIds: markets.map((market) => market.market_id), days: 1 }));
    value(await api.updateSettings({ confirmOrders: false }));
    bridge.close();

    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(host.url);
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    await page.getByTestId('ticket-quantity').fill('0.1');
    await page.getByTestId('ladder-arm').click();
    await page.evaluate(() => {
      const scope = globalThis as unknown as { __clicks: number[]; addEventListener(type: string, listener: () => void, capture: boolean): void; performance: { timeOrigin: number; now(): number } };
      scope.__clicks = [];
      scope.addEventListener('pointerdown', () => scope.__clicks.push(scope.performance.timeOrigin + scope.performance.now()), true);
    });
    const rows = page.locator('[data-testid=ladder-row]');
    for (let click = 0; click < WARM_UP + CLICKS; click++) {
      const best = await page.locator('[data-testid=ladder-row].best-bid').getAttribute('data-price');
      const bestIndex = await rows.evaluateAll((all, wanted) => all.findIndex((row) => row.getAttribute('data-price') === wanted), best);
      await rows.nth(bestIndex + 3 + (click % 8)).getByTestId('bid-cell').click();
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const flushes = await flushAlone(dirname(record), CLICKS);
    const clicks = await page.evaluate(() => (globalThis as unknown as { __clicks: number[] }).__clicks);
    const received = readFileSync(record, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('in '))
      .map((line) => {
        const time = Number(line.slice(3, line.indexOf(' ', 3)));
        const frame = decodeFrame(line.slice(line.indexOf(' ', 3) + 1)) as { name?: string };
        return { time, name: frame.name };
      })
      .filter((entry) => entry.name === 'placeOrder')
      .map((entry) => entry.time);
    if (received.length !== WARM_UP + CLICKS || arrivals.length !== WARM_UP + CLICKS) {
      throw new Error(`expected ${WARM_UP + CLICKS} orders, got ${received.length} placeOrder calls and ${arrivals.length} signed requests`);
    }
    // The arm toggle's own click was recorded before the handler; the ladder clicks are the last
    // ones, and the measured ones the last CLICKS of those.
    const ladderClicks = clicks.slice(-CLICKS);
    received.splice(0, WARM_UP);
    arrivals.splice(0, WARM_UP);
    const leaving = ladderClicks.map((clicked, index) => arrivals[index]! - clicked);
    const bridged = ladderClicks.map((clicked, index) => received[index]! - clicked);
    const ours = percentile(leaving, 0.99);
    const peer = percentile(bridged, 0.99);
    const round = (figure: number) => Math.round(figure * 1000) / 1000;
    return {
      name: `click on the ladder to the signed request leaving main, p99 (${CLICKS} clicks after ${WARM_UP} unmeasured, headless Chromium, browser host)`,
      unit: 'ms p99',
      ours: round(ours),
      peer: round(peer),
      ratio: round(peer / ours),
      target: '< 5 ms',
      notes: `peer: the bridge alone (click to the call reaching main); p50 ours ${round(percentile(leaving, 0.5))} ms, bridge ${round(percentile(bridged, 0.5))} ms; main's own part p99 ${round(percentile(leaving.map((total, index) => total - bridged[index]!), 0.99))} ms; the journal's device flush alone (same run, same file system) p50 ${round(percentile(flushes, 0.5))} ms, p99 ${round(percentile(flushes, 0.99))} ms`,
    };
  } finally {
    await browser.close();
    await host.stop();
    await proxy.close();
    await sandbox.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
