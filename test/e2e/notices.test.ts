// Reading at a glance in the real app (browser host, real sandbox, Chromium): a real exchange
// refusal (a sell priced 28 % above the market, inside main's price band, which the sandbox reverts
// PriceOutsideWindow) shows as a trader sentence in an error toast that stays (30 s) in the tape corner
// (clear of the ticket and the ladder), the bell counts it, and the notification centre shows it
// with the raw exchange text behind "Details". Main's own refusal (a price ten times the market,
// beyond the price band) shows in the ticket, nothing signed. Then the fills, open-orders and balances tables: every
// figure cell right-aligned in tabular digits, the decimal points of a column on one vertical line.
// The sandbox's maker is pinned (a fresh full book held still), so the fills come from a known book.
// Screenshots: test-results/screenshots/notices/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, screenshots, waitForFunds } from '../support/terminal-page';

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Per table column: the cells' text, computed alignment and digits, and the x of the decimal point (or of its stand-in space). */
interface ColumnReport {
  readonly column: string;
  readonly texts: string[];
  readonly align: string[];
  readonly numeric: string[];
  readonly points: number[];
}

declare const document: { querySelectorAll(selector: string): ArrayLike<unknown> };

describe.sequential('notices and tables in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let pageErrors: string[];
  const shot = screenshots(() => page, 'notices');

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true });
    ({ page, pageErrors } = terminal);
  }, 180_000);

  afterAll(() => terminal?.close());

  /** Send an order from the ticket and wait for the ticket's answer to it (a result line that was not there before). */
  const place = async (side: 'buy' | 'sell', kind: string, quantity: string, price: string | null) => {
    await waitForFunds(page, 45_000);
    const result = page.getByTestId('ticket-result');
    const before = (await result.count()) > 0 ? await result.textContent() : null;
    await page.getByTestId(`ticket-side-${side}`).click();
    await page.getByTestId('ticket-type').selectOption(kind);
    if (price !== null) await page.getByTestId('ticket-price').fill(price);
    await page.getByTestId('ticket-quantity').fill(quantity);
    await page.getByTestId('ticket-submit').click({ timeout: 45_000 });
    await confirmIfAsked(page);
    await expect.poll(async () => ((await result.count()) > 0 ? await result.textContent() : null), { timeout: 30_000 }).not.toBe(before);
  };

  it('shows a refusal the exchange made as a trader sentence, keeps it longer than an info and in the centre until read, and gives the raw text behind Details', async () => {
    const bestBid = Number((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? 'NaN');
    // 28 % above the market: outside the exchange's price window (at most 25 % on the sandbox's
    // markets), so the exchange reverts it, but inside main's default price band (30 %), which
    // would refuse a price further out before signing.
    const farPrice = Number.isFinite(bestBid) && bestBid > 0 ? ((bestBid / 1e6) * 1.28).toFixed(2) : '3840.00';
    await place('sell', 'Spot', '0.01', farPrice);

    const toast = page.locator('[data-testid=notice][data-level=error]', { hasText: /Order refused/ });
    await toast.first().waitFor({ timeout: 30_000 });
    const toastText = (await toast.first().textContent()) ?? '';
    expect(toastText).toMatch(/Order refused: The price [\d,]+\.\d{2} USDC is more than \d+% away from ETH\/USDC( #\d)?'s last trade/);
    // Written for a trader: no codes, no hex in the toast.
    expect(toastText).not.toMatch(/ONCHAIN_REVERT|PriceOutsideWindow|0x[0-9a-f]{4}/);

    // The toast corner is clear of the ticket and the ladder.
    const toastArea = (await page.getByTestId('toasts').boundingBox())!;
    const ticket = (await page.getByTestId('ticket-area').boundingBox())!;
    const ladder = (await page.locator('.area-ladder').boundingBox())!;
    for (const box of await toast.evaluateAll((nodes) => nodes.map((node) => (node as { getBoundingClientRect(): Box }).getBoundingClientRect()))) {
      expect(overlaps(box, ticket), 'error toast over the ticket').toBe(false);
      expect(overlaps(box, ladder), 'error toast over the ladder').toBe(false);
    }
    expect(toastArea.width).toBeLessThanOrEqual(340);

    // Errors stay longer than infos (30 s against 6 s; the centre keeps them after): still there after the info notices' time.
    await page.waitForTimeout(7_000);
    expect(await toast.count()).toBe(1);
    const bell = page.getByTestId('notices-bell');
    expect(Number(await bell.getAttribute('data-unread'))).toBeGreaterThanOrEqual(1);
    expect(await bell.getAttribute('data-level')).toBe('error');

    await bell.click();
    const centre = page.getByTestId('notification-centre');
    await centre.waitFor();
    const item = centre.locator('[data-testid=centre-notice][data-level=error]', { hasText: /Order refused/ }).first();
    expect(await item.getAttribute('data-code')).toBe('ONCHAIN_REVERT');
    expect(await item.getByTestId('centre-notice-text').textContent()).toMatch(/^The price [\d,]+\.\d{2} USDC is more than \d+% away/);
    expect(await item.getByTestId('notice-details').count()).toBe(0);
    await item.getByTestId('notice-details-toggle').click();
    const details = (await item.getByTestId('notice-details').textContent()) ?? '';
    expect(details).toContain('ONCHAIN_REVERT: ');
    expect(details).toContain('PriceOutsideWindow');
    expect(details).toContain('reason: PriceOutsideWindow');
    await shot('centre-error-details');

    // Seen in the centre: read, the bell's count and the error toast are gone.
    await expect.poll(() => bell.getAttribute('data-unread')).toBe('0');
    expect(await toast.count()).toBe(0);
    await page.getByTestId('notices-close').click();
    await centre.waitFor({ state: 'detached' });
  });

  it("shows main's own refusal in the ticket: a sell at ten times the market is refused by the price band before signing", async () => {
    const bestBid = Number((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? 'NaN');
    const farPrice = Number.isFinite(bestBid) && bestBid > 0 ? ((bestBid / 1e6) * 10).toFixed(2) : '30000.00';
    await place('sell', 'Spot', '0.01', farPrice);
    const result = page.getByTestId('ticket-result');
    expect(await result.getAttribute('data-code')).toBe('GUARD_PRICE_BAND');
    expect(await result.textContent()).toMatch(/above the reference .* beyond your price band of 30 % \(3000 bps\).*Nothing was signed/);
    await shot('ticket-price-band');
  });

  it('lines up the figures of the fills, open-orders and balances tables on the decimal point', async () => {
    // Market buys take the pinned maker's offers: fills for sure (a market sell may find no bid at its bound).
    await place('buy', 'Market', '0.05', null);
    await place('buy', 'Market', '0.0123', null);
    const bid = Number((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? 'NaN');
    const restPrice = Number.isFinite(bid) && bid > 0 ? ((bid / 1e6) * 0.95).toFixed(2) : '2500.00';
    await place('buy', 'Spot', '0.02', restPrice);
    await place('buy', 'Spot', '1.5', (Number(restPrice) - 1).toFixed(2));

    const columns = async (root: string): Promise<ColumnReport[]> =>
      page.evaluate((selector) => {
        interface Cell {
          getAttribute(name: string): string | null;
          textContent: string | null;
          firstChild: unknown;
        }
        const win = globalThis as unknown as {
          getComputedStyle(node: unknown): { textAlign: string; fontVariantNumeric: string };
          document: { createRange(): { setStart(node: unknown, offset: number): void; setEnd(node: unknown, offset: number): void; getBoundingClientRect(): { x: number } } };
        };
        const cells = Array.from(document.querySelectorAll(`${selector} td[data-column]`)) as Cell[];
        const byColumn = new Map<string, Cell[]>();
        for (const cell of cells) {
          const text = cell.textContent ?? '';
          if (text.trim() === '' || text === '—') continue;
          const key = cell.getAttribute('data-column') ?? '';
          byColumn.set(key, [...(byColumn.get(key) ?? []), cell]);
        }
        return [...byColumn].map(([column, list]) => ({
          column,
          texts: list.map((cell) => cell.textContent ?? ''),
          align: list.map((cell) => win.getComputedStyle(cell).textAlign),
          numeric: list.map((cell) => win.getComputedStyle(cell).fontVariantNumeric),
          points: list.map((cell) => {
            const text = cell.textContent ?? '';
            const index = Math.max(text.indexOf('.'), text.indexOf('\u2008'));
            if (index < 0 || cell.firstChild === null) return -1;
            const range = win.document.createRange();
            range.setStart(cell.firstChild, index);
            range.setEnd(cell.firstChild, index + 1);
            return range.getBoundingClientRect().x;
          }),
        }));
      }, root);

    const check = (table: string, reports: ColumnReport[], expected: readonly string[]) => {
      expect(reports.map((report) => report.column).sort(), table).toEqual(expect.arrayContaining([...expected]));
      for (const report of reports) {
        const label = `${table} ${report.column}: ${JSON.stringify(report.texts)}`;
        expect(new Set(report.align), label).toEqual(new Set(['right']));
        for (const numeric of report.numeric) expect(numeric, label).toContain('tabular-nums');
        for (const text of report.texts) expect(text, label).toMatch(/^\d{1,3}(,\d{3})*([.\u2008][\d\u2007]+)?$/);
        const widths = report.texts.map((text) => {
          const point = Math.max(text.indexOf('.'), text.indexOf('\u2008'));
          return point < 0 ? 0 : text.length - point - 1;
        });
        expect(new Set(widths).size, `${label}: fraction widths ${widths.join(',')}`).toBe(1);
        const points = report.points.filter((x) => x >= 0);
        if (points.length > 1) expect(Math.max(...points) - Math.min(...points), `${label}: decimal points at ${points.join(', ')}`).toBeLessThan(0.6);
      }
    };

    await page.getByTestId('tab-fills').click();
    await expect.poll(() => page.getByTestId('fill-row').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const fills = await columns('[data-testid=fills]');
    check('fills', fills, ['price', 'quantity']);
    expect(fills.find((report) => report.column === 'quantity')?.texts.length).toBeGreaterThanOrEqual(2);
    await shot('fills-aligned');

    await page.getByTestId('tab-orders').click();
    await expect.poll(() => page.getByTestId('open-order-row').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const orders = await columns('[data-testid=open-orders]');
    check('open orders', orders, ['price', 'quantity', 'filled']);
    expect(orders.find((report) => report.column === 'price')?.texts.length).toBeGreaterThanOrEqual(2);
    await shot('open-orders-aligned');

    await page.getByTestId('tab-balances').click();
    await expect.poll(() => page.getByTestId('balance-row').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const balances = await columns('[data-testid=balances]');
    check('balances', balances, ['on-account', 'in-books', 'available', 'locked', 'total']);
    await shot('balances-aligned');
    expect(pageErrors).toEqual([]);
  });
});
