// A second device on the same owner spends the exchange's budget of signed session actions
// (5 per second per owner, spec section 8) just before the terminal's order goes out, so the
// sandbox answers the order HTTP 429. The terminal asks the exchange whether the order's nonce was
// used, waits one whole window, and signs it again with the same nonce; it tells the trader, and
// after three retries it gives up saying nothing was placed. The other device's burst is sent
// from main's HTTP client just before the terminal's request is forwarded, so the 429 does not
// depend on timing; the retry passes because the backoff outlasts the sandbox's window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, type HttpFetch } from '../../../../../main/exchange/http';
import type { Market } from '../../../../../shared/market/market';
import { caller, startOnboarded, value, type Harness } from '../../../../support/terminal-harness';

const ACTIONS = '/v1/session/actions';
const BUDGET = 5;

interface SecondDevice {
  readonly fetch: HttpFetch;
  /** Before each of the terminal's next `count` order requests, the other device spends the budget. */
  crowdNext(count: number): void;
  readonly forwarded: () => number;
  readonly answered429: () => number;
  /** The nonce (sequential or parallel) of each order request the terminal sent, in order. */
  readonly nonces: string[];
}

function secondDevice(): SecondDevice {
  let crowd = 0;
  let forwarded = 0;
  let answered429 = 0;
  const nonces: string[] = [];
  const fetch: HttpFetch = async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path === ACTIONS) {
      forwarded++;
      const sent = JSON.parse(request.body ?? '{}') as { nonce?: string; parallel_nonce?: string };
      nonces.push(sent.parallel_nonce ?? sent.nonce ?? '');
      if (crowd > 0) {
        crowd--;
        // Another client on the same owner: its own requests (not the terminal's), same owner header.
        const owner = request.headers?.['Svc-Owner-Id'] ?? request.headers?.['svc-owner-id'] ?? '';
        for (let index = 0; index < BUDGET; index++) {
          await fetchJson({ method: 'POST', url: request.url, headers: { 'content-type': 'application/json', 'Svc-Owner-Id': owner }, body: '{}', timeoutMs: 5_000 });
        }
      }
      const answer = await fetchJson(request);
      if (answer.ok && answer.value.status === 429) answered429++;
      return answer;
    }
    return fetchJson(request);
  };
  return { fetch, crowdNext: (count) => (crowd = count), forwarded: () => forwarded, answered429: () => answered429, nonces };
}

describe.sequential('HTTP 429 from a second device on the same owner', () => {
  const device = secondDevice();
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded({ fetch: device.fetch }));
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;
  const ownOrdersAt = async (price: bigint) => (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && order.price === price.toString());
  const rateNotices = () => harness.pushes.filter((push) => push.stream === 'notice' && /rate limit refused it \(HTTP 429/.test((push.payload as { text: string }).text));

  it('the order is rate-limited twice, then placed once after the backoff, and the trader is told', async () => {
    const order = await harness.restingBuy(market, 2n);
    const nonceBefore = (await harness.ledgerAccount(tradeAccountId))?.nonce;
    const [sentBefore, limitedBefore, noticesBefore] = [device.forwarded(), device.answered429(), rateNotices().length];
    device.crowdNext(2);
    const placed = await h().placeOrder(order, caller);
    expect(placed.ok ? 'ok' : `${placed.code}: ${placed.message}`).toBe('ok');
    expect(device.answered429() - limitedBefore).toBe(2);
    expect(device.forwarded() - sentBefore).toBe(3);
    expect(new Set(device.nonces.slice(-3)).size).toBe(1);
    expect(await ownOrdersAt(order.price)).toHaveLength(1);
    // One nonce used for the three signatures: the account's nonce moved by one.
    expect(BigInt((await harness.ledgerAccount(tradeAccountId))?.nonce ?? '0') - BigInt(nonceBefore ?? '0')).toBe(1n);
    expect(rateNotices().length - noticesBefore).toBe(2);
    const journal = value(await h().getJournal({ limit: 50 }, caller));
    const verdicts = journal.filter((entry) => entry.kind === 'reconciled' && /rate limit/.test(entry.detail ?? '')).map((entry) => entry.status);
    expect(verdicts.slice(0, 2)).toEqual(['not-landed', 'not-landed']);
  }, 60_000);

  it('rate-limited on every retry: nothing placed, the trader told so, and the next order goes at once', async () => {
    const order = await harness.restingBuy(market, 3n);
    const limitedBefore = device.answered429();
    device.crowdNext(4);
    const placed = await h().placeOrder(order, caller);
    expect(placed).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(!placed.ok && placed.message).toMatch(/signed again 3 times.*did not land: nothing was placed/);
    expect(device.answered429() - limitedBefore).toBe(4);
    expect(await ownOrdersAt(order.price)).toHaveLength(0);
    const next = await harness.restingBuy(market, 4n);
    value(await h().placeOrder(next, caller));
    expect(await ownOrdersAt(next.price)).toHaveLength(1);
  }, 60_000);
});

describe.sequential('HTTP 429 from a second device, with parallel nonce lanes', () => {
  const device = secondDevice();
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded({ fetch: device.fetch, lanes: 2 }));
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('the retry reuses the unused lane position: one order placed', async () => {
    const order = await harness.restingBuy(market, 2n);
    const limitedBefore = device.answered429();
    const sentBefore = device.nonces.length;
    device.crowdNext(1);
    const placed = await harness.terminal.handlers.placeOrder(order, caller);
    expect(placed.ok ? 'ok' : `${placed.code}: ${placed.message}`).toBe('ok');
    expect(device.answered429() - limitedBefore).toBe(1);
    const [first, retry] = device.nonces.slice(sentBefore);
    expect(first).toBeTruthy();
    expect(retry).toBe(first);
    const mine = (await harness.ledgerOrders(market.market_id)).filter((row) => row.owner?.ContractId === tradeAccountId && row.price === order.price.toString());
    expect(mine).toHaveLength(1);
  }, 60_000);
});
