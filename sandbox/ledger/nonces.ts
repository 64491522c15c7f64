// Nonces of an account: the sequential one and the parallel lanes (spec 2.7, wire notes
// "Parallel nonces"). Checks return the public service's texts with HTTP 400; consuming a
// parallel position sets its bit and slides the window: once a position in word
// w >= base + 4 is consumed, base advances by 4, repeated while it still holds.
// TODO(shared/nonce): unpacking and the slide rule belong to shared/nonce ("parallel nonce
// packing, lane window + slide rule"); switch to it once it lands. Only this file changes.
import type { ContractAccount, NonceLane } from './accounts';

export const LANES = 5;
export const WORDS_PER_WINDOW = 8n;
export const BITS_PER_WORD = 128n;
const SLIDE_AT = 4n;

export interface UnpackedParallelNonce {
  readonly position: bigint;
  readonly word: bigint;
  readonly expiry: bigint;
  readonly lane: number;
  readonly reserved: bigint;
}

export function unpackParallelNonce(value: bigint): UnpackedParallelNonce {
  return {
    position: value & 0xffn,
    word: (value >> 8n) & ((1n << 128n) - 1n),
    expiry: (value >> 136n) & 0xffff_ffffn,
    lane: Number((value >> 168n) & 0xffn),
    reserved: value >> 176n,
  };
}

export function laneOf(account: ContractAccount, lane: number): NonceLane {
  let found = account.lanes.get(lane);
  if (found === undefined) {
    found = { base: 0n, words: new Map() };
    account.lanes.set(lane, found);
  }
  return found;
}

/** Why a parallel nonce cannot be used now, or undefined when it can. `now` in unix seconds. */
export function parallelNonceProblem(account: ContractAccount, nonce: bigint, now: bigint): string | undefined {
  const unpacked = unpackParallelNonce(nonce);
  if (unpacked.reserved !== 0n) return `Parallel nonce is not usable: reserved bits 176-255 must be zero, got ${unpacked.reserved}`;
  if (unpacked.lane >= LANES) return `Parallel nonce is not usable: nonce session id must be 0-4, got ${unpacked.lane}`;
  if (unpacked.position >= BITS_PER_WORD) return `Parallel nonce is not usable: bitmap position must be 0-127, got ${unpacked.position}`;
  if (unpacked.expiry <= now) return `Parallel nonce is not usable: it expired at ${unpacked.expiry} (now ${now})`;
  const lane = account.lanes.get(unpacked.lane);
  const base = lane?.base ?? 0n;
  if (unpacked.word < base || unpacked.word >= base + WORDS_PER_WINDOW) {
    return `word position out of sliding window: word ${unpacked.word} is outside [${base}, ${base + WORDS_PER_WINDOW})`;
  }
  const bitmap = lane?.words.get(unpacked.word) ?? 0n;
  if ((bitmap >> unpacked.position) & 1n) return `nonce already used: lane ${unpacked.lane} word ${unpacked.word} position ${unpacked.position}`;
  return undefined;
}

/** Consume a checked parallel nonce (never rolled back: a reverted transaction still uses it). */
export function consumeParallelNonce(account: ContractAccount, nonce: bigint): void {
  const unpacked = unpackParallelNonce(nonce);
  const lane = laneOf(account, unpacked.lane);
  lane.words.set(unpacked.word, (lane.words.get(unpacked.word) ?? 0n) | (1n << unpacked.position));
  for (;;) {
    let slide = false;
    for (const [word, bitmap] of lane.words) if (word >= lane.base + SLIDE_AT && bitmap !== 0n) slide = true;
    if (!slide) break;
    lane.base += SLIDE_AT;
  }
  for (const word of lane.words.keys()) if (word < lane.base) lane.words.delete(word);
}

export interface WindowView {
  nonce_session_id: number;
  base: string;
  slots: { word_position: string; bitmap: string }[];
}

/** GET /v1/accounts/window: slot i serves the word of the active range with word % 8 == i. */
export function windowView(account: ContractAccount | undefined, laneNumber: number): WindowView {
  const lane = account?.lanes.get(laneNumber);
  const base = lane?.base ?? 0n;
  const slots: WindowView['slots'] = [];
  for (let slot = 0n; slot < WORDS_PER_WINDOW; slot++) {
    // The word in [base, base + 8) that maps to this slot.
    const word = base + ((slot - (base % WORDS_PER_WINDOW) + WORDS_PER_WINDOW) % WORDS_PER_WINDOW);
    slots.push({ word_position: word.toString(), bitmap: (lane?.words.get(word) ?? 0n).toString() });
  }
  return { nonce_session_id: laneNumber, base: base.toString(), slots };
}
