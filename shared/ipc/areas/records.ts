// The records area of the contract: the daily summary per account, market and book (the trading
// account and the selected Turbo Account), and CSV exports of their fills, orders and daily
// realized P&L, per market and UTC date range. The file
// is chosen and written by main (a native save dialog in Electron; the data directory's exports
// folder in the browser host): the page names only what to export. Merged in ../contract.ts.
import { z } from 'zod';
import { b256Input } from '../inputs';
import { request } from '../spec';
import type { RecordsExportReport, RecordsView } from '../views/records';

/** A UTC day, YYYY-MM-DD, that exists on the calendar. */
export const dayInput = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a day as YYYY-MM-DD')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, 'expected a day that exists on the calendar');

const recordsRange = {
  /** One market (both its books), or every market when omitted. */
  marketId: b256Input.optional(),
  /** First and last UTC day included; open when omitted. */
  from: dayInput.optional(),
  to: dayInput.optional(),
};

const ordered = (input: { from?: string | undefined; to?: string | undefined }) => input.from === undefined || input.to === undefined || input.from <= input.to;
const orderedMessage = { message: 'the first day must not be after the last', path: ['to'] };

export const recordsRequests = {
  getRecords: request<RecordsView>()(z.strictObject(recordsRange).refine(ordered, orderedMessage)),
  /** Write a CSV of the accounts' fills, orders or daily realized P&L (each row names its account); main chooses and writes the file. */
  exportRecords: request<RecordsExportReport>()(z.strictObject({ kind: z.enum(['fills', 'orders', 'daily']), ...recordsRange }).refine(ordered, orderedMessage)),
} as const;

export const recordsStreams = {} as const;
