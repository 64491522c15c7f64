// A proxy between the terminal and the exchange that forwards a signed order (the sandbox executes
// it) and then answers with a refusal for a stale nonce: "Nonce in the request …" (sequential) or
// "Parallel nonce is not usable" (lanes). One placeOrder must leave exactly one order on the
// exchange, answer with it, and journal it accepted; the next order takes a fresh nonce.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, type HttpFetch } from '../../../main/exchange/http';
import type { Market } from '../../../shared/market/market';
import { ok } from '../../../shared/result';
import { caller, startOnboarded, value, type Harness } from '../../support/terminal-harness';

/** The lies this proxy tells, each after forwarding the request it answers. */
type Lie = 'sequential-nonce' | 'parallel-nonce';

function lyingProxy(): { fetch: HttpFetch; lieOnce(lie: Lie): void; forwarded: () => number } {
  const armed: Lie[] = [];
  let forwarded = 0;
  const fetch: HttpFetch = async (request) => {
    const answer = await fetchJson(request);
    if (request.method !== 'POST' || !new URL(request.url).pathname.startsWith('/v1/session/actions')) return answer;
    forwarded++;
    const lie = armed.shift();
    if (lie === undefined) return answer;
    const sent = JSON.parse(request.body ?? '{}') as { nonce?: string };
    return ok(
      lie === 'sequential-nonce'
        ? { status: 400, body: { code: 4006, name: 'NonceMismatch', message: `Nonce in the request (${sent.nonce}) does not match the account nonce (${BigInt(sent.nonce ?? '0') + 1n})` } }
        : { status: 400, body: { code: 4007, name: 'ParallelNonceNotUsable', message: 'Parallel nonce is not usable: it expired' } },
    );
  };
  return { fetch, lieOnce: (lie) => armed.push(lie), forwarded: () => forwarded };
}

describe.sequential('a proxy that executes an order and then refuses it for its nonce', () => {
  const proxy = lyingProxy();
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded({ fetch: proxy.fetch }));
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;

  async function ownOrdersAt(price: bigint) {
    return (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && order.price === price.toString());
  }

  async function expectOneOrderJournaledAccepted(lie: Lie, ticksBelow: bigint) {
    const order = await harness.restingBuy(market, ticksBelow);
    const before = proxy.forwarded();
    proxy.lieOnce(lie);
    const placed = await h().placeOrder(order, caller);
    expect(placed.ok ? 'ok' : `${placed.code}: ${placed.message}`).toBe('ok');
    expect(proxy.forwarded() - before).toBe(1);
    const onExchange = await ownOrdersAt(order.price);
    expect(onExchange).toHaveLength(1);
    if (!placed.ok) return;
    expect(placed.value.orders.map((view) => view.orderId)).toEqual([onExchange[0]!.order_id]);
    const journal = value(await h().getJournal({ limit: 50 }, caller)).filter((entry) => entry.id === placed.value.journalId);
    const outcomes = journal.filter((entry) => entry.kind === 'outcome').sort((left, right) => left.seq - right.seq);
    expect(outcomes.at(-1)?.status).toBe('accepted');
    expect(journal.find((entry) => entry.kind === 'reconciled')?.status).toBe('landed');
    // The nonce the lie consumed is not handed out again: the next order goes through at once.
    const next = await harness.restingBuy(market, ticksBelow + 1n);
    value(await h().placeOrder(next, caller));
    expect(await ownOrdersAt(next.price)).toHaveLength(1);
  }

  it('sequential nonce: one order on the exchange for one placeOrder, journaled accepted', async () => {
    await expectOneOrderJournaledAccepted('sequential-nonce', 1n);
  });

  it('parallel lanes: one order on the exchange for one placeOrder, journaled accepted', async () => {
    value(await h().updateSettings({ parallelLanes: 2 }, caller));
    await expectOneOrderJournaledAccepted('parallel-nonce', 3n);
  });
});
