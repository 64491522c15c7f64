// Signing as a Turbo Account: the parent's session key signs, the child is the `trade_account_id`,
// and only parallel nonces are accepted (sandbox 4011; wire notes), taken from the child's own
// lanes. Every request goes through a Submitter of its own (journal flushed before sending, rate
// limiter, a lost answer reconciled from the child's nonce window and never resent). The lane
// cursors are written to accounts.json with the parent's record (keys `margin/<child>/<lane>`),
// before the request leaves, exactly like the parent's own lanes.
import type { B256 } from '../../../shared/encoding/b256';
import type { CallTargets } from '../../../shared/protocol/action-calls';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { Journal, SignedEntry } from '../journal/journal';
import { NonceManager } from '../nonces/nonce-manager';
import type { PreferencesStore } from '../storage/preferences';
import { settleLostNonce, Submitter, type SubmitIdentity, type SubmitRequest, type SubmitSuccess, type SubmitterDeps } from '../trading/submitter';
import { ordersOfRequest } from '../trading/trading-service';

export interface ChildSignerDeps {
  readonly networkId: string;
  readonly child: B256;
  readonly rest: ExchangeRestClient;
  readonly journal: Journal;
  readonly preferences: PreferencesStore;
  /** The parent's identity (owner, trading account, session key); the child replaces the account. */
  readonly parentIdentity: () => Result<{ owner: B256; tradeAccountId: B256; sessionAddress: B256 }>;
  readonly sign: (sessionAddress: B256, digest: Uint8Array) => Result<Uint8Array>;
  readonly targets: () => Omit<CallTargets, 'trade_account_id'>;
  /** Parallel lanes to use (the setting, at least one: children take no sequential nonce). */
  readonly lanes: () => number;
  readonly nowSeconds: () => bigint;
  readonly wait: (ms: number) => Promise<void>;
  readonly newId: () => string;
  /** Main's order guards (main/services/guards), before a nonce is taken. */
  readonly guard?: SubmitterDeps['guard'];
  readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
  /** After a reconciliation: read the child's orders and state again. */
  readonly onReconciled?: () => void;
  /** After every request that was sent: the child's state is read again before the next check. */
  readonly onSubmitted?: () => void;
  readonly log: (line: string) => void;
}

const cursorKey = (child: string, lane: number) => `margin/${child}/${lane}`;

/** The submitter, nonces and reconciliation of one Turbo Account. */
export class ChildSigner {
  readonly submitter: Submitter;
  readonly nonces: NonceManager;

  constructor(private readonly deps: ChildSignerDeps) {
    this.nonces = new NonceManager(
      {
        accountNonce: () => Promise.resolve(fail('PARALLEL_NONCE_ONLY', `margin account ${deps.child} accepts only parallel nonces; no sequential nonce is used`)),
        window: (lane) => deps.rest.getAccountWindow({ trade_account_id: deps.child, nonce_session_id: lane }),
      },
      {
        load: (lane) => this.parentRecord()?.laneCursors[cursorKey(deps.child, lane)] ?? null,
        save: (lane, next) => this.saveCursor(lane, next),
      },
      Math.max(1, deps.lanes()),
      deps.nowSeconds,
    );
    this.submitter = new Submitter({
      port: { post: (body, owner, options) => deps.rest.postSessionActions(owner, body, options) },
      nonces: () => this.nonces,
      journal: deps.journal,
      sign: deps.sign,
      identity: () => this.identity(),
      targets: deps.targets,
      reconcile: (journalId) => this.reconcile(journalId),
      ordersOf: (entry) => ordersOfRequest(deps.rest, deps.child, entry),
      newId: deps.newId,
      ...(deps.guard === undefined ? {} : { guard: deps.guard }),
      log: deps.log,
      wait: deps.wait,
      notice: (level, text) => deps.notice(level, text),
    });
  }

  /** Sign and send one batch as the child (journal, rate limiter, reconciliation: the Submitter). */
  async submit(request: SubmitRequest): Promise<Result<SubmitSuccess>> {
    const submitted = await this.submitter.submit(request);
    this.deps.onSubmitted?.();
    return submitted;
  }

  /** Follow the lane setting, never below one lane. */
  setLanes(lanes: number): void {
    this.nonces.setLanes(Math.max(1, lanes));
  }

  identity(): Result<SubmitIdentity> {
    const parent = this.deps.parentIdentity();
    if (!parent.ok) return parent;
    return ok({ networkId: this.deps.networkId, owner: parent.value.owner, tradeAccountId: this.deps.child, sessionAddress: parent.value.sessionAddress });
  }

  private parentRecord() {
    const file = this.deps.preferences.accounts.get();
    const network = file.networks[this.deps.networkId];
    const owner = network?.activeOwner;
    return owner ? (network?.accounts[owner] ?? null) : null;
  }

  private saveCursor(lane: number, next: bigint): Result<void> {
    const saved = this.deps.preferences.accounts.update((file) => {
      const network = file.networks[this.deps.networkId];
      const owner = network?.activeOwner;
      const record = owner ? network?.accounts[owner] : undefined;
      if (!network || !owner || !record) return file;
      return {
        ...file,
        networks: {
          ...file.networks,
          [this.deps.networkId]: { ...network, accounts: { ...network.accounts, [owner]: { ...record, laneCursors: { ...record.laneCursors, [cursorKey(this.deps.child, lane)]: next } } } },
        },
      };
    });
    if (!saved.ok) return saved;
    return this.parentRecord()?.laneCursors[cursorKey(this.deps.child, lane)] === next ? ok(undefined) : fail('NONCE_CURSOR_NOT_SAVED', `no trading account record to keep the nonce cursor of margin account ${this.deps.child} in`);
  }

  /**
   * Decide whether a request whose answer was lost landed: its parallel nonce consumed on the
   * child's lane (landed), expired unconsumed (not landed), or slid out of the window (then the
   * child's orders are looked up). Recorded in the journal; nothing is resent.
   */
  async reconcile(journalId: string): Promise<Result<'landed' | 'not-landed'>> {
    const record = this.deps.journal.unresolved().find((candidate) => candidate.signed.id === journalId);
    if (!record) return ok('landed');
    const answer = await settleLostNonce(this.nonces, record.signed.nonce, this.deps.wait, this.deps.nowSeconds);
    if (!answer.ok) return answer;
    const found = answer.value === 'final-unknown' ? await this.findOrdersOf(record.signed) : [];
    const landed = answer.value === 'landed' || found.length > 0;
    const detail = landed
      ? `The request landed${found.length > 0 ? `: orders ${found.join(', ')}` : ''} (checked with the exchange after its answer was lost)`
      : 'The request did not land (its nonce was not consumed); it was not resent';
    this.deps.journal.appendReconciled({ id: journalId, status: landed ? 'landed' : 'not-landed', detail });
    this.deps.notice(landed ? 'info' : 'warning', `${record.signed.description}: ${detail}`);
    this.deps.onReconciled?.();
    return ok(landed ? 'landed' : 'not-landed');
  }

  private async findOrdersOf(entry: SignedEntry): Promise<string[]> {
    const found = await ordersOfRequest(this.deps.rest, this.deps.child, entry, { skipUnreadable: true });
    return found.ok ? found.value.map((order) => order.order_id) : [];
  }
}
