// A position TP/SL in the real app: browser host with the real main services, a sandbox with its
// control surface, Debian's Chromium. A trader buys, sets a take-profit and a stop-loss from the
// Positions row as offsets from the entry (confirmed once); the pair shows on the row, on the
// ladder and on the chart as the position's; a second buy grows it on the exchange.
// Screenshots: test-results/screenshots/position-tpsl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, onboard, screenshots, until, value, waitForBook, waitForFunds } from '../support/terminal-page';

const USDC = 1_000_000n;
/** Ladder rows ten dollars apart: the pair and the market stay in view. */
const ROW = 10n * USDC;

describe.sequential('a position TP/SL in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let page: Page;
  let market: Market;
  const shot = screenshots(() => page, 'position-tpsl');

  const pairLegs = async () => {
    const pair = value(await bridge.api.getPositionBrackets({})).find((bracket) => bracket.marketId === market.market_id);
    const pending = value(await bridge.api.getTriggers({})).pending;
    return pair === undefined ? [] : pending.filter((leg) => pair.legIds.includes(leg.triggerId));
  };

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned' });
    ({ bridge, page } = terminal);
    const markets = await terminal.markets();
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC')!;
  });

  afterAll(() => terminal?.close());

  it('sets TP/SL from the Positions row; the pair is drawn as the position\'s and grows with a fill', async () => {
    await onboard(page);
    await waitForFunds(page);
    await waitForBook(page);
    await page.getByTestId('ladder-precision').selectOption(ROW.toString());
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    const ask = BigInt((await page.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price')) ?? '0');
    value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask + 20n * USDC, quantity: 20_000_000n }));

    // From the Positions row: take-profit 1 % over the entry, stop-loss 1 % under it.
    await page.getByTestId('tab-positions').click();
    const row = page.locator(`[data-testid=position-row][data-market-id="${market.market_id}"][data-turbo=false]`);
    await row.getByTestId('position-bracket-open').click({ timeout: 20_000 });
    await row.getByTestId('position-bracket-unit').selectOption('percent');
    await row.getByTestId('position-bracket-tp').fill('1');
    await row.getByTestId('position-bracket-sl').fill('1');
    // A fill while the trader types: the position changes under the open form, which keeps what was typed.
    const sizeBefore = await row.getAttribute('data-size');
    const askBefore = BigInt((await page.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price')) ?? '0');
    value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: askBefore + 20n * USDC, quantity: 10_000_000n }));
    await expect.poll(() => row.getAttribute('data-size'), { timeout: 20_000 }).not.toBe(sizeBefore);
    expect(await row.getByTestId('position-bracket-tp').inputValue()).toBe('1');
    expect(await row.getByTestId('position-bracket-sl').inputValue()).toBe('1');
    await row.getByTestId('position-bracket-arm').click();
    await confirmIfAsked(page);
    await row.getByTestId('position-bracket-managed').waitFor({ timeout: 20_000 });
    const first = await until(async () => {
      const legs = await pairLegs();
      return legs.length === 2 ? legs : null;
    }, 'the pair pending');
    await expect.poll(() => page.locator('[data-testid=ladder] [data-testid=trigger-marker][data-managed=position]').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(async () => (await page.locator('[data-testid=chart-leg] [data-testid=trigger-marker]').allTextContents()).join(' | '), { timeout: 15_000 }).toMatch(/Position TP Sell.*Position SL Sell|Position SL Sell.*Position TP Sell/);
    await shot('01-position-tpsl-armed');

    // A second buy: main grows the pair to the new position.
    const askNow = BigInt((await page.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price')) ?? '0');
    value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: askNow + 20n * USDC, quantity: 20_000_000n }));
    await until(async () => {
      const legs = await pairLegs();
      return legs.length === 2 && legs.every((leg) => (leg.quantity ?? 0n) > (first[0]!.quantity ?? 0n)) ? legs : null;
    }, 'the pair to grow with the fill', 30_000);
    await expect.poll(async () => (await row.getByTestId('position-bracket-managed').textContent()) ?? '', { timeout: 15_000 }).toMatch(/0\.04|0\.05/);
    await shot('02-position-tpsl-grown');
  }, 240_000);
});
