// Alerts, evaluated in main: it reads main's own market data (the hub's watches, held with every
// window closed), the risk of the Turbo Accounts margin alerts name (followed by main itself while
// such an alert is on, margin-risk-watches.ts), the fills and refusals main sees, and the stream's silence. A firing is written
// to the alerts file before it is announced; one that was never announced (the app stopped in
// between, or no window and no desktop notifier could take it) is announced at the next start or
// when a window next asks for the list. An alert notifies; nothing here trades.
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { AlertCondition, AlertFiringView, AlertsSnapshot, AlertView } from '../../../shared/ipc/views/alerts';
import type { Market } from '../../../shared/market/market';
import { priceTick } from '../../../shared/market/tick';
import { fail, ok, type Result } from '../../../shared/result';
import { afterFiring, armedAtStart, firesOnEvent, isLevel, NO_OBSERVATION, read, stepLevel, type AlertRecord, type MarginFrame, type Observation } from './alert-rules';
import type { AlertStore } from './alert-store';
import { describeCondition, firingText, marginFiringDetail } from './alert-text';
import { AlertCodes } from './codes';

/** Main's live view of one market (market-data-hub.ts `watch`). */
export interface MarketWatch {
  quote(): { bid: bigint | null; ask: bigint | null; last: bigint | null };
  close(): void;
}

/** Main's own follow of a Turbo Account's risk (margin-risk-watches.ts): the latest frame, live or stale. */
export interface MarginWatch {
  frame(): MarginFrame | null;
  close(): void;
}

export interface AlertServiceDeps {
  readonly clock: Clock;
  readonly store: AlertStore;
  readonly watch: (marketId: string, turbo: boolean, onChange: () => void) => MarketWatch;
  /** Follow a Turbo Account's risk with no window (none: margin alerts read nothing). */
  readonly watchMargin?: (marginAccountId: string, onChange: () => void) => MarginWatch;
  readonly market: (marketId: string, turbo: boolean) => Market | null;
  /** A market's name as the windows show it ("ETH/USDC #2" where two share the symbols); null when unknown. */
  readonly marketName?: (marketId: string) => string | null;
  /** Milliseconds since anything arrived from the exchange; null before the first frame. */
  readonly silentMs: () => number | null;
  /** Announce a firing (notice, desktop notification, the windows' stream); false when nothing could take it. */
  readonly announce: (firing: AlertFiringView) => boolean;
  readonly publish: (snapshot: AlertsSnapshot) => void;
  readonly log: (line: string) => void;
}

export interface AlertSettings {
  readonly repeat: boolean;
  readonly cooldownSeconds: number;
  readonly sound: boolean;
  readonly note: string;
}

export const MAX_ALERTS = 200;
/** Delivered firings kept for the panel; undelivered ones are never dropped. */
export const KEPT_FIRINGS = 100;
/** How often a silence alert looks at the stream. */
const SILENCE_CHECK_MS = 1_000;

export class AlertService {
  private alerts: AlertRecord[] = [];
  /** Oldest first. */
  private firings: AlertFiringView[] = [];
  private readonly armed = new Map<string, boolean>();
  private readonly watches = new Map<string, MarketWatch>();
  private readonly marginWatches = new Map<string, MarginWatch>();
  private silenceTimer: TimerHandle | null = null;
  private counter = 0;
  private started = false;

  constructor(private readonly deps: AlertServiceDeps) {}

  /** Read the file, announce what was never announced, start watching. */
  start(): void {
    const contents = this.deps.store.load();
    this.alerts = [...contents.alerts];
    this.firings = [...contents.firings];
    for (const alert of this.alerts) this.armed.set(alert.id, armedAtStart(alert.condition));
    this.started = true;
    this.deliverPending();
    this.syncWatches();
    this.publish();
  }

  stop(): void {
    this.started = false;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
    for (const watch of this.marginWatches.values()) watch.close();
    this.marginWatches.clear();
    if (this.silenceTimer !== null) this.deps.clock.clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  snapshot(): AlertsSnapshot {
    return { alerts: this.alerts.map((alert) => this.view(alert)), firings: [...this.firings].reverse() };
  }

  create(condition: AlertCondition, settings: AlertSettings): Result<AlertView> {
    if (this.alerts.length >= MAX_ALERTS) return fail(AlertCodes.TOO_MANY_ALERTS, `at most ${MAX_ALERTS} alerts; delete one first`);
    const now = this.deps.clock.now();
    const alert: AlertRecord = { id: `alert-${now.toString(36)}-${++this.counter}`, condition, ...settings, enabled: true, createdAt: now, lastFiredAt: null };
    const saved = this.commit([...this.alerts, alert]);
    if (!saved.ok) return saved;
    this.armed.set(alert.id, armedAtStart(condition));
    this.changed();
    return ok(this.view(alert));
  }

  update(alertId: string, change: Partial<AlertSettings> & { condition?: AlertCondition; enabled?: boolean }): Result<AlertView> {
    const current = this.alerts.find((alert) => alert.id === alertId);
    if (!current) return fail(AlertCodes.UNKNOWN_ALERT, `alertId: no alert ${alertId}`);
    const next: AlertRecord = { ...current, ...change };
    const saved = this.commit(this.alerts.map((alert) => (alert.id === alertId ? next : alert)));
    if (!saved.ok) return saved;
    // A new condition, or an alert turned back on, starts over: a level already passed is not a crossing.
    if (change.condition !== undefined || (change.enabled === true && !current.enabled)) this.armed.set(alertId, armedAtStart(next.condition));
    this.changed();
    return ok(this.view(next));
  }

  delete(alertId: string): Result<null> {
    if (!this.alerts.some((alert) => alert.id === alertId)) return fail(AlertCodes.UNKNOWN_ALERT, `alertId: no alert ${alertId}`);
    const saved = this.commit(this.alerts.filter((alert) => alert.id !== alertId));
    if (!saved.ok) return saved;
    this.armed.delete(alertId);
    this.changed();
    return ok(null);
  }

  /** A network listed its markets: descriptions can name them, and levels can be read. */
  marketsChanged(): void {
    if (!this.started) return;
    this.evaluate();
    this.publish();
  }

  /** A fill of one of the account's orders. */
  onFill(marketId: string, detail: string): void {
    this.onEvent({ kind: 'fill', marketId }, detail);
  }

  /** A signed request refused or reverted. */
  onRejected(detail: string): void {
    this.onEvent({ kind: 'rejected' }, detail);
  }

  /** Announce every firing not yet announced (at start, and when a window opens and asks). */
  deliverPending(): void {
    let delivered = false;
    this.firings = this.firings.map((firing) => {
      if (firing.delivered || !this.deps.announce(firing)) return firing;
      delivered = true;
      return { ...firing, delivered: true };
    });
    if (delivered) this.save();
  }

  /**
   * Evaluate the level alerts now (a second passed, markets were listed): all of them, or only those
   * `reads` names (a market's book or a Turbo Account's risk changed: the alerts that read it).
   */
  evaluate(reads?: (condition: AlertCondition) => boolean): void {
    if (!this.started) return;
    const now = this.deps.clock.now();
    // One observation per book or account in a pass: a hundred alerts on one market read it once.
    const silentMs = this.deps.silentMs();
    const seenBy = new Map<string, Observation>();
    for (const alert of this.alerts) {
      if (!alert.enabled || !isLevel(alert.condition) || (reads !== undefined && !reads(alert.condition))) continue;
      const key = observationKey(alert.condition);
      let seen = seenBy.get(key);
      if (seen === undefined) seenBy.set(key, (seen = this.observe(alert.condition, silentMs)));
      const step = stepLevel(alert, this.armed.get(alert.id) ?? armedAtStart(alert.condition), read(alert.condition, seen), now);
      this.armed.set(alert.id, step.armed);
      if (step.fire) this.fire(alert, { value: step.value, detail: alert.condition.kind === 'margin' ? marginFiringDetail(alert.condition, seen.margin) : null }, now);
    }
  }

  private onEvent(event: { kind: 'fill'; marketId: string } | { kind: 'rejected' }, detail: string): void {
    if (!this.started) return;
    const now = this.deps.clock.now();
    for (const alert of this.alerts) if (firesOnEvent(alert, event, now)) this.fire(alert, { value: null, detail }, now);
  }

  private observe(condition: AlertCondition, silentMs: number | null): Observation {
    if (condition.kind === 'margin') return { ...NO_OBSERVATION, silentMs, margin: this.marginWatches.get(condition.marginAccountId)?.frame() ?? null };
    if (condition.kind !== 'price' && condition.kind !== 'spread') return { ...NO_OBSERVATION, silentMs };
    const quote = this.watches.get(watchKey(condition.marketId, condition.turbo))?.quote() ?? { bid: null, ask: null, last: null };
    const market = this.deps.market(condition.marketId, condition.turbo);
    return { ...quote, tick: market === null ? null : priceTick(market), silentMs, margin: null };
  }

  /** Record the firing on disk, then announce it. */
  private fire(alert: AlertRecord, happened: { value: bigint | number | null; detail: string | null }, now: number): void {
    const market = 'marketId' in alert.condition && alert.condition.marketId !== null ? this.deps.market(alert.condition.marketId, alert.condition.kind === 'fill' ? false : alert.condition.turbo) : null;
    const fired = afterFiring(alert, now);
    const firing: AlertFiringView = { id: `firing-${now.toString(36)}-${++this.counter}`, alertId: alert.id, at: now, text: firingText(alert, market, happened, this.nameOf(alert.condition)), sound: alert.sound, delivered: false };
    this.alerts = this.alerts.map((candidate) => (candidate.id === alert.id ? fired : candidate));
    this.firings.push(firing);
    this.trimFirings();
    // Announced even when the file could not be written: a firing the trader sees now beats one kept for later.
    this.save();
    if (this.deps.announce(firing)) {
      this.firings = this.firings.map((candidate) => (candidate.id === firing.id ? { ...candidate, delivered: true } : candidate));
      this.save();
    }
    this.changed();
  }

  private trimFirings(): void {
    let excess = this.firings.length - KEPT_FIRINGS;
    if (excess <= 0) return;
    this.firings = this.firings.filter((firing) => {
      if (excess > 0 && firing.delivered) {
        excess--;
        return false;
      }
      return true;
    });
  }

  private commit(alerts: AlertRecord[]): Result<null> {
    const saved = this.deps.store.save({ alerts, firings: this.firings });
    if (saved.ok) this.alerts = alerts;
    return saved;
  }

  private save(): void {
    const saved = this.deps.store.save({ alerts: this.alerts, firings: this.firings });
    if (!saved.ok) this.deps.log(`alerts: ${saved.message}`);
  }

  private changed(): void {
    this.syncWatches();
    this.publish();
  }

  private publish(): void {
    this.deps.publish(this.snapshot());
  }

  /** Hold one watch per market and per Turbo Account an enabled alert reads, and the silence check while a silence alert is on. */
  private syncWatches(): void {
    if (!this.started) return;
    const wanted = new Map<string, { marketId: string; turbo: boolean }>();
    for (const alert of this.alerts) {
      const condition = alert.condition;
      if (alert.enabled && (condition.kind === 'price' || condition.kind === 'spread')) wanted.set(watchKey(condition.marketId, condition.turbo), { marketId: condition.marketId, turbo: condition.turbo });
    }
    for (const [key, watch] of this.watches) {
      if (wanted.has(key)) continue;
      watch.close();
      this.watches.delete(key);
    }
    for (const [key, market] of wanted) {
      // Every book update of a watched market comes here: only the alerts that read that book are evaluated.
      const readsThis = (condition: AlertCondition) => (condition.kind === 'price' || condition.kind === 'spread') && watchKey(condition.marketId, condition.turbo) === key;
      if (!this.watches.has(key)) this.watches.set(key, this.deps.watch(market.marketId, market.turbo, () => this.evaluate(readsThis)));
    }
    const accounts = new Set(this.alerts.flatMap((alert) => (alert.enabled && alert.condition.kind === 'margin' ? [alert.condition.marginAccountId] : [])));
    for (const [account, watch] of this.marginWatches) {
      if (accounts.has(account)) continue;
      watch.close();
      this.marginWatches.delete(account);
    }
    const watchMargin = this.deps.watchMargin;
    if (watchMargin !== undefined) {
      for (const account of accounts) {
        const readsThis = (condition: AlertCondition) => condition.kind === 'margin' && condition.marginAccountId === account;
        if (!this.marginWatches.has(account)) this.marginWatches.set(account, watchMargin(account, () => this.evaluate(readsThis)));
      }
    }
    const silence = this.alerts.some((alert) => alert.enabled && alert.condition.kind === 'stale');
    if (silence && this.silenceTimer === null) this.scheduleSilenceCheck();
    if (!silence && this.silenceTimer !== null) {
      this.deps.clock.clearTimeout(this.silenceTimer);
      this.silenceTimer = null;
    }
    this.evaluate();
  }

  private scheduleSilenceCheck(): void {
    this.silenceTimer = this.deps.clock.setTimeout(() => {
      this.silenceTimer = null;
      this.evaluate();
      if (this.started && this.alerts.some((alert) => alert.enabled && alert.condition.kind === 'stale')) this.scheduleSilenceCheck();
    }, SILENCE_CHECK_MS);
  }

  private view(alert: AlertRecord): AlertView {
    const condition = alert.condition;
    const market = 'marketId' in condition && condition.marketId !== null ? this.deps.market(condition.marketId, condition.kind === 'fill' ? false : condition.turbo) : null;
    return { ...alert, description: describeCondition(condition, market, this.nameOf(condition)) };
  }

  private nameOf(condition: AlertCondition): string | null {
    return 'marketId' in condition && condition.marketId !== null ? (this.deps.marketName?.(condition.marketId) ?? null) : null;
  }
}

function watchKey(marketId: string, turbo: boolean): string {
  return `${marketId}:${turbo ? 'turbo' : 'canonical'}`;
}

/** What an alert's observation depends on (AlertService.observe): alerts with the same key see the same. */
function observationKey(condition: AlertCondition): string {
  if (condition.kind === 'margin') return `margin|${condition.marginAccountId}`;
  if (condition.kind === 'price' || condition.kind === 'spread') return `book|${watchKey(condition.marketId, condition.turbo)}`;
  return 'none';
}
