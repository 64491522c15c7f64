// A refusal for a stale nonce can be a lie: an exchange (or a proxy in front of it) that executes
// the request and then answers "Nonce in the request …" or "Parallel nonce is not usable". One
// submit is one intent: it may have at most one effect on the exchange, the journal tells what
// happened, and the nonce a lie consumed is never handed out again.
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
import { Submitter } from '../../../../../main/services/trading/submitter';
import { ordersOfRequest } from '../../../../../main/services/trading/trading-service';
import { groups, owner, tradeAccount } from '../../../../support/order-fixture';

const sessionKey = new Uint8Array(32).fill(7);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger') as B256;
const NOW = 1_700_000_000n;

const SEQUENTIAL_LIE = 'Nonce in the request (5) does not match the account nonce (6)';
const PARALLEL_LIE = 'POST /v1/session/actions: the parallel nonce was rejected (HTTP 400): Parallel nonce is not usable';

/** What the exchange does with a request, and what it answers. */
type Behaviour = 'honest' | 'execute-then-lie' | 'lie-without-executing' | 'another-device-first';

/** A small exchange: one account's nonces and orders, and a port whose answers can lie. */
class LyingExchange {
  nonce = 5n;
  readonly consumed = new Map<number, Set<bigint>>();
  readonly orders: Order[] = [];
  readonly posted: SessionActionsBody[] = [];
  behaviours: Behaviour[] = [];

  private positionOf(body: SessionActionsBody): { lane: number; index: bigint; expiry: bigint } | null {
    const packed = (body as { parallel_nonce?: string }).parallel_nonce;
    if (packed === undefined) return null;
    const fields = unpackParallelNonce(BigInt(packed));
    if (!fields.ok) throw new Error(fields.message);
    return { lane: fields.value.lane, index: fields.value.word_position * 128n + BigInt(fields.value.bit_position), expiry: fields.value.expiry };
  }

  private execute(body: SessionActionsBody): { tx_id: string; orders: Order[] } {
    const position = this.positionOf(body);
    if (position === null) this.nonce++;
    else {
      const lane = this.consumed.get(position.lane) ?? new Set();
      lane.add(position.index);
      this.consumed.set(position.lane, lane);
    }
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

  private lie(body: SessionActionsBody) {
    return this.positionOf(body) === null
      ? fail('PREFLIGHT_REFUSED', `POST /v1/session/actions: refused before submission (code 4006 NonceMismatch): ${SEQUENTIAL_LIE}`, { exchangeCode: 4006, exchangeName: 'NonceMismatch', nonceConsumed: false })
      : fail('PARALLEL_NONCE_REJECTED', PARALLEL_LIE, { status: 400, retry: 'resync-and-retry-once', nonceRefusal: 'RESYNC_WINDOW_AND_RETRY_ONCE', nonceConsumed: false });
  }

  post(body: SessionActionsBody): Promise<Result<{ tx_id: string; orders?: readonly unknown[] }>> {
    this.posted.push(body);
    const behaviour = this.behaviours.shift() ?? 'honest';
    if (behaviour === 'execute-then-lie') {
      this.execute(body);
      return Promise.resolve(this.lie(body));
    }
    if (behaviour === 'lie-without-executing') return Promise.resolve(this.lie(body));
    if (behaviour === 'another-device-first') {
      // Another signer of the account used this nonce just before: the refusal is true.
      if (this.positionOf(body) === null) this.nonce++;
      return Promise.resolve(this.lie(body));
    }
    const position = this.positionOf(body);
    if (position === null && BigInt((body as { nonce?: string }).nonce ?? '-1') !== this.nonce) return Promise.resolve(this.lie(body));
    if (position !== null && (this.consumed.get(position.lane)?.has(position.index) === true || position.expiry <= NOW)) return Promise.resolve(this.lie(body));
    return Promise.resolve(ok(this.execute(body)));
  }

  window(lane: number): WindowSnapshot {
    const words = new Map<bigint, bigint>();
    for (const index of this.consumed.get(lane) ?? []) words.set(index / 128n, (words.get(index / 128n) ?? 0n) | (1n << (index % 128n)));
    return { lane, base: 0n, slots: [...words].map(([word_position, bitmap]) => ({ word_position, bitmap })) };
  }
}

function setup(lanes: number, now: () => bigint = () => NOW) {
  const journal = new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-lying-')), now: () => 1 });
  const exchange = new LyingExchange();
  const nonces = new NonceManager(
    { accountNonce: () => Promise.resolve(ok(exchange.nonce)), window: (lane) => Promise.resolve(ok(exchange.window(lane))) },
    { load: () => null, save: () => ok(undefined) },
    lanes,
    now,
  );
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
      return Promise.resolve(ok('landed'));
    },
    ordersOf: (entry) => ordersOfRequest({ getOrders: () => Promise.resolve(ok({ orders: exchange.orders } as never)) }, tradeAccount, entry),
  });
  const record = (id: string) =>
    journal
      .list(50)
      .filter((entry) => entry.id === id)
      .sort((left, right) => left.seq - right.seq);
  return { journal, exchange, submitter, reconciled, record };
}

const nonceOf = (body: SessionActionsBody | undefined) => (body as { nonce?: string; parallel_nonce?: string } | undefined)?.nonce ?? (body as { parallel_nonce?: string } | undefined)?.parallel_nonce;

describe('submitter against an exchange that executes a request and then refuses it for its nonce', () => {
  it('sequential: signs nothing again, answers with the order that landed, journals it accepted, and never reuses the nonce', async () => {
    const { exchange, submitter, journal, record } = setup(0);
    exchange.behaviours = ['execute-then-lie'];
    const placed = await submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' });
    expect(exchange.posted).toHaveLength(1);
    expect(exchange.orders).toHaveLength(1);
    expect(placed).toMatchObject({ ok: true, value: { journalId: 'entry-1', orders: [{ order_id: exchange.orders[0]!.order_id }] } });
    const entries = record('entry-1');
    expect(entries.filter((entry) => entry.kind === 'outcome').at(-1)).toMatchObject({ status: 'accepted', orderIds: [exchange.orders[0]!.order_id] });
    expect(entries.find((entry) => entry.kind === 'reconciled')).toMatchObject({ status: 'landed' });
    expect(journal.unresolved()).toHaveLength(0);
    // The lie consumed nonce 5: the next order is signed with 6.
    expect((await submitter.submit({ groups, description: 'next' })).ok).toBe(true);
    expect(exchange.posted.map(nonceOf)).toEqual(['5', '6']);
    expect(exchange.orders).toHaveLength(2);
  });

  it('parallel: signs nothing again, answers with the order that landed, and never hands the lied position out again', async () => {
    const { exchange, submitter, record } = setup(1);
    exchange.behaviours = ['execute-then-lie'];
    const placed = await submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' });
    expect(exchange.posted).toHaveLength(1);
    expect(exchange.orders).toHaveLength(1);
    expect(placed).toMatchObject({ ok: true, value: { orders: [{ order_id: exchange.orders[0]!.order_id }] } });
    expect(record('entry-1').filter((entry) => entry.kind === 'outcome').at(-1)).toMatchObject({ status: 'accepted' });
    expect((await submitter.submit({ groups, description: 'next' })).ok).toBe(true);
    const [first, second] = exchange.posted.map((body) => unpackParallelNonce(BigInt(nonceOf(body)!)));
    expect(first?.ok && second?.ok && first.value.bit_position !== second.value.bit_position).toBe(true);
    expect(exchange.orders).toHaveLength(2);
  });
});

describe('submitter after other refusals for a stale nonce', () => {
  it('sequential, a lie that executed nothing: the nonce is still unused, so it is signed once more with the same nonce (at most one can land)', async () => {
    const { exchange, submitter, record } = setup(0);
    exchange.behaviours = ['lie-without-executing'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed.ok).toBe(true);
    expect(exchange.posted.map(nonceOf)).toEqual(['5', '5']);
    expect(exchange.orders).toHaveLength(1);
    expect(record('entry-1').find((entry) => entry.kind === 'reconciled')).toMatchObject({ status: 'not-landed' });
  });

  it('sequential, the nonce used by another device: no order of it exists, but nothing is signed again (the exchange cannot prove it did not land)', async () => {
    const { exchange, submitter, record } = setup(0);
    exchange.behaviours = ['another-device-first'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed).toMatchObject({ ok: false, code: 'NONCE_USED_ELSEWHERE' });
    expect(exchange.posted).toHaveLength(1);
    expect(record('entry-1').find((entry) => entry.kind === 'reconciled')).toMatchObject({ status: 'not-landed' });
    // The next intent is signed with the account's current nonce.
    expect((await submitter.submit({ groups, description: 'again' })).ok).toBe(true);
    expect(exchange.posted.map(nonceOf)).toEqual(['5', '6']);
  });

  it('a cancel whose nonce was used meanwhile: its orders cannot tell, so it is checked like a lost answer, not signed again', async () => {
    const { exchange, submitter, reconciled } = setup(0);
    exchange.behaviours = ['another-device-first'];
    const cancel = [{ ...groups[0]!, actions: [{ kind: 'CancelOrder' as const, order_id: `0x${'ab'.repeat(32)}` as B256 }] }];
    const result = await submitter.submit({ groups: cancel, description: 'Cancel 1 order', settleFirst: false });
    expect(result).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(exchange.posted).toHaveLength(1);
    expect(reconciled).toEqual(['entry-1']);
  });

  it('parallel, a position neither consumed nor expired: it could still land, so nothing is signed again and the outcome is being checked', async () => {
    const { exchange, submitter, reconciled } = setup(1);
    exchange.behaviours = ['lie-without-executing'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(!placed.ok && placed.message).toMatch(/checking with the exchange/);
    expect(exchange.posted).toHaveLength(1);
    expect(reconciled).toEqual(['entry-1']);
  });

  it('parallel, a position that expired unconsumed: it can never land, so it is signed once more with a fresh position', async () => {
    let now = NOW;
    const { exchange, submitter } = setup(1, () => now);
    exchange.behaviours = ['lie-without-executing'];
    const original = exchange.post.bind(exchange);
    exchange.post = (body) => {
      const answer = original(body);
      now = NOW + 1_000n; // the request was on its way past its expiry
      return answer;
    };
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(placed.ok).toBe(true);
    expect(exchange.posted).toHaveLength(2);
    expect(exchange.orders).toHaveLength(1);
  });

  it('a second stale refusal is settled the same way and never signed a third time', async () => {
    const { exchange, submitter } = setup(0);
    exchange.behaviours = ['lie-without-executing', 'execute-then-lie'];
    const placed = await submitter.submit({ groups, description: 'Buy' });
    expect(exchange.posted).toHaveLength(2);
    expect(exchange.orders).toHaveLength(1);
    expect(placed).toMatchObject({ ok: true, value: { orders: [{ order_id: exchange.orders[0]!.order_id }] } });
  });
});
