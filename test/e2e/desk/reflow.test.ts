// Detaching a panel reflows the main window: the panels left take its room (no empty hole), a slim
// strip says where it is; docking it back puts it at its place again. Measured on the page's boxes,
// and screenshots before / detached / docked: test-results/screenshots/desk-reflow.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../support/browser-host';
import { CHROMIUM_DEFAULT_VIEWPORT, openTerminal, type OpenTerminal } from '../../support/open-terminal';
import { screenshots } from '../../support/terminal-page';

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

describe.sequential('detaching reflows the main window', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let context: BrowserContext;
  let main: Page;
  const shot = screenshots(() => main, 'desk-reflow');
  const box = async (testId: string): Promise<Box> => {
    const found = await main.getByTestId(testId).first().boundingBox();
    if (!found) throw new Error(`${testId} is not on the page`);
    return found;
  };
  let before: { workspace: Box; ladder: Box; chart: Box; blotter: Box };

  beforeAll(async () => {
    // Windows the page opens keep Chromium's default size; the main page is set larger. The first test loads it.
    terminal = await openTerminal({ viewport: CHROMIUM_DEFAULT_VIEWPORT, navigate: false });
    ({ host, context, page: main } = terminal);
    await main.setViewportSize({ width: 1400, height: 860 });
  });

  afterAll(() => terminal?.close());

  it('the workspace before: every place filled', async () => {
    await main.goto(host.url);
    await main.getByTestId('close-setup').click({ timeout: 60_000 });
    await expect.poll(() => main.getByTestId('ladder-row').count(), { timeout: 60_000 }).toBeGreaterThan(5);
    before = { workspace: await box('workspace'), ladder: await box('ladder'), chart: await box('chart-panel'), blotter: await box('blotter') };
    expect(await main.getByTestId('workspace').getAttribute('data-gone')).toBe('');
    await shot('01-before');
  });

  it('the ladder detached: the chart and blotter take its width, nothing is left empty', async () => {
    const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), main.getByTestId('detach-ladder').click()]);
    await popup.waitForLoadState();
    await expect.poll(() => popup.getByTestId('panel-window').getAttribute('data-panel'), { timeout: 20_000 }).toBe('ladder');
    await expect.poll(() => main.getByTestId('detached-ladder').count(), { timeout: 15_000 }).toBe(1);
    expect(await main.getByTestId('ladder').count()).toBe(0);
    expect(await main.getByTestId('workspace').getAttribute('data-gone')).toBe('ladder');
    // The strip is slim and on top; the chart now starts at the workspace's left edge and is wider by the ladder's column.
    const strip = await box('dock-strip');
    expect(strip.height).toBeLessThan(40);
    await expect.poll(async () => Math.round((await box('chart-panel')).x - before.workspace.x)).toBeLessThan(12);
    const chart = await box('chart-panel');
    expect(chart.width).toBeGreaterThan(before.chart.width + before.ladder.width * 0.8);
    const blotter = await box('blotter');
    expect(blotter.x).toBeLessThan(before.workspace.x + 12);
    // No hole: the strip and the panels left cover the workspace's width.
    const ticket = await box('ticket-area');
    expect(ticket.x + ticket.width).toBeGreaterThan(before.workspace.x + before.workspace.width - 12);
    await shot('02-ladder-detached');
  });

  it('docking it back restores the ladder at its place', async () => {
    await main.getByTestId('dock-ladder').click();
    await expect.poll(() => main.getByTestId('ladder').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => main.getByTestId('dock-strip').count()).toBe(0);
    await expect.poll(async () => Math.round((await box('ladder')).x)).toBe(Math.round(before.ladder.x));
    const ladder = await box('ladder');
    expect(Math.abs(ladder.width - before.ladder.width)).toBeLessThan(2);
    const chart = await box('chart-panel');
    expect(Math.abs(chart.x - before.chart.x)).toBeLessThan(2);
    expect(Math.abs(chart.width - before.chart.width)).toBeLessThan(2);
    await expect.poll(() => main.getByTestId('ladder-row').count(), { timeout: 30_000 }).toBeGreaterThan(5);
    await shot('03-docked');
  });

  it('the tape detached: the ticket takes the whole right column', async () => {
    const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), main.getByTestId('detach-tape').click()]);
    await popup.waitForLoadState();
    await expect.poll(() => main.getByTestId('detached-tape').count(), { timeout: 15_000 }).toBe(1);
    const ticket = await box('ticket-area');
    const workspace = await box('workspace');
    expect(ticket.y + ticket.height).toBeGreaterThan(workspace.y + workspace.height - 12);
    await shot('04-tape-detached');
    await main.getByTestId('dock-tape').click();
    await expect.poll(() => main.getByTestId('dock-strip').count(), { timeout: 15_000 }).toBe(0);
  });
});
