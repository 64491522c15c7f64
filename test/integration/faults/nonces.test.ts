// Nonce conflicts: a sequential nonce made stale by another device, two parallel lanes in flight
// at once, and a parallel nonce the exchange calls expired while the terminal's clock does not.
// Nothing is placed twice, nothing is signed again while the first request could have landed, and
// what the app shows agrees with the exchange's ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequentialNonce } from '../../../shared/protocol/nonce-choice';
import { ownerDigest, withdrawBody, withdrawMessage } from '../../../shared/protocol/owner-messages';
import { signDigest } from '../../../shared/crypto/signature';
import { addressIdentity } from '../../../shared/encoding/identity';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, value, type Harness } from '../../support/terminal-harness';

describe.sequential('nonce conflicts', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;

  const restingBuy = (ticksBelow: bigint) => harness.restingBuy(market, ticksBelow);

  async function ownOrdersAt(price: bigint) {
    return (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && order.price === price.toString());
  }

  it('a sequential nonce used by another device: the order is not signed again (the refusal may be a lie told after executing it), and the next order takes the fresh nonce', async () => {
    value(await h().placeOrder(await restingBuy(1n), caller));
    // Another device holding the owner key withdraws one unit: the account nonce moves on without the
    // app. The app's stream is cut first, so it cannot learn the new nonce before it signs.
    await harness.control('/control/ws/close-all', {});
    const state = value(await h().getAccountState({}, caller));
    const owner = state.activeOwner!.address as B256;
    const stored = JSON.parse(harness.secrets.entries.get(`owner:${owner}`)!) as { key: string };
    const account = await harness.ledgerAccount(tradeAccountId);
    const chainId = value(await h().listMarkets({}, caller)).chainId;
    const envelope = { nonce: sequentialNonce(BigInt(account!.nonce)), chain_id: chainId };
    const withdraw = { to: addressIdentity(owner), amount: 1n, asset_id: market.quote.asset };
    const signature = signDigest(ownerDigest(withdrawMessage(envelope, withdraw), 'ledger'), Uint8Array.from(Buffer.from(stored.key, 'hex')));
    const response = await fetch(`${harness.base()}/v1/accounts/withdraw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Svc-Owner-Id': owner },
      body: JSON.stringify(withdrawBody(tradeAccountId as B256, envelope, withdraw, signature)),
    });
    expect(response.status).toBe(200);

    const order = await restingBuy(2n);
    const placed = await h().placeOrder(order, caller);
    // The nonce was used, and no order of this request is on the exchange: nothing is signed again
    // on that evidence alone, the trader is told to look at the open orders.
    expect(placed).toMatchObject({ ok: false, code: 'NONCE_USED_ELSEWHERE' });
    expect(await ownOrdersAt(order.price)).toHaveLength(0);
    const journal = value(await h().getJournal({ limit: 20 }, caller));
    expect(journal.some((entry) => entry.kind === 'reconciled' && entry.status === 'not-landed' && /nonce/i.test(entry.detail ?? ''))).toBe(true);
    value(await h().placeOrder(order, caller));
    expect(await ownOrdersAt(order.price)).toHaveLength(1);
  });

  it('two parallel lanes carry several orders at once, each placed once', async () => {
    value(await h().updateSettings({ parallelLanes: 2 }, caller));
    const orders = await Promise.all([3n, 4n, 5n, 6n, 7n, 8n].map((ticks) => restingBuy(ticks)));
    // Each order's request is held 800 ms by the exchange: in flight at once, six take about one
    // such delay; one after another they would take six.
    const HOLD_MS = 800;
    await harness.control('/control/faults/delay', { count: orders.length, delay_ms: HOLD_MS, method: 'POST', path_prefix: '/v1/session/actions' });
    const started = Date.now();
    const results = await Promise.all(orders.map((order) => h().placeOrder(order, caller)));
    const elapsed = Date.now() - started;
    expect(results.map((result) => (result.ok ? 'ok' : `${result.code}: ${result.message}`))).toEqual(orders.map(() => 'ok'));
    for (const order of orders) expect(await ownOrdersAt(order.price)).toHaveLength(1);
    const nonces = value(await h().getJournal({ limit: 20 }, caller)).filter((entry) => entry.kind === 'signed').slice(0, 6).map((entry) => entry.nonce);
    expect(new Set(nonces).size).toBe(6);
    expect(nonces.every((nonce) => /^lane [01] · /.test(nonce ?? ''))).toBe(true);
    // In flight at the same time: from the journal, each order's request is open from its signed
    // entry to its outcome; at some moment requests of both lanes were open together.
    const journal = value(await h().getJournal({ limit: 40 }, caller));
    const signed = journal.filter((entry) => entry.kind === 'signed').slice(0, 6);
    const spans = signed.map((entry) => ({ lane: /^lane (\d)/.exec(entry.nonce ?? '')?.[1], from: entry.at, to: journal.find((other) => other.kind === 'outcome' && other.id === entry.id)?.at ?? Infinity }));
    const overlapping = spans.flatMap((span, index) => spans.slice(index + 1).filter((other) => other.lane !== span.lane && other.from < span.to && span.from < other.to));
    expect(overlapping.length, JSON.stringify(spans)).toBeGreaterThan(0);
    expect(Math.max(...spans.map((span) => span.to - span.from))).toBeGreaterThanOrEqual(HOLD_MS - 50);
    expect(elapsed, `six held orders took ${elapsed} ms`).toBeLessThan(orders.length * HOLD_MS);
  });

  it("a parallel nonce refused as expired by the exchange's clock but live by the terminal's is not replaced: it could still land", async () => {
    value(await h().updateSettings({ parallelLanes: 1 }, caller));
    const order = await restingBuy(9n);
    const signedCount = async () => value(await h().getJournal({ limit: 500 }, caller)).filter((entry) => entry.kind === 'signed').length;
    const signedBefore = await signedCount();
    const atPriceBefore = (await ownOrdersAt(order.price)).length;
    await harness.control('/control/faults/delay', { count: 1, delay_ms: 2000, method: 'POST', path_prefix: '/v1/session/actions' });
    const placing = h().placeOrder(order, caller);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // While the request is delayed, the exchange's clock passes its 120-second expiry.
    await harness.control('/control/clock/advance', { ms: 119_000 });
    const placed = await placing;
    // By the terminal's clock the position can still be used for two minutes: a proxy holding the
    // request could still have it executed, so nothing is signed again until it cannot land.
    expect(placed).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(!placed.ok && placed.message).toMatch(/checking with the exchange/);
    expect(await ownOrdersAt(order.price)).toHaveLength(atPriceBefore);
    expect(await signedCount()).toBe(signedBefore + 1);
  });
});
