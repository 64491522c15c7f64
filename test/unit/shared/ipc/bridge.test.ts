import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBridge, type BridgeTransport } from '../../../../shared/ipc/bridge';
import { requestNames, streamNames, type ListenerName, type StreamName } from '../../../../shared/ipc/contract';
import { decodeFrame, encodeFrame, FrameTooDeepError, MAX_FRAME_DEPTH } from '../../../../shared/ipc/codec';
import { ok } from '../../../../shared/result';
import { checkProperty } from '../../../support/property';

const listenerName = (name: StreamName): ListenerName<StreamName> =>
  `on${name[0]?.toUpperCase() ?? ''}${name.slice(1)}` as ListenerName<StreamName>;

describe('bridge', () => {
  const calls: [string, unknown][] = [];
  const listened: string[] = [];
  const transport: BridgeTransport = {
    invoke: (name, input) => {
      calls.push([name, input]);
      return Promise.resolve(ok(null));
    },
    listen: (name) => {
      listened.push(name);
      return () => undefined;
    },
  };
  const bridge = createBridge(transport);

  it('has exactly one named method per contract operation and stream, and nothing generic', () => {
    const expected = [...requestNames, ...streamNames.map(listenerName)].sort();
    expect(Object.keys(bridge).sort()).toEqual(expected);
    for (const forbidden of ['invoke', 'send', 'call', 'request', 'ipcRenderer', 'on', 'emit']) {
      expect(bridge).not.toHaveProperty(forbidden);
    }
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('routes each method to its own channel', async () => {
    for (const name of requestNames) {
      await (bridge[name] as (input: unknown) => Promise<unknown>)({});
    }
    expect(calls.map(([name]) => name)).toEqual(requestNames);
    for (const name of streamNames) bridge[listenerName(name)](() => undefined);
    expect(listened).toEqual(streamNames);
  });
});

describe('frame codec', () => {
  it('carries bigint exactly, beyond 2^53 and up to u256', () => {
    const value = { price: 123456789012345678901234567890n, nested: [{ q: 0n }, { q: -5n }], text: 'x' };
    expect(decodeFrame(encodeFrame(value))).toEqual(value);
    const u256max = (1n << 256n) - 1n;
    expect(decodeFrame(encodeFrame({ n: u256max }))).toEqual({ n: u256max });
  });

  it('leaves look-alike objects that are not exactly a tagged bigint alone', () => {
    expect(decodeFrame('{"a":{"$bigint":"12","x":1}}')).toEqual({ a: { $bigint: '12', x: 1 } });
    expect(decodeFrame('{"a":{"$bigint":"1.5"}}')).toEqual({ a: { $bigint: '1.5' } });
  });

  it('decodes any frame as a JSON.parse reviver did, bigint objects anywhere and keys named __proto__ kept as members', () => {
    // The reviver the decoder replaced (it is called for every value, at about twice the cost).
    const byReviver = (text: string): unknown =>
      JSON.parse(text, (_key, v: unknown) => {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
          const keys = Object.keys(v);
          if (keys.length === 1 && keys[0] === '$bigint') {
            const digits = (v as Record<string, unknown>).$bigint;
            if (typeof digits === 'string' && /^-?\d{1,100}$/.test(digits)) return BigInt(digits);
          }
        }
        return v;
      });
    const tagged = fc.oneof(fc.bigInt().map((n) => ({ $bigint: n.toString() })), fc.constant({ $bigint: '1.5' }), fc.record({ $bigint: fc.string(), x: fc.integer() }));
    const { value: frame } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), tagged, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__'), fc.constant('$bigint')), tie('value'), { maxKeys: 4 })),
    }));
    checkProperty(
      fc.property(frame, (value) => {
        const text = JSON.stringify(value);
        const decoded = decodeFrame(text);
        expect(decoded).toStrictEqual(byReviver(text));
        expect(JSON.stringify(decoded, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(JSON.stringify(byReviver(text), (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
      }),
    );
    const proto = decodeFrame('{"__proto__":{"$bigint":"7"},"a":[{"__proto__":{"polluted":true}}]}') as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toBe(7n);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('encodes any frame to the very text JSON.stringify with a bigint replacer gave (journals written before read the same)', () => {
    const byReplacer = (value: unknown): string | undefined => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v));
    const leaf = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }),
      fc.bigInt(),
      fc.bigInt({ min: -(1n << 256n), max: 1n << 256n }),
      fc.constantFrom(undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, 'a\u2028b', '\ud800', '"\\\n', () => 1, Symbol('s')),
      fc.date({ noInvalidDate: true }),
      fc.string({ unit: 'binary' }),
    );
    const { value: frame } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__'), fc.constant('$bigint'), fc.constant('toString')), tie('value'), { maxKeys: 5 })),
    }));
    checkProperty(
      fc.property(frame, (value) => {
        expect(encodeFrame(value)).toBe(byReplacer(value));
      }),
    );
    // A sparse array, a class instance, an object with toJSON (as Date has), boxed primitives.
    class Level {
      constructor(readonly price: bigint, readonly hidden?: string) {}
    }
    // eslint-disable-next-line no-sparse-arrays
    const odd = { sparse: [1, , 3], level: new Level(5n), custom: { toJSON: (key: string) => ({ key, n: 2n }) }, boxed: [Object(7), Object('s'), Object(false)] };
    expect(encodeFrame(odd)).toBe(byReplacer(odd));
    expect(encodeFrame(undefined)).toBe(byReplacer(undefined));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeFrame(cyclic)).toThrow(TypeError);
  });

  it('throws on malformed text so a boundary can refuse it', () => {
    expect(() => decodeFrame('{oops')).toThrow(SyntaxError);
  });

  it(`refuses nesting deeper than MAX_FRAME_DEPTH (${MAX_FRAME_DEPTH}) wherever it is, brackets inside strings not counting`, () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(decodeFrame(nested(MAX_FRAME_DEPTH))).toBeInstanceOf(Array);
    expect(() => decodeFrame(nested(MAX_FRAME_DEPTH + 1))).toThrow(FrameTooDeepError);
    expect(() => decodeFrame(nested(MAX_FRAME_DEPTH + 1))).toThrow(SyntaxError);
    expect(() => decodeFrame(nested(1_000_000))).toThrow(`deeper than ${MAX_FRAME_DEPTH} levels`);
    // Deep in a later member, after bigints before it were revived; a bigint object counts as a level.
    expect(() => decodeFrame(`{"a":{"$bigint":"1"},"b":${nested(MAX_FRAME_DEPTH)}}`)).toThrow(FrameTooDeepError);
    expect(decodeFrame(`{"a":{"$bigint":"1"},"b":${nested(MAX_FRAME_DEPTH - 1)}}`)).toEqual({ a: 1n, b: JSON.parse(nested(MAX_FRAME_DEPTH - 1)) });
    let innermost = decodeFrame(`${'['.repeat(MAX_FRAME_DEPTH - 1)}{"$bigint":"5"}${']'.repeat(MAX_FRAME_DEPTH - 1)}`);
    for (let level = 1; level < MAX_FRAME_DEPTH; level++) innermost = (innermost as unknown[])[0];
    expect(innermost).toBe(5n);
    expect(() => decodeFrame(`${'['.repeat(MAX_FRAME_DEPTH)}{"$bigint":"5"}${']'.repeat(MAX_FRAME_DEPTH)}`)).toThrow(FrameTooDeepError);
    expect(decodeFrame(JSON.stringify({ text: '[{'.repeat(MAX_FRAME_DEPTH * 2), quoted: '\\"[[' }))).toEqual({ text: '[{'.repeat(MAX_FRAME_DEPTH * 2), quoted: '\\"[[' });
  });
});
