// From the click on the ladder to the signed request leaving main, at p99 (target < 5 ms).
//
// The real app in headless Chromium (browser host, real main services) trades on a sandbox
// exchange that runs in its own process behind a loopback proxy in this process. The page stamps
// each click (pointerdown, capture phase); the proxy stamps the arrival of each signed
// POST /v1/session/actions, which is the moment the request has left main (loopback adds a few
// microseconds). Both stamps are `performance.timeOrigin + performance.now()` on the same machine
// clock. The peer figure is the bridge alone, measured in the same run: the click to the moment main
// received the page's placeOrder call (the host's bridge record) — the floor every order path pays
// before main's own work (market rules, nonce, signing, journal flushed to disk, rate limiter).
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeFrame } from '../shared/ipc/codec';
import type { Result } from '../shared/result';
import { startHost } from '../test/support/browser-host';
import { connectBridge } from '../test/support/bridge-client';
import { launchChromium } from '../test/support/chromium';
import { startSandboxProcess } from '../test/support/sandbox-process';

const CLICKS = 60;
const PACE_MS = 350; // under the 5 per second signed-request budget, so no click waits in the limiter

const now = () => performance.timeOrigin + performance.now();

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/** A loopback proxy to the sandbox that stamps each signed order batch as it arrives. */
async function startProxy(target: URL, arrivals: number[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (incoming.method === 'POST' && incoming.url === '/v1/session/actions') arrivals.push(now());
    const forwarded = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  server.on('upgrade', (incoming: IncomingMessage, socket, head: Buffer) => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(incoming.headers).map(([name, header]) => `${name}: ${Array.isArray(header) ? header.join(', ') : header}`);
      upstream.write(`${incoming.method} ${incoming.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
    for (let click = 0; click < CLICKS; click++) {
      const best = await page.locator('[data-testid=ladder-row].best-bid').getAttribute('data-price');
      const bestIndex = await rows.evaluateAll((all, wanted) => all.findIndex((row) => row.getAttribute('data-price') === wanted), best);
      await rows.nth(bestIndex + 3 + (click % 8)).getByTestId('bid-cell').click();
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
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
    // The arm toggle's own click was recorded before the handler; the ladder clicks are the last CLICKS.
    const ladderClicks = clicks.slice(-CLICKS);
    if (received.length !== CLICKS || arrivals.length !== CLICKS) {
      throw new Error(`expected ${CLICKS} orders, got ${received.length} placeOrder calls and ${arrivals.length} signed requests`);
    }
    const leaving = ladderClicks.map((clicked, index) => arrivals[index]! - clicked);
    const bridged = ladderClicks.map((clicked, index) => received[index]! - clicked);
    const ours = percentile(leaving, 0.99);
    const peer = percentile(bridged, 0.99);
    const round = (figure: number) => Math.round(figure * 1000) / 1000;
    return {
      name: `click on the ladder to the signed request leaving main, p99 (${CLICKS} clicks, headless Chromium, browser host)`,
      unit: 'ms p99',
      ours: round(ours),
      peer: round(peer),
      ratio: round(peer / ours),
      target: '< 5 ms',
      notes: `peer: the bridge alone (click to the call reaching main); p50 ours ${round(percentile(leaving, 0.5))} ms, bridge ${round(percentile(bridged, 0.5))} ms; main's own part p99 ${round(percentile(leaving.map((total, index) => total - bridged[index]!), 0.99))} ms`,
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
