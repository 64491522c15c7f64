// The positions panel's text: the market's own decimals, thousands separators, decimal points
// lined up across a column, P&L cut (never rounded up) and signed, the flatten sentence.
import { describe, expect, it } from 'vitest';
import type { PositionView } from '../../shared/ipc/views';
import { alignDecimals, entryText, flattenLines, percentText, pnlText, signedSizeText } from '../../renderer/src/features/positions/positions-model';
import { ethUsdc, positionView } from '../support/renderer/fixtures';

const position = (fields: Partial<PositionView>): PositionView => positionView({ account: `0xbd58${'0'.repeat(56)}269f`, ...fields });

describe('positions text', () => {
  it('lines decimal points up with figure spaces', () => {
    expect(alignDecimals(['1.5', '12.25', '3', '—'])).toEqual(['1.5\u2007', '12.25', '3\u2007\u2007\u2007', '—\u2007\u2007\u2007']);
    expect(alignDecimals(['1', '2'])).toEqual(['1', '2']);
  });

  it('shows sizes with at least the market precision, every raw unit kept, signed', () => {
    expect(signedSizeText(ethUsdc, 30_982_250n)).toBe('+0.03098225');
    expect(signedSizeText(ethUsdc, 50_000_000n)).toBe('+0.0500');
    expect(signedSizeText(ethUsdc, -1_500_000_000n)).toBe('-1.5000');
  });

  it('cuts P&L toward zero to the quote precision and signs gains', () => {
    expect(pnlText(ethUsdc, 1_234_567_890n)).toBe('+1,234.56');
    expect(pnlText(ethUsdc, -70_001n)).toBe('-0.07');
    expect(pnlText(ethUsdc, 4_999n)).toBe('0.00');
  });

  it('rounds the average entry half away from zero to the quote precision', () => {
    expect(entryText(ethUsdc, 3_003_867_247n)).toBe('3,003.87');
    expect(entryText(ethUsdc, 3_003_864_999n)).toBe('3,003.86');
  });

  it('writes percentages from basis points', () => {
    expect(percentText(491n)).toBe('+4.91 %');
    expect(percentText(-27n)).toBe('-0.27 %');
    expect(percentText(null)).toBe('');
  });

  it('says what a flatten sends, on which book, and who signs when asked', () => {
    const lines = flattenLines(ethUsdc, position({ size: 50_000_000n, mark: 2_996_970_000n, markSide: 'bid' }), true);
    expect(lines).toEqual(['Sell 0.05 ETH on ETH/USDC, Canonical book, at market, no worse than 1 % below the bid of 2,996.97 USDC · signed by Trading account 0xbd58…269f']);
    expect(flattenLines(ethUsdc, position({ size: -50_000_000n, turbo: true, accountKind: 'turbo-account', mark: 3_000_000_000n }), false)[0]).toMatch(/^Buy 0\.05 ETH on ETH\/USDC, Turbo book, at market, no worse than 1 % above the ask/);
  });

  it('states the size floored to the step that will sell, and the remainder no order can close', () => {
    // 0.044172755 ETH bought with its fee in base: 0.0441 sells, 0.000072755 stays.
    const lines = flattenLines(ethUsdc, position({ size: 44_172_755n, mark: 3_000_000_000n, markSide: 'bid' }), false);
    expect(lines[0]).toMatch(/^Sell 0\.0441 ETH on ETH\/USDC, Canonical book/);
    expect(lines[1]).toBe('This leaves 0.000072755 ETH, below the 0.0001 ETH size step: no order can close it; it stays listed in Positions as a remainder.');
  });

  it('says no order is sent for a position no order can close', () => {
    expect(flattenLines(ethUsdc, position({ size: 72_755n, mark: 3_000_000_000n, markSide: 'bid' }), false)).toEqual([
      'No order on ETH/USDC, Canonical book: 0.000072755 ETH is below the 0.0001 ETH size step: no order can close it',
    ]);
  });
});
