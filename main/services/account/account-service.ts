// The trader's identity on one network: owner keys (hot in the keychain, or watch-only), the
// trading account, faucet and whitelist on networks that have them, and the session that lets
// main trade without the owner key. Each onboarding step reports what it is doing and why it
// failed, in words a trader understands. Sessions are renewed ahead of expiry.
import { isEvmStyleAddress, type OwnerStyle } from '../../../shared/crypto/address';
import type { B256 } from '../../../shared/encoding/b256';
import type { AccountState, KeychainView, OnboardingStep, OwnerView, SessionView, StepState } from '../../../shared/ipc/views';
import { checkSessionGrant, sessionBody, sessionDigest, type SessionGrant } from '../../../shared/protocol/session';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { Journal, JournalRecord } from '../journal/journal';
import type { KeyVault } from '../keys/key-vault';
import type { NetworkConfig } from '../network/networks';
import type { NonceManager } from '../nonces/nonce-manager';
import type { AccountRecord, OwnerRecord, PreferencesStore, SessionRecord } from '../storage/preferences';
import { configuredSessionSeconds, DAY, renewalSeconds, renewalTime, sessionLengthText } from './session-length';

export const NO_OWNER = 'NO_OWNER';
export const NO_TRADE_ACCOUNT = 'NO_TRADE_ACCOUNT';
export const WATCH_ONLY = 'WATCH_ONLY';
export const NO_SESSION = 'NO_SESSION';

export interface AccountServiceDeps {
  readonly network: NetworkConfig;
  readonly preferences: PreferencesStore;
  readonly vault: KeyVault | null;
  readonly keychain: KeychainView;
  readonly rest: ExchangeRestClient;
  readonly nonces: () => NonceManager | null;
  readonly chainId: () => bigint | null;
  /** Contract ids of the markets a session may cover (canonical and Turbo books). */
  readonly contractIdsFor: (marketIds: readonly string[]) => Result<B256[]>;
  /** What these contracts are, counted as setup counts them ("5 markets, 8 books (5 Canonical, 3 Turbo) …"). */
  readonly sessionScopeText: (contractIds: readonly string[]) => string;
  readonly nowSeconds: () => bigint;
  readonly onChange: (state: AccountState) => void;
  /** The trading account was created or changed (streams must follow it). */
  readonly onTradeAccount: (tradeAccountId: B256 | null) => void;
  readonly log: (line: string) => void;
  /** A notice to the windows (a renewal done or failed: the trader is told, never surprised). */
  readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
  /** Owner-signed session requests are journaled like every signed request. */
  readonly journal: Journal;
  readonly newJournalId: () => string;
}

export const SESSION_ENDPOINT = 'PUT /v1/session';

export class AccountService {
  private readonly transient = new Map<OnboardingStep['id'], { state: StepState; detail: string | null }>();
  private nonce: bigint | null = null;
  /** Counts every change of the local account record: a lookup answered after one is of the time before it. */
  private recordChanges = 0;
  private funded = false;
  private renewing = false;

  constructor(private readonly deps: AccountServiceDeps) {}

  private get networkId(): string {
    return this.deps.network.id;
  }

  private networkRecord() {
    return this.deps.preferences.accounts.get().networks[this.networkId] ?? { activeOwner: null, accounts: {}, sessionMarkets: [] };
  }

  owners(): OwnerView[] {
    return this.deps.preferences.accounts.get().owners.map((owner) => ({ address: owner.address, style: owner.style, custody: owner.custody }));
  }

  activeOwner(): OwnerRecord | null {
    const address = this.networkRecord().activeOwner;
    return this.deps.preferences.accounts.get().owners.find((owner) => owner.address === address) ?? null;
  }

  accountRecord(): AccountRecord | null {
    const owner = this.activeOwner();
    return owner ? (this.networkRecord().accounts[owner.address] ?? null) : null;
  }

  private saveAccount(change: (record: AccountRecord | null) => AccountRecord | null): Result<void> {
    const owner = this.activeOwner();
    if (!owner) return fail(NO_OWNER, 'Choose or create an owner first');
    this.recordChanges += 1;
    const saved = this.deps.preferences.accounts.update((file) => {
      const network = file.networks[this.networkId] ?? { activeOwner: owner.address, accounts: {}, sessionMarkets: [] };
      const next = change(network.accounts[owner.address] ?? null);
      const accounts = { ...network.accounts };
      if (next === null) delete accounts[owner.address];
      else accounts[owner.address] = next;
      return { ...file, networks: { ...file.networks, [this.networkId]: { ...network, accounts } } };
    });
    return saved.ok ? ok(undefined) : saved;
  }

  /** Remember the markets a session should cover. */
  rememberSessionMarkets(marketIds: readonly string[]): void {
    this.deps.preferences.accounts.update((file) => {
      const network = file.networks[this.networkId] ?? { activeOwner: null, accounts: {}, sessionMarkets: [] };
      return { ...file, networks: { ...file.networks, [this.networkId]: { ...network, sessionMarkets: [...new Set(marketIds)] } } };
    });
  }

  sessionMarkets(): string[] {
    return this.networkRecord().sessionMarkets;
  }

  setFunded(funded: boolean): void {
    if (this.funded === funded) return;
    this.funded = funded;
    this.publish();
  }

  observeNonce(nonce: bigint): void {
    this.nonce = nonce;
  }

  // ---- state ------------------------------------------------------------------------------

  private sessionView(): SessionView | null {
    const session = this.accountRecord()?.session;
    if (!session) return null;
    const now = this.deps.nowSeconds();
    const renewsAt = this.renewsAt(session);
    // A session main renews is expiring once its renewal is due; one it does not, a day before its end.
    const expiring = renewsAt === null ? session.expiry - now < DAY : now >= renewsAt;
    const state = session.expiry <= now ? 'expired' : this.renewing ? 'renewing' : expiring ? 'expiring' : 'active';
    return { sessionAddress: session.sessionAddress, expiry: session.expiry, contractIds: session.contractIds, state, renewsAt };
  }

  /** The length a new session signs for the trader who has this one: the length they chose, at most the configured length. */
  renewalLength(session: SessionRecord | null = this.accountRecord()?.session ?? null): bigint {
    return renewalSeconds(session?.lengthSeconds, configuredSessionSeconds(this.deps.preferences.preferences.get().settings.sessionDays));
  }

  /** When main renews this session; null when it will not (the owner key is not in the keychain, or no markets are remembered). */
  private renewsAt(session: SessionRecord): bigint | null {
    if (this.activeOwner()?.custody !== 'keychain' || this.sessionMarkets().length === 0) return null;
    return renewalTime(session.expiry, this.renewalLength(session));
  }

  private step(id: OnboardingStep['id'], title: string, computed: StepState, detail: string | null): OnboardingStep {
    const override = this.transient.get(id);
    if (override && computed !== 'done') return { id, title, state: override.state, detail: override.detail };
    return { id, title, state: computed, detail };
  }

  state(): AccountState {
    const owner = this.activeOwner();
    const record = this.accountRecord();
    const session = this.sessionView();
    const production = this.deps.network.production;
    const hasFaucet = this.deps.network.faucetUrl !== null || this.deps.network.kind === 'sandbox';
    const sessionLive = session !== null && session.state !== 'expired';
    const steps: OnboardingStep[] = [
      this.step('owner', 'Owner key', owner ? 'done' : 'todo', owner ? `${owner.custody === 'watch-only' ? 'Watch-only owner' : 'Owner key in the keychain'} ${owner.address}` : null),
      this.step('account', 'Trading account', record ? 'done' : 'todo', record ? `Trading account ${record.tradeAccountId}` : null),
      this.step(
        'funds',
        production || !hasFaucet ? 'Deposit funds' : 'Test funds from the faucet',
        this.funded ? 'done' : 'todo',
        this.funded ? 'The trading account holds funds' : production ? 'Send funds to the trading account by an on-chain transfer naming the asset id and amount' : null,
      ),
      this.step('whitelist', 'Whitelist', production ? 'not-needed' : record?.whitelisted ? 'done' : 'todo', record?.whitelisted ? 'The trading account is whitelisted' : null),
      this.step(
        'session',
        'Trading session',
        sessionLive ? 'done' : 'todo',
        session ? (sessionLive ? `Session key ${session.sessionAddress} until ${isoTime(session.expiry)}${session.renewsAt === null ? '' : `; renewed from ${isoTime(session.renewsAt)}`}` : 'The session expired; create a new one') : null,
      ),
    ];
    return {
      networkId: this.networkId,
      keychain: this.deps.keychain,
      owners: this.owners(),
      activeOwner: owner ? { address: owner.address, style: owner.style, custody: owner.custody } : null,
      tradeAccount: record ? { tradeAccountId: record.tradeAccountId, nonce: this.nonce ?? 0n, whitelisted: production ? null : record.whitelisted } : null,
      session,
      steps,
      canTrade: record !== null && sessionLive,
    };
  }

  publish(): void {
    this.deps.onChange(this.state());
  }

  private async working<T>(id: OnboardingStep['id'], detail: string, action: () => Promise<Result<T>>): Promise<Result<T>> {
    this.transient.set(id, { state: 'working', detail });
    this.publish();
    const result = await action();
    if (result.ok) this.transient.delete(id);
    else this.transient.set(id, { state: 'failed', detail: result.message });
    this.publish();
    return result;
  }

  // ---- owners -----------------------------------------------------------------------------

  private requireVault(): Result<KeyVault> {
    if (this.deps.vault === null) return fail('KEYCHAIN_UNAVAILABLE', this.deps.keychain.reason ?? 'No secure key store is available');
    return ok(this.deps.vault);
  }

  private addOwner(address: B256, style: OwnerStyle, custody: OwnerRecord['custody']): Result<void> {
    const saved = this.deps.preferences.accounts.update((file) => {
      const owners = file.owners.filter((owner) => owner.address !== address);
      owners.push({ address, style, custody });
      const network = file.networks[this.networkId] ?? { activeOwner: null, accounts: {}, sessionMarkets: [] };
      return { ...file, owners, networks: { ...file.networks, [this.networkId]: { ...network, activeOwner: address } } };
    });
    if (!saved.ok) return saved;
    // The new owner is the active one: the services follow its trading account (none until it is
    // looked up or created) and it is looked up, as when an owner is selected; nothing of the
    // previous owner's stays.
    this.nonce = null;
    this.transient.clear();
    this.deps.onTradeAccount((this.accountRecord()?.tradeAccountId ?? null) as B256 | null);
    this.publish();
    void this.refresh();
    return ok(undefined);
  }

  async createOwnerKey(style: OwnerStyle): Promise<Result<{ address: string }>> {
    const vault = this.requireVault();
    if (!vault.ok) return vault;
    return this.working('owner', 'Creating an owner key in the keychain', async () => {
      const created = await vault.value.createOwnerKey(style);
      if (!created.ok) return created;
      const added = this.addOwner(created.value, style, 'keychain');
      return added.ok ? ok({ address: created.value }) : added;
    });
  }

  async importOwnerKey(key: Uint8Array, style: OwnerStyle): Promise<Result<{ address: string }>> {
    const vault = this.requireVault();
    if (!vault.ok) return vault;
    try {
      return await this.working('owner', 'Storing the imported owner key in the keychain', async () => {
        const stored = await vault.value.importOwnerKey(key, style);
        if (!stored.ok) return stored;
        const added = this.addOwner(stored.value, style, 'keychain');
        return added.ok ? ok({ address: stored.value }) : added;
      });
    } finally {
      key.fill(0);
    }
  }

  registerWatchOnly(address: B256, style: OwnerStyle): Result<{ address: string }> {
    if (isEvmStyleAddress(address) !== (style === 'evm')) {
      return fail(
        'OWNER_STYLE_MISMATCH',
        style === 'evm'
          ? `address ${address} is not EVM-style: an EVM-style address starts with 12 zero bytes`
          : `address ${address} starts with 12 zero bytes, so the exchange treats it as EVM-style; choose EVM-style`,
        { field: 'address' },
      );
    }
    const added = this.addOwner(address, style, 'watch-only');
    return added.ok ? ok({ address }) : added;
  }

  selectOwner(address: B256): Result<void> {
    if (!this.deps.preferences.accounts.get().owners.some((owner) => owner.address === address)) {
      return fail(NO_OWNER, `owner ${address} is not known to this terminal`, { field: 'address' });
    }
    const saved = this.deps.preferences.accounts.update((file) => {
      const network = file.networks[this.networkId] ?? { activeOwner: null, accounts: {}, sessionMarkets: [] };
      return { ...file, networks: { ...file.networks, [this.networkId]: { ...network, activeOwner: address } } };
    });
    if (!saved.ok) return saved;
    this.nonce = null;
    this.transient.clear();
    this.deps.onTradeAccount((this.accountRecord()?.tradeAccountId ?? null) as B256 | null);
    this.publish();
    return ok(undefined);
  }

  /**
   * The owner `forgetOwner` would forget, or why it will not: an owner the terminal does not know,
   * or one whose key is in the keychain (it controls funds, and the terminal never exports a key,
   * so deleting it could lose them). Asked before the trusted confirmation, so the trader is never
   * asked to confirm what is then refused.
   */
  forgettable(address: B256): Result<{ readonly style: OwnerStyle; readonly active: boolean; readonly tradeAccountId: string | null }> {
    const file = this.deps.preferences.accounts.get();
    const owner = file.owners.find((candidate) => candidate.address === address);
    if (!owner) return fail(NO_OWNER, `owner ${address} is not known to this terminal`, { field: 'address' });
    if (owner.custody === 'keychain') {
      return fail(
        'OWNER_KEY_HELD',
        'This owner key is held in the keychain and controls funds; the terminal will not delete it. Remove it from the keychain yourself if you are sure.',
      );
    }
    const network = file.networks[this.networkId];
    return ok({ style: owner.style, active: network?.activeOwner === address, tradeAccountId: network?.accounts[address]?.tradeAccountId ?? null });
  }

  forgetOwner(address: B256): Result<void> {
    const forgettable = this.forgettable(address);
    if (!forgettable.ok) return forgettable;
    const saved = this.deps.preferences.accounts.update((file) => ({
      ...file,
      owners: file.owners.filter((candidate) => candidate.address !== address),
      networks: Object.fromEntries(
        Object.entries(file.networks).map(([id, network]) => [id, { ...network, activeOwner: network.activeOwner === address ? null : network.activeOwner }]),
      ),
    }));
    if (!saved.ok) return saved;
    this.deps.onTradeAccount((this.accountRecord()?.tradeAccountId ?? null) as B256 | null);
    this.publish();
    return ok(undefined);
  }

  // ---- the trading account ------------------------------------------------------------------

  /** Look the active owner's account up on the exchange and bring the local record in line. */
  async refresh(): Promise<Result<void>> {
    const owner = this.activeOwner();
    if (!owner) {
      this.publish();
      return ok(undefined);
    }
    const asked = this.recordChanges;
    const found = await this.deps.rest.getAccount({ owner: owner.address as B256 });
    // Another owner was selected while the lookup was out: its answer is of the owner before, and
    // saved, it gave the new owner the previous one's trading account (the lookup asked for the
    // new owner brings its own answer).
    if (this.activeOwner()?.address !== owner.address) return ok(undefined);
    // The record changed while the lookup was out (the account was just created here): the answer
    // is of the moment it was asked, and a "none" from before the creation would erase it.
    if (this.recordChanges !== asked) return ok(undefined);
    if (!found.ok) return found;
    if (found.value.kind === 'none') {
      if (this.accountRecord() !== null) {
        // The exchange no longer knows the account (a reset sandbox): start over from the account step.
        this.deps.log(`the trading account of ${owner.address} is gone on ${this.deps.network.name}; onboarding restarts`);
        this.saveAccount(() => null);
        this.deps.onTradeAccount(null);
      }
      this.publish();
      return ok(undefined);
    }
    const tradeAccountId = found.value.trade_account_id;
    this.nonce = found.value.trade_account.nonce;
    this.deps.nonces()?.observeSequential(this.nonce);
    const previous = this.accountRecord();
    if (previous?.tradeAccountId !== tradeAccountId) {
      this.saveAccount(() => ({ tradeAccountId, whitelisted: null, session: null, laneCursors: {} }));
      this.deps.onTradeAccount(tradeAccountId);
    }
    this.publish();
    return ok(undefined);
  }

  async createTradeAccount(): Promise<Result<{ tradeAccountId: string }>> {
    const owner = this.activeOwner();
    if (!owner) return fail(NO_OWNER, 'Create or choose an owner key before creating a trading account');
    const existing = this.accountRecord();
    if (existing) return ok({ tradeAccountId: existing.tradeAccountId });
    return this.working('account', 'Creating the trading account on the exchange', async () => {
      const created = await this.deps.rest.createAccount(owner.address as B256);
      if (!created.ok) {
        // It may exist already (created from another device, or a lost answer): look it up.
        const refreshed = await this.refresh();
        const record = this.accountRecord();
        if (refreshed.ok && record) return ok({ tradeAccountId: record.tradeAccountId });
        return fail(created.code, `The trading account could not be created: ${created.message}`);
      }
      this.nonce = created.value.nonce;
      const saved = this.saveAccount(() => ({ tradeAccountId: created.value.trade_account_id, whitelisted: null, session: null, laneCursors: {} }));
      if (!saved.ok) return saved;
      this.deps.onTradeAccount(created.value.trade_account_id);
      return ok({ tradeAccountId: created.value.trade_account_id });
    });
  }

  async mintFromFaucet(): Promise<Result<{ message: string }>> {
    const record = this.accountRecord();
    if (!record) return fail(NO_TRADE_ACCOUNT, 'Create the trading account first; the faucet mints into it');
    if (this.deps.network.production) return fail('NO_FAUCET', `${this.deps.network.name} has no faucet: deposit by an on-chain transfer to ${record.tradeAccountId}`);
    return this.working('funds', 'Asking the faucet for test funds', async () => {
      const minted = await this.deps.rest.faucetMint({ contract: record.tradeAccountId as B256 });
      if (!minted.ok) {
        const cooldown = /cooldown|wait|60/i.test(minted.message);
        return fail(minted.code, cooldown ? `The faucet allows one request a minute: ${minted.message}` : `The faucet refused: ${minted.message}`);
      }
      this.funded = true;
      return minted;
    });
  }

  async whitelist(): Promise<Result<{ alreadyWhitelisted: boolean }>> {
    const record = this.accountRecord();
    if (!record) return fail(NO_TRADE_ACCOUNT, 'Create the trading account first');
    return this.working('whitelist', 'Whitelisting the trading account', async () => {
      const answer = await this.deps.rest.whitelist(record.tradeAccountId as B256);
      if (!answer.ok) return fail(answer.code, `Whitelisting failed: ${answer.message}`);
      if (!answer.value.success) return fail('WHITELIST_REFUSED', 'The exchange did not whitelist the trading account');
      this.saveAccount((current) => (current ? { ...current, whitelisted: true } : current));
      return ok({ alreadyWhitelisted: answer.value.alreadyWhitelisted ?? false });
    });
  }

  // ---- sessions -----------------------------------------------------------------------------

  /**
   * `extraContractIds`: contracts beyond the markets' books that the session must name (margin:
   * the pool, the accounts registry and every Turbo Account; margin-api 5.2). Renewals keep them.
   */
  async createSession(marketIds: readonly string[], seconds: bigint, extraContractIds: readonly B256[] = []): Promise<Result<SessionView>> {
    const owner = this.activeOwner();
    if (!owner) return fail(NO_OWNER, 'Create or choose an owner key first');
    if (owner.custody === 'watch-only') {
      return fail(
        WATCH_ONLY,
        'This owner is watch-only: its key stays offline, so the session must be signed on the offline signer. Prepare the session request, sign it offline, and import the signature.',
      );
    }
    const record = this.accountRecord();
    if (!record) return fail(NO_TRADE_ACCOUNT, 'Create the trading account first');
    const vault = this.requireVault();
    if (!vault.ok) return vault;
    const chainId = this.deps.chainId();
    if (chainId === null) return fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
    const books = this.deps.contractIdsFor(marketIds);
    if (!books.ok) return books;
    const contractIds = ok([...new Set([...books.value, ...extraContractIds])]);
    const nonces = this.deps.nonces();
    if (!nonces) return fail(NO_TRADE_ACCOUNT, 'The trading account is not ready');

    return this.working('session', 'Creating a trading session', async () => {
      // A session request whose outcome is not known yet is settled first: signing another one
      // (a renewal on its timer, the trader again) could put two sessions through for one intent.
      await this.reconcileOpenSessions();
      if (this.openSessionRequests().length > 0) {
        return fail('RECONCILING', 'An earlier session request is still being checked with the exchange; no new session is signed until its outcome is known');
      }
      const sessionKey = await vault.value.createSessionKey();
      if (!sessionKey.ok) return sessionKey;
      const lease = await nonces.acquireSequential();
      if (!lease.ok) return lease;
      const expiry = this.deps.nowSeconds() + seconds;
      const grant: SessionGrant = { nonce: lease.value.nonce.value, chain_id: chainId, session_address: sessionKey.value, expiry, contract_ids: contractIds.value };
      const checked = checkSessionGrant(grant, this.deps.nowSeconds());
      if (!checked.ok) {
        lease.value.settle({ kind: 'refused' });
        return checked;
      }
      const signature = await vault.value.signAsOwner(owner.address as B256, sessionDigest(grant, owner.style));
      if (!signature.ok) {
        lease.value.settle({ kind: 'refused' });
        return signature;
      }
      // Journaled before it leaves, like every signed request (the grant is public; no signature).
      const entry = this.deps.journal.appendSigned({
        id: this.deps.newJournalId(),
        networkId: this.networkId,
        account: record.tradeAccountId,
        endpoint: SESSION_ENDPOINT,
        nonce: { mode: 'sequential', value: grant.nonce },
        actions: [{ SetSession: { session_id: { Address: grant.session_address }, expiry: grant.expiry.toString(), contract_ids: grant.contract_ids } }],
        description: `Create a trading session for ${this.deps.sessionScopeText(contractIds.value)} until ${new Date(Number(expiry) * 1000).toISOString()}`,
      });
      const answer = await this.deps.rest.putSession(owner.address as B256, sessionBody(record.tradeAccountId as B256, grant, signature.value));
      if (!answer.ok) {
        // An answer that was lost, or that cannot be read, leaves the outcome unknown; so does a
        // refusal for a stale nonce, which a lying exchange can give after executing the request.
        const stale = /nonce in the request/i.test(answer.message);
        const unknown = answer.code === 'OUTCOME_UNKNOWN' || answer.code === 'BAD_RESPONSE' || (answer.code !== 'ONCHAIN_REVERT' && stale);
        this.deps.journal.appendOutcome({ id: entry.id, status: answer.code === 'ONCHAIN_REVERT' ? 'reverted' : unknown ? 'unknown' : 'refused', txId: null, orderIds: [], code: answer.code, message: answer.message });
        if (!unknown) lease.value.settle(answer.code === 'ONCHAIN_REVERT' ? { kind: 'reverted' } : { kind: 'refused' });
        if (unknown) {
          // Never resent: the account nonce tells whether it was executed. Read while the nonce is
          // still held, so no other request can take it meanwhile and pass for this one.
          const fetched = await this.deps.rest.getAccount({ trade_account_id: record.tradeAccountId as B256 });
          lease.value.settle(stale ? { kind: 'stale' } : { kind: 'unknown' });
          if (!fetched.ok) {
            // Left open: it is checked before the next session request (reconcileOpenSessions).
            return fail(answer.code, `The session request's outcome is not known (${answer.message}) and could not be checked (${fetched.message}); it was not sent again and is checked before the next one.`);
          }
          const executed = fetched.value.kind === 'found' && fetched.value.trade_account.nonce > grant.nonce;
          this.deps.journal.appendReconciled({
            id: entry.id,
            status: executed ? 'landed' : 'not-landed',
            detail: executed ? 'The session request was executed (the account nonce moved past it)' : 'The session request did not execute (its nonce was not consumed); it was not resent',
          });
          if (executed && (await this.restoreSession(entry.actions[0], seconds))) {
            this.rememberSessionMarkets(marketIds);
            const previous = record.session?.sessionAddress;
            if (previous && previous !== sessionKey.value) void vault.value.deleteSessionKey(previous as B256);
            const view = this.sessionView();
            if (view) return ok(view);
          }
        }
        return fail(answer.code, `The session could not be created: ${answer.message}`);
      }
      lease.value.settle({ kind: 'accepted' });
      this.deps.journal.appendOutcome({ id: entry.id, status: 'accepted', txId: answer.value.tx_id, orderIds: [], code: null, message: null });
      const previous = record.session?.sessionAddress;
      const session: SessionRecord = { sessionAddress: sessionKey.value, expiry, contractIds: [...contractIds.value], txId: answer.value.tx_id, lengthSeconds: seconds };
      const saved = this.saveAccount((current) => (current ? { ...current, session } : current));
      if (!saved.ok) return saved;
      this.rememberSessionMarkets(marketIds);
      // The old session is replaced on the exchange; its key is of no further use.
      if (previous && previous !== sessionKey.value) void vault.value.deleteSessionKey(previous as B256);
      this.deps.log(`session ${sessionKey.value} created until ${expiry}`);
      const view = this.sessionView();
      return view ? ok(view) : fail(NO_SESSION, 'The session was created but could not be read back');
    });
  }

  /**
   * Session requests left without an outcome by a crash: the account nonce says whether each was
   * executed. (They are never resent; a new session is created by the trader or by renewal.)
   */
  async reconcileOpenSessions(): Promise<void> {
    const record = this.accountRecord();
    if (!record) return;
    const open = this.openSessionRequests();
    if (open.length === 0) return;
    const fetched = await this.deps.rest.getAccount({ trade_account_id: record.tradeAccountId as B256 });
    if (!fetched.ok) return;
    for (const entry of open) {
      if (entry.signed.nonce.mode !== 'sequential') continue;
      const executed = fetched.value.kind === 'found' && fetched.value.trade_account.nonce > entry.signed.nonce.value;
      const restored = executed ? await this.restoreSession(entry.signed.actions[0]) : false;
      this.deps.journal.appendReconciled({
        id: entry.signed.id,
        status: executed ? 'landed' : 'not-landed',
        detail: !executed
          ? 'The session request did not execute (its nonce was not consumed)'
          : restored
            ? 'The session request was executed before the app stopped; its session is in use'
            : 'The session request was executed before the app stopped; create a session again to trade',
      });
    }
    this.publish();
  }

  /** Session requests of this account whose outcome is not known yet. */
  private openSessionRequests(): JournalRecord[] {
    const record = this.accountRecord();
    if (!record) return [];
    return this.deps.journal.unresolved().filter((entry) => entry.signed.endpoint === SESSION_ENDPOINT && entry.signed.networkId === this.networkId && entry.signed.account === record.tradeAccountId);
  }

  /** Adopt a session executed without its answer reaching us, if its key is in the keychain. */
  private async restoreSession(action: unknown, lengthSeconds?: bigint): Promise<boolean> {
    const grant = (action as { SetSession?: { session_id?: { Address?: string }; expiry?: string; contract_ids?: string[] } } | undefined)?.SetSession;
    const address = grant?.session_id?.Address;
    if (!grant || !address || !grant.expiry || !/^\d{1,20}$/.test(grant.expiry) || !Array.isArray(grant.contract_ids) || this.deps.vault === null) return false;
    const held = await this.deps.vault.hasSessionKey(address as B256);
    if (!held.ok || !held.value) return false;
    const session: SessionRecord = {
      sessionAddress: address,
      expiry: BigInt(grant.expiry),
      contractIds: grant.contract_ids.filter((id) => typeof id === 'string'),
      txId: null,
      ...(lengthSeconds === undefined ? {} : { lengthSeconds }),
    };
    return this.saveAccount((current) => (current ? { ...current, session } : current)).ok;
  }

  /** The session key and the account to sign orders with, when trading is possible. */
  tradingIdentity(): Result<{ owner: B256; tradeAccountId: B256; sessionAddress: B256 }> {
    const owner = this.activeOwner();
    const record = this.accountRecord();
    if (!owner) return fail(NO_OWNER, 'Set up an owner key first (onboarding)');
    if (!record) return fail(NO_TRADE_ACCOUNT, 'Create the trading account first (onboarding)');
    const session = record.session;
    if (!session || session.expiry <= this.deps.nowSeconds()) return fail(NO_SESSION, 'There is no live trading session: create one (onboarding)');
    return ok({ owner: owner.address as B256, tradeAccountId: record.tradeAccountId as B256, sessionAddress: session.sessionAddress as B256 });
  }

  /**
   * Renew the session when it nears expiry (keychain owners only), for the length the trader chose
   * (at most the configured length); called on a timer. The trader is told each renewal and when
   * the next one is due.
   */
  async renewIfDue(): Promise<void> {
    const owner = this.activeOwner();
    const session = this.accountRecord()?.session;
    if (!owner || owner.custody !== 'keychain' || !session || this.renewing) return;
    const now = this.deps.nowSeconds();
    const length = this.renewalLength(session);
    if (now < renewalTime(session.expiry, length)) return;
    const markets = this.sessionMarkets();
    if (markets.length === 0) return;
    // Keep what the session names beyond the markets' books (margin contracts and accounts).
    const books = this.deps.contractIdsFor(markets);
    const extras = books.ok ? (session.contractIds.filter((id) => !books.value.includes(id as B256)) as B256[]) : [];
    this.renewing = true;
    this.publish();
    try {
      const renewed = await this.createSession(markets, length, extras);
      if (!renewed.ok) {
        this.deps.log(`session renewal failed: ${renewed.message}`);
        this.deps.notice('warning', `The trading session could not be renewed (it ends ${isoTime(session.expiry)}): ${renewed.message}`);
      } else {
        const shortened = session.lengthSeconds !== undefined && length < session.lengthSeconds ? `, the configured length (it was ${sessionLengthText(session.lengthSeconds)})` : '';
        const next = renewed.value.renewsAt === null ? '' : `; next renewal ${isoTime(renewed.value.renewsAt)}`;
        this.deps.notice('info', `The trading session was renewed for ${sessionLengthText(length)}${shortened}: a new session key until ${isoTime(renewed.value.expiry)}${next}`);
      }
    } finally {
      this.renewing = false;
      this.publish();
    }
  }
}

function isoTime(unixSeconds: bigint): string {
  return new Date(Number(unixSeconds) * 1000).toISOString();
}
