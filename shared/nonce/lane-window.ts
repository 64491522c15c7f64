// One lane's sliding window: words [base, base+8), 128 bits each; a set bit is a consumed position.
// Snapshots come from GET /v1/accounts/window and subscribe_nonce_v2 in any order. Because the
// service only ever advances `base` and sets bits, merging is a join: the larger base, the union of
// bits, then the slide rule. The result does not depend on arrival order.
import { BITS_PER_WORD, WORDS_PER_WINDOW, positionIndex } from './parallel-packing';

export interface LaneWindow {
  readonly lane: number;
  readonly base: bigint;
  /** Bitmaps of the in-window words that have a consumed position, keyed by word position. */
  readonly words: ReadonlyMap<bigint, bigint>;
}

export interface WindowSnapshot {
  readonly lane: number;
  readonly base: bigint;
  /** As many as 8; a new account may send fewer. */
  readonly slots: readonly { readonly word_position: bigint; readonly bitmap: bigint }[];
}

const WINDOW = BigInt(WORDS_PER_WINDOW);
const HALF = WINDOW / 2n;
const FULL_WORD = (1n << BigInt(BITS_PER_WORD)) - 1n;

export function emptyWindow(lane: number, base = 0n): LaneWindow {
  return { lane, base, words: new Map() };
}

function inWindow(base: bigint, wordPosition: bigint): boolean {
  return wordPosition >= base && wordPosition < base + WINDOW;
}

/** The slide rule: while a position in a word >= base+4 is consumed, base advances by 4. */
function slide(base: bigint, words: Map<bigint, bigint>): LaneWindow['base'] {
  let current = base;
  for (;;) {
    let upperConsumed = false;
    for (const [word, bitmap] of words) if (bitmap !== 0n && word >= current + HALF) upperConsumed = true;
    if (!upperConsumed) return current;
    current += HALF;
  }
}

function normalise(lane: number, base: bigint, words: Map<bigint, bigint>): LaneWindow {
  const slidBase = slide(base, words);
  const kept = new Map<bigint, bigint>();
  for (const [word, bitmap] of words) if (bitmap !== 0n && inWindow(slidBase, word)) kept.set(word, bitmap);
  return { lane, base: slidBase, words: kept };
}

/** Read a snapshot: slots outside [base, base+8) count as empty; bits beyond 128 are ignored. */
export function windowFromSnapshot(snapshot: WindowSnapshot): LaneWindow {
  const words = new Map<bigint, bigint>();
  for (const slot of snapshot.slots) {
    if (!inWindow(snapshot.base, slot.word_position)) continue;
    words.set(slot.word_position, (words.get(slot.word_position) ?? 0n) | (slot.bitmap & FULL_WORD));
  }
  return normalise(snapshot.lane, snapshot.base, words);
}

/** Join two views of the same lane. Commutative, associative and idempotent. */
export function mergeWindows(left: LaneWindow, right: LaneWindow): LaneWindow {
  const base = left.base > right.base ? left.base : right.base;
  const words = new Map<bigint, bigint>();
  for (const view of [left, right]) {
    for (const [word, bitmap] of view.words) if (word >= base) words.set(word, (words.get(word) ?? 0n) | bitmap);
  }
  return normalise(left.lane, base, words);
}

export function mergeSnapshot(window: LaneWindow, snapshot: WindowSnapshot): LaneWindow {
  return mergeWindows(window, windowFromSnapshot(snapshot));
}

/** Record a position consumed (our request was accepted); positions outside the window change nothing. */
export function markConsumed(window: LaneWindow, wordPosition: bigint, bitPosition: number): LaneWindow {
  if (!inWindow(window.base, wordPosition)) return window;
  const words = new Map(window.words);
  words.set(wordPosition, (words.get(wordPosition) ?? 0n) | (1n << BigInt(bitPosition)));
  return normalise(window.lane, window.base, words);
}

/** True if the position can no longer be used: below the window, or its bit is set. */
export function isConsumed(window: LaneWindow, wordPosition: bigint, bitPosition: number): boolean {
  if (wordPosition < window.base) return true;
  return (((window.words.get(wordPosition) ?? 0n) >> BigInt(bitPosition)) & 1n) === 1n;
}

export function isInsideWindow(window: LaneWindow, wordPosition: bigint): boolean {
  return inWindow(window.base, wordPosition);
}

/** The highest consumed position as a position index, or null when nothing in the window is consumed. */
export function highestConsumedIndex(window: LaneWindow): bigint | null {
  let highest: bigint | null = null;
  for (const [word, bitmap] of window.words) {
    if (bitmap === 0n) continue;
    const top = positionIndex(word, bitmap.toString(2).length - 1);
    if (highest === null || top > highest) highest = top;
  }
  return highest;
}

/** First position index past the window's end. */
export function windowEndIndex(window: LaneWindow): bigint {
  return positionIndex(window.base + WINDOW, 0);
}
