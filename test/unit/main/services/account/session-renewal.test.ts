// Session renewal over a scripted exchange and a hand-moved clock: a session keeps the length the
// trader chose (a two-hour session is renewed for two hours, a tenth of its life before the end),
// never longer than the configured length (renewal has no confirmation), the account view says
// when it renews, and each renewal is told as a notice.
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountService } from '../../../../../main/services/account/account-service';
import { Journal } from '../../../../../main/services/journal/journal';
import { KeyVault } from '../../../../../main/services/keys/key-vault';
import { NonceManager } from '../../../../../main/services/nonces/nonce-manager';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import type { ExchangeRestClient } from '../../../../../main/exchange/rest-client';
import type { B256 } from '../../../../../shared/encoding/b256';
import { ok } from '../../../../../shared/result';
import { MemorySecretStore } from '../../../../support/memory-secret-store';
import { TEST_KEYCHAIN, TEST_SANDBOX_NETWORK } from '../../../../support/main/account/sandbox-network';

const HOUR = 3_600n;
const DAY = 24n * HOUR;
const TRADE_ACCOUNT = `0x${'ab'.repeat(32)}` as B256;
const BOOK = `0x${'cd'.repeat(32)}` as B256;

async function setUp(sessionDays = 30) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-renewal-'));
  const preferences = new PreferencesStore(dataDir, () => undefined);
  preferences.preferences.update((current) => ({ ...current, settings: { ...current.settings, sessionDays } }));
  const vault = new KeyVault(new MemorySecretStore(), (length) => new Uint8Array(randomBytes(length)));
  const owner = await vault.createOwnerKey('ledger');
  if (!owner.ok) throw new Error(owner.message);
  preferences.accounts.update((file) => ({
    ...file,
    owners: [{ address: owner.value, style: 'ledger', custody: 'keychain' }],
    networks: { sandbox: { activeOwner: owner.value, accounts: { [owner.value]: { tradeAccountId: TRADE_ACCOUNT, whitelisted: true, session: null, laneCursors: {} } }, sessionMarkets: ['m1'] } },
  }));
  const clock = { now: 1_900_000_000n };
  let accountNonce = 0n;
  const granted: { expiry: bigint; address: string }[] = [];
  const rest = {
    putSession: (_owner: B256, body: { session_id: { Address: string }; expiry: string }) => {
      accountNonce += 1n;
      granted.push({ expiry: BigInt(body.expiry), address: body.session_id.Address });
      return Promise.resolve(ok({ tx_id: `tx${granted.length}` }));
    },
  } as unknown as ExchangeRestClient;
  const nonces = new NonceManager(
    { accountNonce: () => Promise.resolve(ok(accountNonce)), window: (lane) => Promise.resolve(ok({ lane, base: 0n, slots: [] })) },
    { load: () => null, save: () => ok(undefined) },
    0,
    () => clock.now,
  );
  const notices: { level: string; text: string }[] = [];
  const accounts = new AccountService({
    network: TEST_SANDBOX_NETWORK,
    preferences,
    vault,
    keychain: TEST_KEYCHAIN,
    rest,
    nonces: () => nonces,
    chainId: () => 9889n,
    contractIdsFor: () => ok([BOOK]),
    sessionScopeText: () => '1 market',
    nowSeconds: () => clock.now,
    onChange: () => undefined,
    onTradeAccount: () => undefined,
    log: () => undefined,
    notice: (level, text) => notices.push({ level, text }),
    journal: new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-renewal-journal-')), now: () => Number(clock.now) * 1000 }),
    newJournalId: () => `j${granted.length}`,
  });
  return { accounts, clock, granted, notices, preferences };
}

describe('session renewal', () => {
  it('renews a two-hour session for two hours, a tenth of its life before its end', async () => {
    const { accounts, clock, granted, notices } = await setUp();
    const created = await accounts.createSession(['m1'], 2n * HOUR);
    expect(created.ok).toBe(true);
    const expiry = clock.now + 2n * HOUR;
    expect(accounts.state().session?.renewsAt).toBe(expiry - 12n * 60n);

    clock.now += 60n;
    await accounts.renewIfDue();
    expect(granted).toHaveLength(1);

    clock.now = expiry - 12n * 60n;
    await accounts.renewIfDue();
    expect(granted).toHaveLength(2);
    expect(granted[1]!.expiry).toBe(clock.now + 2n * HOUR);
    const renewed = accounts.state().session!;
    expect(renewed.renewsAt).toBe(clock.now + 2n * HOUR - 12n * 60n);
    expect(notices).toEqual([{ level: 'info', text: expect.stringMatching(/renewed for 2 hours.*next renewal/s) as string }]);
  });

  it('never renews for longer than the configured length (a renewal has no confirmation)', async () => {
    const { accounts, clock, granted, preferences } = await setUp(60);
    expect((await accounts.createSession(['m1'], 60n * DAY)).ok).toBe(true);
    preferences.preferences.update((current) => ({ ...current, settings: { ...current.settings, sessionDays: 7 } }));
    // A week's session is renewed a tenth of a week (not of 60 days) before its end.
    expect(accounts.state().session?.renewsAt).toBe(clock.now + 60n * DAY - (7n * DAY) / 10n);
    clock.now += 60n * DAY - DAY / 2n;
    await accounts.renewIfDue();
    expect(granted.map((grant) => grant.expiry)).toEqual([clock.now - 60n * DAY + DAY / 2n + 60n * DAY, clock.now + 7n * DAY]);
  });

  it('a session written before lengths were kept renews at the configured length', async () => {
    const { accounts, clock, granted, preferences } = await setUp(30);
    const address = `0x${'ee'.repeat(32)}`;
    preferences.accounts.update((file) => {
      const network = file.networks.sandbox!;
      const [ownerAddress, record] = Object.entries(network.accounts)[0]!;
      return { ...file, networks: { sandbox: { ...network, accounts: { [ownerAddress]: { ...record, session: { sessionAddress: address, expiry: clock.now + HOUR * 12n, contractIds: [BOOK], txId: null } } } } } };
    });
    await accounts.renewIfDue();
    expect(granted.map((grant) => grant.expiry)).toEqual([clock.now + 30n * DAY]);
  });
});
