import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Browser } from 'playwright-core';
import { screenshot } from '../support/chromium';
import type { RunningHost } from '../support/browser-host';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';

/** Try to open the bridge socket; resolve with the HTTP status of a refusal, or 101 when accepted. */
function bridgeStatus(url: string, origin: string | undefined): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => resolve(0));
  });
}

describe('browser host: market list against the embedded sandbox', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let browser: Browser;

  beforeAll(async () => {
    // Each test opens its own page: the one openTerminal opens stays blank.
    terminal = await openTerminal({ navigate: false });
    ({ host, browser } = terminal);
  });

  afterAll(() => terminal?.close());

  it('shows the sandbox markets and a live connection indicator', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(host.url);
    const rows = page.getByTestId('market-row');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.getByTestId('connection').getAttribute('data-state'), { timeout: 20_000 }).toBe('up');
    await expect.poll(async () => (await page.getByTestId('latency').textContent()) ?? '', { timeout: 20_000 }).toMatch(/\d+ ms/);
    const pairs = await page.locator('[data-testid=market-row] .pair').allTextContents();
    expect(pairs.every((pair) => /^\S+\/\S+$/.test(pair))).toBe(true);
    await screenshot(page, 'markets');
    await page.close();
  });

  it('refuses a bridge connection without the token, with a wrong token, or from another origin', async () => {
    const base = `${host.origin.replace('http', 'ws')}/bridge`;
    expect(await bridgeStatus(base, host.origin)).toBe(401);
    expect(await bridgeStatus(`${base}?token=${'0'.repeat(64)}`, host.origin)).toBe(401);
    expect(await bridgeStatus(`${base}?token=${host.token}`, 'https://evil.example')).toBe(403);
    expect(await bridgeStatus(`${base}?token=${host.token}`, undefined)).toBe(403);
    expect(await bridgeStatus(`${base}?token=${host.token}`, host.origin)).toBe(101);
  });

  it('a page opened without the token cannot reach main', async () => {
    const page = await browser.newPage();
    await page.goto(host.origin);
    await expect.poll(() => page.locator('#root').textContent(), { timeout: 10_000 }).toMatch(/Cannot reach the terminal/);
    expect(await page.getByTestId('market-row').count()).toBe(0);
    await page.close();
  });
});
