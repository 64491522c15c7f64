// The Records tab in Chromium against the sandbox: after a buy and a sale from the ticket, the daily
// summary shows the day's trades and realized P&L; the fills export is written by main into the
// data directory's exports folder (the browser host has no save dialog), the tab names its full
// path, and the file, opened, holds one row per trade of the account the sandbox lists
// (GET /v1/trades_by_account), raw figures equal. Screenshots: test-results/screenshots/records/.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseCsv } from '../../shared/records/csv';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, sandboxControl, screenshots, value } from '../support/terminal-page';

interface Trade {
  trade_id: string;
  order_id: string;
  account_side: string;
  price: string;
  quantity: string;
  fee: string;
}

describe.sequential('records in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  const shot = screenshots(() => page, 'records');

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true, funds: true });
    ({ page } = terminal);
  }, 180_000);

  afterAll(() => terminal?.close());

  const trade = async (side: 'buy' | 'sell', quantity: string) => {
    await page.getByTestId('ticket-type').selectOption('Market');
    await page.getByTestId(`ticket-side-${side}`).click();
    await page.getByTestId('ticket-quantity').fill(quantity);
    await page.getByTestId('ticket-submit').click({ timeout: 20_000 });
    await confirmIfAsked(page, 5000);
    await expect.poll(() => page.getByTestId('ticket-result').getAttribute('data-ok'), { timeout: 20_000 }).toBe('true');
  };

  it('shows the day in Records and exports the fills to a file that matches the exchange', async () => {
    await trade('buy', '0.05');
    await trade('sell', '0.02');
    const account = value(await terminal.api.getAccountState({})).tradeAccount!.tradeAccountId;
    const control = await sandboxControl(terminal.api);
    const marketId = (await page.getByTestId('ladder').first().getAttribute('data-market-id'))!;
    const trades = async () => ((await control.get(`/v1/trades_by_account?market_id=${marketId}&contract=${account}&direction=desc&count=50`)).body.trades as Trade[]).reverse();
    await expect.poll(async () => (await trades()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

    await page.getByTestId('tab-records').click();
    const panel = page.getByTestId('records');
    await panel.waitFor();
    const expected = await trades();
    const day = panel.locator(`[data-testid=records-day][data-market-id="${marketId}"][data-turbo=false][data-account-kind=trading]`);
    await expect.poll(async () => Number(await day.first().getAttribute('data-trades')), { timeout: 20_000 }).toBe(expected.length);
    await shot('01-daily-summary');
    // One figure in two panels: the day's realized P&L (every fill of this book is today's) reads
    // as the Positions row's realized P&L, same digits.
    const dayRealized = ((await day.first().locator('td').nth(7).textContent()) ?? '').replace(/\s+[A-Z]+$/, '').trim();
    await page.getByTestId('tab-positions').click();
    const positionRow = page.locator(`[data-testid=position-row][data-market-id="${marketId}"]`).first();
    await expect.poll(async () => ((await positionRow.getByTestId('position-realized').textContent()) ?? '').trim(), { timeout: 20_000 }).toBe(dayRealized);
    await page.getByTestId('tab-records').click();

    await panel.getByTestId('records-market').selectOption(marketId);
    await panel.getByTestId('records-export-fills').click();
    const result = panel.getByTestId('records-export-result');
    await expect.poll(async () => (await result.textContent()) ?? '', { timeout: 20_000 }).toMatch(/^Wrote \d+ rows? to .+\.csv$/);
    const text = (await result.textContent())!;
    const path = text.replace(/^Wrote \d+ rows? to /, '');
    expect(path).toContain('/exports/records-fills-');
    await shot('02-exported');

    const [header, ...rows] = parseCsv(await readFile(path, 'utf8'));
    const column = (name: string) => header!.indexOf(name);
    expect(rows.map((row) => [row[column('trade_id')], row[column('order_id')], row[column('side')], row[column('price_raw')], row[column('quantity_raw')], row[column('fee_raw')]])).toEqual(
      expected.map((one) => [one.trade_id, one.order_id.toLowerCase(), one.account_side, one.price, one.quantity, one.fee]),
    );
    // Raw and display units side by side.
    for (const row of rows) expect(row[column('quantity')]).toMatch(/^\d+(\.\d+)?$/);
  }, 180_000);
});
