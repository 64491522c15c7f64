// A lookup of the owner's trading account that was sent before the account was created answers
// "none" after it exists: that answer is of the moment it was asked, and must not erase the
// account just created (onboarding then failed at the next step with "Create the trading account
// first", seen under load in the integration suites).
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountService } from '../../../../../main/services/account/account-service';
import { Journal } from '../../../../../main/services/journal/journal';
import { KeyVault } from '../../../../../main/services/keys/key-vault';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import type { ExchangeRestClient } from '../../../../../main/exchange/rest-client';
import type { B256 } from '../../../../../shared/encoding/b256';
import { ok, type Result } from '../../../../../shared/result';
import { MemorySecretStore } from '../../../../support/memory-secret-store';
import { TEST_KEYCHAIN, TEST_SANDBOX_NETWORK } from '../../../../support/main/account/sandbox-network';

const TRADE_ACCOUNT = `0x${'ab'.repeat(32)}` as B256;

describe('the trading account lookup', () => {
  it('a "none" asked before the account was created does not erase it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-lookup-race-'));
    const preferences = new PreferencesStore(dataDir, () => undefined);
    const vault = new KeyVault(new MemorySecretStore(), (length) => new Uint8Array(randomBytes(length)));
    const owner = await vault.createOwnerKey('ledger');
    if (!owner.ok) throw new Error(owner.message);
    preferences.accounts.update((file) => ({ ...file, owners: [{ address: owner.value, style: 'ledger', custody: 'keychain' }], networks: { sandbox: { activeOwner: owner.value, accounts: {}, sessionMarkets: [] } } }));
    let answerLookup: (result: Result<{ kind: 'none' }>) => void = () => undefined;
    const rest = {
      getAccount: () => new Promise<Result<{ kind: 'none' }>>((resolve) => (answerLookup = resolve)),
      createAccount: () => Promise.resolve(ok({ trade_account_id: TRADE_ACCOUNT, nonce: 0n })),
    } as unknown as ExchangeRestClient;
    const tradeAccounts: (string | null)[] = [];
    const accounts = new AccountService({
      network: TEST_SANDBOX_NETWORK,
      preferences,
      vault,
      keychain: TEST_KEYCHAIN,
      rest,
      nonces: () => null,
      chainId: () => 9889n,
      contractIdsFor: () => ok([]),
      sessionScopeText: () => '',
      nowSeconds: () => 1_900_000_000n,
      onChange: () => undefined,
      onTradeAccount: (id) => tradeAccounts.push(id),
      log: () => undefined,
      notice: () => undefined,
      journal: new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-lookup-race-journal-')), now: () => 0 }),
      newJournalId: () => 'j1',
    });
    const lookup = accounts.refresh(); // asked at a reconnect, before the account exists
    const created = await accounts.createTradeAccount();
    expect(created).toMatchObject({ ok: true, value: { tradeAccountId: TRADE_ACCOUNT } });
    answerLookup(ok({ kind: 'none' })); // true when asked, stale when it arrives
    await lookup;
    expect(accounts.accountRecord()?.tradeAccountId).toBe(TRADE_ACCOUNT);
    expect(tradeAccounts).toEqual([TRADE_ACCOUNT]);
  });
});
