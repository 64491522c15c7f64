// The protective stops area of the contract: arm a trailing stop and/or an automatic break-even on
// a pending stop-loss leg, disarm it, move it to break-even now, and the managed stops (pushed on
// the `protectiveStops` stream); a take-profit / stop-loss pair sized to a position (pushed on
// `positionBrackets`). Main moves the legs itself (main/services/protect), with every
// window closed and after a restart. Merged in ../contract.ts.
import { z } from 'zod';
import { b256Input, confirmationCode, marketRef, noInput } from '../inputs';
import { request, stream } from '../spec';
import type { AutoBracketView, PositionBracketView, ProtectiveStopView } from '../views/protect';

const distanceInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ticks'), ticks: z.bigint().min(1n, 'at least 1 tick').max(1_000_000n) }),
  z.strictObject({ kind: z.literal('percent'), basisPoints: z.bigint().min(1n, 'at least 1 bp').max(5_000n, 'at most 5,000 bps (50 %)') }),
  z.strictObject({ kind: z.literal('price'), amount: z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64') }),
]);

const stopId = z.string().min(1).max(80);
const price = z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64');

export const protectInputs = {
  armProtectiveStop: z.strictObject({
    ...marketRef,
    triggerId: b256Input,
    reference: z.enum(['bid', 'ask', 'last', 'mark']),
    /** Trailing distance; null: break-even only. */
    distance: distanceInput.nullable(),
    /** Move the stop to the position's entry after this many ticks of profit; null: none. */
    breakEvenAfterTicks: z.bigint().min(0n).max(1_000_000n).nullable(),
  }),
  disarmProtectiveStop: z.strictObject({ id: stopId }),
  moveStopToBreakEven: z.strictObject({ id: stopId }),
  getProtectiveStops: noInput,
  /** A take-profit and/or a stop-loss sized to the position on a book and resized as it changes (or new prices for the pair main keeps there). */
  armPositionBracket: z.strictObject({ ...marketRef, takeProfit: price.nullable(), stopLoss: price.nullable() }),
  /** Stop resizing the pair; `cancel`: take its legs off the exchange too. */
  disarmPositionBracket: z.strictObject({ id: stopId, cancel: z.boolean() }),
  getPositionBrackets: noInput,
  /**
   * A market's automatic bracket on fill (canonical book): offsets from the average entry in ticks
   * or basis points. Arming or changing it is confirmed in the trusted confirmation.
   */
  setAutoBracket: z.strictObject({
    marketId: b256Input,
    unit: z.enum(['ticks', 'percent']),
    takeProfit: z.bigint().min(1n, 'at least 1').max(1_000_000n).nullable(),
    stopLoss: z.bigint().min(1n, 'at least 1').max(1_000_000n).nullable(),
    confirmationCode,
  }),
  /** Stop bracketing a market's fills (applies at once: it only removes what main would sign). */
  clearAutoBracket: z.strictObject({ marketId: b256Input }),
  getAutoBrackets: noInput,
} as const;

export const protectRequests = {
  armProtectiveStop: request<ProtectiveStopView>()(protectInputs.armProtectiveStop),
  disarmProtectiveStop: request<null>()(protectInputs.disarmProtectiveStop),
  moveStopToBreakEven: request<ProtectiveStopView>()(protectInputs.moveStopToBreakEven),
  getProtectiveStops: request<readonly ProtectiveStopView[]>()(protectInputs.getProtectiveStops),
  armPositionBracket: request<PositionBracketView>()(protectInputs.armPositionBracket),
  disarmPositionBracket: request<null>()(protectInputs.disarmPositionBracket),
  getPositionBrackets: request<readonly PositionBracketView[]>()(protectInputs.getPositionBrackets),
  setAutoBracket: request<readonly AutoBracketView[]>()(protectInputs.setAutoBracket),
  clearAutoBracket: request<readonly AutoBracketView[]>()(protectInputs.clearAutoBracket),
  getAutoBrackets: request<readonly AutoBracketView[]>()(protectInputs.getAutoBrackets),
} as const;

export const protectStreams = {
  /** The managed stops after every change (a snapshot). */
  protectiveStops: stream<readonly ProtectiveStopView[]>(),
  /** The position TP/SL pairs after every change (a snapshot). */
  positionBrackets: stream<readonly PositionBracketView[]>(),
} as const;
