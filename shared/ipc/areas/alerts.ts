// The alerts area of the contract: conditions main watches (a price crossing a level, a wide
// spread, a fill, a refused request, a silent stream, a Turbo Account near its liquidation or
// freeze line) and announces as a notice and a desktop
// notification, with every window closed too. An alert never trades. The list is pushed on the
// `alerts` stream after every change; each firing on `alertFired` (the browser host's page shows
// it with the Notification API). Merged in ../contract.ts.
import { z } from 'zod';
import { b256Input, noInput } from '../inputs';
import { request, stream } from '../spec';
import type { AlertFiringView, AlertsSnapshot, AlertView } from '../views/alerts';

const price = z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64');
/** Alerts are named by main: `alert-` and a counter. */
const alertId = z.string().regex(/^alert-[0-9a-z-]{1,40}$/, 'expected an alert id (alert-…)');
/** A day at most: an alert that should wait longer is one the trader turns off. */
const MAX_COOLDOWN_SECONDS = 86_400;
export const MAX_ALERT_NOTE_LENGTH = 200;

export const alertConditionInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('price'),
    marketId: b256Input,
    turbo: z.boolean().optional(),
    /** `mid` is read as `mark` (the same price: the midpoint of bid and ask). */
    source: z.enum(['bid', 'ask', 'last', 'mark', 'mid']),
    direction: z.enum(['above', 'below']),
    price,
    /** How far back past the level the price must go before the alert can fire again (raw units; 0 by default). */
    hysteresis: z.bigint().min(0n, 'must not be negative').max(0xffff_ffff_ffff_ffffn, 'must fit in u64').optional(),
  }),
  z.strictObject({ kind: z.literal('spread'), marketId: b256Input, turbo: z.boolean().optional(), ticks: z.number().int('must be whole ticks').min(1, 'at least 1 tick').max(1_000_000, 'at most 1,000,000 ticks') }),
  z.strictObject({ kind: z.literal('fill'), marketId: b256Input.nullable().optional() }),
  z.strictObject({ kind: z.literal('rejected') }),
  z.strictObject({ kind: z.literal('stale'), seconds: z.number().int('must be whole seconds').min(1, 'at least 1 s').max(3_600, 'at most 3,600 s') }),
  z.strictObject({
    kind: z.literal('margin'),
    marginAccountId: b256Input,
    line: z.enum(['liquidation', 'freeze']),
    /** The distance, in basis points of the value the line is measured on, below which it fires (500: 5 %). */
    belowBps: z.number().int('must be whole basis points').min(1, 'at least 1 bp (0.01 %)').max(10_000, 'at most 10,000 bps (100 %)'),
  }),
]);

const cooldownSeconds = z.number().int('must be whole seconds').min(0, 'must not be negative').max(MAX_COOLDOWN_SECONDS, `at most ${MAX_COOLDOWN_SECONDS} s (a day)`);
const note = z.string().max(MAX_ALERT_NOTE_LENGTH, `at most ${MAX_ALERT_NOTE_LENGTH} characters`);

export const alertInputs = {
  createAlert: z.strictObject({
    condition: alertConditionInput,
    repeat: z.boolean().optional(),
    cooldownSeconds: cooldownSeconds.optional(),
    sound: z.boolean().optional(),
    note: note.optional(),
  }),
  /** Change what is given; the condition as a whole (a changed condition starts unarmed again). */
  updateAlert: z.strictObject({
    alertId,
    condition: alertConditionInput.optional(),
    repeat: z.boolean().optional(),
    cooldownSeconds: cooldownSeconds.optional(),
    sound: z.boolean().optional(),
    note: note.optional(),
    enabled: z.boolean().optional(),
  }),
  deleteAlert: z.strictObject({ alertId }),
  listAlerts: noInput,
} as const;

export const alertRequests = {
  createAlert: request<AlertView>()(alertInputs.createAlert),
  updateAlert: request<AlertView>()(alertInputs.updateAlert),
  deleteAlert: request<null>()(alertInputs.deleteAlert),
  listAlerts: request<AlertsSnapshot>()(alertInputs.listAlerts),
} as const;

export const alertStreams = {
  /** Every alert and the latest firings, after every change (a snapshot, not a delta). */
  alerts: stream<AlertsSnapshot>(),
  /** One firing, as it is announced. */
  alertFired: stream<AlertFiringView>(),
} as const;
