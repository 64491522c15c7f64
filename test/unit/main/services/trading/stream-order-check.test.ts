import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../../shared/api/market-schemas';
import { fail, ok, type Result } from '../../../../../shared/result';
import { READ_BACKOFF_MS, StreamOrderCheck } from '../../../../../main/services/trading/stream-order-check';

const market = `0x${'ab'.repeat(32)}`;
const order = (id: string, fills = 0): Order =>
  ({
    order_id: `0x${id.repeat(64 / id.length)}`,
    side: 'Buy',
    order_type: { kind: 'Spot' },
    market_id: market,
    quantity: 10n,
    quantity_fill: BigInt(fills),
    price: 5n,
    fills: Array.from({ length: fills }, () => ({ order_id: `0x${id.repeat(64 / id.length)}`, quantity: 1n, price: 5n, timestamp: 1n, fee: 0n })),
  }) as unknown as Order;

function setup(known: string[], answer: (order: Order, attempt: number) => Result<Order>) {
  const applied: { id: string; fills: number }[] = [];
  const reads: string[] = [];
  const waits: number[] = [];
  let published = 0;
  let lost = 0;
  const pending: Promise<void>[] = [];
  const check = new StreamOrderCheck({
    knows: (orderId) => known.includes(orderId),
    read: (wanted) => {
      reads.push(wanted.order_id);
      const read = Promise.resolve(answer(wanted, reads.length));
      pending.push(read.then(() => undefined));
      return read;
    },
    apply: (applying) => applied.push({ id: applying.order_id, fills: applying.fills?.length ?? 0 }),
    publish: () => void published++,
    log: () => undefined,
    lost: () => void lost++,
    wait: (ms) => {
      waits.push(ms);
      const waited = Promise.resolve();
      pending.push(waited);
      return waited;
    },
  });
  const settle = async () => {
    for (let turn = 0; turn < 20; turn++) {
      while (pending.length > 0) await pending.shift();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { check, applied, reads, waits, settle, published: () => published, lost: () => lost };
}

describe('orders the order stream names', () => {
  it('an order the terminal holds is applied at once, without a read', () => {
    const known = order('a1');
    const { check, applied, reads } = setup([known.order_id], () => fail('UNUSED', 'unused'));
    expect(check.take(known, market, false)).toBe(true);
    expect(applied).toEqual([{ id: known.order_id, fills: 0 }]);
    expect(reads).toEqual([]);
  });

  it('an order the exchange does not have (its fills with it) is never applied', async () => {
    const invented = order('b2', 1);
    const { check, applied, settle, published } = setup([], () => fail('REQUEST_REFUSED', 'GET /v1/order: refused (HTTP 404): no such order'));
    expect(check.take(invented, market, false)).toBe(false);
    await settle();
    expect(applied).toEqual([]);
    expect(published()).toBe(0);
  });

  it('an order new to the terminal that the exchange has is applied as the exchange reads it, once per order however often it is named', async () => {
    const fresh = order('c3', 1);
    const { check, applied, reads, settle, published } = setup([], (wanted) => ok(order(wanted.order_id.slice(2, 4), 2)));
    check.take(fresh, market, false);
    check.take(fresh, market, false);
    await settle();
    expect(reads).toEqual([fresh.order_id]);
    // The read's answer first; then what the stream said meanwhile (older here: the trading
    // service ignores a view older than the one it holds).
    expect(applied).toEqual([
      { id: fresh.order_id, fills: 2 },
      { id: fresh.order_id, fills: 1 },
    ]);
    expect(published()).toBe(1);
  });

  it('what the stream says of an order while it is read back is applied after the read confirms it (a fired stop filled during its read is not lost)', async () => {
    const id = 'd4';
    // The exchange answered the read before the fill: the read says unfilled.
    const { check, applied, reads, settle, published } = setup([], () => ok(order(id, 0)));
    check.take(order(id, 0), market, false);
    check.take(order(id, 3), market, false);
    await settle();
    expect(reads).toHaveLength(1);
    expect(applied).toEqual([
      { id: order(id).order_id, fills: 0 },
      { id: order(id).order_id, fills: 3 },
    ]);
    expect(published()).toBe(1);
  });

  it('a read that fails without an answer about the order is tried again, and the order applied when one answers', async () => {
    const id = 'f6';
    // A timeout, then the rate limit, then the answer; meanwhile the stream says it filled.
    const { check, applied, reads, waits, settle, lost } = setup([], (_wanted, attempt) =>
      attempt === 1 ? fail('TIMEOUT', 'GET /v1/order: no answer within 10000 ms') : attempt === 2 ? fail('RATE_LIMITED', 'rate limited by the exchange (HTTP 429)') : ok(order(id, 0)),
    );
    check.take(order(id, 0), market, false);
    check.take(order(id, 2), market, false);
    await settle();
    expect(reads).toHaveLength(3);
    expect(waits).toEqual([250, 1_000]);
    expect(applied).toEqual([
      { id: order(id).order_id, fills: 0 },
      { id: order(id).order_id, fills: 2 },
    ]);
    expect(lost()).toBe(0);
  });

  it('an order no read could confirm or deny is not dropped: the orders are read again as lost', async () => {
    const { check, applied, reads, waits, settle, lost } = setup([], () => fail('NETWORK_ERROR', 'GET /v1/order: ECONNRESET'));
    check.take(order('a7', 1), market, false);
    await settle();
    expect(reads).toHaveLength(READ_BACKOFF_MS.length + 1);
    expect(waits).toEqual([...READ_BACKOFF_MS]);
    expect(applied).toEqual([]);
    expect(lost()).toBe(1);
  });

  it('an exchange that denies the order is believed at once: no second read, nothing lost', async () => {
    const { check, reads, waits, settle, lost } = setup([], () => fail('REQUEST_REFUSED', 'GET /v1/order: refused (HTTP 404): no such order'));
    check.take(order('b8', 1), market, false);
    await settle();
    expect(reads).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(lost()).toBe(0);
  });

  it('an order the exchange does not confirm is not applied from what the stream said during the read either', async () => {
    const { check, applied, settle } = setup([], () => fail('REQUEST_REFUSED', 'no such order'));
    check.take(order('e5', 1), market, false);
    check.take(order('e5', 2), market, false);
    await settle();
    expect(applied).toEqual([]);
  });
});
