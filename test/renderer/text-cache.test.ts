import { describe, expect, it } from 'vitest';
import { createTextCache } from '../../renderer/src/format/text-cache';

describe('createTextCache', () => {
  it('formats each value once and answers the same text after', () => {
    const calls: bigint[] = [];
    const text = createTextCache((value) => {
      calls.push(value);
      return `v${value}`;
    });
    expect([text(1n), text(2n), text(1n), text(2n)]).toEqual(['v1', 'v2', 'v1', 'v2']);
    expect(calls).toEqual([1n, 2n]);
  });

  it('stays bounded: past its limit it starts over, and still answers right', () => {
    const calls: bigint[] = [];
    const text = createTextCache((value) => {
      calls.push(value);
      return String(value);
    }, 2);
    for (const value of [1n, 2n, 3n, 1n]) expect(text(value)).toBe(String(value));
    expect(calls).toEqual([1n, 2n, 3n, 1n]);
  });
});
