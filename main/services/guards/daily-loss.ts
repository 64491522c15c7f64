// The day's P&L of an account, per quote asset: its realized plus unrealized P&L now (main's
// positions service, from the account's fills and the live marks) less the same total at the day's
// first reading. The day is the UTC day: it starts again at 00:00 UTC. The baseline is persisted,
// so a restart during the day keeps measuring from the same point rather than forgetting the loss.
// Each account has its own (a Turbo Account's order must not start the trading account's day again,
// which would forget its loss), and so has the record of the breach main acted on.

/** The baseline of one account's day: its P&L total per quote asset at the day's first reading. */
export interface DayBaseline {
  /** The UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly account: string;
  /** Per quote asset id: raw quote units, as decimal text (bigint is not JSON). */
  readonly totals: Readonly<Record<string, string>>;
  /** Per quote asset id: the limit (raw units, decimal text) whose breach main acted on this day. */
  readonly breached?: Readonly<Record<string, string>> | undefined;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface DailyLossDeps {
  readonly now: () => number;
  /** The account's stored baseline (of any day), or null. */
  readonly load: (account: string) => DayBaseline | null;
  readonly save: (baseline: DayBaseline) => void;
}

export class DailyLoss {
  constructor(private readonly deps: DailyLossDeps) {}

  /** The day's P&L (raw quote units) given the account's total P&L in that quote asset now. */
  private today(account: string): DayBaseline {
    const day = utcDay(this.deps.now());
    const stored = this.deps.load(account);
    return stored !== null && stored.day === day && stored.account === account ? stored : { day, account, totals: {} };
  }

  dayPnl(account: string, quoteAsset: string, totalNow: bigint): bigint {
    const current = this.today(account);
    const baseline = current.totals[quoteAsset];
    if (baseline === undefined) {
      this.deps.save({ ...current, totals: { ...current.totals, [quoteAsset]: totalNow.toString() } });
      return 0n;
    }
    return totalNow - BigInt(baseline);
  }

  /** Whether main already acted on the breach of this limit today (the actions run once per breach and day). */
  breachActedOn(account: string, quoteAsset: string, limit: bigint): boolean {
    return this.today(account).breached?.[quoteAsset] === limit.toString();
  }

  recordBreach(account: string, quoteAsset: string, limit: bigint): void {
    const current = this.today(account);
    this.deps.save({ ...current, breached: { ...current.breached, [quoteAsset]: limit.toString() } });
  }
}
