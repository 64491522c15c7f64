// A deterministic source of numbers in [0, 1) for the jitter of a TWAP schedule: the engine keeps the
// seed with the algorithm, and tests replay a schedule exactly. Not for anything secret.

/** mulberry32: a small 32-bit generator; the same seed gives the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
