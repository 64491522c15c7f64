// The alerts file, in the data directory: one line per alert and per recent firing, rewritten
// atomically (write, flush, rename) on every change. Each line is read on its own, so a damaged
// line loses that line only: the intact ones are kept, the file as found is set aside beside it
// and the loss is logged.
import { z } from 'zod';
import type { AlertFiringView } from '../../../shared/ipc/views/alerts';
import type { Result } from '../../../shared/result';
import { readJsonLines, writeJsonLines } from '../storage/json-lines';
import type { AlertRecord } from './alert-rules';

export const ALERTS_FILE = 'alerts.jsonl';

const marketId = z.string().regex(/^0x[0-9a-f]{64}$/);
const accountId = z.string().regex(/^0x[0-9a-f]{64}$/);
const raw = z.bigint().min(0n);

const conditionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('price'), marketId, turbo: z.boolean(), source: z.enum(['bid', 'ask', 'last', 'mark', 'mid']).transform((source) => (source === 'mid' ? 'mark' : source)), direction: z.enum(['above', 'below']), price: raw, hysteresis: raw }),
  z.object({ kind: z.literal('spread'), marketId, turbo: z.boolean(), ticks: z.number().int().min(1) }),
  z.object({ kind: z.literal('fill'), marketId: marketId.nullable() }),
  z.object({ kind: z.literal('rejected') }),
  z.object({ kind: z.literal('stale'), seconds: z.number().int().min(1) }),
  z.object({ kind: z.literal('margin'), marginAccountId: accountId, line: z.enum(['liquidation', 'freeze']), belowBps: z.number().int().min(1).max(10_000) }),
]);

const alertSchema = z.object({
  id: z.string().min(1).max(60),
  condition: conditionSchema,
  repeat: z.boolean(),
  cooldownSeconds: z.number().int().min(0),
  sound: z.boolean(),
  note: z.string().max(1000),
  enabled: z.boolean(),
  createdAt: z.number(),
  lastFiredAt: z.number().nullable(),
});

const firingSchema = z.object({
  id: z.string().min(1).max(80),
  alertId: z.string().min(1).max(60),
  at: z.number(),
  text: z.string().max(2000),
  sound: z.boolean(),
  delivered: z.boolean(),
});

const lineSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('alert'), alert: alertSchema }), z.object({ type: z.literal('firing'), firing: firingSchema })]);

export interface AlertsContents {
  readonly alerts: readonly AlertRecord[];
  /** Oldest first. */
  readonly firings: readonly AlertFiringView[];
}

export class AlertStore {
  constructor(
    private readonly path: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number,
  ) {}

  /** What the file holds; damaged lines are skipped (and said), the rest kept. */
  load(): AlertsContents {
    const alerts: AlertRecord[] = [];
    const firings: AlertFiringView[] = [];
    for (const line of readJsonLines({ path: this.path, log: this.log, now: this.now }, lineSchema)) {
      if (line.type === 'alert') alerts.push(line.alert);
      else firings.push(line.firing);
    }
    return { alerts, firings };
  }

  /** Replace the file's contents durably (on the device when this returns ok). */
  save(contents: AlertsContents): Result<null> {
    return writeJsonLines(this.path, [...contents.alerts.map((alert) => ({ type: 'alert', alert })), ...contents.firings.map((firing) => ({ type: 'firing', firing }))]);
  }
}
