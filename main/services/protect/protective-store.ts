// The protective stops main manages (trailing and break-even), on disk so that they keep working
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

const fileSchema = z.object({ version: z.literal(1), stops: z.array(protectiveStopSchema).max(200) });

export type ProtectiveStore = JsonStore<typeof fileSchema>;

export function openProtectiveStore(dataDir: string, log: (line: string) => void): ProtectiveStore {
  return new JsonStore(join(dataDir, 'protective-stops.json'), fileSchema, () => ({ version: 1 as const, stops: [] }), log);
}
