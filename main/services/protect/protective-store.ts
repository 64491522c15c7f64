// The protective stops main manages (trailing and break-even, and the take-profit / stop-loss
// pairs it keeps sized to a position), on disk so that they keep working
// after a restart of the app. One file per data directory, the stops of every network in it, each
// naming its network: a stop of another network is kept as it is and never acted on.
import { join } from 'node:path';
import { z } from 'zod';
import { JsonStore } from '../storage/json-store';

const side = z.enum(['Buy', 'Sell']);
const reference = z.enum(['bid', 'ask', 'last', 'mark']);
const distance = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ticks'), ticks: z.bigint().positive() }),
  z.object({ kind: z.literal('percent'), basisPoints: z.bigint().positive().max(5_000n) }),
  z.object({ kind: z.literal('price'), amount: z.bigint().positive() }),
]);

export const protectiveStopSchema = z.object({
  id: z.string().min(1).max(80),
  networkId: z.string().min(1).max(40),
  marketId: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  turbo: z.boolean(),
  /** The leg on the exchange now (a move replaces it with a leg of a new id). */
  triggerId: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  /** The side of the stop's order: Sell protects a long, Buy a short. */
  side,
  reference,
  /** Trailing distance; null: break-even only. */
  distance: distance.nullable(),
  /** Move to the entry once the reference is this many ticks in profit; null: no automatic break-even. */
  breakEven: z.object({ entry: z.bigint().positive(), afterTicks: z.bigint().min(0n), done: z.boolean() }).nullable(),
  /** The trigger price on the exchange, as last placed or read. */
  trigger: z.bigint().positive(),
  armedAt: z.number().int(),
});

export type ProtectiveStop = z.output<typeof protectiveStopSchema>;
export type ReferenceKind = ProtectiveStop['reference'];

/** A position's take-profit / stop-loss pair main keeps sized to the position (position-brackets.ts). */
export const positionBracketSchema = z.object({
  id: z.string().min(1).max(80),
  networkId: z.string().min(1).max(40),
  marketId: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  turbo: z.boolean(),
  /** The side of the pair's orders: Sell protects a long, Buy a short. */
  side,
  takeProfit: z.bigint().positive().nullable(),
  stopLoss: z.bigint().positive().nullable(),
  /** The legs on the exchange now (replaced by each resize); empty while none is placed. */
  legIds: z.array(z.string().regex(/^0x[0-9a-fA-F]{64}$/)).max(2),
  /** The size the legs are placed at; 0 while none is placed. */
  placed: z.bigint().min(0n),
  /** Armed by the automatic bracket on fill (else by the trader from the Positions row). */
  automatic: z.boolean(),
  armedAt: z.number().int(),
});

export type PositionBracket = z.output<typeof positionBracketSchema>;

/** A market's automatic bracket on fill: offsets from the average entry, in ticks or basis points. */
export const autoBracketSchema = z.object({
  networkId: z.string().min(1).max(40),
  marketId: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  unit: z.enum(['ticks', 'percent']),
  /** Ticks, or basis points of the entry; null: no take-profit. */
  takeProfit: z.bigint().positive().nullable(),
  /** Ticks, or basis points of the entry; null: no stop-loss. */
  stopLoss: z.bigint().positive().nullable(),
  armedAt: z.number().int(),
});

export type AutoBracket = z.output<typeof autoBracketSchema>;

// `brackets` and `autoBrackets` came after the stops: a file written before them reads as having none.
const fileSchema = z.object({
  version: z.literal(1),
  stops: z.array(protectiveStopSchema).max(200),
  brackets: z.array(positionBracketSchema).max(200).default([]),
  autoBrackets: z.array(autoBracketSchema).max(200).default([]),
});

export type ProtectiveStore = JsonStore<typeof fileSchema>;

export function openProtectiveStore(dataDir: string, log: (line: string) => void): ProtectiveStore {
  return new JsonStore(join(dataDir, 'protective-stops.json'), fileSchema, () => ({ version: 1 as const, stops: [], brackets: [], autoBrackets: [] }), log);
}
