// The chart's studies the trader configures, kept by main in the settings: two moving averages,
// each a kind (simple or exponential) and a length in bars. Volume and the session VWAP are always
// drawn and take no setting.
export const MOVING_AVERAGE_KINDS = ['SMA', 'EMA'] as const;
export type MovingAverageKind = (typeof MOVING_AVERAGE_KINDS)[number];

/** Lengths in bars: at least 2 (one bar is the close itself), at most the history a chart keeps. */
export const MOVING_AVERAGE_LENGTH = { min: 2, max: 500 } as const;

export interface MovingAverageSetting {
  readonly kind: MovingAverageKind;
  readonly length: number;
}

export interface ChartStudies {
  /** The first and the second moving average, in the legend's order. */
  readonly averages: readonly [MovingAverageSetting, MovingAverageSetting];
}

export const DEFAULT_CHART_STUDIES: ChartStudies = { averages: [{ kind: 'EMA', length: 20 }, { kind: 'SMA', length: 50 }] };

/** A typed length as a whole number of bars within the bounds, or why not. */
export function parseAverageLength(text: string): { ok: true; value: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed)) return { ok: false, message: `length must be a whole number of bars, got "${trimmed.slice(0, 12)}"` };
  const value = Number(trimmed);
  if (value < MOVING_AVERAGE_LENGTH.min || value > MOVING_AVERAGE_LENGTH.max) return { ok: false, message: `length must be ${MOVING_AVERAGE_LENGTH.min} to ${MOVING_AVERAGE_LENGTH.max} bars, got ${value}` };
  return { ok: true, value };
}
