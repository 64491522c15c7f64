// The order path's timings (OrderPathSpan): told once per signed request after its answer, with the
// nonce the request carries and its stamps in the order the path takes them; the port is given a
// send callback only while the path is traced.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../../main/services/journal/journal';
import { NonceManager, type NoncePort } from '../../../../../main/services/nonces/nonce-manager';
import type { OrderPathSpan } from '../../../../../main/services/trading/order-path-span';
import { Submitter, type SubmitterPort } from '../../../../../main/services/trading/submitter';
import { addressOf } from '../../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../../shared/crypto/keys';
import { signDigest } from '../../../../../shared/crypto/signature';
import type { B256 } from '../../../../../shared/encoding/b256';
import { ok } from '../../../../../shared/result';
import { groups, owner, tradeAccount } from '../../../../support/order-fixture';

const sessionKey = new Uint8Array(32).fill(7);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger') as B256;

const exchange: NoncePort = {
  accountNonce: () => Promise.resolve(ok(5n)),
  window: (lane) => Promise.resolve(ok({ lane, base: 0n, slots: [] })),
};

function submitterWith(port: SubmitterPort, trace?: (span: OrderPathSpan) => void): Submitter {
  const journal = new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-trace-')), now: () => 1 });
  const nonces = new NonceManager(exchange, { load: () => null, save: () => ok(undefined) }, 0, () => 1_700_000_000n);
  return new Submitter({
    port,
    nonces: () => nonces,
    journal,
    sign: (_address, digest) => ok(signDigest(digest, sessionKey)),
    identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress }),
    targets: () => ({}),
    newId: () => 'entry-1',
    reconcile: () => Promise.resolve(ok('not-landed')),
    ordersOf: () => Promise.resolve(ok([])),
    ...(trace === undefined ? {} : { trace }),
  });
}

describe('submitter: the order path traced', () => {
  it('tells one span per request after its answer, stamps in path order, with the nonce the request carries', async () => {
    const spans: OrderPathSpan[] = [];
    let spansAtAnswer = -1;
    let body: { nonce?: string } = {};
    const started = performance.timeOrigin + performance.now();
    const submitter = submitterWith(
      {
        post: (sent, _owner, options) => {
          body = sent as { nonce?: string };
          options?.onSent?.();
          spansAtAnswer = spans.length;
          return Promise.resolve(ok({ tx_id: '0xtx', orders: [] }));
        },
      },
      (span) => spans.push(span),
    );
    expect(await submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' })).toMatchObject({ ok: true });
    expect(spansAtAnswer).toBe(0);
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span).toMatchObject({ journalId: 'entry-1', nonce: body.nonce });
    const stamps = [started, span.submittedAt, span.leasedAt, span.writeStartedAt, span.signedAt, span.sentAt!];
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    expect(span.flushedAt).toBeGreaterThanOrEqual(span.writeStartedAt);
    expect(span.sentAt!).toBeGreaterThanOrEqual(span.flushedAt);
  });

  it('gives the port no send callback when the path is not traced, and a null send when it never left', async () => {
    const callbacks: unknown[] = [];
    const untraced = submitterWith({
      post: (_body, _owner, options) => {
        callbacks.push(options?.onSent);
        return Promise.resolve(ok({ tx_id: '0xtx', orders: [] }));
      },
    });
    expect(await untraced.submit({ groups, description: 'Buy' })).toMatchObject({ ok: true });
    expect(callbacks).toEqual([undefined]);
    const spans: OrderPathSpan[] = [];
    const traced = submitterWith({ post: () => Promise.resolve(ok({ tx_id: '0xtx', orders: [] })) }, (span) => spans.push(span));
    expect(await traced.submit({ groups, description: 'Buy' })).toMatchObject({ ok: true });
    expect(spans[0]?.sentAt).toBeNull();
  });

  it("asks the port to put the trader's own request before the algorithms' in the rate limit, and an algorithm's child not", async () => {
    const ahead: (boolean | undefined)[] = [];
    const submitter = submitterWith({
      post: (_body, _owner, options) => {
        ahead.push(options?.ahead);
        return Promise.resolve(ok({ tx_id: '0xtx', orders: [] }));
      },
    });
    expect(await submitter.submit({ groups, description: 'Buy' })).toMatchObject({ ok: true });
    expect(await submitter.submit({ groups, description: 'Iceberg slice', parent: 'algo-1' })).toMatchObject({ ok: true });
    expect(ahead).toEqual([true, false]);
  });
});
