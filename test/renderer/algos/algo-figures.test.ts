// What the Working algorithms panel shows of a parent, and the tags that mark its working
// children on the ladder and the chart.
import { describe, expect, it } from 'vitest';
import type { AlgoChildView, AlgoView } from '../../../shared/ipc/views/algos';
import { algoFigures, algoTag, childTags, compactAlgoTag, progressPermille, shortAlgoId, slippageText, tagsOf } from '../../../renderer/src/features/algos/algo-figures';
import { previewRows, previewSummary } from '../../../renderer/src/features/algos/algo-preview-text';
import { withAlgoTags, type ChartLine } from '../../../renderer/src/features/chart/chart-lines';
import { ethUsdc } from '../../support/renderer/fixtures';

const child = (orderId: string | null, status: AlgoChildView['status'], fields: Partial<AlgoChildView> = {}): AlgoChildView => ({ journalId: `j-${orderId}`, orderId, price: 3_000_000_000n, quantity: 100_000_000n, filled: 0n, status, placedAt: 1_000, ...fields });

const algo = (fields: Partial<AlgoView> = {}): AlgoView => ({
  id: 'twap-7f3a2b',
  networkId: 'local',
  account: '0xa',
  spec: { marketId: ethUsdc.market_id, turbo: false, side: 'Buy', quantity: 1_000_000_000n, limitPrice: 3_010_000_000n, params: { kind: 'twap', durationMs: 600_000, intervalMs: 30_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } } },
  state: 'running',
  reason: null,
  filled: 300_000_000n,
  remaining: 700_000_000n,
  averagePrice: 3_000_123_456n,
  arrivalPrice: 3_000_000_000n,
  slippageBps: 1n,
  counts: { open: 1, filled: 3, cancelled: 0 },
  children: [child('o1', 'filled'), child('o2', 'open'), child(null, 'signing')],
  nextAt: 72_000,
  notes: [],
  startedAt: 0,
  updatedAt: 60_000,
  ...fields,
});

describe('working algorithm figures', () => {
  it('show progress, the figures in the market precision, the state and the next slice', () => {
    const figures = algoFigures(ethUsdc, algo(), 60_000);
    expect(figures).toMatchObject({
      tag: 'TWAP 7f3a2b',
      permille: 300,
      // The cells Open orders and Positions use: the base's 4 and the quote's 2 display decimals.
      filled: '0.3000 / 1.0000 ETH',
      remaining: '0.7000 ETH',
      average: '3,000.12',
      arrival: '3,000.00',
      slippage: '+1 bps (worse)',
      children: '1 open · 3 filled · 0 cancelled',
      state: 'Running',
      reason: null,
      next: 'in 0m 12s',
    });
    expect(figures.terms).toBe('10 min in 30 s slices, limit at the touch, limit 3,010.00');
  });

  it('say why it paused, and no next slice when not running', () => {
    const paused = algoFigures(ethUsdc, algo({ state: 'paused', reason: { code: 'PRICE_LIMIT', text: 'The ask is above your limit' }, averagePrice: null, slippageBps: null }), 60_000);
    expect(paused).toMatchObject({ state: 'Paused', reason: 'The ask is above your limit (PRICE_LIMIT)', next: null, average: '—', slippage: '—' });
  });

  it('progress never passes the whole, slippage says better or worse', () => {
    expect(progressPermille(0n, 10n)).toBe(0);
    expect(progressPermille(1n, 3n)).toBe(333);
    expect(progressPermille(11n, 10n)).toBe(1000);
    expect(progressPermille(5n, 0n)).toBe(0);
    expect(slippageText(-2n)).toBe('-2 bps (better)');
    expect(slippageText(0n)).toBe('0 bps');
  });

  it('tag only the open children with an order id, each parent once per row', () => {
    // As main's notices name it: "Scale mihx3k9f-2 started".
    expect(shortAlgoId('scale-mihx3k9f-2')).toBe('mihx3k9f-2');
    expect(shortAlgoId('a1b2c3d4e5')).toBe('d4e5');
    const scale = algo({ id: 'scale-91bc', spec: { ...algo().spec, params: { kind: 'scale', from: 1n, to: 2n, count: 2, shape: { distribution: 'flat' }, postOnly: true } }, children: [child('s1', 'open'), child('s2', 'open'), child('s3', 'cancelled')] });
    const tags = childTags([algo(), scale]);
    expect([...tags.keys()].sort()).toEqual(['o2', 's1', 's2']);
    expect(algoTag(scale)).toBe('Scale 91bc');
    expect(tagsOf(['s1', 's2', 'x'], tags).map((tag) => tag.tag)).toEqual(['Scale 91bc']);
    expect(tagsOf(['o2', 's1'], tags).map((tag) => tag.tag)).toEqual(['TWAP 7f3a2b', 'Scale 91bc']);
    // Where room is short: the kind and the name's end (its counter), the full name kept for the title.
    expect(compactAlgoTag(algo({ id: 'scale-mwzsvzwf-2' }))).toBe('TWAP …-2');
    expect(compactAlgoTag(scale)).toBe('Scale 91bc');
  });

  it('mark children on the chart and keep them from being dragged', () => {
    const line = (id: string): ChartLine => ({ key: `order:${id}`, kind: 'order', id, price: 1n, side: 'Buy', tone: 'buy', label: 'Buy 0.1 @ 3,000.00', prefix: 'Buy 0.1', suffix: '', dashed: false, draggable: true, band: null });
    const [tagged, plain] = withAlgoTags([line('o2'), line('mine')], childTags([algo()]));
    expect(tagged).toMatchObject({ label: 'TWAP 7f3a2b · Buy 0.1 @ 3,000.00', prefix: 'TWAP 7f3a2b · Buy 0.1', draggable: false, algo: { id: 'twap-7f3a2b', tag: 'TWAP 7f3a2b' } });
    expect(plain).toEqual(line('mine'));
  });
});

describe('the preview of an algorithm', () => {
  it('folds equal children into one row and says the plan in a sentence', () => {
    const children = [
      { price: 3_000_000_000n, quantity: 1_700_000n },
      { price: 3_000_000_000n, quantity: 1_700_000n },
      { price: 3_000_000_000n, quantity: 1_600_000n },
      { price: 3_000_000_000n, quantity: 1_700_000n },
    ];
    expect(previewRows(children)).toEqual([
      { price: 3_000_000_000n, quantity: 1_700_000n, count: 3 },
      { price: 3_000_000_000n, quantity: 1_600_000n, count: 1 },
    ]);
    // Different prices stay rows of their own, in their order.
    expect(previewRows([{ price: 2n, quantity: 1n }, { price: 1n, quantity: 1n }]).map((row) => row.price)).toEqual([2n, 1n]);
    const spec = algo().spec;
    expect(previewSummary(ethUsdc, { spec, children, batches: 1, notes: [] })).toBe('4 slices, 0.0067 ETH in all, one about every 30 s over 10 min; sizes shown at the touch now (3,000.00 USDC).');
    const scale = { ...spec, params: { kind: 'scale' as const, from: 3_000_000_000n, to: 3_010_000_000n, count: 7, shape: { distribution: 'flat' as const }, postOnly: true } };
    expect(previewSummary(ethUsdc, { spec: scale, children: [...children, ...children.slice(0, 3)], batches: 2, notes: [] })).toBe('7 limit orders (post only), 0.0117 ETH in all, placed in 2 signed batches of at most 5.');
  });
});
