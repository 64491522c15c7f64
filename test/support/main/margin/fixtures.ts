// Wire documents shaped as the sandbox publishes them (docs/sandbox.md: state, tier, margin
// stream event), for the margin service's unit tests. Amounts are raw USDC (6 decimals) and ETH
// (9 decimals); prices are 1e18-scaled.
import { marginStateSchema, tierSchema, type MarginState, type Tier } from '../../../../shared/api/margin-schemas';
import { parseWith } from '../../../../shared/schema';

export const USDC_ID = `0x${'9c'.repeat(32)}`;
export const ETH_ID = `0x${'e7'.repeat(32)}`;
export const BTC_ID = `0x${'b7'.repeat(32)}`;
export const POOL_ID = `0x${'50'.repeat(32)}`;
export const CHILD = `0x${'c1'.repeat(32)}`;
export const USDC = 1_000_000n;
export const ETH = 1_000_000_000n;
export const ORACLE = (whole: bigint) => (whole * 10n ** 18n).toString();

/** Tier 2 of the sandbox: prepaid, one week, line 2,500, k 2,000, max_loss 4,000 bps, no free terms. */
export function prepaidTierWire(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tier_id: '2',
    version: 2,
    name: 'Turbo week',
    on_sale: true,
    line: String(2_500n * USDC),
    max_credit_line_bps: '10000',
    capital: String(2_000n * USDC),
    threshold: String(1_600n * USDC),
    open_buffer: String(300n * USDC),
    maintenance: String(100n * USDC),
    profit_share_bps: '0',
    duration: '604800',
    prolong_seconds: { Week: '604800' },
    open_fee: String(5n * USDC),
    prolong_fee: { Week: String(10n * USDC) },
    required_collateral: String(50n * USDC),
    collateral_asset_id: USDC_ID,
    books: [`0x${'7e'.repeat(32)}`],
    turbo: { forfeit_collateral: true, max_loss_bps: ['4000', '4000', '4000', '4000'], rollover_profit_bps: '0', max_rollovers: 0, term_seconds: '604800', rollover_window_seconds: '0' },
    ...overrides,
  };
}

export function balanceWire(onAccount: bigint, extra: { received?: bigint; locked?: bigint; debt?: bigint } = {}) {
  return { on_account: String(onAccount), received: String(extra.received ?? 0n), locked: String(extra.locked ?? 0n), settled: '0', debt: String(extra.debt ?? 0n) };
}

export function pricesWire(ethWhole: bigint, stale = false) {
  return { [ETH_ID]: { bid: ORACLE(ethWhole), ask: ORACLE(ethWhole), decimals: 9, timestamp: '1700000000', stale } };
}

export function sessionWire(drawn: bigint, overrides: Record<string, unknown> = {}) {
  return {
    session_id: '1',
    status: 'Active',
    cohort: 'Turbo',
    tier_id: '2',
    version: 2,
    collateral: '0',
    fees: '0',
    quote_drawn: String(drawn),
    debts: {},
    opened_at: '1700000000',
    expires_at: '1700604800',
    auto_prolong: null,
    ...overrides,
  };
}

/** GET /v1/margin/state of a prepaid child holding `eth` and `cash` with `drawn` quote drawn. */
export function stateWire(options: { drawn?: bigint; cash?: bigint; eth?: bigint; ethPrice?: bigint; sequence?: number; session?: boolean } = {}): Record<string, unknown> {
  const session = options.session ?? true;
  return {
    account: CHILD,
    parent: `0x${'aa'.repeat(32)}`,
    index: '0',
    sequence: String(options.sequence ?? 1),
    session: session ? sessionWire(options.drawn ?? 0n) : null,
    tier: session ? prepaidTierWire() : null,
    balances: { [USDC_ID]: balanceWire(options.cash ?? 0n), [ETH_ID]: balanceWire(options.eth ?? 0n) },
    prices: pricesWire(options.ethPrice ?? 3000n),
    collateral_asset_id: USDC_ID,
    collateral_decimals: 6,
    discount: { user: `0x${'0b'.repeat(32)}`, discount_bps: '0', active: false },
    risk_params: { stress_band_bps: { [ETH_ID]: '1500' }, default_stress_band_bps: '1000', absorption_band_bps: { [ETH_ID]: '50' }, default_absorption_band_bps: '100' },
    pool: { pool_id: POOL_ID, paused: false, collateral_asset_id: USDC_ID, inventory: { [USDC_ID]: String(10_000_000n * USDC), [ETH_ID]: String(1_000n * ETH) }, lent: {}, bad_debt: '0' },
  };
}

/** One `subscribe_margin_update` event as the sandbox sends it: post-event totals. */
export function eventWire(sequence: number, kind: string, state: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const session = state.session as Record<string, unknown> | null;
  return {
    sequence: String(sequence),
    kind,
    activities: [{ kind, tx_id: `0x${'77'.repeat(32)}` }],
    session,
    balances: state.balances,
    prices: state.prices,
    pool_paused: false,
    ...(session === null ? {} : { drawn_total: session.quote_drawn, collateral_total: session.collateral, fees_total: session.fees }),
    ...extra,
  };
}

export function parsedState(wire: Record<string, unknown>): MarginState {
  const parsed = parseWith(marginStateSchema, wire, 'state');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

export function parsedTier(wire: Record<string, unknown>): Tier {
  const parsed = parseWith(tierSchema, wire, 'tier');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}
