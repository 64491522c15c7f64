// Hostile values for the bad-input properties: whatever a compromised page, a broken exchange or
// a corrupted frame could hand a boundary. JSON-like values, bigint, values only structured clone
// carries (Map, Set, Date, typed arrays, null-prototype objects), deep nesting, huge strings,
// prototype-pollution keys as own properties (what JSON.parse makes of `"__proto__": …`), wrong
// types, and mutations of a valid value at any depth.
import fc from 'fast-check';

/** 1 MiB: the browser host's frame limit, so a huge string still fits in one frame. */
export const HUGE_STRING = 'x'.repeat(1 << 20);
/** A member name of 100,000 characters. */
export const HUGE_KEY = 'k'.repeat(100_000);
export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'] as const;

/** Nested arrays or objects `depth` levels deep, built without recursion. */
export function deeplyNested(depth: number, kind: 'array' | 'object', leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** The same as JSON text, for decoders (building it does not recurse either). */
export function deeplyNestedText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** An object whose own enumerable key is `key` (assignment would set the prototype for __proto__). */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const oddNumbers = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, -1, 0.5, 1e21, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE);
const oddBigints = fc.constantFrom(-1n, 0n, 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 256n, -(2n ** 64n));
const oddStrings = fc.constantFrom('', ' ', '\u0000', '0x', '0X' + 'A'.repeat(64), '1e9', '-1', '1.5', '💥'.repeat(40), '\ud800', 'constructor', '__proto__', '../../etc/passwd', 'https://evil.example/');

/** Primitives of every type, with the edges schemas tend to miss. */
export const oddPrimitive: fc.Arbitrary<unknown> = fc.oneof(oddNumbers, oddBigints, oddStrings, fc.constantFrom(true, false, null, undefined), fc.constant(HUGE_STRING));

/** An object carrying a prototype-pollution key as its own property. */
export const pollutedObject: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(...POLLUTION_KEYS), fc.oneof(fc.jsonValue({ maxDepth: 2 }), oddPrimitive), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }))
  .map(([key, value, rest]) => withOwnKey(rest, key, value));

export const deepValue: fc.Arbitrary<unknown> = fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([depth, kind]) => deeplyNested(depth, kind));

/** Anything a boundary can be handed. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 3 },
  {
    arbitrary: fc.anything({ maxDepth: 3, withBigInt: true, withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true, withDate: true, withTypedArray: true, withSparseArray: true, withObjectString: true }),
    weight: 3,
  },
  { arbitrary: oddPrimitive, weight: 3 },
  { arbitrary: pollutedObject, weight: 2 },
  { arbitrary: deepValue, weight: 1 },
);

type Path = readonly (string | number)[];

/** Every path to a value inside `value` (objects and arrays), the root included. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) current = (current as Record<string | number, unknown>)[key];
  return current;
}

/** A copy of `value` with the member at `path` replaced (or removed when `remove`). */
export function replaceAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(key as number, 1);
    else copy[key as number] = replaceAt(copy[key as number], rest, replacement, remove);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[key as string];
  else return withOwnKey(copy, key as string, replaceAt(copy[key as string], rest, replacement, remove));
  return copy;
}

/** A value of another type than `original`, near what a schema might half-accept. */
function retyped(original: unknown): fc.Arbitrary<unknown> {
  switch (typeof original) {
    case 'bigint':
      return fc.constantFrom<unknown>(Number(original), String(original), `${original}n`, { $bigint: String(original) }, [original]);
    case 'string':
      return fc.constantFrom<unknown>(original.length, [original], { value: original }, null, true, BigInt(original.length), `${original} `, original.toUpperCase());
    case 'number':
      return fc.constantFrom<unknown>(String(original), BigInt(Math.trunc(Number.isFinite(original) ? original : 0)), original + 0.5, -original - 1, [original]);
    case 'boolean':
      return fc.constantFrom<unknown>(String(original), Number(original), null, [original]);
    default:
      return Array.isArray(original) ? fc.constantFrom<unknown>({ ...original }, original.length, original[0]) : fc.constantFrom<unknown>([original], 'object', 0, null);
  }
}

/** One mutation of a valid value: replace, retype, remove, or add a member, at any depth. */
export function mutationOf(valid: unknown, replacements: fc.Arbitrary<unknown> = hostileValue): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  return fc.constantFrom(...paths).chain((path) => {
    const original = valueAt(valid, path);
    const options: fc.Arbitrary<unknown>[] = [replacements.map((replacement) => replaceAt(valid, path, replacement)), retyped(original).map((replacement) => replaceAt(valid, path, replacement))];
    if (path.length > 0) options.push(fc.constant(replaceAt(valid, path, undefined, true)));
    if (original !== null && typeof original === 'object' && !Array.isArray(original)) {
      options.push(
        fc
          .tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 12 }), fc.constant(HUGE_KEY)), replacements)
          .map(([key, added]) => replaceAt(valid, path, withOwnKey(original as Record<string, unknown>, key, added))),
      );
    }
    if (Array.isArray(original)) options.push(fc.constant(replaceAt(valid, path, [...(original as unknown[]), ...(original as unknown[])])));
    return fc.oneof(...options);
  });
}

/**
 * What JSON.parse could have produced from the same value: bigint as a decimal string, Map, Set
 * and the like as `{}`, own `__proto__` keys kept. Too deep to serialise: null.
 */
export function asJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value, (_key, member: unknown) => (typeof member === 'bigint' ? member.toString() : member));
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** JSON values only (a REST body or a WebSocket frame is text): hostile values through JSON. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileValue.map(asJson), weight: 4 },
  { arbitrary: fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([depth, kind]) => JSON.parse(deeplyNestedText(depth, kind)) as unknown), weight: 1 },
);
