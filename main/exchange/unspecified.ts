// Responses whose members the spec leaves "not shown" and for which shared/api has no schema yet:
// the client checks that they are a JSON object or array and hands them on as `unknown`-valued
// records. TODO(shared/api): replace each with its schema once shared/api defines
// `tradeByAccountResponseSchema`, `feeForTradeResponseSchema`, `aggregatedAssetsResponseSchema`,
// `aggregatedOrderbookResponseSchema`, `aggregatedSummaryResponseSchema`,
// `aggregatedTickerResponseSchema`, `aggregatedTradesResponseSchema`,
// `coingeckoTickersResponseSchema`, `coingeckoOrderbookResponseSchema`.
import { z } from 'zod';

export const unspecifiedObjectSchema = z.record(z.string(), z.unknown());
export const unspecifiedBodySchema = z.union([z.array(z.unknown()), unspecifiedObjectSchema], { error: 'expected a JSON object or array' });

export type UnspecifiedBody = z.output<typeof unspecifiedBodySchema>;
