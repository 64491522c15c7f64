// A proxy between the terminal and the exchange that forwards a signed order (the sandbox executes
// it) and then answers with a refusal for a stale nonce: "Nonce in the request …" (sequential) or
// "Parallel nonce is not usable" (lanes). One placeOrder must leave exactly one order on the
// exchange, answer with it, and journal it accepted; the next order takes a fresh nonce.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, type HttpFetch } from '../../../main/exchange/http';
import type { Market } from '../../../shared/market/market';
import { fail, ok } from '../../../shared/result';
import { caller, startOnboarded, value, type Harness } from '../../support/terminal-harness';

const ACTIONS = '/v1/session/actions';
const SESSION = '/v1/session';

/** The lies this proxy tells, each after forwarding the request it answers. */
type Lie = 'sequential-nonce' | 'parallel-nonce' | 'lost-answer' | 'lost-answer-then-no-account-reads';

interface LyingProxy {
  readonly fetch: HttpFetch;
  lieOnce(lie: Lie, path?: string): void;
  /** While set, every GET of this path answers 503 (the exchange cannot be asked). */
  failReads(path: string | null): void;
  forwarded(path?: string): number;
}

function lyingProxy(): LyingProxy {
  const armed: { lie: Lie; path: string }[] = [];
  const forwarded = new Map<string, number>();
  let unreadable: string | null = null;
  const fetch: HttpFetch = async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET' && path === unreadable) return ok({ status: 503, body: { message: 'unavailable' } });
    const answer = await fetchJson(request);
    if (request.method === 'GET') return answer;
    forwarded.set(path, (forwarded.get(path) ?? 0) + 1);
    const index = armed.findIndex((candidate) => candidate.path === path);
    if (index < 0) return answer;
    const lie = armed.splice(index, 1)[0]?.lie;
    // From then on the account cannot be read: nobody can tell whether the request landed.
    if (lie === 'lost-answer-then-no-account-reads') unreadable = '/v1/accounts';
    if (lie === 'lost-answer' || lie === 'lost-answer-then-no-account-reads') return fail('NETWORK_ERROR', `${request.method} ${path}: socket hang up`, { stage: 'exchange', cause: 'ECONNRESET' });
    const sent = JSON.parse(request.body ?? '{}') as { nonce?: string };
    return ok(
      lie === 'sequential-nonce'
        ? { status: 400, body: { code: 4006, name: 'NonceMismatch', message: `Nonce in the request (${sent.nonce}) does not match the account nonce (${BigInt(sent.nonce ?? '0') + 1n})` } }
        : { status: 400, body: { code: 4007, name: 'ParallelNonceNotUsable', message: 'Parallel nonce is not usable: it expired' } },
    );
  };
  return {
    fetch,
    lieOnce: (lie, path = ACTIONS) => armed.push({ lie, path }),
    failReads: (path) => (unreadable = path),
    forwarded: (path = ACTIONS) => forwarded.get(path) ?? 0,
  };
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

  it('a new session: executed, then refused for its nonce; the session the exchange holds is the one the terminal signs with', async () => {
    const before = proxy.forwarded(SESSION);
    proxy.lieOnce('sequential-nonce', SESSION);
    const created = await h().createSession({ marketIds: [market.market_id], days: 2 }, caller);
    expect(created.ok ? 'ok' : `${created.code}: ${created.message}`).toBe('ok');
    expect(proxy.forwarded(SESSION) - before).toBe(1);
    if (!created.ok) return;
    expect(JSON.stringify(await harness.ledgerAccount(tradeAccountId))).toContain(created.value.sessionAddress);
    // Orders are signed with the session that is in force.
    const order = await harness.restingBuy(market, 6n);
    value(await h().placeOrder(order, caller));
  });

  it('a session request whose answer is lost while the account cannot be read stays open, and is settled before the next one is signed', async () => {
    const sentFirst = proxy.forwarded(SESSION);
    proxy.lieOnce('lost-answer-then-no-account-reads', SESSION);
    const lost = await h().createSession({ marketIds: [market.market_id], days: 2 }, caller);
    expect(lost.ok).toBe(false);
    expect(proxy.forwarded(SESSION)).toBe(sentFirst + 1);
    const entryOf = async () => value(await h().getJournal({ limit: 50 }, caller)).filter((entry) => entry.kind === 'signed' && entry.endpoint === 'PUT /v1/session')[0]!;
    const first = await entryOf();
    const verdicts = async (id: string) => value(await h().getJournal({ limit: 50 }, caller)).filter((entry) => entry.kind === 'reconciled' && entry.id === id);
    // Not known is not "did not land".
    expect(await verdicts(first.id)).toEqual([]);
    // Still unreadable: nothing new is signed.
    const sentBefore = proxy.forwarded(SESSION);
    expect(await h().createSession({ marketIds: [market.market_id], days: 2 }, caller)).toMatchObject({ ok: false });
    expect(proxy.forwarded(SESSION)).toBe(sentBefore);
    // Readable again: the first request is settled (it landed) before the one asked now is signed.
    proxy.failReads(null);
    value(await h().createSession({ marketIds: [market.market_id], days: 2 }, caller));
    expect((await verdicts(first.id)).map((entry) => entry.status)).toEqual(['landed']);
    expect(proxy.forwarded(SESSION)).toBe(sentBefore + 1);
    value(await h().placeOrder(await harness.restingBuy(market, 7n), caller));
  });

  it('parallel lanes: one order on the exchange for one placeOrder, journaled accepted', async () => {
    value(await h().updateSettings({ parallelLanes: 2 }, caller));
    await expectOneOrderJournaledAccepted('parallel-nonce', 3n);
  });
});
