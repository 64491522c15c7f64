// Faults of the answer to a signed request: lost after commit, late past the client's timeout,
// refused with a 5xx, and the exchange restarting with a request in flight. Each ends with the
// journal, the app's open orders and the sandbox's ledger in agreement, nothing placed twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

describe.sequential('faults of answers', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded({ requestTimeoutMs: 1500 }));
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;

  const restingBuy = (ticksBelow: bigint) => harness.restingBuy(market, ticksBelow);

  async function ownOpen(): Promise<string[]> {
    const orders = await harness.ledgerOrders(market.market_id);
    return orders.filter((order) => order.owner?.ContractId === tradeAccountId && !order.close && !order.cancel).map((order) => order.order_id).sort();
  }

  async function appOpen(): Promise<string[]> {
    return value(await h().getOrders({}, caller)).open.filter((order) => order.marketId === market.market_id).map((order) => order.orderId).sort();
  }

  async function expectAgreement() {
    await until(async () => JSON.stringify(await appOpen()) === JSON.stringify(await ownOpen()), 10_000, 'app and ledger to agree');
    // Every request whose answer was lost has a verdict.
    const journal = value(await h().getJournal({ limit: 500 }, caller));
    const unknown = journal.filter((entry) => entry.kind === 'outcome' && entry.status === 'unknown').map((entry) => entry.id);
    const settled = new Set(journal.filter((entry) => entry.kind === 'reconciled').map((entry) => entry.id));
    expect(unknown.filter((id) => !settled.has(id))).toEqual([]);
  }

  it('a request committed but whose answer is lost is found, not resent, before anything else is signed', async () => {
    const order = await restingBuy(1n);
    await harness.control('/control/faults/drop', { count: 1, method: 'POST', path_prefix: '/v1/session/actions' });
    const lost = await h().placeOrder(order, caller);
    expect(lost).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(!lost.ok && lost.message).toMatch(/checking with the exchange/);
    const next = await restingBuy(2n);
    value(await h().placeOrder(next, caller));
    const journal = value(await h().getJournal({ limit: 50 }, caller));
    expect(journal.some((entry) => entry.kind === 'reconciled' && entry.status === 'landed')).toBe(true);
    const atLostPrice = (await harness.ledgerOrders(market.market_id)).filter((candidate) => candidate.owner?.ContractId === tradeAccountId && candidate.price === order.price.toString());
    expect(atLostPrice).toHaveLength(1);
    expect(harness.pushes.some((push) => push.stream === 'notice' && /landed/.test((push.payload as { text: string }).text))).toBe(true);
    await expectAgreement();
  });

  it('an answer later than the client timeout is an unknown outcome; at most one of it and the next request lands', async () => {
    const order = await restingBuy(3n);
    await harness.control('/control/faults/delay', { count: 1, delay_ms: 3000, method: 'POST', path_prefix: '/v1/session/actions' });
    const late = await h().placeOrder(order, caller);
    expect(late).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    // The next request waits for the reconciliation. The late request had not executed when it was
    // checked, so the next one reuses its sequential nonce: when the late one finally reaches the
    // chain its nonce is spent, so it cannot land too.
    const next = await restingBuy(4n);
    value(await h().placeOrder(next, caller));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const journal = value(await h().getJournal({ limit: 50 }, caller));
    const verdict = journal.find((entry) => entry.kind === 'reconciled' && entry.id === (!late.ok ? String(late.details?.journalId) : ''));
    const atLatePrice = (await harness.ledgerOrders(market.market_id)).filter((candidate) => candidate.owner?.ContractId === tradeAccountId && candidate.price === order.price.toString());
    expect(verdict?.status).toBe(atLatePrice.length === 1 ? 'landed' : 'not-landed');
    expect(atLatePrice.length).toBeLessThanOrEqual(1);
    await expectAgreement();
  });

  it('a 5xx answer to an order that applied nothing is looked up (not landed), consumes no nonce, and the next order goes', async () => {
    const before = await harness.ledgerAccount(tradeAccountId);
    const order = await restingBuy(5n);
    await harness.control('/control/faults/fail', { count: 1, status: 503, method: 'POST', path_prefix: '/v1/session/actions' });
    const failed = await h().placeOrder(order, caller);
    // A 5xx may come after the request executed (a gateway): never believed, always looked up.
    expect(failed).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    await until(async () => value(await h().getJournal({ limit: 20 }, caller)).some((entry) => entry.kind === 'reconciled' && entry.id === (!failed.ok ? String(failed.details?.journalId) : '') && entry.status === 'not-landed'), 15_000, 'the 5xx to be looked up: not landed');
    expect((await harness.ledgerAccount(tradeAccountId))?.nonce).toBe(before?.nonce);
    value(await h().placeOrder(order, caller));
    expect(BigInt((await harness.ledgerAccount(tradeAccountId))?.nonce ?? '0')).toBe(BigInt(before?.nonce ?? '0') + 1n);
    const atPrice = (await harness.ledgerOrders(market.market_id)).filter((candidate) => candidate.owner?.ContractId === tradeAccountId && candidate.price === order.price.toString());
    expect(atPrice).toHaveLength(1);
    await expectAgreement();
  });

  it('a session request whose answer is lost is checked, not resent, and its session adopted when it executed', async () => {
    const before = value(await h().getAccountState({}, caller)).session!.sessionAddress;
    await harness.control('/control/faults/drop', { count: 1, method: 'PUT', path_prefix: '/v1/session' });
    const session = value(await h().createSession({ marketIds: [market.market_id], days: 2 }, caller));
    expect(session.sessionAddress).not.toBe(before);
    const journal = value(await h().getJournal({ limit: 10 }, caller));
    expect(journal.find((entry) => entry.kind === 'reconciled')).toMatchObject({ status: 'landed' });
    expect(journal.filter((entry) => entry.kind === 'signed' && entry.endpoint === 'PUT /v1/session')).toHaveLength(1);
    // Orders go on with the adopted session.
    value(await h().placeOrder(await restingBuy(7n), caller));
  });

  it('the exchange restarting with a request in flight: the request is settled as not landed and the app starts over', async () => {
    const order = await restingBuy(6n);
    await harness.control('/control/faults/delay', { count: 1, delay_ms: 1000, method: 'POST', path_prefix: '/v1/session/actions' });
    const inFlight = h().placeOrder(order, caller);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const status = value(await h().getConnection({}, caller));
    expect(status.sandbox?.state).toBe('running');
    // Kill the sandbox process outright; the app's supervisor restarts it on the same port.
    const pid = harness.terminal.sandboxPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    const result = await inFlight;
    expect(result.ok).toBe(false);
    await until(async () => value(await h().getConnection({}, caller)).sandbox?.state === 'running' && value(await h().getConnection({}, caller)).sandbox!.restarts >= 1, 20_000, 'the sandbox to restart');
    await until(async () => value(await h().getAccountState({}, caller)).tradeAccount === null, 20_000, 'the app to notice the reset');
    const journal = value(await h().getJournal({ limit: 50 }, caller));
    const entry = journal.find((candidate) => candidate.kind === 'reconciled' && candidate.status === 'not-landed');
    expect(entry?.detail).toMatch(/reset|not consumed/);
    expect(value(await h().getOrders({}, caller)).open).toEqual([]);
    expect(harness.pushes.some((push) => push.stream === 'notice' && /restarted/.test((push.payload as { text: string }).text))).toBe(true);
  });
});
