// The alerts file, in the data directory: one line per alert and per recent firing, rewritten
// atomically (write, flush, rename) on every change. Each line is read on its own, so a damaged
// line loses that line only: the intact ones are kept, the file as found is set aside beside it
// and the loss is logged.
import { copyFileSync } from 'node:fs';
import { z } from 'zod';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import type { AlertFiringView } from '../../../shared/ipc/views/alerts';
import { fail, ok, type Result } from '../../../shared/result';
import { parseWith } from '../../../shared/schema';
import { readTextIfExists, writeFileAtomic } from '../storage/files';
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
    const text = readTextIfExists(this.path);
    if (text === null) return { alerts: [], firings: [] };
    const alerts: AlertRecord[] = [];
    const firings: AlertFiringView[] = [];
    const damaged: number[] = [];
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      let decoded: unknown;
      try {
        decoded = decodeFrame(line);
      } catch {
        damaged.push(index + 1);
        return;
      }
      const parsed = parseWith(lineSchema, decoded, `${this.path}:${index + 1}`);
      if (!parsed.ok) {
        damaged.push(index + 1);
        return;
      }
      if (parsed.value.type === 'alert') alerts.push(parsed.value.alert);
      else firings.push(parsed.value.firing);
    });
    if (damaged.length > 0) {
      const aside = `${this.path}.damaged-${this.now()}`;
      copyFileSync(this.path, aside);
      this.log(`${this.path}: line(s) ${damaged.join(', ')} could not be read and were dropped; the other ${alerts.length + firings.length} were kept; the file as found is in ${aside}`);
    }
    return { alerts, firings };
  }

  /** Replace the file's contents durably (on the device when this returns ok). */
  save(contents: AlertsContents): Result<null> {
    const lines = [
      ...contents.alerts.map((alert) => encodeFrame({ type: 'alert', alert })),
      ...contents.firings.map((firing) => encodeFrame({ type: 'firing', firing })),
    ];
    try {
      writeFileAtomic(this.path, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    } catch (error) {
      return fail('STORAGE_FAILURE', `Could not save ${this.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return ok(null);
  }
}
