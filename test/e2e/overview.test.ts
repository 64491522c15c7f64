// The markets overview in Chromium against the sandbox: every market with its ticker figures (live
// and moving when the sandbox trades), sorted, filtered and starred (the star saved in the
// settings through main), and a click that opens the market in the window's ladder and chart; the
// market bar's last price, change and price window; the ladder's order flow; the tape's filters.
// Screenshots: test-results/screenshots/overview/.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { priceTick } from '../../shared/market/tick';
import { SCREENSHOT_DIR } from '../support/chromium';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { screenshots, waitForBook } from '../support/terminal-page';

describe.sequential('markets overview in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  const shot = screenshots(() => page, 'overview');

  beforeAll(async () => {
    // No account needed: market data is public. The setup page that opens by itself is closed.
    terminal = await openTerminal({ maker: 'pinned' });
    ({ page } = terminal);
    await page.getByTestId('close-setup').click();
    await waitForBook(page);
  }, 180_000);

  afterAll(() => terminal?.close());

  it('lists every market with its figures, live, and follows a trade', async () => {
    const markets = await terminal.markets();
    const ladder = page.getByTestId('ladder').first();
    const marketId = (await ladder.getAttribute('data-market-id'))!;
    const market = markets.find((candidate) => candidate.market_id === marketId)!;
    // A trade through the book: the last price, the 24-hour high and the volume come from it.
    const ask = BigInt((await ladder.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price'))!);
    const moved = await terminal.control.post('/control/markets/price', { market_id: market.market_id, price: (ask + 5n * priceTick(market)).toString() });
    expect(moved.status).toBe(200);

    await page.getByTestId('tab-overview').click();
    const panel = page.getByTestId('market-overview');
    await panel.waitFor();
    await expect.poll(() => panel.getByTestId('overview-row').count(), { timeout: 20_000 }).toBe(markets.length);
    await expect.poll(() => panel.getAttribute('data-freshness'), { timeout: 20_000 }).toBe('live');
    const row = panel.locator(`[data-testid=overview-row][data-market-id="${market.market_id}"]`);
    await expect.poll(async () => (await row.locator('[data-column=last]').textContent())?.trim(), { timeout: 20_000 }).not.toBe('—');
    expect((await row.locator('[data-column=volume]').textContent())?.trim()).not.toBe('—');
    expect((await row.locator('[data-column=spread]').textContent())?.trim()).not.toBe('—');
    // The market the window shows is marked.
    await expect.poll(() => row.getAttribute('class')).toMatch(/current/);
    await shot('01-overview');
  }, 120_000);

  it('the market bar shows the last price with its 24-hour change, and the price window beside the other rules', async () => {
    const markets = await terminal.markets();
    const ladder = page.getByTestId('ladder').first();
    const marketId = await ladder.getAttribute('data-market-id');
    const market = markets.find((candidate) => candidate.market_id === marketId)!;
    const bar = page.getByTestId('market-bar');
    await expect.poll(async () => (await bar.getByTestId('market-last').textContent()) ?? '', { timeout: 20_000 }).toMatch(/^last [\d,]+\.\d+/);
    await expect.poll(async () => (await bar.getByTestId('market-change').textContent()) ?? '', { timeout: 20_000 }).toMatch(/%\)$/);
    expect(await bar.getByTestId('book-price-window').textContent()).toBe(`±${market.price_window} %`);
    // The last price is the tape's newest trade.
    const newest = (await page.locator('[data-testid=tape-row] [data-column=price]').first().textContent())?.trim();
    await expect.poll(async () => ((await bar.getByTestId('market-last').textContent()) ?? '').includes(newest ?? '?')).toBe(true);
    await bar.screenshot({ path: join(SCREENSHOT_DIR, 'overview', '03-market-bar.png') });
  }, 60_000);

  it('after a trade the overview\'s Last and the market bar\'s last are one figure, with no ticker read in between', async () => {
    const markets = await terminal.markets();
    const ladder = page.getByTestId('ladder').first();
    const marketId = (await ladder.getAttribute('data-market-id'))!;
    const market = markets.find((candidate) => candidate.market_id === marketId)!;
    await page.getByTestId('tab-overview').click();
    const panel = page.getByTestId('market-overview');
    const row = panel.locator(`[data-testid=overview-row][data-market-id="${marketId}"]`);
    const bar = page.getByTestId('market-bar');
    const figures = async () => ({
      overview: (await row.locator('[data-column=last]').textContent())?.trim() ?? '',
      bar: /^last\s*([\d,]+\.\d+)/.exec((await bar.getByTestId('market-last').textContent()) ?? '')?.[1] ?? '',
    });
    // Every ticker and summary read fails from here: a new figure in the overview can only come
    // from the trade stream, the market bar's source.
    for (const path of ['/v1/markets/ticker', '/v1/markets/summary']) {
      expect((await terminal.control.post('/control/faults/fail', { count: 1000, status: 503, method: 'GET', path_prefix: path })).status).toBe(200);
    }
    try {
      await expect.poll(() => panel.getAttribute('data-freshness'), { timeout: 20_000 }).toBe('stale');
      const before = await figures();
      const bid = BigInt((await ladder.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price'))!);
      expect((await terminal.control.post('/control/markets/price', { market_id: marketId, price: (bid - 4n * priceTick(market)).toString() })).status).toBe(200);
      await expect.poll(async () => (await figures()).bar, { timeout: 20_000 }).not.toBe(before.bar);
      await expect
        .poll(
          async () => {
            const now = await figures();
            return now.overview === now.bar ? 'one figure' : JSON.stringify(now);
          },
          { timeout: 10_000 },
        )
        .toBe('one figure');
      const newest = (await page.locator('[data-testid=tape-row] [data-column=price]').first().textContent())?.trim();
      await expect.poll(async () => (await figures()).overview, { timeout: 10_000 }).toBe(newest);
      await panel.screenshot({ path: join(SCREENSHOT_DIR, 'overview', '06-overview-last-from-trades.png') });
    } finally {
      await terminal.control.post('/control/faults/clear', {});
    }
    // Reads answer again: the panel is live for the tests after this one.
    await expect.poll(() => panel.getAttribute('data-freshness'), { timeout: 20_000 }).toBe('live');
  }, 90_000);

  it('the ladder shows order flow split by taker side, the last trade size, and large lots from the trader size', async () => {
    const markets = await terminal.markets();
    const ladder = page.getByTestId('ladder').first();
    const marketId = await ladder.getAttribute('data-market-id');
    const market = markets.find((candidate) => candidate.market_id === marketId)!;
    // Any trade is a large lot at the smallest size step: the highlight must show on the last trade's row.
    await ladder.getByTestId('ladder-large-lot').fill('0.0001');
    await ladder.getByTestId('ladder-large-lot').press('Enter');
    await expect.poll(async () => {
      const settings = await terminal.api.getSettings({});
      return settings.ok ? settings.value.largeTradeSize[market.market_id] : undefined;
    }).toBeDefined();
    // Rows of 100 ticks: the sweep's prints and the last trade land on rows the ladder shows (a
    // wide spread's empty rows are left out of a fine ladder).
    await ladder.getByTestId('ladder-precision').selectOption((priceTick(market) * 100n).toString());
    // The sandbox's house sells down through the bids: takers selling.
    const bid = BigInt((await ladder.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price'))!);
    const moved = await terminal.control.post('/control/markets/price', { market_id: market.market_id, price: (bid - 3n * priceTick(market)).toString() });
    expect(moved.status).toBe(200);
    await ladder.getByTestId('ladder-recenter').click();
    const flow = ladder.getByTestId('ladder-flow');
    await expect.poll(() => flow.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const sold = await flow.evaluateAll((cells) => cells.map((cell) => BigInt(cell.getAttribute('data-sold') ?? '0')).reduce((sum, value) => sum + value, 0n).toString());
    expect(BigInt(sold)).toBeGreaterThan(0n);
    const last = ladder.getByTestId('ladder-last-size');
    await expect.poll(() => last.count(), { timeout: 20_000 }).toBe(1);
    expect(await last.getAttribute('data-large')).toBe('true');
    // The last trade's size is the tape's newest trade's.
    const newest = (await page.locator('[data-testid=tape-row] [data-column=quantity]').first().textContent())?.trim();
    expect((await last.textContent())?.trim()).toBe(newest);
    await ladder.getByTestId('ladder-flow-window').selectOption('5m');
    await expect.poll(() => flow.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await ladder.screenshot({ path: join(SCREENSHOT_DIR, 'overview', '04-order-flow-ladder.png') });
  }, 90_000);

  it('the tape filters by a minimum size, merges the trades of one taker order and highlights large lots', async () => {
    const markets = await terminal.markets();
    const ladder = page.getByTestId('ladder').first();
    const marketId = await ladder.getAttribute('data-market-id');
    const market = markets.find((candidate) => candidate.market_id === marketId)!;
    const tape = page.getByTestId('tape');
    // A sweep through several levels: one taker order, several trades of one time.
    const ask = BigInt((await ladder.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price'))!);
    const moved = await terminal.control.post('/control/markets/price', { market_id: market.market_id, price: (ask + 400n * priceTick(market)).toString() });
    expect(moved.status).toBe(200);
    const rows = tape.getByTestId('tape-row');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(3);
    // Until the sweep's trades have all arrived (two reads half a second apart agree).
    let previous = -1;
    await expect
      .poll(
        async () => {
          const count = await rows.count();
          const settled = count === previous;
          previous = count;
          return settled;
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe(true);
    const single = await rows.count();
    await tape.getByTestId('tape-aggregate').check();
    await expect.poll(() => tape.locator('[data-testid=tape-row][data-count]:not([data-count="1"])').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await rows.count()).toBeLessThan(single);
    // A large lot from 0.1 (set on the ladder, saved per market): exactly the rows of that size or more are marked.
    await ladder.getByTestId('ladder-large-lot').fill('0.1');
    await ladder.getByTestId('ladder-large-lot').press('Enter');
    await expect
      .poll(async () => {
        const marks = await rows.evaluateAll((cells) => cells.map((cell) => [cell.querySelector('[data-column=quantity]')?.textContent ?? '', cell.getAttribute('data-large') === 'true'] as const));
        return marks.every(([text, marked]) => marked === Number(text.replaceAll(',', '')) >= 0.1);
      })
      .toBe(true);
    await page.getByTestId('tape').screenshot({ path: join(SCREENSHOT_DIR, 'overview', '05-tape-by-order.png') });
    // A minimum above every merged order leaves none; clearing it shows them again.
    await tape.getByTestId('tape-min-size').fill('1000000');
    await expect.poll(() => rows.count()).toBe(0);
    await tape.getByTestId('tape-min-size').fill('');
    await tape.getByTestId('tape-aggregate').uncheck();
    await expect.poll(() => rows.count()).toBe(single);
  }, 90_000);

  it('sorts, filters and stars; the star is saved through main', async () => {
    const markets = await terminal.markets();
    const panel = page.getByTestId('market-overview');
    await panel.getByTestId('overview-sort-market').click();
    const names = await panel.getByTestId('overview-market').allTextContents();
    expect(names).toEqual([...names].sort((left, right) => left.localeCompare(right)));

    const last = markets[markets.length - 1]!;
    const starred = panel.locator(`[data-testid=overview-row][data-market-id="${last.market_id}"]`);
    await starred.getByTestId('overview-star').click();
    await expect.poll(() => starred.getAttribute('data-favourite')).toBe('true');
    // Starred markets are listed first.
    await expect.poll(() => panel.getByTestId('overview-row').first().getAttribute('data-market-id')).toBe(last.market_id);
    const settings = await terminal.api.getSettings({});
    expect(settings.ok && settings.value.favouriteMarkets).toEqual([last.market_id]);
    await panel.getByTestId('overview-favourites-only').check();
    await expect.poll(() => panel.getByTestId('overview-row').count()).toBe(1);
    await panel.getByTestId('overview-favourites-only').uncheck();

    await panel.getByTestId('overview-filter').fill(last.base.symbol);
    const filtered = await panel.getByTestId('overview-market').allTextContents();
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((name) => name.includes(last.base.symbol))).toBe(true);
    await panel.getByTestId('overview-filter').fill('');
  }, 60_000);

  it('Turbo books show their own 24-hour figures, for the markets that have one, and a click opens the Turbo book', async () => {
    const markets = await terminal.markets();
    const panel = page.getByTestId('market-overview');
    const withTurbo = await terminal.api.getTurboMarkets({});
    const turboIds = withTurbo.ok ? withTurbo.value.markets.filter((row) => row.hasTurboBook).map((row) => row.marketId) : [];
    expect(turboIds.length).toBeGreaterThan(0);
    await panel.getByTestId('overview-book').selectOption('turbo');
    await expect.poll(() => panel.getAttribute('data-book')).toBe('turbo');
    const rows = panel.getByTestId('overview-row');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(turboIds.length);
    await expect.poll(() => panel.getAttribute('data-freshness'), { timeout: 20_000 }).toBe('live');
    expect(turboIds.length).toBeLessThanOrEqual(markets.length);
    const shown = await rows.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-market-id')));
    expect([...shown].sort()).toEqual([...turboIds].sort());
    // The Turbo ticker's bid and ask are the best executable shared levels: a spread of its own.
    await expect.poll(async () => (await rows.locator('[data-column=spread]').allTextContents()).some((text) => text.trim() !== '—'), { timeout: 20_000 }).toBe(true);
    await shot('07-overview-turbo-books');
    const first = panel.locator(`[data-testid=overview-row][data-market-id="${turboIds[0]}"] [data-testid=overview-market]`);
    await first.click();
    await expect.poll(() => page.getByTestId('market-bar').getAttribute('data-book'), { timeout: 10_000 }).toBe('turbo');
    await page.getByTestId('market-bar').getByTestId('turbo-toggle-canonical').click();
    await expect.poll(() => page.getByTestId('market-bar').getAttribute('data-book'), { timeout: 10_000 }).toBe('canonical');
    await panel.getByTestId('overview-book').selectOption('canonical');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(markets.length);
  }, 60_000);

  it('a click on a row opens that market in the ladder and chart', async () => {
    const markets = await terminal.markets();
    const panel = page.getByTestId('market-overview');
    const ladder = page.getByTestId('ladder').first();
    const before = await ladder.getAttribute('data-market-id');
    const other = markets.find((candidate) => candidate.market_id !== before)!;
    await panel.locator(`[data-testid=overview-row][data-market-id="${other.market_id}"] [data-testid=overview-market]`).click();
    await expect.poll(() => ladder.getAttribute('data-market-id'), { timeout: 10_000 }).toBe(other.market_id);
    await expect.poll(() => panel.locator(`[data-testid=overview-row][data-market-id="${other.market_id}"]`).getAttribute('class')).toMatch(/current/);
    await ladder.locator('[data-testid=ladder-row].best-ask').first().waitFor({ timeout: 20_000 });
    await shot('02-overview-opened');
    expect(terminal.pageErrors).toEqual([]);
  }, 60_000);
});
