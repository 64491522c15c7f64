// A trader with many resting orders: the open orders table draws the rows near its view only
// (renderer/src/lib/row-window.ts), keeps the scroll height of the whole list, and every row is
// reached by scrolling and acted on there; the chart's 70 order labels share the compositor layers
// of the page instead of one or two each (each layer is work on every frame). In Chromium against
// the sandbox: 70 buys rest 3 % under the bid, where the maker does not reach them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, screenshots, value } from '../support/terminal-page';
import { Truth } from '../support/trader-session/truth';

const ORDERS = 70;

/** The page's elements as the functions sent to it use them (test files compile without the DOM library). */
interface Box {
  getBoundingClientRect(): { readonly height: number };
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

describe.sequential('many resting orders: the open orders table and the chart', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let market: Market;
  const placed: string[] = [];
  const shot = screenshots(() => page, 'open-orders-window');

  beforeAll(async () => {
    terminal = await openTerminal({ onboard: true, control: true, book: true, funds: true });
    ({ page } = terminal);
    const marketId = (await page.getByTestId('ladder').first().getAttribute('data-market-id'))!;
    market = (await terminal.markets()).find((candidate) => candidate.market_id === marketId)!;
  });

  afterAll(() => terminal?.close());

  /** What the table has in the document: its rows' order ids, the list's own count, the spacers. */
  const table = () =>
    page.getByTestId('open-orders').evaluate((root) => {
      const body = root.querySelector('tbody')!;
      const spacers = [...body.querySelectorAll('tr.row-spacer')].map((row) => (row as unknown as Box).getBoundingClientRect().height);
      const rows = [...body.querySelectorAll('[data-testid=open-order-row]')];
      const scroller = root.closest('.panel-body') as unknown as Box;
      return {
        ids: rows.map((row) => row.getAttribute('data-order-id')!),
        listed: Number(body.getAttribute('data-rows')),
        rowHeight: rows[0] ? (rows[0] as unknown as Box).getBoundingClientRect().height : 0,
        spacers,
        scrollHeight: scroller.scrollHeight,
        clientHeight: scroller.clientHeight,
      };
    });

  it(`lists ${ORDERS} resting orders with the rows near the view drawn and the scroll height of all of them`, async () => {
    const bid = BigInt((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price'))!);
    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const price = ((bid * 97n) / 100n / tick) * tick;
    while (placed.length < ORDERS) {
      const result = await terminal.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: price - BigInt(placed.length % 5) * tick, quantity: 10n ** BigInt(market.base.decimals) / 100n });
      // The signed-request budget (5 a second) answers RATE_LIMITED before anything is signed: wait and go on.
      if (result.ok) placed.push(result.value.orders[0]!.orderId);
      else if (result.code === 'RATE_LIMITED') await page.waitForTimeout(250);
      else throw new Error(`${result.code}: ${result.message}`);
    }
    await page.getByTestId('open-orders-count').filter({ hasText: `${ORDERS} open` }).waitFor({ timeout: 30_000 });
    await shot('top');
    const top = await table();
    expect(top.listed).toBe(ORDERS);
    // Newest first: the last order placed is the first row; not every row is in the document.
    expect(top.ids[0]).toBe(placed.at(-1));
    expect(top.ids.length).toBeGreaterThan(10);
    expect(top.ids.length).toBeLessThan(ORDERS);
    expect(top.ids).toEqual(placed.slice().reverse().slice(0, top.ids.length));
    // The rows not drawn keep their space: the spacer below stands for exactly the rest.
    expect(top.spacers).toHaveLength(1);
    expect(top.spacers[0]!).toBeCloseTo((ORDERS - top.ids.length) * top.rowHeight, 0);
    expect(top.scrollHeight).toBeGreaterThan(ORDERS * top.rowHeight);
  });

  it('draws the 70 order labels on the chart without a compositor layer per order', async () => {
    await page.locator('[data-testid=chart-order]').nth(ORDERS - 1).waitFor({ state: 'attached', timeout: 10_000 });
    const cdp = await page.context().newCDPSession(page);
    // CDP's layer tree: the layers the compositor draws the page with, reported on the next frame.
    const layers = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no layer tree reported in 5 s')), 5_000);
      cdp.on('LayerTree.layerTreeDidChange', (event: { layers?: readonly unknown[] }) => {
        if (event.layers === undefined) return;
        clearTimeout(timer);
        resolve(event.layers.length);
      });
      void cdp.send('LayerTree.enable');
    });
    await cdp.detach();
    // About a dozen for the page (document, scrollers, the plot's canvases and overlays, sticky
    // table heads); an opacity on each label's grab handle made it 150 with these 70 orders.
    expect(layers).toBeLessThan(40);
  });

  it('scrolled to the bottom, the oldest orders are drawn and in view, and one is cancelled from there', async () => {
    await page.getByTestId('open-orders').evaluate((root) => {
      const scroller = root.closest('.panel-body') as unknown as Box;
      scroller.scrollTop = scroller.scrollHeight;
    });
    const oldest = page.locator(`[data-testid=open-order-row][data-order-id="${placed[0]}"]`);
    await oldest.waitFor({ timeout: 5_000 });
    await expect.poll(() => oldest.isVisible()).toBe(true);
    const bottom = await table();
    expect(bottom.ids.at(-1)).toBe(placed[0]);
    expect(bottom.ids).not.toContain(placed.at(-1));
    expect(bottom.ids).toEqual(placed.slice().reverse().slice(ORDERS - bottom.ids.length));
    await shot('bottom');
    // Cancel the oldest order from its row at the bottom: it leaves the exchange and the list.
    await oldest.getByTestId('cancel-order').click();
    await confirmIfAsked(page);
    await page.getByTestId('open-orders-count').filter({ hasText: `${ORDERS - 1} open` }).waitFor({ timeout: 20_000 });
    await oldest.waitFor({ state: 'detached', timeout: 5_000 });
    // On the exchange: the oldest is gone, the other 69 still rest.
    const account = value(await terminal.api.getAccountState({})).tradeAccount!.tradeAccountId;
    const open = await new Truth(terminal.control.url, [market]).orders(market, false, [account], true);
    expect(open.map((order) => order.orderId).sort()).toEqual(placed.slice(1).sort());
    const after = await table();
    expect(after.listed).toBe(ORDERS - 1);
    expect(after.ids.at(-1)).toBe(placed[1]);
  });
});
