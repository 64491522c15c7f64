// Partial close and reverse in the real app (browser host, real sandbox, Chromium): a Positions
// row's 50 % closes half the position after a confirmation stating main's plan (the share, its
// rounding, what is left), and Reverse turns the rest into a short of the same size in one signed
// batch. The maker is pinned, so the orders fill from a known book. Screenshots go to
// test-results/screenshots/partial-close.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../support/chromium';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked } from '../support/terminal-page';

const ethText = (raw: bigint) => `0.${raw.toString().padStart(9, '0')}`.replace(/0+$/, '').replace(/\.$/, '');

describe.sequential('partial close and reverse in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let pageErrors: string[];
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, 'partial-close', `${name}.png`) });

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true, funds: true });
    ({ page, pageErrors } = terminal);
  }, 180_000);

  afterAll(() => terminal?.close());

  it('closes 50 % of a position and reverses the rest, each after a confirmation stating what is sent', async () => {
    await page.getByTestId('ticket-type').selectOption('Market');
    for (let round = 0; round < 2; round++) {
      await page.getByTestId('ticket-side-buy').click();
      await page.getByTestId('ticket-quantity').fill('0.05');
      await page.getByTestId('ticket-submit').click({ timeout: 20_000 });
      await confirmIfAsked(page, 5000);
      await page.getByTestId('ticket-result').waitFor({ timeout: 20_000 });
    }
    await page.getByTestId('tab-positions').click();
    const row = page.getByTestId('position-row').first();
    await row.waitFor({ timeout: 30_000 });
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(4_000_000n);
    await expect.poll(() => page.getByTestId('positions').getAttribute('data-freshness'), { timeout: 20_000 }).toBe('live');
    const held = BigInt((await row.getAttribute('data-size')) ?? '0');
    await shot('01-position-tools');
    // At the window's default size the tools line keeps the table inside the blotter (no sideways scroll).
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(() => page.evaluate(() => {
      const box = (globalThis as unknown as { document: { querySelector(selector: string): { scrollWidth: number; clientWidth: number } | null } }).document.querySelector('[data-testid=positions-scroll]');
      return box === null ? null : box.scrollWidth - box.clientWidth;
    })).toBe(0);
    await shot('01b-position-tools-default-window');
    await page.setViewportSize({ width: 1600, height: 1000 });

    await row.getByTestId('close-part-50').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Close 50 % of ETH\/USDC[^(]* \(Canonical book\)/);
    const half = held / 2n;
    const floored = half - (half % 100_000n);
    expect(question).toContain(`Sell ${ethText(floored)} ETH on ETH/USDC, Canonical book`);
    if (floored !== half) expect(question).toContain(`50 % is ${ethText(half)} ETH, rounded down to ${ethText(floored)} ETH`);
    expect(question).toMatch(/Signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}; one signed batch/);
    await shot('02-close-half-confirm');
    await page.getByTestId('confirm-accept').click();
    await page.getByText(/Close 50 % of ETH\/USDC[^:]* Canonical: placed in one signed batch/).waitFor({ timeout: 20_000 });
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 30_000 }).toBe(held - floored);

    const rest = held - floored;
    await row.getByTestId('reverse-position').click();
    await dialog.waitFor();
    const reverse = (await dialog.textContent()) ?? '';
    expect(reverse).toMatch(/Reverse ETH\/USDC[^(]* \(Canonical book\)/);
    const closing = rest - (rest % 100_000n);
    expect(reverse).toContain(`Sell ${ethText(closing)} ETH on ETH/USDC, Canonical book`);
    expect(reverse).toContain(`then Sell ${ethText(closing)} ETH more at the same bound, to open a short of the same size`);
    expect(reverse).toMatch(/one signed batch, both orders or neither/);
    await shot('03-reverse-confirm');
    await page.getByTestId('confirm-accept').click();
    await page.getByText(/Reverse of ETH\/USDC[^:]* Canonical: placed in one signed batch \(0x[0-9a-f]{6}…[0-9a-f]{4}, 0x[0-9a-f]{6}…[0-9a-f]{4}\)/).waitFor({ timeout: 20_000 });
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 30_000 }).toBe(rest - 2n * closing);
    await shot('04-reversed-short');
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
