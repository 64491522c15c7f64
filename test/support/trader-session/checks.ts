// Pure checks of the trader-session oracle: each takes what one panel shows (read from the page by
// screen.ts) and the exchange's truth (read over REST by truth.ts) and says whether the panel shows
// that truth, with the difference when it does not. No reads here: the oracle (oracle.ts) reads,
// samples again within its bound, and accepts a visible stale/resyncing mark instead. Unit tests:
// test/unit/main/services/oracle-checks.test.ts. Invariants: docs/reliability.md.
import type { Market } from '../../../shared/market/market';
import { NO_EXPIRY, type RiskReport } from '../../../shared/margin/index';
import { formatUnits } from '../../../renderer/src/format/units';
import { priceCell, quantityCell } from '../../../renderer/src/format/columns';
import type { MarginRiskScreen, PositionRow, TapeRow } from './screen';
import { ledgerBps, ledgerEntry, ledgerUnrealized, type LedgerPosition } from './ledger';
import { bpsText, entryText, percentText, pnlText, tickText } from '../../../renderer/src/features/positions/positions-model';
import { pnlTickTenths } from '../../../shared/positions/pnl-display';
import { priceTick } from '../../../shared/market/tick';
import { formatFillFee } from '../../../renderer/src/format/market-format';
import type { MarginTruth, TruthTrade } from './truth';

export type Verdict = { ok: true; how: 'equal' | 'marked' | 'empty' | 'absent' } | { ok: false; diff: string };

export const EQUAL: Verdict = { ok: true, how: 'equal' };
export const MARKED: Verdict = { ok: true, how: 'marked' };
export const ABSENT: Verdict = { ok: true, how: 'absent' };
export const EMPTY: Verdict = { ok: true, how: 'empty' };
export const differs = (diff: string): Verdict => ({ ok: false, diff });

/** An asset as the margin panel names it and the decimals it shows it with. */
export interface ShownAsset {
  readonly assetId: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Display decimals (renderer/src/features/margin/margin-format.ts `displayDecimalsOf`). */
  readonly shown: number;
  /** The price precision of this asset in each quote it has a market in (quote asset id → its max_precision there). */
  readonly priceShown?: ReadonlyMap<string, number>;
}

/** "1,234.50 USDC": the raw amount cut toward zero to the display decimals (never rounded up). */
export function moneyText(raw: bigint, asset: ShownAsset): string {
  return `${formatUnits(raw, asset.decimals, asset.shown, asset.shown)} ${asset.symbol}`;
}

/** "0.00008389 ETH": a holding or a debt, at least the display decimals and every digit it has (never cut). */
export function holdingText(raw: bigint, asset: ShownAsset): string {
  return `${formatUnits(raw, asset.decimals, asset.shown)} ${asset.symbol}`;
}

const signedText = (raw: bigint, asset: ShownAsset) => `${raw > 0n ? '+' : ''}${moneyText(raw, asset)}`;

/**
 * An oracle price (1e18 scale) of one whole unit of `asset`, as the market of that pair shows its
 * prices (ETH in USDC as the ETH/USDC ladder), else in the collateral's display decimals.
 */
function priceText(price: bigint, collateral: ShownAsset, asset: ShownAsset): string {
  const shown = Math.min(18, asset.priceShown?.get(collateral.assetId) ?? collateral.shown);
  return `${formatUnits(price, 18, shown, shown)} ${collateral.symbol}`;
}

/**
 * Every figure the margin risk panel shows, as the exchange's state makes it: the grid (by testid
 * suffix), the health-rule line and each asset row's cells. Written from the spec's quantities
 * (RiskReport of the truth's own snapshot), independently of the panel's code.
 */
export function expectedRiskFigures(report: RiskReport, truth: MarginTruth, asset: (assetId: string) => ShownAsset): { figures: Record<string, string>; rule: string; assets: Map<string, string[]> } {
  const collateral = asset(truth.collateralAssetId);
  const show = (raw: bigint) => moneyText(raw, collateral);
  const signed = (raw: bigint) => signedText(raw, collateral);
  const health = report.health;
  const figures: Record<string, string> = {
    value: show(report.accountValue),
    equity: signed(report.traderEquity),
    pnl: signed(report.tradingPnl),
    line: `${show(report.creditLine)} of cap ${show(report.lineCap)}`,
    outstanding: show(report.outstanding),
    'loan-headroom': show(report.loanHeadroom),
    drawable: show(report.drawableQuote),
    'buy-capacity': show(report.buyCapacity),
    'exposure-headroom': `${show(report.exposureHeadroom)} gross ${show(report.exposure.gross)} (${report.exposure.pass.toLowerCase().replace('_', ' ')})`,
    spendable: show(report.spendableCash),
    threshold: show(health.threshold),
    'distance-threshold': signed(health.distanceToThreshold),
    'freeze-line': show(health.freezeLine),
    'distance-freeze': signed(health.distanceToFreeze),
    drawn: show(truth.snapshot?.session.quoteDrawn ?? 0n),
    'net-collateral': show(report.netCollateral),
  };
  const rule = `Health rule ${health.rule.toLowerCase().replace('_', ' ')}${health.lossFloor === null ? '' : `, loss floor ${show(health.lossFloor)}`}, absorption cost ${show(health.absorptionCost)}, withdrawable value ${show(health.giveawayAllowance)}`;
  const assets = new Map<string, string[]>();
  for (const entry of report.assets) {
    const ref = asset(entry.assetId);
    const mark = entry.position < 0n ? { price: entry.ask, side: 'ask' } : { price: entry.bid, side: 'bid' };
    const borrowable = moneyText(entry.borrowable.amountWithoutReturn, ref);
    const returning = entry.borrowable.amount > entry.borrowable.amountWithoutReturn ? ` (up to ${moneyText(entry.borrowable.amount, ref)} returning ${show(report.returnableQuote)} first)` : '';
    assets.set(entry.assetId, [
      `${ref.symbol}${entry.stale ? ' stale' : ''}`,
      holdingText(entry.position, ref),
      holdingText(entry.debt, ref),
      `${priceText(mark.price, collateral, ref)} ${mark.side}`,
      show(entry.mark),
      `${priceText(entry.bid, collateral, ref)} / ${priceText(entry.ask, collateral, ref)}`,
      `${borrowable}${returning}`,
    ]);
  }
  return { figures, rule, assets };
}

/**
 * The margin risk panel of a Turbo Account against the exchange's margin truth of the same moment:
 * the state's sequence, every figure of the grid, the health-rule line, the liquidatable / frozen /
 * stale-price / pool-paused alerts, the cohort, and every asset row (position, debt, mark price,
 * position value, oracle bid/ask, borrowable). Exact text, in the panel's display decimals: no
 * tolerance (a figure that moves with the market is compared at the sequence it is shown for).
 * A panel not live passes only by its mark, which the caller judges first.
 */
export function checkMarginRisk(panel: MarginRiskScreen, truth: MarginTruth | null, asset: (assetId: string) => ShownAsset): Verdict {
  if (truth === null) return differs('the exchange gave no consistent margin state to compare with (read again)');
  const problems: string[] = [];
  const want = `#${truth.sequence}`;
  if (panel.sequence !== want) problems.push(`shows the state ${panel.sequence ?? '(none)'}, the exchange is at ${want}`);
  const has = (name: string) => panel.shown.includes(name);
  if (truth.snapshot === null) {
    if (!has('no-session')) problems.push('does not say there is no session, the exchange has none');
    if (Object.keys(panel.figures).length > 0) problems.push(`shows ${Object.keys(panel.figures).length} risk figures without a session`);
    return problems.length === 0 ? EQUAL : differs(problems.join('; '));
  }
  if (has('no-session')) problems.push('says there is no session, the exchange has one');
  // The countdown itself moves with the clock: only whether the session expires is held.
  const noExpiry = truth.snapshot.session.expiresAt === NO_EXPIRY;
  if (noExpiry ? panel.expiry !== 'No expiry' : !(panel.expiry ?? '').startsWith('Expires in ')) problems.push(`expiry "${panel.expiry ?? '(none)'}", the session ${noExpiry ? 'does not expire' : `expires at ${truth.snapshot.session.expiresAt}`}`);
  const cohortText = truth.cohort === null ? null : truth.cohort === 'Turbo' ? 'Turbo (prepaid)' : 'Legacy';
  if (panel.cohort !== cohortText) problems.push(`cohort ${panel.cohort ?? '(none)'}, the exchange ${cohortText ?? '(none)'}`);
  if (has('pool-paused') !== truth.poolPaused) problems.push(truth.poolPaused ? 'does not say the pool is paused' : 'says the pool is paused, it is not');
  if (has('stale-prices') !== truth.stalePrices.length > 0) problems.push(truth.stalePrices.length > 0 ? `does not say the oracle price of ${truth.stalePrices.join(', ')} is stale` : 'says an oracle price is stale, none is');
  const report = truth.report;
  if (report === null) {
    if (!has('problem')) problems.push(`shows no problem, the exchange's state cannot be valued (${truth.problem ?? '?'})`);
    if (Object.keys(panel.figures).length > 0) problems.push('shows risk figures the state cannot give');
    return problems.length === 0 ? EQUAL : differs(problems.join('; '));
  }
  if (has('liquidatable') !== report.health.liquidatable) problems.push(report.health.liquidatable ? 'does not say LIQUIDATABLE' : 'says LIQUIDATABLE, the account is not');
  const frozen = report.health.frozen && !report.health.liquidatable;
  if (has('frozen') !== frozen) problems.push(frozen ? 'does not say FROZEN' : 'says FROZEN, the account is not');
  if (has('rollover') !== (report.rollover !== null)) problems.push(report.rollover !== null ? 'shows no rollover progress, the session has one' : 'shows rollover progress, the session has none');
  const expected = expectedRiskFigures(report, truth, asset);
  for (const [name, text] of Object.entries(expected.figures)) {
    const shown = panel.figures[name];
    if (shown !== text) problems.push(`${name} ${shown ?? '(not shown)'}, the exchange ${text}`);
  }
  for (const name of Object.keys(panel.figures)) if (!(name in expected.figures)) problems.push(`shows a figure "${name}" the oracle does not know (add it to expectedRiskFigures)`);
  if (panel.rule !== expected.rule) problems.push(`rule line "${panel.rule ?? '(not shown)'}", the exchange "${expected.rule}"`);
  const rows = new Map(panel.assets.map((row) => [row.assetId, row.cells.join(' | ')]));
  for (const [assetId, cells] of expected.assets) {
    const shown = rows.get(assetId);
    const text = cells.join(' | ');
    if (shown === undefined) problems.push(`asset ${cells[0]} missing (exchange: ${text})`);
    else if (shown !== text) problems.push(`asset ${cells[0]} shows ${shown}, the exchange ${text}`);
  }
  for (const assetId of rows.keys()) if (!expected.assets.has(assetId)) problems.push(`asset ${assetId.slice(0, 10)} shown but not in the exchange's state`);
  return problems.length === 0 ? EQUAL : differs(problems.slice(0, 8).join('; ') + (problems.length > 8 ? `; … ${problems.length - 8} more` : ''));
}

/**
 * The tape of a book against the exchange's newest trades (GET /v1/trades), read once before the
 * screen was read (`before`) and once after (`after`): the tape's newest row is at least as new as
 * the exchange's newest before the screen was read, and its rows, from the top, are the exchange's
 * trades in the exchange's order with no trade left out or added, each with the same side, price
 * and size. (A tape may show fewer trades than the page, never different or reordered ones.)
 */
export function checkTape(rows: readonly TapeRow[], before: readonly TruthTrade[], after: readonly TruthTrade[], market: Market): Verdict {
  if (rows.length === 0) return before.length === 0 ? EMPTY : differs(`shows no trades, the exchange has ${before.length}, newest ${before[0]!.tradeId}`);
  const top = rows[0]!;
  const start = after.findIndex((trade) => trade.tradeId === top.tradeId);
  if (start < 0) return differs(`newest row is trade ${top.tradeId}, not among the exchange's newest ${after.length} (newest ${after[0]?.tradeId ?? 'none'})`);
  const newestBefore = before[0];
  if (newestBefore !== undefined) {
    const beforeAt = after.findIndex((trade) => trade.tradeId === newestBefore.tradeId);
    if (beforeAt < 0 || start > beforeAt) return differs(`newest row is trade ${top.tradeId}, the exchange already had ${newestBefore.tradeId} (${beforeAt < 0 ? 'older than its page' : `${start - beforeAt} newer`}) before the screen was read`);
  }
  // The first row that differs is reported (after a trade left out, every later row is shifted).
  for (let index = 0; index < rows.length && start + index < after.length; index++) {
    const row = rows[index]!;
    const trade = after[start + index]!;
    const want = `${trade.tradeId} ${trade.side} ${priceCell(market, trade.price)} × ${quantityCell(market, trade.quantity)}`;
    const got = `${row.tradeId} ${row.side} ${row.price} × ${row.quantity}`;
    if (got !== want) return differs(`row ${index + 1} shows ${got}, the exchange's trade there is ${want}`);
  }
  return EQUAL;
}

/**
 * One account's positions in the Positions panel, each held to the oracle's own accounting of the
 * exchange's fills (ledger.ts, docs/protocol.md "Positions and P&L"): on each book its size (raw
 * base, `data-size`), average entry, realized P&L and its %, and the fees paid in base and in
 * quote are exactly what the fills give, raw (`data-*`) and as the cells show them; the unrealized
 * P&L and its % are what the row's own shown mark gives (mark value at that price, rounded against
 * the holder, less the basis), and the mark is the exit side (the bid for a long, the ask for a
 * short). The mark price itself moves with the book and is not held here. A book with a position
 * has a row, a flat one shows none or 0 (a flat row shown is held too); a remainder no order can
 * close is a position like any other and is listed (the flatten contract, docs/actions.md). `marketOf(key)`
 * gives the market a row is formatted with (its base decimals are the accounting's).
 */
export function checkPositions(
  rows: readonly PositionRow[],
  account: string,
  positions: ReadonlyMap<string, LedgerPosition>,
  marketOf: (key: string) => Market | undefined,
  books?: (key: string) => boolean,
): Verdict {
  const problems: string[] = [];
  const own = rows.filter((row) => row.account.toLowerCase() === account.toLowerCase());
  const keyOf = (row: PositionRow) => `${row.marketId}${row.turbo ? ':turbo' : ''}`;
  const shown = new Set(own.map(keyOf));
  for (const [key, position] of positions) {
    if (position.size === 0n || (books !== undefined && !books(key)) || shown.has(key)) continue;
    problems.push(`position ${key.slice(0, 12)} missing (exchange: ${position.size})`);
  }
  for (const row of own) {
    const key = keyOf(row);
    const want = books !== undefined && !books(key) ? undefined : positions.get(key);
    if (want === undefined) {
      if (row.size !== '0') problems.push(`position ${key.slice(0, 12)} shown (${row.size}) but not on the exchange`);
      continue;
    }
    const market = marketOf(key);
    if (market === undefined) {
      problems.push(`position ${key.slice(0, 12)}: the oracle does not know its market`);
      continue;
    }
    problems.push(...positionRowProblems(row, want, market).map((problem) => `position ${key.slice(0, 12)} ${problem}`));
  }
  // No row of the account and none owed: passed as empty (a trace tells it from rows held equal).
  if (problems.length === 0) return own.length === 0 ? EMPTY : EQUAL;
  return differs(problems.slice(0, 6).join('; ') + (problems.length > 6 ? `; … ${problems.length - 6} more` : ''));
}

/** What one row shows that the fills do not give (empty when the row is right). */
export function positionRowProblems(row: PositionRow, want: LedgerPosition, market: Market): string[] {
  const problems: string[] = [];
  const decimals = market.base.decimals;
  const same = (what: string, got: string, expected: string) => {
    if (got !== expected) problems.push(`${what} ${JSON.stringify(got)}, the exchange's fills give ${JSON.stringify(expected)}`);
  };
  const raw = (value: bigint | null) => (value === null ? '' : value.toString());
  if (row.size !== want.size.toString()) {
    // Every other column follows from the size's fills: one difference is enough to say.
    problems.push(`shows ${row.size}, exchange ${want.size}`);
    return problems;
  }
  const entry = ledgerEntry(want, decimals);
  same('average entry (raw)', row.raw.entry, raw(entry));
  same('average entry', row.text.entry, entry === null ? '' : entryText(market, entry));
  same('realized P&L (raw)', row.raw.realized, want.realized.toString());
  same('realized P&L', row.text.realized, pnlText(market, want.realized));
  const realizedBps = ledgerBps(want.realized, want.released);
  same('realized % (bps)', row.raw.realizedBps, raw(realizedBps));
  same('realized %', row.text.realizedPercent, percentText(realizedBps));
  same('fees in base (raw)', row.raw.feesBase, want.feesBase.toString());
  same('fees in quote (raw)', row.raw.feesQuote, want.feesQuote.toString());
  const fees = [...(want.feesBase > 0n ? [formatFillFee(market, 'Buy', want.feesBase)] : []), ...(want.feesQuote > 0n ? [formatFillFee(market, 'Sell', want.feesQuote)] : [])].join(' + ');
  same('fees', row.text.fees, fees);
  // Unrealized: at the row's own mark, which must be the side the position exits at.
  if (row.raw.mark === '') {
    same('unrealized P&L without a mark (raw)', row.raw.unrealized, '');
    same('unrealized P&L without a mark', row.text.unrealized, '');
    same('mark side without a mark', row.raw.markSide, '');
    return problems;
  }
  if (want.size === 0n) {
    problems.push(`is flat but marked at ${row.raw.mark} (${row.raw.markSide})`);
    return problems;
  }
  // The exit side, or the source the market's choice names (the read's exit mark stands in for it where the window has no live frame of the book).
  const exitSide = want.size > 0n ? 'bid' : 'ask';
  if (row.raw.markSide !== exitSide && !(row.raw.markChoice !== 'exit' && row.raw.markSide === row.raw.markChoice)) {
    problems.push(`mark side ${JSON.stringify(row.raw.markSide)}, the exchange's fills give a position that exits at the ${exitSide} and the market's choice is ${JSON.stringify(row.raw.markChoice)}`);
  }
  if (!/^\d+$/.test(row.raw.mark)) {
    problems.push(`mark ${JSON.stringify(row.raw.mark)} is not a raw price`);
    return problems;
  }
  const unrealized = ledgerUnrealized(want, BigInt(row.raw.mark), decimals);
  same(`unrealized P&L at the shown mark ${row.raw.mark} (raw)`, row.raw.unrealized, unrealized.toString());
  same('unrealized P&L', row.text.unrealized, pnlText(market, unrealized));
  const unrealizedBps = ledgerBps(unrealized, want.basis);
  same('unrealized % (bps)', row.raw.unrealizedBps, raw(unrealizedBps));
  const unitText =
    row.raw.pnlUnit === 'bps' ? bpsText(unrealizedBps) : row.raw.pnlUnit === 'ticks' ? tickText(pnlTickTenths(unrealized, want.size, 10n ** BigInt(decimals), priceTick(market))) : percentText(unrealizedBps);
  same(`unrealized in ${row.raw.pnlUnit}`, row.text.unrealizedUnit, unitText);
  return problems;
}

export function sameMaps(what: string, got: ReadonlyMap<string, string>, want: ReadonlyMap<string, string>): Verdict {
  const problems: string[] = [];
  for (const [id, value] of want) {
    const shown = got.get(id);
    if (shown === undefined) problems.push(`${what} ${id.slice(0, 12)} missing (exchange: ${value})`);
    else if (shown !== value) problems.push(`${what} ${id.slice(0, 12)} shows ${shown}, exchange ${value}`);
  }
  for (const [id, value] of got) if (!want.has(id)) problems.push(`${what} ${id.slice(0, 12)} shown (${value}) but not on the exchange`);
  return problems.length === 0 ? EQUAL : differs(problems.slice(0, 6).join('; ') + (problems.length > 6 ? `; … ${problems.length - 6} more` : ''));
}
