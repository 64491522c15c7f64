// Records of the trading account and of the Turbo Account main follows (main/services/records): per
// UTC day, account, market and book, what its fills realized, the fees it paid by asset, the volume and the number of trades; and the report of
// a CSV export main wrote. Money is raw units; the renderer formats it with the decimals given.

export interface RecordsDayView {
  /** YYYY-MM-DD, UTC. */
  readonly day: string;
  /** The account whose fills these are: the trading account, or the Turbo Account on its Turbo books. */
  readonly account: string;
  readonly accountKind: 'trading' | 'turbo-account';
  readonly marketId: string;
  readonly turbo: boolean;
  /** "ETH/USDC" as the markets list names the pair. */
  readonly pair: string;
  readonly baseSymbol: string;
  readonly quoteSymbol: string;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly trades: number;
  /** Raw base traded (gross) and the raw quote it moved. */
  readonly volumeBase: bigint;
  readonly volumeQuote: bigint;
  /** Fees paid: raw base (by buys) and raw quote (by sales). */
  readonly feesBase: bigint;
  readonly feesQuote: bigint;
  /** Raw quote realized by that day's fills (fees included). */
  readonly realized: bigint;
}

export interface RecordsView {
  /** Oldest day first, then by pair, book and account (the trading account's first). */
  readonly days: readonly RecordsDayView[];
  /** Books whose fills could not be read now, in words. */
  readonly problems: readonly string[];
  readonly asOf: number;
}

export type RecordsExportKind = 'fills' | 'orders' | 'daily';

export interface RecordsExportReport {
  readonly kind: RecordsExportKind;
  /** The full path of the file main wrote, or null when the trader cancelled the save dialog. */
  readonly path: string | null;
  /** Data rows written (the header not counted). */
  readonly rows: number;
}
