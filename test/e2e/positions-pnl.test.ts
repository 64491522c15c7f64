// P&L display and close by limit in the real app (browser host, real sandbox, Chromium): the mark
// source and unit chosen for a market in Positions (the mid, in ticks) are what the Positions row,
// the ladder's foot and the chart's position line show, under one name and with one figure; the
// choice survives a reload (main's settings). Then the ladder foot's `Limit 50` rests a post-only
// sell of half the position at the best ask after a confirmation saying so. The maker is pinned.
// Screenshots go to test-results/screenshots/positions.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../support/chromium';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked } from '../support/terminal-page';

describe.sequential('P&L display per market and close by limit in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let pageErrors: string[];
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, 'positions', `${name}.png`) });

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true, funds: true });
    ({ page, pageErrors } = terminal);
  }, 180_000);

  afterAll(() => terminal?.close());

  it('shows one figure, one mark name and one unit in Positions, the ladder foot and the chart, as chosen for the market', async () => {
    await page.getByTestId('ticket-type').selectOption('Market');
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-quantity').fill('0.05');
    await page.getByTestId('ticket-submit').click({ timeout: 20_000 });
    await confirmIfAsked(page, 5000);
    await page.getByTestId('ticket-result').waitFor({ timeout: 20_000 });
    await page.getByTestId('tab-positions').click();
    const row = page.getByTestId('position-row').first();
    await row.waitFor({ timeout: 30_000 });
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(0n);
    // The default: the exit side (a long's bid), in percent.
    await expect.poll(() => row.getAttribute('data-mark-side'), { timeout: 20_000 }).toBe('bid');
    expect(await row.getAttribute('data-pnl-unit')).toBe('percent');

    await row.getByTestId('position-mark-source').selectOption('mid');
    await row.getByTestId('position-pnl-unit').selectOption('ticks');
    await expect.poll(() => row.getAttribute('data-mark-side'), { timeout: 10_000 }).toBe('mid');
    await expect.poll(() => row.getAttribute('data-pnl-unit')).toBe('ticks');
    const foot = page.getByTestId('ladder-position');
    const chart = page.getByTestId('chart-position');
    // One figure, one name, one unit: sampled until the panels agree at one moment (a frame apart at most).
    const shown = async () => {
      const [rowRaw, footRaw, chartRaw] = await Promise.all([row.getAttribute('data-unrealized'), foot.getAttribute('data-unrealized'), chart.getAttribute('data-unrealized')]);
      const [rowUnit, footUnit] = await Promise.all([row.getByTestId('position-unrealized-unit').textContent(), foot.getByTestId('ladder-unrealized-unit').textContent()]);
      const label = ((await chart.getByTestId('chart-line-label').textContent()) ?? '').trim();
      const names = [await row.getAttribute('data-mark-side'), await foot.getAttribute('data-mark-side'), await chart.getAttribute('data-mark-side'), (await foot.getByTestId('ladder-mark-name').textContent())?.trim()];
      const unit = rowUnit?.trim() ?? '';
      const agree = rowRaw !== '' && rowRaw === footRaw && rowRaw === chartRaw && unit === footUnit?.trim() && /ticks$/.test(unit) && label.includes(`${unit} @ mid`) && names.every((name) => name === 'mid');
      return { agree, rowRaw, footRaw, chartRaw, rowUnit: unit, footUnit: footUnit?.trim(), label, names };
    };
    // One figure, one name, one unit: sampled until the panels agree at one moment (a frame apart at most).
    await expect.poll(async () => { const now = await shown(); return now.agree ? 'agree' : JSON.stringify(now); }, { timeout: 20_000 }).toBe('agree');
    await shot('01-mid-in-ticks');

    // Main keeps the choice: after a reload the market is still marked at the mid, in ticks.
    await page.reload();
    await page.getByTestId('tab-positions').click();
    const again = page.getByTestId('position-row').first();
    await again.waitFor({ timeout: 30_000 });
    await expect.poll(() => again.getAttribute('data-mark-side'), { timeout: 20_000 }).toBe('mid');
    expect(await again.getAttribute('data-pnl-unit')).toBe('ticks');
    expect(await again.getByTestId('position-mark-source').inputValue()).toBe('mid');
  }, 180_000);

  it("closes half by limit from the ladder foot: a post-only sell at the best ask, stated before it is sent", async () => {
    const row = page.getByTestId('position-row').first();
    const held = BigInt((await row.getAttribute('data-size')) ?? '0');
    // The pinned maker quotes its level again at every interval (2 s) after the buy took it: until it
    // has, the best ask moves back under the dialog, and main rightly refuses a touch that moved.
    // The book is read until its best ask holds for longer than one interval.
    const bestAsk = () => page.locator('[data-testid=ladder] [data-testid=ladder-row].best-ask').first().getAttribute('data-price');
    for (let settled = false; !settled; ) {
      const first = await bestAsk();
      await page.waitForTimeout(2_500);
      settled = first !== null && first === (await bestAsk());
    }
    await page.getByTestId('ladder-close-limit-50').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Close 50 % by limit of ETH\/USDC[^(]* \(Canonical book\)/);
    expect(question).toMatch(/Sell 0\.\d+ ETH on ETH\/USDC, Canonical book, post-only at [\d,]+\.\d+ USDC \(the best ask, joining it\)/);
    expect(question).toContain('the venue has no reduce-only flag');
    await shot('02-close-half-by-limit-confirm');
    await page.getByTestId('confirm-accept').click();
    await page.getByText(/Close 50 % by limit of ETH\/USDC[^:]* Canonical: placed in one signed batch/).waitFor({ timeout: 20_000 });
    // It rests: the open orders list it as a post-only sell, and the position is unchanged.
    await page.getByTestId('tab-orders').click();
    await expect.poll(async () => (await page.getByTestId('open-order-row').allTextContents()).join(' | '), { timeout: 20_000 }).toMatch(/Sell/);
    await page.getByTestId('tab-positions').click();
    expect(BigInt((await page.getByTestId('position-row').first().getAttribute('data-size')) ?? '0')).toBe(held);
    await shot('03-close-by-limit-resting');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
