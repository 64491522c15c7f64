// The margin insights area of the contract: a window asks main to read the margin reads that have
// no stream (statistics, tier history, one Turbo Account's activity, Turbo events) and receives
// them on `marginInsights`; a ladder asks for the Turbo depth overlay of its market and step and
// receives it on `turboDepth`. Main reads only while some window watches
// (main/services/margin/margin-insights.ts, main/services/market-data/turbo-depth-overlay.ts).
// Merged in ../contract.ts.
import { z } from 'zod';
import { b256Input, noInput } from '../inputs';
import { request, stream } from '../spec';
import type { MarginInsightsView, TurboDepthView } from '../views/margin-insights';

export const marginInsightInputs = {
  /** null: statistics, tiers and events only (no account's activity). */
  watchMarginInsights: z.strictObject({ marginAccountId: b256Input.nullable() }),
  /** `step`: the ladder's row step (a power of ten, raw quote units), as its Group choice. */
  watchTurboDepth: z.strictObject({ marketId: b256Input, step: z.bigint().min(1n).max(1_000_000_000_000_000_000n) }),
} as const;

export const marginInsightRequests = {
  watchMarginInsights: request<MarginInsightsView>()(marginInsightInputs.watchMarginInsights),
  unwatchMarginInsights: request<null>()(noInput),
  watchTurboDepth: request<TurboDepthView>()(marginInsightInputs.watchTurboDepth),
  unwatchTurboDepth: request<null>()(noInput),
} as const;

export const marginInsightStreams = {
  /** After every read (changed or not), to the windows that watch. */
  marginInsights: stream<MarginInsightsView>(),
  turboDepth: stream<TurboDepthView>(),
} as const;
