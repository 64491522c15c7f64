// Windows and monitors in Chromium through the browser host (real main services, real sandbox):
// a panel detached into a tab of its own and docked back; two windows on one market sharing one
// upstream subscription; a saved layout restored after a display went away; linked windows.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskState } from '../../../shared/ipc/views/desk';
import type { Result } from '../../../shared/result';
import { screenshot } from '../../support/chromium';
import type { RunningHost } from '../../support/browser-host';
import type { BridgeClient } from '../../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../../support/open-terminal';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

const wide = { width: 1400, height: 860 };

async function openMain(context: BrowserContext, host: RunningHost): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(wide);
  await page.goto(host.url);
  // A fresh data directory has no account: setup opens by itself; the workspace is behind it.
  await expect.poll(() => page.getByTestId('close-setup').count(), { timeout: 30_000 }).toBe(1);
  await page.getByTestId('close-setup').click();
  await expect.poll(() => page.getByTestId('ladder-row').count(), { timeout: 30_000 }).toBeGreaterThan(5);
  return page;
}

/** Click a detach button and take the tab it opens. */
async function detach(context: BrowserContext, page: Page, kind: string): Promise<Page> {
  const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), page.getByTestId(`detach-${kind}`).click()]);
  await popup.setViewportSize({ width: 900, height: 760 });
  await popup.waitForLoadState();
  await expect.poll(() => popup.getByTestId('panel-window').getAttribute('data-panel'), { timeout: 20_000 }).toBe(kind);
  return popup;
}

describe('desk: windows and monitors in the browser host', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let browser: Browser;
  let bridge: BridgeClient;

  beforeAll(async () => {
    // Every test opens its own contexts: the page openTerminal opens stays blank.
    terminal = await openTerminal({ host: { args: ['--displays', '0,0,1280,800;1280,0,2560,1440'] }, bridge: true, navigate: false });
    ({ host, browser, bridge } = terminal);
  });

  afterAll(() => terminal?.close());

  const desk = async (): Promise<DeskState> => value(await bridge.api.getDesk({})).state;
  const upstream = async () => value(await bridge.api.getDeskDiagnostics({})).upstream;

  it('accepts a bridge connection with a window key only when the key has the shape main gives', async () => {
    const status = (windowKey: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge?token=${host.token}&window=${encodeURIComponent(windowKey)}`, { origin: host.origin });
        socket.on('open', () => {
          socket.close();
          resolve(101);
        });
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('error', () => resolve(0));
      });
    expect(await status('../../etc')).toBe(400);
    expect(await status('main')).toBe(400);
    // A well-formed key main does not know connects, and learns it is no window of the desk.
    expect(await status('0'.repeat(32))).toBe(101);
    // A stale tab of a window that is gone says so instead of posing as the main window.
    const page = await browser.newPage();
    await page.goto(`${host.url}&window=${'0'.repeat(32)}`);
    await expect.poll(() => page.getByTestId('window-gone').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('workspace').count()).toBe(0);
    await page.close();
  });

  it('detaches the ladder into its own window and docks it back', async () => {
    const context = await browser.newContext();
    const main = await openMain(context, host);
    const ladder = await detach(context, main, 'ladder');
    await expect.poll(() => ladder.getByTestId('ladder-row').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    await expect.poll(() => main.getByTestId('detached-ladder').count()).toBe(1);
    expect(await main.getByTestId('ladder').count()).toBe(0);
    // The detached window shows only its panel and the connection indicator.
    expect(await ladder.getByTestId('connection').count()).toBe(1);
    expect(await ladder.getByTestId('blotter').count()).toBe(0);
    await expect.poll(() => ladder.getByTestId('connection').getAttribute('data-state'), { timeout: 20_000 }).toBe('up');
    await screenshot(main, 'desk-main-with-ladder-detached');
    await screenshot(ladder, 'desk-ladder-window');

    // A reload is not a close: the tab comes back as the same window.
    const key = (await desk()).windows.find((window) => window.panel === 'ladder')?.windowKey;
    await ladder.reload();
    await expect.poll(() => ladder.getByTestId('panel-window').getAttribute('data-panel'), { timeout: 20_000 }).toBe('ladder');
    await expect.poll(() => ladder.getByTestId('ladder-row').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect((await desk()).windows.find((window) => window.panel === 'ladder')).toMatchObject({ windowKey: key, state: 'open' });
    expect(await main.getByTestId('detached-ladder').count()).toBe(1);

    const closed = ladder.waitForEvent('close', { timeout: 15_000 });
    await ladder.getByTestId('dock-window').click();
    await closed;
    await expect.poll(() => main.getByTestId('ladder').count(), { timeout: 15_000 }).toBe(1);
    expect((await desk()).windows.filter((window) => window.panel !== null)).toEqual([]);
    await screenshot(main, 'desk-main-after-dock');
    await context.close();
  });

  it('serves two windows on one market from one upstream subscription, held until the last window closes', async () => {
    await expect.poll(upstream, { timeout: 15_000 }).toEqual({ depth: 0, trades: 0 });
    const context = await browser.newContext();
    const main = await openMain(context, host);
    await expect.poll(upstream, { timeout: 15_000 }).toEqual({ depth: 1, trades: 1 });
    const ladder = await detach(context, main, 'ladder');
    await expect.poll(() => ladder.getByTestId('ladder-row').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    // The ladder window subscribed the same market: still one upstream book and one trade stream.
    const marketId = await ladder.getByTestId('ladder').getAttribute('data-market-id');
    expect(marketId).toBe(await main.getByTestId('market-row').and(main.locator('.selected')).getAttribute('data-market-id'));
    expect(await upstream()).toEqual({ depth: 1, trades: 1 });

    // Close the main window: the ladder window alone keeps the subscription.
    const before = value(await bridge.api.getDeskDiagnostics({})).connections;
    await main.close();
    await expect.poll(async () => value(await bridge.api.getDeskDiagnostics({})).connections, { timeout: 10_000 }).toBe(before - 1);
    expect(await upstream()).toEqual({ depth: 1, trades: 1 });
    await expect.poll(() => ladder.getByTestId('ladder-row').count()).toBeGreaterThan(5);

    // Close the last window on the market: main unsubscribes upstream.
    await ladder.close();
    await expect.poll(upstream, { timeout: 10_000 }).toEqual({ depth: 0, trades: 0 });
    await context.close();
    // The closed tab's window leaves the desk once it has not come back (a reload would have).
    await expect.poll(async () => (await desk()).windows.length, { timeout: 10_000 }).toBe(1);
  });

  it('restores a saved layout after a display went away: the window moves on-screen, its size clamped', async () => {
    const context = await browser.newContext();
    const main = await openMain(context, host);
    let ladder = await detach(context, main, 'ladder');
    const windowKey = (await desk()).windows.find((window) => window.panel === 'ladder')!.windowKey;

    // Put it on the large right display, larger than the left one.
    await ladder.getByTestId('window-display').selectOption('2');
    value(await bridge.api.setWindowBounds({ windowKey, bounds: { x: 1400, y: 100, width: 1600, height: 1000 } }));
    await expect.poll(() => ladder.getByTestId('window-size').textContent()).toBe('1600×1000');
    expect(await ladder.getByTestId('window-display').inputValue()).toBe('2');

    await main.getByTestId('layout-menu').click();
    await main.getByTestId('layout-name').fill('Two screens');
    await main.getByTestId('layout-save').click();
    await expect.poll(() => main.getByTestId('layout-row').count()).toBe(1);
    await screenshot(main, 'desk-layout-menu');
    await main.getByTestId('layout-menu').click();

    // Back to one window, then the right display is unplugged.
    const closed = ladder.waitForEvent('close', { timeout: 15_000 });
    await main.getByTestId('dock-ladder').click();
    await closed;
    // The main window moves to another market; the layout will bring its saved one back.
    const savedMarket = await main.locator('[data-testid=market-row].selected').getAttribute('data-market-id');
    const other = await main.locator('[data-testid=market-row]:not(.selected)').first().getAttribute('data-market-id');
    await main.getByTestId('market-selector').click();
    await main.locator(`[data-testid=market-row][data-market-id="${other}"]`).click();
    await expect.poll(() => main.locator('[data-testid=market-row].selected').getAttribute('data-market-id')).toBe(other);
    value(await bridge.api.setSimulatedDisplays({ displays: [{ id: '1', label: 'Display 1', bounds: { x: 0, y: 0, width: 1280, height: 800 }, workArea: { x: 0, y: 0, width: 1280, height: 800 }, primary: true }] }));

    // Restore the layout: the ladder's window comes back on the remaining display, clamped to it.
    await main.getByTestId('layout-menu').click();
    await main.getByTestId('layout-apply').click();
    await expect.poll(() => main.getByTestId('pending-window').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => main.locator('[data-testid=market-row].selected').getAttribute('data-market-id')).toBe(savedMarket);
    const restored = (await desk()).windows.find((window) => window.panel === 'ladder')!;
    expect(restored).toMatchObject({ displayId: '1', bounds: { x: 0, y: 0, width: 1280, height: 800 }, state: 'opening' });
    await screenshot(main, 'desk-layout-restored-pending');
    const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), main.getByTestId('pending-open').click()]);
    ladder = popup;
    await ladder.setViewportSize({ width: 900, height: 760 });
    await expect.poll(() => ladder.getByTestId('window-place').textContent(), { timeout: 20_000 }).toBe('Display 11280×800');
    await expect.poll(() => ladder.getByTestId('ladder-row').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    await expect.poll(() => main.getByTestId('pending-window').count()).toBe(0);
    await screenshot(ladder, 'desk-ladder-restored-on-display-1');

    // Live: plug the right display back, move the window there, unplug it again.
    value(await bridge.api.setSimulatedDisplays({ displays: [
      { id: '1', label: 'Display 1', bounds: { x: 0, y: 0, width: 1280, height: 800 }, workArea: { x: 0, y: 0, width: 1280, height: 800 }, primary: true },
      { id: '2', label: 'Display 2', bounds: { x: 1280, y: 0, width: 2560, height: 1440 }, workArea: { x: 1280, y: 0, width: 2560, height: 1440 }, primary: false },
    ] }));
    value(await bridge.api.setWindowBounds({ windowKey: restored.windowKey, bounds: { x: 2000, y: 200, width: 1000, height: 700 } }));
    await expect.poll(() => ladder.getByTestId('window-display').inputValue()).toBe('2');
    value(await bridge.api.setSimulatedDisplays({ displays: [{ id: '1', label: 'Display 1', bounds: { x: 0, y: 0, width: 1280, height: 800 }, workArea: { x: 0, y: 0, width: 1280, height: 800 }, primary: true }] }));
    await expect.poll(() => ladder.getByTestId('window-place').textContent()).toBe('Display 11000×700');
    expect((await desk()).windows.find((window) => window.windowKey === restored.windowKey)?.bounds).toEqual({ x: 140, y: 50, width: 1000, height: 700 });

    await main.getByTestId('dock-ladder').click();
    await context.close();
  });

  it('links windows by colour: a market chosen in one drives its group, an unlinked window keeps its own', async () => {
    const context = await browser.newContext();
    const main = await openMain(context, host);
    const chart = await detach(context, main, 'chart');
    const ids = await main.getByTestId('market-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-market-id') ?? ''));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const selected = async (page: Page) => page.locator('[data-testid=market-row].selected').getAttribute('data-market-id');
    const choose = async (page: Page, marketId: string) => {
      await page.getByTestId('market-selector').click();
      await page.locator(`[data-testid=market-row][data-market-id="${marketId}"]`).click();
    };
    // Both start in the main window's group (green) on its market.
    expect(await chart.getByTestId('link-group').getAttribute('data-group')).toBe('green');
    await expect.poll(() => selected(chart)).toBe(await selected(main));

    // A market chosen in the main window reaches the chart's window, and back.
    await choose(main, ids[1]!);
    await expect.poll(() => selected(chart), { timeout: 10_000 }).toBe(ids[1]);
    await choose(chart, ids[2]!);
    await expect.poll(() => selected(main), { timeout: 10_000 }).toBe(ids[2]);
    // The chart window draws the market it was switched to.
    await expect.poll(async () => (await chart.getByTestId('chart-legend').textContent()) ?? '', { timeout: 20_000 }).not.toMatch(/Waiting for bars/);
    // Named as the main window's selector names it ("ETH/USDC #2" where two markets share the symbols).
    expect(await chart.getByTestId('chart-panel').locator('.muted').first().textContent()).toBe(await main.getByTestId('selected-market').textContent());
    await screenshot(chart, 'desk-linked-chart');

    // Unlinked, the chart keeps its market while the main window moves on.
    await chart.getByTestId('link-group').click();
    await chart.locator('[data-testid=link-group-option][data-group=none]').click();
    await expect.poll(() => chart.getByTestId('link-group').getAttribute('data-group')).toBe('none');
    await choose(main, ids[0]!);
    await expect.poll(() => selected(main)).toBe(ids[0]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await selected(chart)).toBe(ids[2]);

    // Another colour: joining blue, where nobody is yet, keeps its market; the main window joins it and takes it.
    await chart.getByTestId('link-group').click();
    await chart.locator('[data-testid=link-group-option][data-group=blue]').click();
    await main.getByTestId('link-group').click();
    await main.locator('[data-testid=link-group-option][data-group=blue]').click();
    await expect.poll(() => selected(main), { timeout: 10_000 }).toBe(ids[2]);
    await screenshot(main, 'desk-main-linked-blue');
    await context.close();
  });

  it('opens as it was left: windows open when the host stopped come back at the next start', async () => {
    // The previous test's tabs are gone once their reload grace has passed.
    await expect.poll(async () => (await desk()).windows.length, { timeout: 10_000 }).toBe(1);
    const context = await browser.newContext();
    const main = await openMain(context, host);
    await detach(context, main, 'tape');
    const before = (await desk()).windows.find((window) => window.panel === 'tape');
    // Stop the host with the tab still open (the app quitting), then start it again on the same data.
    await terminal.restartHost({ whileDown: () => context.close() });
    ({ host, bridge } = terminal);
    const again = await browser.newContext();
    const page = await openMain(again, host);
    await expect.poll(() => page.getByTestId('pending-window').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-panel'))), { timeout: 15_000 }).toEqual(['tape']);
    expect(await page.getByTestId('detached-tape').count()).toBe(1);
    expect((await desk()).windows.find((window) => window.panel === 'tape')).toMatchObject({ bounds: before?.bounds, linkGroup: before?.linkGroup, marketId: before?.marketId, state: 'opening' });
    await screenshot(page, 'desk-restored-at-start');
    const [tab] = await Promise.all([again.waitForEvent('page', { timeout: 15_000 }), page.getByTestId('pending-open').click()]);
    await expect.poll(() => tab.getByTestId('tape-row').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await again.close();
  });
});
