// The submitter runs main's guards before anything else of the order path: a refusal takes no
// nonce, writes no journal entry, signs nothing and sends nothing; the guard sees the very groups
// to be signed, the signing account and the reduce-only mark.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../../main/services/journal/journal';
import { NonceManager, type NoncePort } from '../../../../../main/services/nonces/nonce-manager';
import { Submitter, type SubmitterDeps } from '../../../../../main/services/trading/submitter';
import type { B256 } from '../../../../../shared/encoding/b256';
import { fail, ok } from '../../../../../shared/result';
import { groups, owner, tradeAccount } from '../../../../support/order-fixture';

describe('the submitter with a guard', () => {
  it('refuses before taking a nonce, journaling, signing or sending', async () => {
    const journal = new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-guard-')), now: () => 1 });
    let nonceReads = 0;
    const port: NoncePort = {
      accountNonce: () => {
        nonceReads++;
        return Promise.resolve(ok(5n));
      },
      window: (lane) => Promise.resolve(ok({ lane, base: 0n, slots: [] })),
    };
    const nonces = new NonceManager(port, { load: () => null, save: () => ok(undefined) }, 0, () => 1_700_000_000n);
    const asked: Parameters<NonNullable<SubmitterDeps['guard']>>[0][] = [];
    let signed = 0;
    let posted = 0;
    const submitter = new Submitter({
      port: {
        post: () => {
          posted++;
          return Promise.resolve(ok({ tx_id: '0xtx', orders: [] }));
        },
      },
      nonces: () => nonces,
      journal,
      sign: () => {
        signed++;
        return ok(new Uint8Array(64));
      },
      identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress: owner as B256 }),
      targets: () => ({}),
      newId: () => 'entry-1',
      reconcile: () => Promise.resolve(ok('not-landed' as const)),
      ordersOf: () => Promise.resolve(ok([])),
      guard: (request) => {
        asked.push(request);
        return Promise.resolve(fail('GUARD_PRICE_BAND', 'Price 30000 USDC is beyond your price band. Nothing was signed.'));
      },
    });
    const result = await submitter.submit({ groups, description: 'Buy 1 ETH at 30,000', reduceOnly: true });
    expect(result).toMatchObject({ ok: false, code: 'GUARD_PRICE_BAND' });
    expect(asked).toEqual([{ groups, account: tradeAccount, reduceOnly: true }]);
    expect({ nonceReads, signed, posted, journal: journal.list(5).length }).toEqual({ nonceReads: 0, signed: 0, posted: 0, journal: 0 });
  });
});
