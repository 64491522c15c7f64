// Parallel nonces of an account (spec 2.7, wire notes "Parallel nonces"), on shared/nonce's
// packing and lane window (slide rule included). This file adds only what the service does:
// the refusal texts the public service sends (HTTP 400) and the window read.
import { emptyWindow, isConsumed, isInsideWindow, markConsumed, type LaneWindow } from '../../shared/nonce/lane-window';
import { unpackParallelNonce, WORDS_PER_WINDOW } from '../../shared/nonce/parallel-packing';
import type { ContractAccount } from './accounts';

function laneWindow(account: ContractAccount | undefined, lane: number): LaneWindow {
  return account?.lanes.get(lane) ?? emptyWindow(lane);
}

/** Why a parallel nonce cannot be used now, or undefined when it can. `now` in unix seconds. */
export function parallelNonceProblem(account: ContractAccount, nonce: bigint, now: bigint): string | undefined {
  const unpacked = unpackParallelNonce(nonce);
  if (!unpacked.ok) return `Parallel nonce is not usable: ${unpacked.message}`;
  const { lane, expiry, word_position: word, bit_position: bit } = unpacked.value;
  if (expiry <= now) return `Parallel nonce is not usable: it expired at ${expiry} (now ${now})`;
  const window = laneWindow(account, lane);
  if (!isInsideWindow(window, word)) {
    return `word position out of sliding window: word ${word} is outside [${window.base}, ${window.base + BigInt(WORDS_PER_WINDOW)}) of lane ${lane}`;
  }
  if (isConsumed(window, word, bit)) return `nonce already used: lane ${lane} word ${word} position ${bit}`;
  return undefined;
}

/** Consume a checked parallel nonce (never rolled back: a reverted transaction still uses it). */
export function consumeParallelNonce(account: ContractAccount, nonce: bigint): void {
  const unpacked = unpackParallelNonce(nonce);
  if (!unpacked.ok) return;
  const { lane, word_position: word, bit_position: bit } = unpacked.value;
  account.lanes.set(lane, markConsumed(laneWindow(account, lane), word, bit));
}

export interface WindowView {
  nonce_session_id: number;
  base: string;
  slots: { word_position: string; bitmap: string }[];
}

/** GET /v1/accounts/window and nonce_v2: slot i serves the active word with word % 8 == i. */
export function windowView(account: ContractAccount | undefined, lane: number): WindowView {
  const window = laneWindow(account, lane);
  const size = BigInt(WORDS_PER_WINDOW);
  const slots: WindowView['slots'] = [];
  for (let slot = 0n; slot < size; slot++) {
    const word = window.base + ((slot - (window.base % size) + size) % size);
    slots.push({ word_position: word.toString(), bitmap: (window.words.get(word) ?? 0n).toString() });
  }
  return { nonce_session_id: lane, base: window.base.toString(), slots };
}
