// The risk guards area of the contract: the guards' state for the header (getGuardState, then the
// `guardState` stream) and main's word to every window to disarm one-action trading
// (`guardDisarm`, on a daily loss limit's breach). Merged in ../contract.ts.
import { noInput } from '../inputs';
import { request, stream } from '../spec';
import type { GuardDisarmView, GuardStateView } from '../views/guards';

export const guardInputs = {
  getGuardState: noInput,
} as const;

export const guardRequests = {
  getGuardState: request<GuardStateView>()(guardInputs.getGuardState),
} as const;

export const guardStreams = {
  /** The guards' state after every change (a snapshot). */
  guardState: stream<GuardStateView>(),
  /** Every window drops its arming, saying why. */
  guardDisarm: stream<GuardDisarmView>(),
} as const;
