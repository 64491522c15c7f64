// The risk watch: main reads the day P&L of the trading account and of each Turbo Account that holds
// a position or traded today against each daily loss limit, and the
// orders counted against the orders-per-minute limit on a short cadence (and when a fill arrives),
// publishes them for the header when they change, and acts on a daily loss limit's breach itself,
// with every window closed: it tells every window to drop its arming, says why with the figure and
// the limit, and, when the trader chose so in Settings, cancels the open orders and flattens the
// positions through the same sweep and close paths as the kill switch and Flatten (journaled,
// nonced and guarded like a click). The breach is recorded before anything is sent, so the actions
// run once per breach and UTC day, also across a restart, never in a loop. The guard itself
// (daily-loss-check.ts) refuses new exposure whether or not this watch has run.
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { CancelReport, DayPnlView, FlattenReport, GuardStateView, Settings } from '../../../shared/ipc/views';
import type { Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { DailyLoss } from './daily-loss';

/** How often the watch reads the day's P&L while a limit is set. */
export const RISK_WATCH_MS = 2_000;

export interface RiskWatchDeps {
  readonly clock: Clock;
  readonly settings: () => Settings;
  /** The trading account, or null before there is one. */
  readonly account: () => string | null;
  /** The Turbo Accounts that have a position row (open, or closed with a realized P&L) to watch. */
  readonly turboAccounts?: () => Promise<readonly string[]>;
  /** The account's P&L in the quote asset since 00:00 UTC (the guards' own reading). */
  readonly dayPnl: (account: string, quoteAsset: string) => Promise<Result<bigint>>;
  /** Orders counted against the orders-per-minute limit in the last 60 s. */
  readonly ordersLastMinute: () => number;
  readonly dailyLoss: Pick<DailyLoss, 'breachActedOn' | 'recordBreach'>;
  /** An amount of a quote asset in the trader's words ("-412.00 USDC"). */
  readonly amount: (quoteAsset: string, raw: bigint) => string;
  readonly publish: (view: GuardStateView) => void;
  /** Every window drops its arming, saying why. */
  readonly disarm: (reason: string) => void;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string, code?: string) => void;
  /** The kill switch's sweep: every open order and pending leg of the account. */
  readonly cancelAll: () => Promise<Result<CancelReport>>;
  /** Flatten every position of these accounts (bounded market orders, as the Flatten button). */
  readonly flatten: (accounts: readonly string[]) => Promise<Result<FlattenReport>>;
  readonly log: (line: string) => void;
  readonly intervalMs?: number;
}

interface Breach {
  readonly account: string;
  /** The Turbo Account's id when it is one, null for the trading account. */
  readonly turboAccount: string | null;
  readonly quoteAsset: string;
  readonly pnl: bigint;
  readonly limit: bigint;
}

const EMPTY: GuardStateView = { dayPnl: [], orderRate: null };

function viewKey(view: GuardStateView): string {
  return JSON.stringify(view, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

export class RiskWatch {
  private current: GuardStateView = EMPTY;
  private published: string | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(private readonly deps: RiskWatchDeps) {}

  /** The guards' state as last read. */
  state(): GuardStateView {
    return this.current;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      void this.check().finally(() => this.schedule());
    }, this.deps.intervalMs ?? RISK_WATCH_MS);
  }

  /** Read now; a caller during a reading gets one more reading begun after it asked. */
  check(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    const run = async () => {
      do {
        this.again = false;
        try {
          await this.evaluate();
        } catch (error) {
          this.deps.log(`risk watch: ${error instanceof Error ? error.message : String(error)}`);
        }
      } while (this.again && !this.stopped);
    };
    this.running = run().finally(() => (this.running = null));
    return this.running;
  }

  private async evaluate(): Promise<void> {
    const settings = this.deps.settings();
    const account = this.deps.account();
    const rows: DayPnlView[] = [];
    const breaches: Breach[] = [];
    const limits = Object.entries(settings.dailyLossLimit);
    const turbo = account === null || limits.length === 0 || this.deps.turboAccounts === undefined ? [] : await this.deps.turboAccounts();
    const watched: { id: string | null; turboAccount: string | null }[] = [{ id: account, turboAccount: null }, ...turbo.map((id) => ({ id, turboAccount: id }))];
    for (const { id, turboAccount } of watched) {
      for (const [quoteAsset, limit] of limits) {
        if (id === null) {
          rows.push({ quoteAsset, turboAccount, pnl: null, limit, breached: false, problem: 'there is no trading account yet' });
          continue;
        }
        const pnl = await this.deps.dayPnl(id, quoteAsset);
        if (!pnl.ok) {
          // A Turbo Account is shown only with a figure: the trading account's row says what is unread.
          if (turboAccount === null) rows.push({ quoteAsset, turboAccount, pnl: null, limit, breached: false, problem: pnl.message });
          continue;
        }
        const breached = pnl.value <= -limit;
        rows.push({ quoteAsset, turboAccount, pnl: pnl.value, limit, breached, problem: null });
        if (breached && !this.deps.dailyLoss.breachActedOn(id, quoteAsset, limit)) breaches.push({ account: id, turboAccount, quoteAsset, pnl: pnl.value, limit });
      }
    }
    const limit = settings.maxOrdersPerMinute;
    this.current = { dayPnl: rows, orderRate: limit === 0 ? null : { count: this.deps.ordersLastMinute(), limit } };
    const key = viewKey(this.current);
    if (key !== this.published) {
      this.published = key;
      this.deps.publish(this.current);
    }
    if (breaches.length > 0) await this.act(breaches, settings.flattenOnDailyLoss);
  }

  private async act(breaches: readonly Breach[], flatten: boolean): Promise<void> {
    // Recorded first: whatever happens below, this breach is not acted on again today.
    for (const breach of breaches) this.deps.dailyLoss.recordBreach(breach.account, breach.quoteAsset, breach.limit);
    const whose = (breach: Breach) => (breach.turboAccount === null ? '' : `Turbo Account ${shortId(breach.turboAccount)}: `);
    const figures = breaches.map((breach) => ({ whose: whose(breach), pnl: this.deps.amount(breach.quoteAsset, breach.pnl), limit: this.deps.amount(breach.quoteAsset, -breach.limit) }));
    this.deps.disarm(`the daily loss limit was reached (${figures.map((figure) => `${figure.whose}day P&L ${figure.pnl}, limit ${figure.limit}`).join('; ')})`);
    const said = figures.map((figure) => `${figure.whose}Day P&L ${figure.pnl} (since 00:00 UTC, realized and unrealized) is at or past your daily loss limit of ${figure.limit}`).join('; ');
    const refused = 'main refuses every order that adds exposure until 00:00 UTC (or until you loosen the limit in Settings) and disarmed every window; orders that reduce a position and cancels still pass.';
    if (!flatten) {
      this.deps.notice('error', `${said}: ${refused} Your open orders and positions were left as they are (Settings: “On the daily loss limit’s breach, cancel open orders and flatten” is off).`, GUARD_CODES.DAILY_LOSS);
      return;
    }
    this.deps.notice('error', `${said}: ${refused} As you chose in Settings, main cancels your open orders and flattens your positions now.`, GUARD_CODES.DAILY_LOSS);
    const cancelled = await this.deps.cancelAll();
    if (!cancelled.ok) this.deps.notice('warning', `Daily loss limit: your open orders could not be cancelled (${cancelled.message}). Cancel them yourself (kill switch).`, cancelled.code);
    const flattened = await this.deps.flatten([...new Set(breaches.map((breach) => breach.account))]);
    if (!flattened.ok) {
      this.deps.notice('warning', `Daily loss limit: your positions could not be flattened (${flattened.message}). Flatten them yourself (Positions).`, flattened.code);
      return;
    }
    const { placed, failed } = flattened.value;
    const closed = `${placed.length} position${placed.length === 1 ? '' : 's'}`;
    if (failed.length > 0) {
      this.deps.notice('warning', `Daily loss limit: closing orders sent for ${closed}; ${failed.length} could not be closed (${failed.map((item) => item.reason).join('; ')}). Close them yourself (Positions).`);
      return;
    }
    this.deps.notice('info', placed.length === 0 ? 'Daily loss limit: there was no position to flatten.' : `Daily loss limit: closing orders sent for ${closed} (bounded market orders, as Flatten sends).`);
  }
}

function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}
