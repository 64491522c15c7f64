// The trader's actions through an exchange that lies over REST (test/support/adversary). The
// referee is the sandbox read directly: one intent has at most one effect there, whatever the
// terminal was told; a lie is never shown as truth; and the terminal keeps running (the next honest
// request works).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BalanceView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { startAdversary, type Adversary } from '../../support/adversary/adversary-harness';
import type { ExchangeProxy } from '../../support/adversary/exchange-proxy';
import { absurdNumberIn, hostileCharacterIn } from '../../support/adversary/lie-detectors';
import {
  ABSURD_VALUES,
  absurdNumbers,
  MONEY_READS,
  controlCharactersInNames,
  dropAfterExecution,
  parallelRefusalAfterExecution,
  sequentialRefusalAfterExecution,
  serverErrorAfterExecution,
  silenceAfterExecution,
  staleNonce,
  wrongChainId,
} from '../../support/adversary/rest-lies';
import { caller, until, value, type Harness } from '../../support/terminal-harness';

/** The streams to the windows that carry the exchange's amounts as it sent them. */
const MONEY_STREAMS = new Set(['balances', 'orders', 'book', 'trades', 'fill']);

describe.sequential('an exchange that lies over REST', () => {
  let adversary: Adversary;
  let harness: Harness;
  let proxy: ExchangeProxy;
  let market: Market;
  let tradeAccountId: string;
  let ticks = 0n;
  /** Every order id on the book before the test: a test counts only the orders it made. */
  let earlier = new Set<string>();

  beforeAll(async () => {
    adversary = await startAdversary({ requestTimeoutMs: 2_000 });
    ({ harness, proxy, market, tradeAccountId } = adversary);
    // A book that holds still: each test's prices are its own (a walking maker could bring an
    // earlier test's price back).
    await harness.control('/control/maker', { pinned: true });
  });

  beforeEach(async () => {
    earlier = new Set((await harness.ledgerOrders(market.market_id)).map((order) => order.order_id));
  });

  afterAll(async () => {
    await adversary?.stop();
  });

  const h = () => harness.terminal.handlers;

  /** A resting buy at a price no other test of this file uses. */
  const nextBuy = () => harness.restingBuy(market, ++ticks);

  /** Our orders at `price` made during this test. */
  async function ownAt(price: bigint) {
    return (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && order.price === price.toString() && !earlier.has(order.order_id));
  }

  async function ownOpen(): Promise<string[]> {
    const orders = await harness.ledgerOrders(market.market_id);
    return orders.filter((order) => order.owner?.ContractId === tradeAccountId && !order.close && !order.cancel).map((order) => order.order_id).sort();
  }

  async function appOpen(): Promise<string[]> {
    return value(await h().getOrders({}, caller)).open.filter((order) => order.marketId === market.market_id).map((order) => order.orderId).sort();
  }

  /** The app's open orders are the exchange's, and every lost answer has a verdict in the journal. */
  async function expectAgreement() {
    await until(async () => JSON.stringify(await appOpen()) === JSON.stringify(await ownOpen()), 15_000, 'app and exchange to agree on open orders');
    const unsettled = async () => {
      const journal = value(await h().getJournal({ limit: 500 }, caller));
      const settled = new Set(journal.filter((entry) => entry.kind === 'reconciled').map((entry) => entry.id));
      return journal.filter((entry) => entry.kind === 'outcome' && entry.status === 'unknown' && !settled.has(entry.id)).map((entry) => entry.id);
    };
    await until(async () => (await unsettled()).length === 0, 15_000, `a verdict on every lost answer (${(await unsettled()).join(', ')})`);
  }

  /** The proxy honest again, the next order is placed once and shows in the app. */
  async function expectNextHonestOrderWorks() {
    proxy.honest();
    const order = await nextBuy();
    const placed = await h().placeOrder(order, caller);
    expect(placed).toMatchObject({ ok: true });
    expect(await ownAt(order.price)).toHaveLength(1);
    await expectAgreement();
  }

  /**
   * One placeOrder whose request executed but whose answer was a nonce refusal. The terminal may
   * report a failure or the order it learns landed; it must not sign the intent a second time.
   */
  async function placeThroughRefusalAfterExecution() {
    const order = await nextBuy();
    const answer = await h().placeOrder(order, caller);
    expect(proxy.told()).toBe(1);
    // Any retry has had its chance to land by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await ownAt(order.price)).toHaveLength(1);
    if (answer.ok) expect(answer.value.orders).toHaveLength(1);
    await expectAgreement();
  }

  it('a sequential nonce refusal told after the order executed: the order is on the exchange once', async () => {
    proxy.lie(sequentialRefusalAfterExecution());
    await placeThroughRefusalAfterExecution();
    await expectNextHonestOrderWorks();
  });

  it('the connection dropped after the order was forwarded: an unknown outcome, reconciled, never resent', async () => {
    const order = await nextBuy();
    proxy.lie(dropAfterExecution());
    const answer = await h().placeOrder(order, caller);
    expect(answer).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    await expectAgreement();
    expect(await ownAt(order.price)).toHaveLength(1);
    await expectNextHonestOrderWorks();
  });

  it('a 5xx told after the order executed: an unknown outcome, reconciled as landed, never resent; the trader is not told it failed', async () => {
    for (const status of [502, 500]) {
      const order = await nextBuy();
      proxy.lie(serverErrorAfterExecution(status), 1);
      const answer = await h().placeOrder(order, caller);
      expect(answer).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
      expect(!answer.ok && answer.message).toMatch(/may have been applied/);
      await expectAgreement();
      expect(await ownAt(order.price)).toHaveLength(1);
      const journal = value(await h().getJournal({ limit: 50 }, caller));
      const journalId = !answer.ok ? String(answer.details?.journalId) : '';
      expect(journal.find((entry) => entry.kind === 'reconciled' && entry.id === journalId)).toMatchObject({ status: 'landed' });
    }
    await expectNextHonestOrderWorks();
  });

  it('no answer at all after the order was forwarded: the timeout is an unknown outcome, reconciled, never resent', async () => {
    const order = await nextBuy();
    proxy.lie(silenceAfterExecution());
    const answer = await h().placeOrder(order, caller);
    expect(answer).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    await expectAgreement();
    expect(await ownAt(order.price)).toHaveLength(1);
    await expectNextHonestOrderWorks();
  });

  it('a stale nonce read at a reconnect: the next order is still signed with a nonce the exchange takes, and lands once', async () => {
    const before = await harness.ledgerAccount(tradeAccountId);
    proxy.lie(staleNonce(0n), Infinity);
    // A reconnect makes main read the account again (anything may have happened while away).
    proxy.closeStreams();
    await until(async () => proxy.told() > 0, 15_000, 'the account to be read again');
    const order = await nextBuy();
    value(await h().placeOrder(order, caller));
    expect(await ownAt(order.price)).toHaveLength(1);
    const after = await harness.ledgerAccount(tradeAccountId);
    expect(BigInt(after!.nonce) - BigInt(before!.nonce)).toBe(1n);
    await expectNextHonestOrderWorks();
  });

  it('a stale nonce read while an unknown outcome is reconciled: the verdict is never "not landed" for an order that landed', async () => {
    const order = await nextBuy();
    proxy.lie(dropAfterExecution());
    // Every account read answers the nonce the account had before this order (and before others).
    proxy.lie(staleNonce(1n), Infinity);
    const answer = await h().placeOrder(order, caller);
    expect(answer).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    const journalId = !answer.ok ? String(answer.details?.journalId) : '';
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await ownAt(order.price)).toHaveLength(1);
    const verdict = async () => value(await h().getJournal({ limit: 500 }, caller)).find((entry) => entry.kind === 'reconciled' && entry.id === journalId);
    const during = await verdict();
    if (during !== undefined) expect(during.status).toBe('landed');
    // While the exchange's nonce cannot be believed, nothing new is signed on it.
    const blocked = await nextBuy();
    const refused = await h().placeOrder(blocked, caller);
    expect(refused.ok).toBe(false);
    expect(await ownAt(blocked.price)).toHaveLength(0);
    proxy.honest();
    await expectNextHonestOrderWorks();
    expect((await verdict())?.status).toBe('landed');
  });

  it('a wrong chain id in GET /v1/markets: the markets are refused, nothing is signed, and the honest answer restores them', async () => {
    proxy.lie(wrongChainId(1n), Infinity);
    const runtime = harness.terminal.runtime()!;
    // The read main makes again after the exchange was away.
    const reloaded = await runtime.loadMarkets();
    expect(reloaded).toMatchObject({ ok: false, code: 'CHAIN_ID_MISMATCH' });
    const connection = value(await h().getConnection({}, caller));
    expect(connection.detail ?? '').toMatch(/chain id/);
    const order = await nextBuy();
    const nonceBefore = (await harness.ledgerAccount(tradeAccountId))!.nonce;
    const refused = await h().placeOrder(order, caller);
    expect(refused.ok).toBe(false);
    expect(await ownAt(order.price)).toHaveLength(0);
    expect((await harness.ledgerAccount(tradeAccountId))!.nonce).toBe(nonceBefore);
    proxy.honest();
    value(await runtime.loadMarkets());
    await expectNextHonestOrderWorks();
  });

  it.each([
    ['negative and 10^40', ABSURD_VALUES, MONEY_READS],
    ['10^40 alone', [ABSURD_VALUES[1]], MONEY_READS],
    // Orders honest, so main goes on to read the balances.
    ['10^40 balances alone', [ABSURD_VALUES[1]], ['/v1/balance', '/v1/markets']],
  ])('absurd numbers (%s) in balances, depth, orders and markets: refused at the boundary, never shown', async (_name, values, paths) => {
    const seen = harness.pushes.length;
    const balancesBefore = value(await h().getBalances({}, caller));
    proxy.lie(absurdNumbers(values, paths), Infinity);
    // A reconnect makes main read orders and balances again over REST.
    proxy.closeStreams();
    await until(async () => proxy.told() >= 2, 15_000, 'orders or balances to be read again');
    const reloaded = await harness.terminal.runtime()!.loadMarkets();
    expect(reloaded.ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const balances: readonly BalanceView[] = value(await h().getBalances({}, caller));
    expect(absurdNumberIn(balances)).toBeNull();
    expect(absurdNumberIn(value(await h().listMarkets({}, caller)))).toBeNull();
    expect(absurdNumberIn(value(await h().getOrders({}, caller)))).toBeNull();
    expect(absurdNumberIn(harness.pushes.slice(seen).filter((push) => MONEY_STREAMS.has(push.stream)).map((push) => push.payload))).toBeNull();
    expect(balances.length).toBe(balancesBefore.length);
    await expectNextHonestOrderWorks();
  });

  it('control characters and bidi overrides in market symbols: never reach a window', async () => {
    const seen = harness.pushes.length;
    proxy.lie(controlCharactersInNames(), Infinity);
    await harness.terminal.runtime()!.loadMarkets();
    expect(hostileCharacterIn(value(await h().listMarkets({}, caller)))).toBeNull();
    expect(hostileCharacterIn(value(await h().getBalances({}, caller)))).toBeNull();
    expect(hostileCharacterIn(harness.pushes.slice(seen).map((push) => push.payload))).toBeNull();
    proxy.honest();
    value(await harness.terminal.runtime()!.loadMarkets());
    await expectNextHonestOrderWorks();
  });

  it('a parallel nonce refusal told after the order executed: the order is on the exchange once', async () => {
    value(await h().updateSettings({ parallelLanes: 2 }, caller));
    proxy.lie(parallelRefusalAfterExecution());
    await placeThroughRefusalAfterExecution();
    await expectNextHonestOrderWorks();
  });
});
