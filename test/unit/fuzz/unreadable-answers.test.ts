// An answer the client cannot read, to a signed request, property-based: the real order path
// (Submitter, NonceManager, Journal) and the real withdrawal path (OwnerSubmitter, Journal) over
// the real REST client, whose injected fetch answers HTTP 2xx with arbitrary bodies and mutations
// of a success. A 2xx answer means the exchange took the request; unless its body says it was
// refused or reverted, the order or the withdrawal may have happened. So the outcome is never
// journaled as "refused" (which invites doing it again): it is unknown, and looked up.
import fc from 'fast-check';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asRefusal, asRevert } from '../../../main/exchange/errors';
import type { HttpFetch } from '../../../main/exchange/http';
import { ExchangeRestClient } from '../../../main/exchange/rest-client';
import { Journal } from '../../../main/services/journal/journal';
import { NonceManager, type NoncePort } from '../../../main/services/nonces/nonce-manager';
import { Submitter } from '../../../main/services/trading/submitter';
import { OwnerSubmitter } from '../../../main/services/custody/owner-submitter';
import type { WithdrawBody } from '../../../shared/protocol/owner-messages';
import { actionsResultSchema } from '../../../shared/api/account-schemas';
import { addressOf } from '../../../shared/crypto/address';
import { publicKeyOf } from '../../../shared/crypto/keys';
import { signDigest } from '../../../shared/crypto/signature';
import type { B256 } from '../../../shared/encoding/b256';
import { fail, ok } from '../../../shared/result';
import { showValue } from '../../../shared/schema';
import { groups, market, owner, tradeAccount } from '../../support/order-fixture';
import { hostileJson, mutationOf } from '../../support/fuzz/hostile';
import { checkProperty } from '../../support/property';

const sessionKey = new Uint8Array(32).fill(7);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger') as B256;
const success = {
  tx_id: '0xabc',
  orders: [{ order_id: `0x${'0c'.repeat(32)}`, owner: { ContractId: tradeAccount }, side: 'Buy', order_type: 'Spot', market_id: market.market_id, quantity: '1000000000', price: '3000000000000', timestamp: '1' }],
};

class NonceExchange implements NoncePort {
  accountNonce() {
    return Promise.resolve(ok(5n));
  }
  window(lane: number) {
    return Promise.resolve(ok({ lane, base: 0n, slots: [] }));
  }
}

// Each run opens a journal (a preallocated file, flushed): on tmpfs that costs no device flush,
// so 200 runs fit the test's time on a loaded machine.
// Every journal goes in one folder, removed when the file's tests end (tmpfs is memory).
const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lt-unreadable-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function orderPath(status: number, body: unknown) {
  const journal = new Journal({ directory: mkdtempSync(join(scratch, 'order-')), now: () => 1 });
  const nonces = new NonceManager(new NonceExchange(), { load: () => null, save: () => ok(undefined) }, 0, () => 1_700_000_000n);
  const fetch: HttpFetch = () => Promise.resolve(ok({ status, body }));
  const rest = new ExchangeRestClient({ baseUrl: 'http://exchange.test', fetch });
  const reconciled: string[] = [];
  const submitter = new Submitter({
    port: { post: (request, signer) => rest.postSessionActions(signer, request) },
    nonces: () => nonces,
    journal,
    sign: (_address, digest) => ok(signDigest(digest, sessionKey)),
    identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress }),
    targets: () => ({}),
    newId: () => 'entry-1',
    reconcile: (id) => {
      reconciled.push(id);
      journal.appendReconciled({ id, status: 'not-landed', detail: 'test' });
      return Promise.resolve(ok('not-landed' as const));
    },
    ordersOf: () => Promise.resolve(ok([])),
  });
  return { journal, submitter, reconciled };
}

const answerBody = fc.oneof({ arbitrary: mutationOf(success, hostileJson), weight: 4 }, { arbitrary: hostileJson, weight: 2 }, { arbitrary: fc.constantFrom<unknown>(null, '', [], {}, { tx_id: 7 }, { orders: [] }, { message: 'ok' }), weight: 1 });

describe('an unreadable answer to a signed order', () => {
  it('is never journaled as refused: unless the body refuses or reverts, the outcome is unknown and looked up', async () => {
    await checkProperty(
      fc.asyncProperty(fc.constantFrom(200, 201, 202, 204), answerBody, async (status, body) => {
        const { journal, submitter, reconciled } = orderPath(status, body);
        const result = await submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' });
        await new Promise((resolve) => setTimeout(resolve, 0));
        const outcome = journal.list(10).find((entry) => entry.kind === 'outcome');
        if (result.ok) {
          expect(outcome).toMatchObject({ status: 'accepted' });
          return;
        }
        const parsed = actionsResultSchema.safeParse(body);
        const saysRefused = asRefusal(body) !== null || (parsed.success && parsed.data.kind === 'refused');
        const saysReverted = asRevert(body) !== null;
        if (saysRefused || saysReverted) return;
        expect(outcome, `HTTP ${status} ${showValue(body)} → ${result.code}`).toMatchObject({ status: 'unknown' });
        expect(reconciled).toEqual(['entry-1']);
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});

const withdrawal: WithdrawBody = { trade_account_id: tradeAccount, signature: { Secp256k1: `0x${'11'.repeat(64)}` }, nonce: '7', to: { Address: owner }, asset_id: market.quote.asset, amount: '5' };

describe('an unreadable answer to a withdrawal', () => {
  it('is never journaled as refused: unless the body refuses or reverts, the nonce is looked up', async () => {
    await checkProperty(
      fc.asyncProperty(fc.constantFrom(200, 201, 204), fc.oneof(mutationOf({ tx_id: '0xabc' }, hostileJson), hostileJson), async (status, body) => {
        const journal = new Journal({ directory: mkdtempSync(join(scratch, 'owner-')), now: () => 1 });
        const rest = new ExchangeRestClient({ baseUrl: 'http://exchange.test', fetch: () => Promise.resolve(ok({ status, body })) });
        let lookups = 0;
        const submitter = new OwnerSubmitter({
          port: { postWithdraw: (signer, request) => rest.postAccountWithdraw(signer, request), putSession: (signer, request) => rest.putSession(signer, request), postOwnerCall: () => Promise.resolve(fail('UNUSED', 'unused')) },
          journal,
          newId: () => 'owner-1',
          wasConsumed: () => (lookups++, Promise.resolve(ok('landed' as const))),
          wait: () => Promise.resolve(),
          nowSeconds: () => 1_700_000_000n,
        });
        const result = await submitter.send({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, body: { kind: 'withdraw', body: withdrawal }, nonce: { mode: 'sequential', value: 7n }, description: 'Withdraw 5', actions: [] });
        const outcome = journal.list(10).find((entry) => entry.kind === 'outcome');
        if (result.ok && outcome?.status === 'accepted') return;
        if (asRefusal(body) !== null || asRevert(body) !== null) return;
        expect(outcome, `HTTP ${status} ${showValue(body)}`).toMatchObject({ status: 'unknown' });
        expect(lookups).toBeGreaterThan(0);
        expect(journal.list(10).find((entry) => entry.kind === 'reconciled')).toMatchObject({ status: 'landed' });
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
