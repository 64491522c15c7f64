// What the chart draws besides the bars: order lines (remaining quantity), leg lines (the quantity
// they close) and the position line, each labelled with side, quantity and price.
import { DEFAULT_PNL_DISPLAY } from '../../shared/positions/pnl-display';
import { describe, expect, it } from 'vitest';
import type { OrderView, PositionView, TriggerView } from '../../shared/ipc/views';
import type { PositionFigures } from '../../renderer/src/features/positions/live-figures';
import { keepUnchanged, legLines, lineAt, orderLines, positionLine, sameLine } from '../../renderer/src/features/chart/chart-lines';
import { ethUsdc, ethUsdt, positionView } from '../support/renderer/fixtures';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
const hex = (byte: string) => `0x${byte.repeat(32)}`;

const order = (fields: Partial<OrderView>): OrderView => ({
  orderId: hex('01'),
  marketId: ethUsdc.market_id,
  side: 'Buy',
  orderType: 'Spot',
  price: 2_950n * USDC,
  quantity: ETH / 50n,
  filled: 0n,
  averagePrice: 0n,
  status: 'open',
  turbo: false,
  account: hex('aa'),
  time: 0,
  ...fields,
});

const leg = (fields: Partial<TriggerView>): TriggerView => ({
  triggerId: hex('71'),
  marketId: ethUsdc.market_id,
  turbo: false,
  side: 'Sell',
  triggerPrice: 3_100n * USDC,
  kind: 'bounded',
  limitPrice: null,
  maxPrice: null,
  minPrice: null,
  quantity: null,
  parentOrderId: hex('01'),
  ocoId: hex('72'),
  direction: 'rise',
  role: 'take-profit',
  state: 'pending',
  armed: true,
  locked: 0n,
  firedOrderId: null,
  reason: null,
  time: 0,
  ...fields,
});

const position = positionView;

describe('chart lines', () => {
  it('keeps the very object of a line that did not change, and takes the new one of a line that did', () => {
    const first = orderLines(ethUsdc, false, [order({}), order({ orderId: hex('02'), price: 2_940n * USDC })]);
    // The same orders again, then the second one partly filled and a third one placed.
    const again = keepUnchanged(first, orderLines(ethUsdc, false, [order({}), order({ orderId: hex('02'), price: 2_940n * USDC })]));
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    const next = orderLines(ethUsdc, false, [order({}), order({ orderId: hex('02'), price: 2_940n * USDC, filled: ETH / 100n, status: 'partially-filled' }), order({ orderId: hex('03') })]);
    const kept = keepUnchanged(again, next);
    expect(kept[0]).toBe(first[0]);
    expect(kept[1]).toBe(next[1]);
    expect(kept[1]).toMatchObject({ label: 'Buy 0.0100 @ 2,940.00 (0.0100 filled)', quantity: ETH / 100n });
    expect(kept[2]).toBe(next[2]);
    expect(kept.map((line) => line.key)).toEqual(next.map((line) => line.key));
    // Moved price, another label or a change of the position's figures is another line.
    expect(sameLine(first[0]!, lineAt(ethUsdc, first[0]!, 2_951n * USDC))).toBe(false);
    expect(sameLine(first[0]!, { ...first[0]!, draggable: false })).toBe(false);
    expect(sameLine(first[0]!, { ...first[0]! })).toBe(true);
  });

  it('draws the resting orders of this book only, with what is left of them', () => {
    const orders = [
      order({}),
      order({ orderId: hex('02'), side: 'Sell', price: 3_050_500_000n, quantity: ETH, filled: ETH / 4n, status: 'partially-filled' }),
      order({ orderId: hex('03'), turbo: true }),
      order({ orderId: hex('04'), marketId: ethUsdt.market_id }),
      order({ orderId: hex('05'), status: 'filled', filled: ETH / 50n }),
    ];
    const lines = orderLines(ethUsdc, false, orders);
    expect(lines.map((line) => [line.id, line.price, line.label, line.draggable])).toEqual([
      [hex('01'), 2_950n * USDC, 'Buy 0.0200 @ 2,950.00', true],
      [hex('02'), 3_050_500_000n, 'Sell 0.7500 @ 3,050.50 (0.2500 filled)', true],
    ]);
    expect(orderLines(ethUsdc, true, orders).map((line) => line.id)).toEqual([hex('03')]);
    // Dragged: the label says the new price.
    expect(lineAt(ethUsdc, lines[1]!, 3_040_000_000n)).toMatchObject({ price: 3_040_000_000n, label: 'Sell 0.7500 @ 3,040.00 (0.2500 filled)' });
  });

  it('labels legs with role, side, the quantity they close, and the trigger price', () => {
    const parent = order({ filled: ETH / 100n, status: 'partially-filled' });
    const lines = legLines(ethUsdc, false, { pending: [leg({}), leg({ triggerId: hex('72'), role: 'stop-loss', triggerPrice: 2_900n * USDC, ocoId: hex('71') }), leg({ triggerId: hex('73'), parentOrderId: null, ocoId: null, quantity: ETH / 10n, role: 'stop-loss', triggerPrice: 2_800n * USDC, armed: false })], recent: [] }, [parent]);
    expect(lines.map((line) => [line.tone, line.label, line.dashed])).toEqual([
      ['tp', 'TP Sell 0.0100 @ 3,100.00', false],
      ['sl', 'SL Sell 0.0100 @ 2,900.00', false],
      ['sl', 'Stop Sell 0.1000 @ 2,800.00 · waits for its order', true],
    ]);
    // A parent not filled yet: the leg closes up to the parent's size.
    expect(legLines(ethUsdc, false, { pending: [leg({})], recent: [] }, [order({})])[0]!.label).toBe('TP Sell up to 0.0200 @ 3,100.00');
    expect(legLines(ethUsdc, true, { pending: [leg({})], recent: [] }, [])).toEqual([]);
    // The parent filled and closed: what the fills of it add up to.
    const fills = [{ orderId: hex('01'), quantity: ETH / 100n }, { orderId: hex('01'), quantity: ETH / 200n }, { orderId: hex('09'), quantity: ETH }];
    expect(legLines(ethUsdc, false, { pending: [leg({})], recent: [] }, [], fills)[0]!.label).toBe('TP Sell 0.0150 @ 3,100.00');
  });

  it('names a stop main trails, and one waiting for break-even, on its line', () => {
    const stop = leg({ triggerId: hex('74'), parentOrderId: null, ocoId: null, quantity: ETH / 10n, role: 'stop-loss', triggerPrice: 2_800n * USDC });
    const other = leg({ triggerId: hex('75'), parentOrderId: null, ocoId: null, quantity: ETH / 10n, role: 'stop-loss', triggerPrice: 2_700n * USDC });
    const managed = new Map([[hex('74'), 'trailing' as const], [hex('75'), 'break-even' as const]]);
    expect(legLines(ethUsdc, false, { pending: [stop, other], recent: [] }, [], [], managed).map((line) => line.label)).toEqual(['Trailing Stop Sell 0.1000 @ 2,800.00', 'Stop (break-even) Sell 0.1000 @ 2,700.00']);
  });

  it('names the legs of a position TP/SL main keeps sized to the position', () => {
    const takeProfit = leg({ triggerId: hex('76'), parentOrderId: null, ocoId: hex('77'), quantity: ETH / 10n, role: 'take-profit', triggerPrice: 3_200n * USDC });
    const stopLoss = leg({ triggerId: hex('77'), parentOrderId: null, ocoId: hex('76'), quantity: ETH / 10n, role: 'stop-loss', triggerPrice: 2_800n * USDC });
    const managed = new Map([[hex('76'), 'position' as const], [hex('77'), 'position' as const]]);
    expect(legLines(ethUsdc, false, { pending: [takeProfit, stopLoss], recent: [] }, [], [], managed).map((line) => line.label)).toEqual(['Position TP Sell 0.1000 @ 3,200.00', 'Position SL Sell 0.1000 @ 2,800.00']);
  });

  it('draws the position of the signing account at its average entry, not draggable, with the window\'s one P&L figure', () => {
    const positions = [
      position({ account: hex('bb'), size: ETH, averageEntry: 2_000n * USDC }),
      position({ size: -ETH / 50n, averageEntry: 3_005_125_000n, unrealized: -1_234_567n }),
    ];
    // The read's own figures (no live book), and the live mark's figures with a stale reason.
    const read = (one: PositionView): PositionFigures => ({ mark: one.mark, markSide: 'ask', unrealized: one.unrealized, unrealizedBps: -41n, unrealizedTickTenths: null, display: DEFAULT_PNL_DISPLAY, source: 'read', stale: null });
    const line = positionLine(ethUsdc, false, hex('aa'), positions, read)!;
    expect(line).toMatchObject({ kind: 'position', price: 3_005_125_000n, tone: 'short', draggable: false, dashed: true });
    expect(line.label).toBe('Short 0.0200 @ 3,005.13 · -1.23 USDC -0.41 % @ ask');
    // The market's unit and mark (ticks at the mid), named as the Positions row and the ladder's foot name them.
    const live = positionLine(ethUsdc, false, hex('aa'), positions, () => ({ mark: 1n, markSide: 'mid', unrealized: -390_000n, unrealizedBps: null, unrealizedTickTenths: -195n, display: { mark: 'mid', unit: 'ticks' }, source: 'book', stale: 'the position is being read again after a fill' }))!;
    expect(live.label).toBe('Short 0.0200 @ 3,005.13 · -0.39 USDC -19.5 ticks @ mid (stale)');
    expect(live.figures).toEqual({ size: -ETH / 50n, unrealized: -390_000n, stale: 'the position is being read again after a fill', markSide: 'mid', unit: 'ticks' });
    expect(positionLine(ethUsdc, false, hex('cc'), positions, read)).toBeNull();
    expect(positionLine(ethUsdc, true, hex('aa'), positions, read)).toBeNull();
    expect(positionLine(ethUsdc, false, hex('aa'), [position({ size: 0n, averageEntry: null })], read)).toBeNull();
  });
});
