// The house maker's depth profiles and regimes against a real sandbox: the realistic book takes
// a 2 ETH market buy across several levels and refills what was taken over the next quote steps;
// a regime set through the control route moves the mid as documented, step by step of the
// sandbox clock (the maker is clock-driven: no wall timer moves it); thin-legacy is the old book.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

const ETH = 1_000_000_000n;
const STEP_MS = 2000;

interface Level {
  readonly price: string;
  readonly quantity: string;
}
interface Book {
  readonly buys: Level[];
  readonly sells: Level[];
}

let sandbox: RunningSandbox;
let client: SandboxClient;
let ethUsdc: Market;

async function book(market: Market = ethUsdc): Promise<Book> {
  const answer = await client.get<{ view: Book }>(`/v1/depth?market_id=${market.market_id}&precision=1`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.view;
}

function mid(view: Book): bigint {
  const bid = BigInt(view.buys[0]?.price ?? '0');
  const ask = BigInt(view.sells[0]?.price ?? '0');
  return (bid + ask) / 2n;
}

async function maker(body: Record<string, unknown>): Promise<void> {
  const answer = await client.request('POST', '/control/maker', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function advance(ms: number): Promise<void> {
  const answer = await client.request('POST', '/control/clock/advance', { ms });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'realistic', makerRate: 0, rateLimits: false, control: true, seed: 11 });
  client = new SandboxClient(sandbox.url);
  ethUsdc = (await client.markets()).markets.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDC') as Market;
});

afterAll(async () => {
  await sandbox.close();
});

describe('the realistic maker profile', () => {
  it('quotes 40 levels a side, a few hundred ETH within 1 % of the mid', async () => {
    expect((await client.get('/control/maker')).body).toEqual({ profile: 'realistic', regime: 'normal', pinned: false, clock_driven: false, running: true });
    const view = await book();
    expect(view.buys).toHaveLength(40);
    expect(view.sells).toHaveLength(40);
    const centre = mid(view);
    const within = [...view.buys, ...view.sells].filter((level) => {
      const price = BigInt(level.price);
      return (price > centre ? price - centre : centre - price) * 100n <= centre;
    });
    const total = within.reduce((sum, level) => sum + BigInt(level.quantity), 0n);
    expect(total).toBeGreaterThanOrEqual(200n * ETH);
  });

  it('fills a 2 ETH market buy across several levels, then refills the taken levels over three quote steps', async () => {
    await maker({ pinned: true, clock_driven: true });
    const before = await book();
    const trader = await Trader.create(client);
    expect((await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
    const worst = (BigInt(before.sells[0]?.price ?? '0') * 101n) / 100n;
    const bought = await trader.act(ethUsdc, [order('Buy', worst - (worst % 10_000n), 2n * ETH, { kind: 'Market' })]);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const placed = (bought.body.orders as { quantity_fill: string; fills: { price: string; quantity: string }[] }[])[0];
    expect(placed?.quantity_fill).toBe(String(2n * ETH));
    const prices = [...new Set(placed?.fills.map((fill) => fill.price))];
    expect(prices.length).toBeGreaterThanOrEqual(3);
    // Best first, each an ask level of the book before the buy.
    expect(prices).toEqual(before.sells.slice(0, prices.length).map((level) => level.price));

    const inside = before.sells[0] as Level;
    const taken = await book();
    expect(taken.sells[0]?.price).not.toBe(inside.price);
    await advance(STEP_MS);
    const oneStep = await book();
    expect(oneStep.sells[0]?.price).toBe(inside.price);
    const third = BigInt(inside.quantity) / 3n;
    expect(BigInt(oneStep.sells[0]?.quantity ?? '0')).toBeGreaterThanOrEqual(third);
    expect(BigInt(oneStep.sells[0]?.quantity ?? '0')).toBeLessThan(BigInt(inside.quantity));
    await advance(STEP_MS);
    await advance(STEP_MS);
    expect(await book()).toEqual(before);
  });

  it('fills a 2 ETH bounded market sell across several bid levels, none below its bound', async () => {
    const before = await book();
    const trader = await Trader.create(client);
    expect((await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
    const floor = (BigInt(before.buys[0]?.price ?? '0') * 995n) / 1000n;
    const bound = floor - (floor % 10_000n);
    const sold = await trader.act(ethUsdc, [order('Sell', bound, 2n * ETH, { kind: 'BoundedMarket', max_price: bound * 2n, min_price: bound })]);
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const placed = (sold.body.orders as { quantity_fill: string; fills: { price: string }[] }[])[0];
    expect(placed?.quantity_fill).toBe(String(2n * ETH));
    const prices = [...new Set(placed?.fills.map((fill) => fill.price))];
    expect(prices.length).toBeGreaterThanOrEqual(3);
    expect(prices).toEqual(before.buys.slice(0, prices.length).map((level) => level.price));
    for (const price of prices) expect(BigInt(price)).toBeGreaterThanOrEqual(bound);
    for (let step = 0; step < 3; step++) await advance(STEP_MS);
    expect(await book()).toEqual(before);
  });

  it('trends the mid up, then down, one move per quote step of the sandbox clock; thin quotes six small levels', async () => {
    await maker({ pinned: false, regime: 'trending-up', clock_driven: true });
    let last = mid(await book());
    for (let step = 0; step < 5; step++) {
      await advance(STEP_MS);
      const now = mid(await book());
      // The drift outweighs the noise: every step moves up, by 0.02 % to 0.08 % of the mid.
      expect(now).toBeGreaterThan(last + (last * 150n) / 1_000_000n);
      expect(now).toBeLessThan(last + (last * 850n) / 1_000_000n);
      last = now;
    }
    await maker({ regime: 'trending-down' });
    for (let step = 0; step < 5; step++) {
      await advance(STEP_MS);
      const now = mid(await book());
      expect(now).toBeLessThan(last);
      last = now;
    }
    const full = await book();
    await maker({ regime: 'thin' });
    const thin = await book();
    expect(thin.buys).toHaveLength(6);
    expect(thin.sells).toHaveLength(6);
    expect(BigInt(thin.sells[0]?.quantity ?? '0')).toBeLessThan(BigInt(full.sells[0]?.quantity ?? '0'));
    expect((await client.get('/control/maker')).body).toMatchObject({ profile: 'realistic', regime: 'thin', pinned: false, clock_driven: true });
  });

  it('refuses a bad field naming it and its value', async () => {
    const refused = async (body: unknown) => {
      const answer = await client.request<{ message: string }>('POST', '/control/maker', body);
      expect(answer.status).toBe(400);
      return answer.body.message;
    };
    expect(await refused({ regime: 'sideways' })).toMatch(/regime.*sideways|sideways.*regime/);
    expect(await refused({ profile: 'deep' })).toMatch(/profile.*deep|deep.*profile/);
    expect(await refused({ pinned: 'yes' })).toContain('pinned');
    expect(await refused({ speed: 2 })).toContain('speed');
    expect(await refused({})).toContain('at least one of');
  });

  it('quotes exactly the old book under thin-legacy, switched through the control route', async () => {
    // The fixture's pinned book of seed 3 is the one the maker quoted before depth profiles; a
    // pinned thin-legacy book depends on the mid only, so the mid is first moved back home.
    const legacy = await startSandbox({ port: 0, makerProfile: 'realistic', makerRate: 0, rateLimits: false, control: true, seed: 3 });
    try {
      const other = new SandboxClient(legacy.url);
      const answer = await other.request('POST', '/control/maker', { profile: 'thin-legacy', pinned: true });
      expect(answer.body).toEqual({ profile: 'thin-legacy', pinned: true });
      const fixture = JSON.parse(readFileSync('test/unit/sandbox/house/maker-legacy.fixture.json', 'utf8')) as { pinned: Record<string, { bids: string[]; asks: string[] }>[] };
      const recorded = fixture.pinned[1] as Record<string, { bids: string[]; asks: string[] }>;
      for (const market of legacy.app.ledger.markets.values()) {
        const { name, market_id: marketId } = market.config;
        const view = (await other.get<{ view: Book }>(`/v1/depth?market_id=${marketId}&precision=1`)).body.view;
        expect(view.buys.map((level) => `${level.price}x${level.quantity}`), name).toEqual(recorded[name]?.bids);
        expect(view.sells.map((level) => `${level.price}x${level.quantity}`), name).toEqual(recorded[name]?.asks);
      }
    } finally {
      await legacy.close();
    }
  });
});
