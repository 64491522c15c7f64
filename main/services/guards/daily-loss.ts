// The day's P&L of an account, per quote asset: its realized plus unrealized P&L now (main's
// positions service, from the account's fills and the live marks) less the same total at the day's
// first reading. The day is the UTC day: it starts again at 00:00 UTC. The baseline is persisted,
// so a restart during the day keeps measuring from the same point rather than forgetting the loss.

/** The baseline of one account's day: its P&L total per quote asset at the day's first reading. */
export interface DayBaseline {
  /** The UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly account: string;
  /** Per quote asset id: raw quote units, as decimal text (bigint is not JSON). */
  readonly totals: Readonly<Record<string, string>>;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface DailyLossDeps {
  readonly now: () => number;
  readonly load: () => DayBaseline | null;
  readonly save: (baseline: DayBaseline) => void;
}

export class DailyLoss {
  constructor(private readonly deps: DailyLossDeps) {}

  /** The day's P&L (raw quote units) given the account's total P&L in that quote asset now. */
  dayPnl(account: string, quoteAsset: string, totalNow: bigint): bigint {
    const day = utcDay(this.deps.now());
    const stored = this.deps.load();
    const current = stored !== null && stored.day === day && stored.account === account ? stored : { day, account, totals: {} };
    const baseline = current.totals[quoteAsset];
    if (baseline === undefined) {
      this.deps.save({ ...current, totals: { ...current.totals, [quoteAsset]: totalNow.toString() } });
      return 0n;
    }
    return totalNow - BigInt(baseline);
  }
}
