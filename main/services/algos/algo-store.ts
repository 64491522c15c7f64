// The execution algorithms file, in the data directory: one line per algorithm (its spec, state,
// reason, schedule, arrival price, random seed, amend times and every child), rewritten atomically
// (write, flush, rename) on every change. Each line is read on its own, so a damaged byte loses
// that line only: the intact ones are kept, the file as found is set aside beside it and the loss
// is logged. Algorithms of every network are in it, each naming its network: one of another
// network is kept as it is and never acted on.
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../../shared/result';
import { readJsonLines, writeJsonLines } from '../storage/json-lines';

export const ALGOS_FILE = 'algos.jsonl';

const raw = z.bigint().min(0n);
const positive = z.bigint().min(1n);
const side = z.enum(['Buy', 'Sell']);

const paramsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('twap'),
    durationMs: z.number().int().positive(),
    intervalMs: z.number().int().positive(),
    sizeJitterBps: raw,
    timeJitterBps: raw,
    slice: z.discriminatedUnion('kind', [z.object({ kind: z.literal('touch') }), z.object({ kind: z.literal('market'), slippageBps: positive })]),
  }),
  z.object({
    kind: z.literal('scale'),
    from: positive,
    to: positive,
    count: z.number().int().min(1),
    shape: z.discriminatedUnion('distribution', [
      z.object({ distribution: z.literal('flat') }),
      z.object({ distribution: z.enum(['increasing', 'decreasing']), curve: z.enum(['linear', 'geometric']), ratioBps: positive }),
    ]),
    postOnly: z.boolean(),
  }),
  z.object({ kind: z.literal('iceberg'), price: positive, visible: positive }),
  z.object({ kind: z.literal('chase'), offsetTicks: raw, maxAmendsPerMinute: z.number().int().min(1) }),
]);

const specSchema = z.object({
  marketId: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  turbo: z.boolean(),
  side,
  quantity: positive,
  limitPrice: positive.nullable(),
  params: paramsSchema,
});

export const childSchema = z.object({
  /** Unique within its algorithm; with the algorithm's id it is the journal's parent tag. */
  key: z.string().min(1).max(40),
  /** The journal entry that signed it; null while it is being signed (or a crash left it so). */
  journalId: z.string().max(200).nullable(),
  orderId: z.string().regex(/^0x[0-9a-fA-F]{64}$/).nullable(),
  price: raw,
  quantity: positive,
  filled: raw,
  /** The average price of what it filled (0 before a fill). */
  fillPrice: raw,
  status: z.enum(['signing', 'open', 'filled', 'cancelled', 'refused', 'unknown']),
  placedAt: z.number(),
  /** "slice 4/20", "amend 3", "order 2/10". */
  label: z.string().max(80),
});

export type AlgoChild = z.output<typeof childSchema>;

export const algoSchema = z.object({
  id: z.string().min(1).max(80),
  networkId: z.string().min(1).max(40),
  account: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  spec: specSchema,
  state: z.enum(['running', 'paused', 'finished', 'cancelled']),
  reason: z.object({ code: z.string().max(80), text: z.string().max(2000) }).nullable(),
  arrivalPrice: positive.nullable(),
  /** The seed of the TWAP's randomisation (the schedule is persisted too, so a restart is exact). */
  seed: z.number().int(),
  /** TWAP: each slice's offset from `scheduleBase` and its planned size. */
  schedule: z.array(z.object({ offsetMs: z.number().int().min(0), quantity: positive })).max(100_000),
  /** The clock time the schedule's offsets count from; moved forward by the time spent paused. */
  scheduleBase: z.number(),
  /** TWAP: the next slice to place; scale: the next planned order to place. */
  next: z.number().int().min(0),
  /** Scale: every planned order. */
  planned: z.array(z.object({ price: positive, quantity: positive })).max(1_000),
  /** Chase: when each amend of the last minute was signed. */
  amendTimes: z.array(z.number()).max(1_000),
  /** When it was paused (null: not paused). */
  pausedAt: z.number().nullable(),
  children: z.array(childSchema).max(5_000),
  notes: z.array(z.string().max(500)).max(20),
  startedAt: z.number(),
  updatedAt: z.number(),
});

export type AlgoRecord = z.output<typeof algoSchema>;

const lineSchema = z.object({ type: z.literal('algo'), algo: algoSchema });

export class AlgoStore {
  constructor(
    private readonly path: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number,
  ) {}

  /** What the file holds; damaged lines are skipped (and said), the rest kept. */
  load(): AlgoRecord[] {
    return readJsonLines({ path: this.path, log: this.log, now: this.now }, lineSchema).map((line) => line.algo);
  }

  /** Replace the file's contents durably (on the device when this returns ok). */
  save(algos: readonly AlgoRecord[]): Result<null> {
    return writeJsonLines(this.path, algos.map((algo) => ({ type: 'algo', algo })));
  }
}

export function openAlgoStore(dataDir: string, log: (line: string) => void, now: () => number): AlgoStore {
  return new AlgoStore(join(dataDir, ALGOS_FILE), log, now);
}
