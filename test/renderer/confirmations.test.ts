// Every trading confirmation names the book (Canonical or Turbo) and the account that signs: orders
// from the ticket, a ladder click or a hotkey, brackets, a ladder drag (move), amend and flatten;
// and two confirmations asked at once are asked one after the other, not the first dropped.
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { OrderView, PlacedOrder } from '../../shared/ipc/views';
import type { Result } from '../../shared/result';
import { createTradingActions, signerText, type PlaceOrderRequest } from '../../renderer/src/features/trading/trading-actions';
import type { TerminalStore } from '../../renderer/src/stores/terminal-store';
import { ethUsdc, positionView } from '../support/renderer/fixtures';

const trading = `0x${'11'.repeat(32)}`;
const turboAccount = `0x${'7a'.repeat(32)}`;
const orderId = `0x${'0d'.repeat(32)}`;
const placed: Result<PlacedOrder> = { ok: true, value: { orders: [], adjustments: [], txId: '0xtx' } as unknown as PlacedOrder };

const order: OrderView = {
  orderId,
  marketId: ethUsdc.market_id,
  account: trading,
  side: 'Buy',
  orderType: 'Limit',
  price: 3_000_000_000n,
  quantity: 1_000_000_000n,
  filled: 0n,
  turbo: false,
} as unknown as OrderView;

function harness(confirmOrders = true) {
  const asked: { title: string; lines: readonly string[] }[] = [];
  const answers: ((accepted: boolean) => void)[] = [];
  const sent: string[] = [];
  const flattened: unknown[] = [];
  const api = {
    placeOrder: () => (sent.push('placeOrder'), Promise.resolve(placed)),
    placeBracketOrder: () => (sent.push('placeBracketOrder'), Promise.resolve({ ok: true, value: { order: null, adjustments: [] } })),
    moveOrder: () => (sent.push('moveOrder'), Promise.resolve(placed)),
    amendOrder: () => (sent.push('amendOrder'), Promise.resolve(placed)),
    getTriggers: () => Promise.resolve({ ok: true, value: { pending: [], recent: [] } }),
    flattenPositions: (input: unknown) => (sent.push('flattenPositions'), flattened.push(input), Promise.resolve({ ok: true, value: { requested: 1, placed: [], failed: [], batches: 1 } })),
  } as unknown as TerminalApi;
  const store = {
    state: { settings: { confirmOrders }, account: { tradeAccount: { tradeAccountId: trading } }, openOrders: [order] },
    notify: () => undefined,
  } as unknown as TerminalStore;
  const confirm = (title: string, lines: readonly string[]) =>
    new Promise<boolean>((resolve) => {
      asked.push({ title, lines });
      answers.push(resolve);
    });
  const actions = createTradingActions(api, store, confirm, { signer: (turbo) => signerText(turbo, trading, turboAccount) });
  const answer = async (accepted: boolean) => {
    await until(() => answers.length > 0);
    answers.shift()!(accepted);
  };
  return { asked, sent, flattened, actions, answer };
}

async function until(condition: () => boolean): Promise<void> {
  for (let index = 0; index < 100 && !condition(); index++) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!condition()) throw new Error('condition not met');
}

const request = (turbo: boolean): PlaceOrderRequest => ({ marketId: ethUsdc.market_id, side: 'Buy', orderType: { kind: 'Limit' }, price: 3_000_000_000n, quantity: 10_000_000n, ...(turbo ? { turbo } : {}) }) as unknown as PlaceOrderRequest;

describe('confirmations name the book and the account that signs', () => {
  it('an order on the canonical book: the trading account', async () => {
    const { asked, sent, actions, answer } = harness();
    const done = actions.place(ethUsdc, request(false), 'a ladder click');
    await answer(true);
    await done;
    expect(asked[0]!.lines.join('\n')).toContain('Market ETH/USDC · Canonical book · signed by Trading account 0x1111…1111 · from a ladder click');
    expect(sent).toEqual(['placeOrder']);
  });

  it('states the exact size and price that are signed; a bounded market order states both bounds for its side', async () => {
    const { asked, actions, answer } = harness();
    const done = actions.place(ethUsdc, request(false), 'the ladder');
    await answer(true);
    await done;
    expect(asked[0]!.lines[0]).toBe('Buy 0.01 ETH at 3,000.00 USDC (Limit)');
    const bounded = (side: 'Buy' | 'Sell') =>
      ({ marketId: ethUsdc.market_id, side, orderType: { kind: 'BoundedMarket', maxPrice: 3_001_500_000n, minPrice: 2_998_500_000n }, price: side === 'Buy' ? 3_001_500_000n : 2_998_500_000n, quantity: 10_000_000n }) as unknown as PlaceOrderRequest;
    const buy = actions.place(ethUsdc, bounded('Buy'), 'the ticket');
    await answer(true);
    await buy;
    expect(asked[1]!.lines[0]).toBe('Buy 0.01 ETH at market, paying at most 3,001.50 USDC (takes no offer below 2,998.50) (Bounded market)');
    const sell = actions.place(ethUsdc, bounded('Sell'), 'the ticket');
    await answer(true);
    await sell;
    expect(asked[2]!.lines[0]).toBe('Sell 0.01 ETH at market, receiving at least 2,998.50 USDC (takes no bid above 3,001.50) (Bounded market)');
  });

  it('says so when main would sign another size than the one shown (off the step)', async () => {
    const { asked, actions, answer } = harness();
    const done = actions.place(ethUsdc, { ...request(false), quantity: 10_050_000n } as PlaceOrderRequest, 'the ticket');
    await answer(true);
    await done;
    expect(asked[0]!.lines[0]).toBe('Buy 0.01005 ETH at 3,000.00 USDC (Limit)');
    expect(asked[0]!.lines[1]).toMatch(/^Main signs 0\.01 ETH, not 0\.01005: the size is lowered to the market's step/);
  });

  it('repeats what the trader was warned of where the order was made', async () => {
    const { asked, actions, answer } = harness();
    const done = actions.place(ethUsdc, request(false), 'the ladder', ['Crosses the spread: this buy at 3,000.00 trades now against the best offer 2,999.00 USDC']);
    await answer(true);
    await done;
    expect(asked[0]!.lines.at(-1)).toBe('Crosses the spread: this buy at 3,000.00 trades now against the best offer 2,999.00 USDC');
  });

  it('an order on the Turbo book: the selected Turbo Account', async () => {
    const { asked, actions, answer } = harness();
    const done = actions.place(ethUsdc, request(true), 'a hotkey');
    await answer(true);
    await done;
    expect(asked[0]!.lines.join('\n')).toContain('Turbo book · signed by Turbo Account 0x7a7a…7a7a · from a hotkey');
  });

  it('a Turbo order with no Turbo Account selected is signed by the trading account, and says so', () => {
    expect(signerText(true, trading, null)).toBe('Trading account 0x1111…1111');
  });

  it('a ladder drag (move) is confirmed, and not sent when refused', async () => {
    const { asked, sent, actions, answer } = harness();
    const done = actions.move(ethUsdc, orderId, 2_990_000_000n, false);
    await answer(false);
    expect(await done).toMatchObject({ ok: false, code: 'NOT_CONFIRMED' });
    expect(asked[0]!.title).toBe('Move order');
    expect(asked[0]!.lines.join('\n')).toContain('Canonical book · signed by Trading account 0x1111…1111');
    expect(sent).toEqual([]);
  });

  it('amend and flatten name the book and the signer', async () => {
    const { asked, actions, answer } = harness();
    const amended = actions.amend(ethUsdc, order, { price: 2_990_000_000n }, 'Trading account 0x1111…1111');
    await answer(true);
    await amended;
    expect(asked[0]!.lines.join('\n')).toContain('Canonical book · signed by Trading account 0x1111…1111');
    const position = positionView({ account: turboAccount, accountKind: 'turbo-account', marketId: ethUsdc.market_id, turbo: true, size: 10_000_000n, mark: 3_000_000_000n });
    const flattened = actions.flatten([{ market: ethUsdc, position }]);
    await answer(true);
    await flattened;
    expect(asked[1]!.title).toBe('Flatten ETH/USDC (Turbo book)');
    expect(asked[1]!.lines.join('\n')).toContain('Signed by Turbo Account 0x7a7a…7a7a');
  });

  it('flatten states the size that sells and the remainder, and sends main that stated size', async () => {
    const { asked, flattened, actions, answer } = harness();
    const position = positionView({ account: trading, size: 44_172_755n, mark: 3_000_000_000n, markSide: 'bid' });
    const done = actions.flatten([{ market: ethUsdc, position }]);
    await answer(true);
    await done;
    expect(asked[0]!.lines[0]).toMatch(/^Sell 0\.0441 ETH on ETH\/USDC, Canonical book/);
    expect(asked[0]!.lines[1]).toContain('leaves 0.000072755 ETH, below the 0.0001 ETH size step: no order can close it');
    expect(flattened).toEqual([{ positions: [{ marketId: ethUsdc.market_id, turbo: false, account: trading, quantity: 44_100_000n }] }]);
  });

  it('two confirmations at once are asked one after the other; both orders go', async () => {
    const { asked, sent, actions, answer } = harness();
    const first = actions.move(ethUsdc, orderId, 2_990_000_000n, false);
    const second = actions.move(ethUsdc, orderId, 2_980_000_000n, false);
    await answer(true);
    await until(() => asked.length === 2);
    await answer(true);
    await Promise.all([first, second]);
    expect(asked.map((question) => question.title)).toEqual(['Move order', 'Move order']);
    expect(sent).toEqual(['moveOrder', 'moveOrder']);
  });

  it('with confirmations off nothing is asked', async () => {
    const { asked, sent, actions } = harness(false);
    await actions.place(ethUsdc, request(false), 'the ticket');
    await actions.move(ethUsdc, orderId, 2_990_000_000n, false);
    expect(asked).toEqual([]);
    expect(sent).toEqual(['placeOrder', 'moveOrder']);
  });
});
