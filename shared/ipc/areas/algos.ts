// The execution algorithms area of the contract: preview, start, pause, resume, amend the limit and
// cancel TWAP, scale, iceberg and chase orders that main runs (main/services/algos), and the working
// algorithms (pushed on the `algos` stream). Merged in ../contract.ts.
import { z } from 'zod';
import { b256Input, noInput } from '../inputs';
import { request, stream } from '../spec';
import type { AlgoPreview, AlgoView } from '../views/algos';

const price = z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64');
const size = price;
const bps = (max: bigint) => z.bigint().min(0n, 'must not be negative').max(max, `at most ${max} bps`);
const algoId = z.string().min(1).max(80);
const DAY_MS = 86_400_000;

const params = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('twap'),
    durationMs: z.number().int().min(10_000, 'at least 10 s').max(DAY_MS, 'at most 24 h'),
    intervalMs: z.number().int().min(1_000, 'at least 1 s').max(3_600_000, 'at most 1 h'),
    sizeJitterBps: bps(5_000n),
    timeJitterBps: bps(5_000n),
    slice: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('touch') }), z.strictObject({ kind: z.literal('market'), slippageBps: z.bigint().min(1n, 'at least 1 bp').max(1_000n, 'at most 1,000 bps') })]),
  }),
  z.strictObject({
    kind: z.literal('scale'),
    from: price,
    to: price,
    count: z.number().int().min(2, 'at least 2 orders').max(100, 'at most 100 orders'),
    shape: z.discriminatedUnion('distribution', [
      z.strictObject({ distribution: z.literal('flat') }),
      z.strictObject({ distribution: z.enum(['increasing', 'decreasing']), curve: z.enum(['linear', 'geometric']), ratioBps: z.bigint().min(10_001n, 'above 10,000 (×1)').max(30_000n, 'at most 30,000 (×3)') }),
    ]),
    postOnly: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('iceberg'), price, visible: size }),
  z.strictObject({ kind: z.literal('chase'), offsetTicks: z.bigint().min(0n).max(10_000n), maxAmendsPerMinute: z.number().int().min(1).max(120) }),
]);

const spec = z.strictObject({
  marketId: b256Input,
  turbo: z.boolean(),
  side: z.enum(['Buy', 'Sell']),
  quantity: size,
  limitPrice: price.nullable(),
  params,
});

export const algoInputs = {
  previewAlgo: spec,
  startAlgo: spec,
  pauseAlgo: z.strictObject({ id: algoId }),
  resumeAlgo: z.strictObject({ id: algoId }),
  /** A new price limit (null: none); tightening and loosening alike apply to the next child. */
  amendAlgoLimit: z.strictObject({ id: algoId, limitPrice: price.nullable() }),
  /** Stop it and cancel its open children. */
  cancelAlgo: z.strictObject({ id: algoId }),
  getAlgos: noInput,
} as const;

export const algoRequests = {
  previewAlgo: request<AlgoPreview>()(algoInputs.previewAlgo),
  startAlgo: request<AlgoView>()(algoInputs.startAlgo),
  pauseAlgo: request<AlgoView>()(algoInputs.pauseAlgo),
  resumeAlgo: request<AlgoView>()(algoInputs.resumeAlgo),
  amendAlgoLimit: request<AlgoView>()(algoInputs.amendAlgoLimit),
  cancelAlgo: request<AlgoView>()(algoInputs.cancelAlgo),
  getAlgos: request<readonly AlgoView[]>()(algoInputs.getAlgos),
} as const;

export const algoStreams = {
  /** Every algorithm of the active network after each change (a snapshot). */
  algos: stream<readonly AlgoView[]>(),
} as const;
