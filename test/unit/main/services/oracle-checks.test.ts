// The trader-session oracle's pure checks (test/support/trader-session/checks.ts): the margin
// risk panel, the tape and the Positions panel held to the exchange's truth. Each must pass on a
// screen that shows the truth and report a screen that shows anything else.
import { describe, expect, it } from 'vitest';
import { checkMarginRisk, checkPositions, checkTape, expectedRiskFigures, type ShownAsset } from '../../../support/trader-session/checks';
import { marginTruthOf, type MarginTruth, type TruthTrade } from '../../../support/trader-session/truth';
import type { MarginRiskScreen, PositionRow, TapeRow } from '../../../support/trader-session/screen';
import { b256 } from '../../../../shared/encoding/b256';
import type { Market } from '../../../../shared/market/market';
import { ledgerBps, ledgerEntry, ledgerPosition, ledgerUnrealized, type LedgerFill, type LedgerPosition } from '../../../support/trader-session/ledger';
import { entryText, percentText, pnlText, tickText } from '../../../../renderer/src/features/positions/positions-model';
import { pnlTickTenths } from '../../../../shared/positions/pnl-display';
import { priceTick } from '../../../../shared/market/tick';
import { formatFillFee } from '../../../../renderer/src/format/market-format';

const USDC = `0x${'9c'.repeat(32)}`;
const ETH = `0x${'ba'.repeat(32)}`;

/** ETH/USDC: ETH 9 decimals shown to 3, USDC 6 decimals shown to 2. */
const market: Market = {
  contract_id: b256(`0x${'c1'.repeat(32)}`),
  market_id: b256(`0x${'a1'.repeat(32)}`),
  base: { symbol: 'ETH', asset: b256(ETH), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: b256(USDC), decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000n,
  dust: 1_000_000n,
  price_window: 20,
};

const assets = (assetId: string): ShownAsset => (assetId === USDC ? { assetId, symbol: 'USDC', decimals: 6, shown: 2 } : { assetId, symbol: 'ETH', decimals: 9, shown: 3 });

/**
 * A prepaid session (C = 0, k = 100 USDC, cap 1,000 USDC) that drew 50 USDC and bought 0.01 ETH for
 * 20 USDC: 30 USDC and 0.01 ETH on the account; the oracle's ETH bid 1,990, ask 2,010 USDC.
 */
function wireState(change: { sequence?: string; bid?: string; usdc?: string; liquidatable?: boolean } = {}) {
  return {
    sequence: change.sequence ?? '7',
    session: { cohort: 'Turbo' as const, collateral: '0', fees: '0', quote_drawn: '50000000', expires_at: '18446744073709551615' },
    tier: {
      line: '1000000000',
      max_credit_line_bps: '10000',
      capital: '100000000',
      threshold: '0',
      open_buffer: '20000000',
      maintenance: '10000000',
      duration: '18446744073709551615',
      // A floor of 90 % of the line: 900 USDC, far above V, when the account is to be liquidatable.
      turbo: { max_loss_bps: Array(4).fill(change.liquidatable ? '1000' : '9990'), rollover_profit_bps: '0', max_rollovers: 0, term_seconds: '18446744073709551615', forfeit_collateral: true },
    },
    balances: {
      [USDC]: { on_account: change.usdc ?? '30000000', received: '0', locked: '0', settled: '0', debt: '0' },
      [ETH]: { on_account: '10000000', received: '0', locked: '0', settled: '0', debt: '0' },
    },
    prices: { [ETH]: { bid: change.bid ?? '1990000000000000000000', ask: '2010000000000000000000', decimals: 9, stale: false } },
    collateral_asset_id: USDC,
    collateral_decimals: 6,
    risk_params: { stress_band_bps: { [ETH]: '1000' }, absorption_band_bps: { [ETH]: '200' }, default_stress_band_bps: '1500', default_absorption_band_bps: '300' },
    pool: { paused: false, inventory: { [USDC]: '1000000000000', [ETH]: '1000000000000' } },
  };
}

/** The panel as it is drawn from a truth: every figure the oracle expects of it. */
function screenOf(truth: MarginTruth, change: Partial<MarginRiskScreen> = {}): MarginRiskScreen {
  const expected = expectedRiskFigures(truth.report!, truth, assets);
  return {
    freshness: 'live',
    account: 'child',
    status: 'live',
    drawn: expected.figures.drawn ?? null,
    sequence: `#${truth.sequence}`,
    figures: expected.figures,
    rule: expected.rule,
    shown: ['cohort', ...(truth.report!.health.liquidatable ? ['liquidatable'] : [])],
    cohort: 'Turbo (prepaid)',
    expiry: 'No expiry',
    assets: [...expected.assets].map(([assetId, cells]) => ({ assetId, cells })),
    ...change,
  };
}

describe('oracle: the margin risk panel', () => {
  const truth = marginTruthOf(wireState(), []);

  it('expects the spec\'s figures of the exchange\'s state, in the panel\'s display decimals, cut toward zero', () => {
    const { figures, assets: rows } = expectedRiskFigures(truth.report!, truth, assets);
    // V = H[USDC] 30 + (L 100 - Dq 50) + max(0, C + k - L) 0 + mark(0.01 ETH at the bid 1,990) 19.90 - F 0.
    expect(figures.value).toBe('99.90 USDC');
    expect(figures.equity).toBe('-0.10 USDC'); // V - k
    expect(figures.pnl).toBe('-0.10 USDC'); // equity - (C - F)
    expect(figures.line).toBe('100.00 USDC of cap 1,000.00 USDC');
    expect(figures.outstanding).toBe('50.00 USDC');
    expect(figures['loan-headroom']).toBe('50.00 USDC');
    expect(figures.drawn).toBe('50.00 USDC');
    expect(figures['net-collateral']).toBe('0.00 USDC');
    expect(rows.get(ETH)?.slice(0, 5)).toEqual(['ETH', '0.010 ETH', '0.000 ETH', '1,990.00 USDC bid', '19.90 USDC']);
  });

  it('passes a panel that shows the state it was read at', () => {
    expect(checkMarginRisk(screenOf(truth), truth, assets)).toEqual({ ok: true, how: 'equal' });
  });

  it('reports a wrong figure', () => {
    const screen = screenOf(truth);
    const verdict = checkMarginRisk({ ...screen, figures: { ...screen.figures, value: '99.91 USDC' } }, truth, assets);
    expect(verdict).toEqual({ ok: false, diff: 'value 99.91 USDC, the exchange 99.90 USDC' });
  });

  it('reports a figure rounded up instead of cut', () => {
    // 30.005 USDC on the account: V is 99.905, shown as 99.90, never 99.91.
    const odd = marginTruthOf(wireState({ usdc: '30005000' }), []);
    expect(expectedRiskFigures(odd.report!, odd, assets).figures.value).toBe('99.90 USDC');
    const screen = screenOf(odd);
    expect(checkMarginRisk({ ...screen, figures: { ...screen.figures, value: '99.91 USDC' } }, odd, assets).ok).toBe(false);
  });

  it('reports figures of an older state: the oracle price moved and the panel did not follow', () => {
    const moved = marginTruthOf(wireState({ sequence: '8', bid: '1980000000000000000000' }), []);
    const verdict = checkMarginRisk(screenOf(truth), moved, assets);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.diff).toContain('shows the state #7, the exchange is at #8');
      expect(verdict.diff).toContain('value 99.90 USDC, the exchange 99.80 USDC');
    }
    // The same figures under the new sequence number are still the old figures.
    const relabelled = checkMarginRisk({ ...screenOf(truth), sequence: '#8' }, moved, assets);
    expect(relabelled.ok).toBe(false);
  });

  it('reports a missing LIQUIDATABLE alert and a wrong asset row', () => {
    const liquidatable = marginTruthOf(wireState({ liquidatable: true }), []);
    expect(liquidatable.report!.health.liquidatable).toBe(true);
    const screen = screenOf(liquidatable);
    expect(checkMarginRisk(screen, liquidatable, assets).ok).toBe(true);
    const silent = checkMarginRisk({ ...screen, shown: ['cohort'] }, liquidatable, assets);
    expect(silent).toEqual({ ok: false, diff: 'does not say LIQUIDATABLE' });
    const rows = screen.assets.map((row) => ({ ...row, cells: row.cells.map((cell, index) => (index === 1 ? '0.020 ETH' : cell)) }));
    const wrongRow = checkMarginRisk({ ...screen, assets: rows }, liquidatable, assets);
    expect(wrongRow.ok).toBe(false);
    if (!wrongRow.ok) expect(wrongRow.diff).toContain('asset ETH shows ETH | 0.020 ETH');
  });

  it('counts the resting orders: a buy resting on the Turbo book locks quote the panel must not spend twice', () => {
    const resting = marginTruthOf(wireState(), [{ side: 'Buy', price: 1_900_000_000n, quantity: 5_000_000n, filled: 0n, market }]);
    expect(resting.snapshot!.restingOrders[ETH]).toEqual({ sellQuantity: 0n, sellQuote: 0n, buyQuantity: 5_000_000n, buyQuote: 9_500_000n });
    // A panel computed without the order shows another gross exposure.
    const verdict = checkMarginRisk(screenOf(truth), resting, assets);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.diff).toContain('exposure-headroom');
  });

  it('reports a panel with figures when the exchange has no session, and a missing "no session"', () => {
    const none = marginTruthOf({ ...wireState(), session: null, tier: null }, []);
    expect(checkMarginRisk(screenOf(truth, { sequence: '#7' }), none, assets).ok).toBe(false);
    expect(checkMarginRisk({ ...screenOf(truth), figures: {}, rule: null, assets: [], shown: ['no-session'], cohort: null, expiry: null }, none, assets)).toEqual({ ok: true, how: 'equal' });
  });

  it('reports a countdown on a session that does not expire', () => {
    expect(checkMarginRisk(screenOf(truth, { expiry: 'Expires in 6d 23h' }), truth, assets)).toEqual({ ok: false, diff: 'expiry "Expires in 6d 23h", the session does not expire' });
  });

  it('reports an unknown figure, so a new figure on the panel is not silently left unchecked', () => {
    const screen = screenOf(truth);
    const verdict = checkMarginRisk({ ...screen, figures: { ...screen.figures, leverage: '3x' } }, truth, assets);
    expect(verdict.ok).toBe(false);
  });
});

describe('oracle: the tape', () => {
  const trade = (id: number, side = 'Buy', price = 2_000_000_000n, quantity = 1_000_000n): TruthTrade => ({ tradeId: String(id), side, price, quantity, timestamp: BigInt(id) });
  const row = (t: TruthTrade): TapeRow => ({ tradeId: t.tradeId, side: t.side, price: t.price === 2_000_000_000n ? '2,000.00' : '1,999.00', quantity: '0.001' });
  const exchange = [trade(5), trade(4, 'Sell', 1_999_000_000n), trade(3), trade(2), trade(1)];

  it('passes the exchange\'s newest trades in its order, a shorter tape included', () => {
    expect(checkTape(exchange.map(row), exchange, exchange, market)).toEqual({ ok: true, how: 'equal' });
    expect(checkTape(exchange.slice(0, 2).map(row), exchange, exchange, market)).toEqual({ ok: true, how: 'equal' });
    // A trade between the reads: the tape may show it or not yet.
    const later = [trade(6), ...exchange];
    expect(checkTape(later.map(row), exchange, later, market).ok).toBe(true);
    expect(checkTape(exchange.map(row), exchange, later, market).ok).toBe(true);
  });

  it('reports a tape behind the exchange', () => {
    const verdict = checkTape(exchange.slice(1).map(row), exchange, exchange, market);
    expect(verdict).toEqual({ ok: false, diff: 'newest row is trade 4, the exchange already had 5 (1 newer) before the screen was read' });
  });

  it('reports a wrong side, price or size, a trade left out, and two trades swapped', () => {
    const rows = exchange.map(row);
    expect(checkTape([{ ...rows[0]!, side: 'Sell' }, ...rows.slice(1)], exchange, exchange, market).ok).toBe(false);
    expect(checkTape([{ ...rows[0]!, price: '2,001.00' }, ...rows.slice(1)], exchange, exchange, market).ok).toBe(false);
    expect(checkTape([{ ...rows[0]!, quantity: '0.002' }, ...rows.slice(1)], exchange, exchange, market).ok).toBe(false);
    const gap = checkTape([rows[0]!, rows[2]!, rows[3]!], exchange, exchange, market);
    expect(gap).toEqual({ ok: false, diff: "row 2 shows 3 Buy 2,000.00 × 0.001, the exchange's trade there is 4 Sell 1,999.00 × 0.001" });
    expect(checkTape([rows[0]!, rows[2]!, rows[1]!, rows[3]!], exchange, exchange, market).ok).toBe(false);
  });

  it('reports an empty tape over a book that traded, and a trade the exchange does not have', () => {
    expect(checkTape([], exchange, exchange, market).ok).toBe(false);
    expect(checkTape([], [], [], market)).toEqual({ ok: true, how: 'empty' });
    expect(checkTape([{ tradeId: '99', side: 'Buy', price: '2,000.00', quantity: '0.001' }], exchange, exchange, market).ok).toBe(false);
  });
});

describe('oracle: positions of the trading account and of the Turbo Account', () => {
  /** A position of `size` with no money figures beyond its size (its fills had no fee, no close). */
  const flatMoney = (size: bigint, basis = 0n): LedgerPosition => ({ size, basis, realized: 0n, released: 0n, feesBase: 0n, feesQuote: 0n, fills: 1 });
  const sizes = (entries: [string, bigint][]) => new Map(entries.map(([key, size]) => [key, flatMoney(size, size < 0n ? -size : size)]));
  const marketOf = () => market;
  const rows: PositionRow[] = [rowOf('m1', false, 'TRADE', flatMoney(5000n, 5000n), null), rowOf('m1', true, 'child', flatMoney(-300n, 300n), null)];

  it('passes the sizes the exchange\'s fills give, each account on its own', () => {
    expect(checkPositions(rows, 'trade', sizes([['m1', 5000n]]), marketOf)).toEqual({ ok: true, how: 'equal' });
    expect(checkPositions(rows, 'child', sizes([['m1:turbo', -300n]]), marketOf, (key) => key.endsWith(':turbo'))).toEqual({ ok: true, how: 'equal' });
  });

  it('reports a wrong size, a missing position and one the exchange does not have', () => {
    expect(checkPositions(rows, 'child', sizes([['m1:turbo', -600n]]), marketOf)).toEqual({ ok: false, diff: 'position m1:turbo shows -300, exchange -600' });
    expect(checkPositions(rows, 'child', sizes([['m1:turbo', -300n], ['m2:turbo', 10n]]), marketOf).ok).toBe(false);
    expect(checkPositions(rows, 'child', new Map(), marketOf).ok).toBe(false);
    // No row and no position: empty, not "equal".
    expect(checkPositions([], 'child', new Map(), marketOf)).toEqual({ ok: true, how: 'empty' });
    expect(checkPositions([], 'child', sizes([['m1:turbo', -300n]]), marketOf).ok).toBe(false);
  });

  it('holds a remainder no order can close like any position: it must be listed', () => {
    const both = sizes([['m1:turbo', -300n], ['m2:turbo', 3n]]);
    expect(checkPositions(rows, 'child', both, marketOf)).toEqual({ ok: false, diff: 'position m2:turbo missing (exchange: 3)' });
  });
});

describe('oracle: the Positions panel\'s money columns against the oracle\'s own accounting of the fills', () => {
  // On ETH/USDC (ETH 9 decimals): 1 ETH bought at 2,000 (fee 0.0025 ETH), 0.5 sold at 2,100 (fee
  // 2.625 USDC), then 0.6 sold at 2,000 (fee 3 USDC), crossing to a short.
  let at = 0n;
  const fill = (side: 'Buy' | 'Sell', price: bigint, quantity: bigint, fee: bigint): LedgerFill => ({ side, price, quantity, fee, timestamp: (at += 1n), orderId: `0x0${at}`, index: 0 });
  const fills = [fill('Buy', 2_000_000_000n, 1_000_000_000n, 2_500_000n), fill('Sell', 2_100_000_000n, 500_000_000n, 2_625_000n), fill('Sell', 2_000_000_000n, 600_000_000n, 3_000_000n)];
  const afterPartial = ledgerPosition(fills.slice(0, 2), 9);
  const afterCross = ledgerPosition(fills, 9);
  const key = market.market_id;
  const check = (row: PositionRow, position: LedgerPosition) => checkPositions([row], 'trade', new Map([[key, position]]), () => market);
  const bid = 2_090_000_000n;
  const ask = 2_010_000_000n;

  it('passes a row whose entry, realized, fees and unrealized (at its own mark) are the fills\' to the raw unit', () => {
    const long = rowOf(key, false, 'TRADE', afterPartial, { price: bid, side: 'bid' });
    expect(long.raw).toMatchObject({ entry: '2005012533', realized: '44868735', feesBase: '2500000', feesQuote: '2625000', unrealized: String(1_039_775_000n - 997_493_735n) });
    expect(long.text).toMatchObject({ entry: '2,005.01', realized: '+44.86', fees: '0.0025 ETH + 2.625 USDC' });
    expect(check(long, afterPartial)).toEqual({ ok: true, how: 'equal' });
    const short = rowOf(key, false, 'TRADE', afterCross, { price: ask, side: 'ask' });
    expect(short.raw).toMatchObject({ entry: '1995000000', realized: '39887500', realizedBps: '199', unrealized: '-1537500', unrealizedBps: '-75', feesQuote: '5625000' });
    expect(check(short, afterCross)).toEqual({ ok: true, how: 'equal' });
    // No mark (the exit side of the book is empty): no unrealized figure, the rest still held.
    expect(check(rowOf(key, false, 'TRADE', afterCross, null), afterCross)).toEqual({ ok: true, how: 'equal' });
  });

  it('FAILS an average entry one raw unit off (the text alike or not)', () => {
    const row = rowOf(key, false, 'TRADE', afterPartial, { price: bid, side: 'bid' });
    const verdict = check({ ...row, raw: { ...row.raw, entry: '2005012532' } }, afterPartial);
    expect(verdict).toEqual({ ok: false, diff: 'position 0xa1a1a1a1a1 average entry (raw) "2005012532", the exchange\'s fills give "2005012533"' });
    // An entry floored instead of rounded, all through the row.
    const floored = rowOf(key, false, 'TRADE', { ...afterPartial }, { price: bid, side: 'bid' }, { entry: 2_005_012_532n });
    expect(check(floored, afterPartial).ok).toBe(false);
    expect(check({ ...row, text: { ...row.text, entry: '2,005.02' } }, afterPartial).ok).toBe(false);
  });

  it('FAILS a missing fee (one sale\'s fee left out of the fees, or a buy\'s fee in base left out)', () => {
    const row = rowOf(key, false, 'TRADE', afterCross, { price: ask, side: 'ask' });
    const missingSaleFee = rowOf(key, false, 'TRADE', { ...afterCross, feesQuote: 2_625_000n }, { price: ask, side: 'ask' });
    expect(check(missingSaleFee, afterCross)).toMatchObject({ ok: false, diff: expect.stringContaining('fees in quote (raw) "2625000", the exchange\'s fills give "5625000"') });
    expect(check({ ...row, raw: { ...row.raw, feesBase: '0' }, text: { ...row.text, fees: '5.62 USDC' } }, afterCross).ok).toBe(false);
    // The fee left out of the accounting itself: the sale's quote counted gross.
    const gross = ledgerPosition([fills[0]!, { ...fills[1]!, fee: 0n }], 9);
    const grossRow = rowOf(key, false, 'TRADE', { ...gross, feesQuote: 2_625_000n }, { price: bid, side: 'bid' });
    expect(check(grossRow, afterPartial)).toMatchObject({ ok: false, diff: expect.stringContaining('realized P&L (raw) "47493735", the exchange\'s fills give "44868735"') });
  });

  it('FAILS the realized figure of a partial close done another way (released rounded up, by gross quantity, no %)', () => {
    // The basis released rounded up instead of floored: one raw unit less realized.
    const roundedUp = rowOf(key, false, 'TRADE', { ...afterPartial, realized: afterPartial.realized - 1n, basis: afterPartial.basis + 1n }, { price: bid, side: 'bid' });
    expect(check(roundedUp, afterPartial).ok).toBe(false);
    // The basis released in proportion to the gross quantity bought (1 ETH), not the base received (0.9975 ETH).
    const gross = rowOf(key, false, 'TRADE', { ...afterPartial, realized: 1_047_375_000n - 1_000_000_000n, basis: 1_000_000_000n, released: 1_000_000_000n }, { price: bid, side: 'bid' });
    expect(check(gross, afterPartial)).toMatchObject({ ok: false, diff: expect.stringContaining('realized P&L (raw) "47375000", the exchange\'s fills give "44868735"') });
    // The realized % left at zero.
    const row = rowOf(key, false, 'TRADE', afterPartial, { price: bid, side: 'bid' });
    expect(check({ ...row, raw: { ...row.raw, realizedBps: '' }, text: { ...row.text, realizedPercent: '' } }, afterPartial).ok).toBe(false);
  });

  it('FAILS an unrealized figure that is not the row\'s own mark\'s, or a mark on the wrong side', () => {
    const row = rowOf(key, false, 'TRADE', afterCross, { price: ask, side: 'ask' });
    // The short valued with its owed value floored (in its favour): one raw unit.
    expect(check({ ...row, raw: { ...row.raw, unrealized: '-1537499' } }, afterCross).ok).toBe(false);
    // A short marked at the bid.
    expect(check(rowOf(key, false, 'TRADE', afterCross, { price: ask, side: 'bid' }), afterCross).ok).toBe(false);
    // A flat row with a mark, and an unrealized figure without one.
    expect(check({ ...row, raw: { ...row.raw, mark: '', markSide: '' } }, afterCross).ok).toBe(false);
  });

  it('holds a row marked where its market chose (the mid, in ticks) and FAILS a name or a unit figure that is not the choice\'s', () => {
    const mid = (ask + ask - 10_000n) / 2n + 1n;
    const base = rowOf(key, false, 'TRADE', afterCross, { price: mid, side: 'ask' });
    const unrealized = ledgerUnrealized(afterCross, mid, 9);
    const ticks = tickText(pnlTickTenths(unrealized, afterCross.size, 10n ** 9n, priceTick(market)));
    const row = { ...base, raw: { ...base.raw, markSide: 'mid', markChoice: 'mid', pnlUnit: 'ticks' }, text: { ...base.text, unrealizedUnit: ticks } };
    expect(check(row, afterCross)).toEqual({ ok: true, how: 'equal' });
    // The percent shown where the market chose ticks; a mid named where the market chose the exit side.
    expect(check({ ...row, text: { ...row.text, unrealizedUnit: base.text.unrealizedUnit } }, afterCross).ok).toBe(false);
    expect(check({ ...row, raw: { ...row.raw, markChoice: 'exit' } }, afterCross).ok).toBe(false);
    // Where the window has no live frame of the book, the read's exit mark stands in, named as the ask.
    expect(check({ ...base, raw: { ...base.raw, markChoice: 'mid' } }, afterCross)).toEqual({ ok: true, how: 'equal' });
  });

  it('holds a flat row shown under "closed": its realized P&L and fees', () => {
    const closed = ledgerPosition([...fills, fill('Buy', 2_000_000_000n, 102_500_000n, 0n)], 9);
    expect(closed.size).toBe(0n);
    const row = rowOf(key, false, 'TRADE', closed, null);
    expect(row.text.entry).toBe('');
    expect(check(row, closed)).toEqual({ ok: true, how: 'equal' });
    expect(check({ ...row, raw: { ...row.raw, realized: '0' } }, closed).ok).toBe(false);
  });
});

/**
 * A Positions row as the panel draws a position: the raw `data-*` figures and the cells' text (the
 * app's own formatters), from the oracle's accounting of it and the mark the row shows.
 */
function rowOf(marketId: string, turbo: boolean, account: string, position: LedgerPosition, mark: { price: bigint; side: 'bid' | 'ask' } | null, change: { entry?: bigint } = {}): PositionRow {
  const entry = change.entry ?? ledgerEntry(position, 9);
  const unrealized = mark === null ? null : ledgerUnrealized(position, mark.price, 9);
  const unrealizedBps = unrealized === null ? null : ledgerBps(unrealized, position.basis);
  const realizedBps = ledgerBps(position.realized, position.released);
  return {
    marketId,
    turbo,
    account,
    size: position.size.toString(),
    raw: {
      entry: entry?.toString() ?? '',
      mark: mark?.price.toString() ?? '',
      markSide: mark?.side ?? '',
      markChoice: 'exit',
      pnlUnit: 'percent',
      unrealized: unrealized?.toString() ?? '',
      unrealizedBps: unrealizedBps?.toString() ?? '',
      realized: position.realized.toString(),
      realizedBps: realizedBps?.toString() ?? '',
      feesBase: position.feesBase.toString(),
      feesQuote: position.feesQuote.toString(),
    },
    text: {
      entry: entry === null ? '' : entryText(market, entry),
      unrealized: unrealized === null ? '' : pnlText(market, unrealized),
      unrealizedUnit: percentText(unrealizedBps),
      realized: pnlText(market, position.realized),
      realizedPercent: percentText(realizedBps),
      fees: [...(position.feesBase > 0n ? [formatFillFee(market, 'Buy', position.feesBase)] : []), ...(position.feesQuote > 0n ? [formatFillFee(market, 'Sell', position.feesQuote)] : [])].join(' + '),
    },
  };
}
