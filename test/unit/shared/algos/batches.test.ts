import { describe, expect, it } from 'vitest';
import { packBatches } from '../../../../shared/algos/batches';

describe('batches', () => {
  it('packs items in order into batches of at most five (the spec\'s cap), none empty', () => {
    const items = Array.from({ length: 12 }, (_, index) => index);
    expect(packBatches(items)).toEqual([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]);
    expect(packBatches(items.slice(0, 5))).toEqual([[0, 1, 2, 3, 4]]);
    expect(packBatches([])).toEqual([]);
    expect(packBatches(items.slice(0, 3), 2)).toEqual([[0, 1], [2]]);
  });

  it('a batch of no items is a bug', () => {
    expect(() => packBatches([1], 0)).toThrow('at least one item');
  });
});
