// A bounded memo of a formatter: the ladder redraws hundreds of sizes a frame, most of them values
// it formatted a frame before. Cleared whole when full (no per-entry bookkeeping on the hot path).
export function createTextCache(format: (value: bigint) => string, limit = 4096): (value: bigint) => string {
  let texts = new Map<bigint, string>();
  return (value) => {
    let text = texts.get(value);
    if (text === undefined) {
      if (texts.size >= limit) texts = new Map();
      text = format(value);
      texts.set(value, text);
    }
    return text;
  };
}
