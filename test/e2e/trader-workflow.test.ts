// The trader's workflow in the real app (browser host, real sandbox, Chromium): positions from the
// fills with flatten (its confirmation names the book and the signing account), and amending a
// resting order from the open-orders table (cancel and create in one signed batch, the new order
// id shown). The sandbox's maker is pinned (a fresh full book held still), so the buys fill from a
// known book. Screenshots go to test-results/screenshots/workflow.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../support/chromium';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked as confirmOn } from '../support/terminal-page';

/** The page's document as functions sent to the page see it (test files compile without the DOM library). */
interface PageElement {
  getBoundingClientRect(): { readonly left: number; readonly right: number };
  closest(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  readonly clientWidth: number;
  readonly scrollWidth: number;
  scrollLeft: number;
  readonly textContent: string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };
declare const window: { readonly innerWidth: number };

/** The window's size when the app opens it (main/platform/windows.ts). */
const DEFAULT_WINDOW = { width: 1440, height: 900 };

/**
 * Where the Positions table's columns end against what the blotter shows of them: the right edge of
 * the last header cell, and the edges of the table's visible area (its scrolling box without a scroll
 * bar, inside the window), with the box's horizontal scroll; `scrolledToEnd` scrolls it right first.
 */
function positionsColumns(page: Page, scrolledToEnd = false) {
  return page.evaluate((toEnd) => {
    const table = document.querySelector('[data-testid=positions] table');
    const body = document.querySelector('[data-testid=positions-scroll]');
    if (!table || !body) return null;
    if (toEnd) body.scrollLeft = body.scrollWidth;
    const first = table.querySelectorAll('tbody td.position-name')[0];
    const headers = table.querySelectorAll('thead th');
    const last = headers[headers.length - 1]!;
    const widths = Array.from(headers, (header) => `${header.textContent?.trim() ?? ''} ${Math.round(header.getBoundingClientRect().right - header.getBoundingClientRect().left)}`);
    return {
      widths: widths.join(', '),
      last: last.textContent?.trim() ?? '',
      lastRight: Math.round(last.getBoundingClientRect().right),
      visibleRight: Math.round(Math.min(body.getBoundingClientRect().left + body.clientWidth, window.innerWidth)),
      visibleLeft: Math.round(body.getBoundingClientRect().left),
      firstLeft: first ? Math.round(first.getBoundingClientRect().left) : null,
      scrollLeft: body.scrollLeft,
    };
  }, scrolledToEnd);
}

describe.sequential('trader workflow in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let pageErrors: string[];

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, 'workflow', `${name}.png`) });
  const confirmIfAsked = () => confirmOn(page, 5000);
  const placeFromTicket = async (quantity: string, priceButton: 'ticket-price-bid' | 'ticket-price-ask' | null, side: 'buy' | 'sell') => {
    await page.getByTestId(`ticket-side-${side}`).click();
    await page.getByTestId('ticket-quantity').fill(quantity);
    if (priceButton !== null) await page.getByTestId(priceButton).click();
    await page
      .getByTestId('ticket-submit')
      .click({ timeout: 20_000 })
      .catch(async (error: unknown) => {
        await shot('00-ticket-disabled');
        throw error;
      });
    await confirmIfAsked();
    // The order's outcome is in (the ticket is no longer sending): the next step reads what it did.
    await expect.poll(async () => (await page.getByTestId('ticket-submit').textContent()) ?? '', { timeout: 20_000 }).not.toMatch(/Sending…|Confirm in the dialog…/);
  };

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true, funds: true });
    ({ page, pageErrors } = terminal);
  }, 180_000);

  afterAll(() => terminal?.close());

  it('shows the position built by fills, with entry, mark and P&L in the market decimals, and flattens it after a confirmation naming book and account', async () => {
    // Market orders: nothing rests, so the position is only what filled.
    await page.getByTestId('ticket-type').selectOption('Market');
    await placeFromTicket('0.05', null, 'buy');
    await page.getByTestId('ticket-result').waitFor({ timeout: 20_000 });
    await placeFromTicket('0.05', null, 'buy');
    await placeFromTicket('0.05', null, 'buy');
    await page.getByTestId('tab-positions').click();
    const row = page.getByTestId('position-row').first();
    await row.waitFor({ timeout: 30_000 });
    // The maker's book is pinned, but a market order still takes only what the book offers within
    // its bound: the sale is a quarter of what was bought (ETH has 9 decimals), so the position stays long.
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(4_000_000n); // 0.004 ETH: a quarter of it is above the minimum order
    // The position after all three buys: a read that includes every fill the window has seen (not
    // stale), the same size on two reads a refresh apart. Reading it earlier took the first buys only,
    // and the last one's fill then landed after the sale (the size grew past what was "bought").
    const settled = async () => {
      const first = await row.getAttribute('data-size');
      await page.waitForTimeout(3_500);
      return (await row.getAttribute('data-stale')) === '' && first === (await row.getAttribute('data-size')) ? first : null;
    };
    await expect.poll(settled, { timeout: 30_000, interval: 0 }).not.toBeNull();
    const bought = BigInt((await row.getAttribute('data-size')) ?? '0');
    const quarter = bought / 4n - ((bought / 4n) % 100_000n); // the quantity step, 0.0001 ETH
    await placeFromTicket(`0.${quarter.toString().padStart(9, '0').replace(/0+$/, '')}`, null, 'sell');
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 20_000 }).toBeLessThan(bought);
    await expect.poll(async () => Number((await row.getAttribute('data-size')) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('positions').getAttribute('data-freshness'), { timeout: 20_000 }).toBe('live');
    // Entry and mark carry the quote's meaningful decimals; P&L is signed.
    const entry = (await row.getByTestId('position-entry').textContent())!.trim();
    expect(entry).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);
    expect((await row.getByTestId('position-mark').textContent())!.trim()).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);
    expect((await row.getByTestId('position-unrealized').textContent())!.trim()).toMatch(/^[+-]?\d{1,3}(,\d{3})*\.\d+$/);
    expect((await row.getByTestId('position-realized').textContent())!.trim()).toMatch(/^[+-]?\d{1,3}(,\d{3})*\.\d+$/);
    await expect.poll(async () => (await row.textContent()) ?? '').toMatch(/Canonical.*Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}\s*Flatten\s*25%\s*50%\s*75%\s*Reverse\s*Limit\s*25%\s*50%\s*75%\s*100%\s*TP\/SL\s*\+0\.\d+/);
    await shot('01-positions');
    // At the window's default size every column is in the blotter's view, the last one included.
    await page.setViewportSize(DEFAULT_WINDOW);
    await expect.poll(async () => (await positionsColumns(page))?.last).toBe('Fees');
    const columns = (await positionsColumns(page))!;
    await shot('01b-positions-default-window');
    expect(columns.scrollLeft).toBe(0);
    expect(columns.lastRight, `the last column (${columns.last}) ends at ${columns.lastRight} px, the blotter shows up to ${columns.visibleRight} px (columns: ${columns.widths})`).toBeLessThanOrEqual(columns.visibleRight);
    // Narrower, the table scrolls sideways in the blotter, its first column (market, book, account,
    // Flatten) staying in view: scrolled to the end, the last column is in view and so is the first.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await positionsColumns(page))?.last).toBe('Fees');
    const scrolled = (await positionsColumns(page, true))!;
    await shot('01c-positions-narrow-scrolled');
    expect(scrolled.scrollLeft, `the table is wider than the blotter at 1280 px (columns: ${scrolled.widths})`).toBeGreaterThan(0);
    expect(scrolled.lastRight).toBeLessThanOrEqual(scrolled.visibleRight);
    expect(scrolled.firstLeft).toBe(scrolled.visibleLeft);
    await page.setViewportSize({ width: 1600, height: 1000 });

    const before = BigInt((await row.getAttribute('data-size')) ?? '0');
    await row.getByTestId('flatten-position').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Flatten .*\(Canonical book\)/);
    // The dialog states the size main's plan sells (on the step) and what it leaves, if anything.
    const closeQuantity = BigInt((await row.getAttribute('data-close-quantity')) ?? '0');
    const closeRemainder = BigInt((await row.getAttribute('data-close-remainder')) ?? '0');
    const ethText = (raw: bigint) => `0.${raw.toString().padStart(9, '0')}`.replace(/0+$/, '').replace(/\.$/, '');
    expect(question).toContain(`Sell ${ethText(closeQuantity)} ETH on`);
    if (closeRemainder !== 0n) expect(question).toContain(`leaves ${ethText(closeRemainder)} ETH, below the 0.0001 ETH size step: no order can close it`);
    expect(question).toMatch(/Signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}; one signed batch/);
    await shot('02-flatten-confirm');
    await page.getByTestId('confirm-accept').click();
    await page.getByText(/Flatten: 1 of 1 closing order placed in 1 signed batch \(0x[0-9a-f]{6}…[0-9a-f]{4}\)/).waitFor({ timeout: 20_000 });
    // The bounded close sells what the book holds within 1 % of the bid (the maker is pinned and deep):
    // the position goes down to the remainder the dialog stated, which stays listed, marked, with what
    // can be done about it.
    await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 30_000 }).toBeLessThan(before);
    if (closeRemainder !== 0n) {
      await expect.poll(async () => BigInt((await row.getAttribute('data-size')) ?? '0'), { timeout: 30_000 }).toBe(closeRemainder);
      expect(await row.getAttribute('data-remainder')).toBe('true');
      expect(await row.getByTestId('flatten-position').isDisabled()).toBe(true);
      const note = page.getByTestId('position-remainder-note').first();
      await note.waitFor();
      expect(await note.textContent()).toMatch(/Remainder \+0\.0000\d+ ETH: [\d.]+ ETH is below the 0\.0001 ETH size step: no order can close it\. It stays in your ETH balance/);
      expect(await page.getByTestId('positions-count').textContent()).toMatch(/0 open · 1 remainder/);
    }
    await shot('03-positions-remainder');
    await page.getByTestId('positions-show-flat').check();
    await page.getByTestId('position-row').first().waitFor();
    await page.getByTestId('positions-show-flat').uncheck();
    expect(pageErrors).toEqual([]);
  });
  it('amends a resting order from the open-orders table in one signed batch, after a confirmation naming book and signer, and shows the new order id', async () => {
    // A post-only buy 90 USDC (3 %) under the bid rests, out of the market maker's reach.
    await page.getByTestId('ticket-type').selectOption('PostOnly');
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-price-bid').click();
    const bid = (await page.getByTestId('ticket-price').inputValue()).replaceAll(',', '');
    const [whole, fraction = ''] = bid.split('.');
    const cents = BigInt(whole!) * 100n + BigInt((fraction + '00').slice(0, 2));
    const show = (value: bigint) => `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;
    const grouped = (value: bigint) => show(value).replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ',');
    await page.getByTestId('ticket-price').fill(show(cents - 9_000n));
    await page.getByTestId('ticket-quantity').fill('0.05');
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked();
    await page.getByTestId('tab-orders').click();
    const row = page.getByTestId('open-order-row').first();
    await row.waitFor({ timeout: 20_000 });
    const oldId = (await row.getAttribute('data-order-id'))!;

    await row.getByTestId('amend-order').click();
    await row.getByTestId('amend-price').fill(show(cents - 8_500n));
    await row.getByTestId('amend-quantity').fill('0.08');
    await shot('04-amend-editing');
    await row.getByTestId('amend-save').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Buy 0\.05 ETH at [\d,]+\.\d{2} → 0\.08 ETH at [\d,]+\.\d{2} USDC/);
    expect(question).toMatch(/Canonical book · signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}/);
    expect(question).toMatch(/one signed batch/);
    await shot('05-amend-confirm');
    await page.getByTestId('confirm-accept').click();

    // The old order is gone and one new order rests at the new price and quantity.
    await expect.poll(async () => (await page.getByTestId('open-order-row').first().getAttribute('data-order-id')) ?? oldId, { timeout: 20_000 }).not.toBe(oldId);
    const amended = page.getByTestId('open-order-row').first();
    const newId = (await amended.getAttribute('data-order-id'))!;
    expect(await page.locator(`[data-testid=open-order-row][data-order-id="${oldId}"]`).count()).toBe(0);
    expect(await page.getByTestId('open-order-row').count()).toBe(1);
    expect(await amended.textContent()).toContain(grouped(cents - 8_500n));
    expect(await amended.textContent()).toContain('0.08');
    const notice = page.getByText(/Amended: Buy 0\.05 ETH .* new order 0x[0-9a-f]{6}…[0-9a-f]{4} replaces/);
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain(`${newId.slice(0, 8)}…${newId.slice(-4)}`);
    await shot('06-amended');
    expect(pageErrors).toEqual([]);
  });
});

