// The algorithms' own table: every kind of the contract has a name, a line of help and parameters
// the ticket can ask for; only chase is offered from the ladder; the parameters shown follow the
// choices made.
import { describe, expect, it } from 'vitest';
import { ALGO_KIND_TABLE, ALGO_KINDS, algoLabel, initialTexts, LADDER_ALGO_KINDS, parameterShown } from '../../../../shared/algos/algo-kinds';

describe('the algorithms table', () => {
  it('names every kind, with help and parameters, in the ticket order', () => {
    expect(ALGO_KINDS).toEqual(['twap', 'scale', 'iceberg', 'chase']);
    expect(ALGO_KINDS.map(algoLabel)).toEqual(['TWAP', 'Scale', 'Iceberg', 'Chase']);
    for (const kind of ALGO_KINDS) {
      const spec = ALGO_KIND_TABLE[kind];
      expect(spec.help).not.toBe('');
      expect(spec.parameters.length).toBeGreaterThan(0);
      expect(new Set(spec.parameters.map((parameter) => parameter.name)).size).toBe(spec.parameters.length);
      for (const parameter of spec.parameters) {
        if (parameter.kind === 'choice') expect(parameter.choices?.map((choice) => choice.value)).toContain(parameter.initial);
        if (parameter.shownWhen) expect(spec.parameters.map((other) => other.name)).toContain(parameter.shownWhen.name);
      }
    }
  });

  it('offers chase only from the ladder', () => {
    expect(LADDER_ALGO_KINDS).toEqual(['chase']);
  });

  it('asks for a parameter only while the choice it depends on is made and shown', () => {
    const parameter = (kind: 'twap' | 'scale', name: string) => ALGO_KIND_TABLE[kind].parameters.find((candidate) => candidate.name === name)!;
    const twap = initialTexts('twap');
    expect(parameterShown('twap', parameter('twap', 'slippage'), twap)).toBe(false);
    expect(parameterShown('twap', parameter('twap', 'slippage'), { ...twap, slice: 'market' })).toBe(true);
    const scale = initialTexts('scale');
    expect(parameterShown('scale', parameter('scale', 'curve'), scale)).toBe(false);
    // A geometric curve left from before does not bring the ratio back under flat sizes.
    expect(parameterShown('scale', parameter('scale', 'ratio'), { ...scale, curve: 'geometric' })).toBe(false);
    expect(parameterShown('scale', parameter('scale', 'ratio'), { ...scale, distribution: 'increasing', curve: 'geometric' })).toBe(true);
  });
});
