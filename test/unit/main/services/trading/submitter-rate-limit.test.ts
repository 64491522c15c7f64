// A second device on the same owner spends the exchange's budget of signed session actions, and
// the exchange answers HTTP 429. The spec does not say a 429 is answered before executing, so the
// submitter asks the request's nonce first and signs it again (after a backoff, with the same
// nonce) only when the nonce shows it did not land; a 429 told after executing is found as landed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../../shared/api/market-schemas';
import { addressOf } from '../../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../../shared/crypto/keys';
import { signDigest } from '../../../../../shared/crypto/signature';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { WindowSnapshot } from '../../../../../shared/nonce/lane-window';
import { unpackParallelNonce } from '../../../../../shared/nonce/parallel-packing';
import type { SessionActionsBody } from '../../../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../../../shared/result';
import { Journal } from '../../../../../main/services/journal/journal';
import { NonceManager } from '../../../../../main/services/nonces/nonce-manager';
import { RATE_LIMIT_BACKOFF_MS, rateLimitedNonce } from '../../../../../main/services/trading/rate-limit-retry';
import { Submitter } from '../../../../../main/services/trading/submitter';
import { ordersOfRequest } from '../../../../../main/services/trading/trading-service';
import { groups, owner, tradeAccount } from '../../../../support/order-fixture';

const sessionKey = new Uint8Array(32).fill(7);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger') as B256;
const NOW = 1_700_000_000n;

/** `limited`: 429 and nothing done; `execute-then-limited`: executed, then a 429 (a lie). */
type Behaviour = 'honest' | 'limited' | 'execute-then-limited';

class RateLimitedExchange {
  nonce = 5n;
  readonly consumed = new Set<bigint>();
  readonly orders: Order[] = [];
  readonly posted: SessionActionsBody[] = [];
  behaviours: Behaviour[] = [];

  private position(body: SessionActionsBody): bigint | null {
    const packed = (body as { parallel_nonce?: string }).parallel_nonce;
    if (packed === undefined) return null;
    const fields = unpackParallelNonce(BigInt(packed));
    if (!fields.ok) throw new Error(fields.message);
    return fields.value.word_position * 128n + BigInt(fields.value.bit_position);
  }

  private execute(body: SessionActionsBody): { tx_id: string; orders: Order[] } {
    const position = this.position(body);
    if (position === null) this.nonce++;
    else this.consumed.add(position);
    const created: Order[] = [];
    for (const group of body.actions as { market_id: string; actions: Record<string, { side: string; price: string; quantity: string }>[] }[]) {
      for (const action of group.actions) {
        const create = action.CreateOrder;
        if (create === undefined) continue;
        const order = {
          order_id: `0x${(this.orders.length + 1).toString(16).padStart(64, '0')}`,
          side: create.side,
          price: BigInt(create.price),
          quantity: BigInt(create.quantity),
          timestamp: 1n,
          market_id: group.market_id,
          history: [{ type: 'Open', status: 'Success', tx_id: `0xtx${this.posted.length}` }],
        } as unknown as Order;
        this.orders.push(order);
        created.push(order);
      }
    }
    return { tx_id: `0xtx${this.posted.length}`, orders: created };
  }

  post(body: SessionActionsBody): Promise<Result<{ tx_id: string; orders?: readonly unknown[] }>> {
    this.posted.push(body);
    const behaviour = this.behaviours.shift() ?? 'honest';
    const limited = fail('RATE_LIMITED', 'POST /v1/session/actions: rate limited by the exchange (HTTP 429): POST /v1/session/actions: 5 per 1 s per owner', { status: 429, exchangeCode: 1003 });
    if (behaviour === 'limited') return Promise.resolve(limited);
    if (behaviour === 'execute-then-limited') {
      this.execute(body);
      return Promise.resolve(limited);
    }
    const position = this.position(body);
    if (position === null && BigInt((body as { nonce?: string }).nonce ?? '-1') !== this.nonce) {
      return Promise.resolve(fail('PREFLIGHT_REFUSED', 'POST /v1/session/actions: Nonce in the request does not match', { nonceConsumed: false }));
    }
    if (position !== null && this.consumed.has(position)) {
      return Promise.resolve(fail('PARALLEL_NONCE_REJECTED', 'Parallel nonce is not usable', { status: 400, retry: 'resync-and-retry-once' }));
    }
    return Promise.resolve(ok(this.execute(body)));
  }

  window(lane: number): WindowSnapshot {
    const words = new Map<bigint, bigint>();
    for (const index of this.consumed) words.set(index / 128n, (words.get(index / 128n) ?? 0n) | (1n << (index % 128n)));
    return { lane, base: 0n, slots: [...words].map(([word_position, bitmap]) => ({ word_position, bitmap })) };
  }
}

function setup(lanes: number, options: { withWait?: boolean } = {}) {
  const journal = new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-rate-limit-')), now: () => 1 });
  const exchange = new RateLimitedExchange();
  const nonces = new NonceManager(
    { accountNonce: () => Promise.resolve(ok(exchange.nonce)), window: (lane) => Promise.resolve(ok(exchange.window(lane))) },
    { load: () => null, save: () => ok(undefined) },
    lanes,
    () => NOW,
  );
  const waits: number[] = [];
  const notices: string[] = [];
  const reconciled: string[] = [];
  let ids = 0;
  const submitter = new Submitter({
    port: { post: (body) => exchange.post(body) },
    nonces: () => nonces,
    journal,
    sign: (_address, digest) => ok(signDigest(digest, sessionKey)),
    identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress }),
    targets: () => ({}),
    newId: () => `entry-${++ids}`,
    reconcile: (id) => {
      reconciled.push(id);
      return Promise.resolve(ok('not-landed'));
    },
    ordersOf: (entry) => ordersOfRequest({ getOrders: () => Promise.resolve(ok({ orders: exchange.orders } as never)) }, tradeAccount, entry),
    ...(options.withWait === false
      ? {}
      : {
          // The injected clock: a wait is recorded and returns at once.
          wait: (ms: number) => {
            waits.push(ms);
            return Promise.resolve();
          },
        }),
    notice: (_level, text) => notices.push(text),
  });
  const reconciledOf = (id: string) => journal.list(100).filter((entry) => entry.id === id && entry.kind === 'reconciled');
  return { journal, exchange, submitter, waits, notices, reconciled, reconciledOf };
}

const nonceOf = (body: SessionActionsBody | undefined) => (body as { nonce?: string; parallel_nonce?: string } | undefined)?.nonce ?? (body as { parallel_nonce?: string } | undefined)?.parallel_nonce;

describe('rateLimitedNonce', () => {
  it('retries with the same nonce only where the nonce shows the request did not land', () => {
    expect(rateLimitedNonce('sequential', 'not-landed')).toBe('retry-same-nonce');
    expect(rateLimitedNonce('parallel', 'pending')).toBe('retry-same-nonce');
    expect(rateLimitedNonce('parallel', 'not-landed')).toBe('retry-new-nonce');
    expect(rateLimitedNonce('sequential', 'landed')).toBe('look-up');
    expect(rateLimitedNonce('parallel', 'final-unknown')).toBe('look-up');
    expect(rateLimitedNonce('sequential', null)).toBe('look-up');
  });
});

describe('submitter after HTTP 429 from the exchange', () => {
  it('sequential: backs off and signs again with the same nonce until it is accepted, telling the trader each time', async () => {
    const { exchange, submitter, waits, notices, reconciledOf, journal } = setup(0);
    exchange.behaviours = ['limited', 'limited'];
    const placed = await submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' });
    expect(placed.ok).toBe(true);
    expect(exchange.posted.map(nonceOf)).toEqual(['5', '5', '5']);
    expect(exchange.orders).toHaveLength(1);
    expect(waits).toEqual([1_050, 2_100]);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/Buy 1 ETH at 3,000: the exchange's rate limit refused it \(HTTP 429.*did not land.*same nonce in 1\.1 s \(retry 1 of 3\)/);
    expect(reconciledOf('entry-1')).toMatchObject([{ status: 'not-landed' }]);
    expect(reconciledOf('entry-2')).toMatchObject([{ status: 'not-landed' }]);
    expect(journal.unresolved()).toHaveLength(0);
  });

  it('sequential: after the last retry the trader is told nothing was placed, and the next order reuses the nonce', async () => {
    const { exchange, submitter, waits, journal } = setup(0);
    exchange.behaviours = ['limited', 'limited', 'limited', 'limited'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed).toMatchObject({ ok: false, code: 'RATE_LIMITED', details: { retries: 3 } });
    expect(!placed.ok && placed.message).toMatch(/signed again 3 times.*did not land: nothing was placed/);
    expect(waits).toEqual(RATE_LIMIT_BACKOFF_MS);
    expect(exchange.posted).toHaveLength(4);
    expect(exchange.orders).toHaveLength(0);
    expect(journal.unresolved()).toHaveLength(0);
    expect((await submitter.submit({ groups, description: 'again' })).ok).toBe(true);
    expect(exchange.posted.map(nonceOf)).toEqual(['5', '5', '5', '5', '5']);
  });

  it('a 429 told after executing: the nonce moved, the order is found and is the answer; nothing is signed again', async () => {
    const { exchange, submitter, waits, notices, reconciledOf } = setup(0);
    exchange.behaviours = ['execute-then-limited'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed).toMatchObject({ ok: true, value: { orders: [{ order_id: exchange.orders[0]!.order_id }] } });
    expect(exchange.posted).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(notices).toEqual([]);
    expect(reconciledOf('entry-1')).toMatchObject([{ status: 'landed' }]);
  });

  it('a 429 told after executing, on a retry: exactly one order, the one that landed', async () => {
    const { exchange, submitter } = setup(0);
    exchange.behaviours = ['limited', 'execute-then-limited'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed.ok).toBe(true);
    expect(exchange.posted).toHaveLength(2);
    expect(exchange.orders).toHaveLength(1);
  });

  it('parallel lanes: the retry reuses the unused position, so at most one of them can land', async () => {
    const { exchange, submitter, waits } = setup(1);
    exchange.behaviours = ['limited'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed.ok).toBe(true);
    expect(waits).toEqual([1_050]);
    const [first, second] = exchange.posted.map(nonceOf);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(exchange.orders).toHaveLength(1);
  });

  it('parallel lanes, out of retries: the position is still usable, so it is looked up before anything else is signed', async () => {
    const { exchange, submitter, reconciled } = setup(1);
    exchange.behaviours = ['limited', 'limited', 'limited', 'limited'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(!placed.ok && placed.message).toMatch(/stays usable until it expires/);
    expect(reconciled).toEqual(['entry-4']);
  });

  it('without a clock to wait on, a rate-limited request is not retried', async () => {
    const { exchange, submitter } = setup(0, { withWait: false });
    exchange.behaviours = ['limited'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed).toMatchObject({ ok: false, code: 'RATE_LIMITED', details: { retries: 0 } });
    expect(exchange.posted).toHaveLength(1);
  });
});
