// Figures shown in two places agree, in Chromium against the sandbox with its moving market maker:
// after a buy that fills (a position, and the fee in base left unsettled in the book), the
// ladder's foot, its P&L column at the bid, the chart's position line and the Positions panel show
// one unrealized P&L at every moment, and the Balances panel, the Funds panel and the ticket's
// Available show the same balance figures under the same names, in one precision, in columns that
// add up (test/support/trader-session/consistency.ts). Sampled for a few seconds while the bid moves:
// one disagreeing sample fails, unless the disagreement is gone a few frames later (two panels fed
// by two subscriptions of one book repaint on their own frames).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, screenshots } from '../support/terminal-page';
import { consistencyProblems } from '../support/trader-session/consistency';
import { readFigures, type PageFigures } from '../support/trader-session/screen';

describe.sequential('figures agree across panels', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let markets: Market[];
  const shot = screenshots(() => page, 'figures');

  beforeAll(async () => {
    terminal = await openTerminal({ onboard: true, bridge: true });
    ({ page } = terminal);
    markets = await terminal.markets();
  });

  afterAll(() => terminal?.close());

  /** Sample the page `count` times, `everyMs` apart; every sample's disagreements, with what it saw. */
  const sample = async (count: number, everyMs: number, need: (figures: PageFigures) => boolean) => {
    const problems: string[] = [];
    let seen = 0;
    for (let index = 0; index < count; index++) {
      const figures = await readFigures(page);
      if (need(figures)) {
        seen++;
        const context = { markets, selected: { market: markets[0]!, turbo: false } };
        let found = consistencyProblems(figures, context);
        if (found.length > 0) {
          // Two panels fed by two subscriptions of one book repaint on their own frames: a read
          // can fall between them. A disagreement counts when it is still there a few frames on.
          await page.waitForTimeout(250);
          const again = await readFigures(page);
          const still = new Set(consistencyProblems(again, context).map((problem) => problem.slice(0, problem.indexOf(':'))));
          found = found.filter((problem) => still.has(problem.slice(0, problem.indexOf(':'))));
        }
        problems.push(...found.map((problem) => `sample ${index}: ${problem}`));
      }
      await page.waitForTimeout(everyMs);
    }
    return { problems, seen };
  };

  it('one unrealized P&L in the ladder foot, the ladder row at the bid, the chart line and Positions, as the bid moves', async () => {
    await page.getByTestId('ticket-type').selectOption('Spot');
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-quantity').fill('0.1');
    await page.getByTestId('ticket-price-ask').click();
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked(page, 5000);
    await page.getByTestId('tab-positions').click();
    await page.getByTestId('ladder-position').waitFor({ timeout: 30_000 });
    await page.getByTestId('position-row').first().waitFor({ timeout: 30_000 });
    await page.mouse.move(5, 5);
    // Past the fill's read: the figures are live.
    await expect.poll(async () => (await page.getByTestId('ladder-position').getAttribute('data-stale')) ?? 'none', { timeout: 20_000 }).toBe('');
    const { problems, seen } = await sample(30, 200, (figures) => figures.ladderFoot !== null && (figures.positions?.length ?? 0) > 0);
    await shot('positions');
    expect(seen).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('Balances, Funds and the ticket: the same figures under the same names, columns that add up', async () => {
    await page.getByTestId('tab-balances').click();
    await page.getByTestId('balance-row').first().waitFor({ timeout: 20_000 });
    await page.getByTestId('open-funds').click();
    await page.getByTestId('funds-balance').first().waitFor({ timeout: 20_000 });
    const { problems, seen } = await sample(5, 200, (figures) => figures.balances !== null && figures.funds !== null && figures.ticketAvailable !== null);
    await shot('balances-funds');
    const figures = await readFigures(page);
    await page.getByTestId('funds-close').click();
    expect(seen).toBe(5);
    expect(problems).toEqual([]);
    // The buy left its base in the book, unsettled: the ETH row has something "In books".
    const eth = figures.balances!.assets.find((asset) => asset.assetId === markets[0]!.base.asset)!;
    expect(BigInt(eth.columns['in-books']!.raw)).toBeGreaterThan(0n);
  });

  it('one open order count in the tab, the panel and its rows, with orders on another market', async () => {
    // A buy resting 5 % under the bid on the first market, then the second market selected.
    await page.getByTestId('ticket-type').selectOption('Limit');
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-quantity').fill('0.01');
    await page.getByTestId('ticket-price-bid').click();
    const bid = await page.getByTestId('ticket-price').inputValue();
    await page.getByTestId('ticket-price').fill((Number(bid.replace(/,/g, '')) * 0.95).toFixed(2));
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked(page, 5000);
    await page.getByTestId('tab-orders').click();
    await page.getByTestId('open-order-row').first().waitFor({ timeout: 20_000 });
    await page.getByTestId('market-selector').click();
    await page.getByTestId('market-menu').getByTestId('market-row').nth(1).click();
    await page.locator('[data-testid=ladder-row].best-bid').first().waitFor({ timeout: 30_000 });
    const { problems, seen } = await sample(5, 200, (figures) => figures.openOrders?.rows !== null && figures.openOrders?.rows !== undefined && figures.openOrders.rows > 0);
    expect(seen).toBe(5);
    expect(problems).toEqual([]);
  });
});
