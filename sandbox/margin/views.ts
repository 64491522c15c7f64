// JSON bodies of the margin reads (margin 2.2-2.5, 4.1) and of the margin stream. Member names
// the spec leaves open are ours and documented in docs/sandbox.md; the state uses exactly the
// names of docs/protocol.md (Margin) (★ there), which the client reads.
import { profitRequired, rolloverProgress, type RiskReport } from '../../shared/margin/index';
import type { ContractAccount } from '../ledger/accounts';
import type { TierVersion } from './config';
import type { MarginEngine } from './engine';
import { balancesOf, riskParamsOf } from './snapshot';
import { debtOf, type MarginSession } from './session';

type Json = Record<string, unknown>;

function periods(values: Readonly<Partial<Record<string, bigint>>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([period, value]) => [period, (value as bigint).toString()]));
}

export function tierView(engine: MarginEngine, tier: TierVersion): Json {
  return {
    tier_id: tier.tierId,
    version: tier.version,
    name: tier.name,
    published_at: engine.publishedAt(tier).toString(),
    on_sale: tier.onSale,
    line: tier.line.toString(),
    max_credit_line_bps: tier.maxCreditLineBps.toString(),
    capital: tier.capital.toString(),
    threshold: tier.threshold.toString(),
    open_buffer: tier.openBuffer.toString(),
    maintenance: tier.maintenance.toString(),
    profit_share_bps: tier.profitShareBps.toString(),
    duration: tier.duration.toString(),
    prolong_seconds: periods(tier.prolongSeconds),
    open_fee: tier.openFee.toString(),
    prolong_fee: periods(tier.prolongFee),
    required_collateral: tier.requiredCollateral.toString(),
    collateral_asset_id: engine.config.collateralAssetId,
    books: [...tier.books],
    // The cohort discriminator: present on prepaid tiers, omitted (never null) on legacy ones.
    ...(tier.turbo === undefined
      ? {}
      : {
          turbo: {
            forfeit_collateral: tier.turbo.forfeitCollateral,
            max_loss_bps: tier.turbo.maxLossBps.map(String),
            rollover_profit_bps: tier.turbo.rolloverProfitBps.toString(),
            max_rollovers: tier.turbo.maxRollovers,
            term_seconds: tier.turbo.termSeconds.toString(),
            rollover_window_seconds: tier.turbo.rolloverWindowSeconds.toString(),
          },
        }),
  };
}

export function poolView(engine: MarginEngine): Json {
  return {
    pool_id: engine.config.poolId,
    paused: engine.poolPaused,
    collateral_asset_id: engine.config.collateralAssetId,
    inventory: Object.fromEntries(Object.entries(engine.poolInventory()).map(([asset, amount]) => [asset, amount.toString()])),
    lent: lentView(engine),
    bad_debt: engine.badDebt.toString(),
  };
}

/** Outstanding loans per asset: drawn quote for the collateral, in-kind debts for the others. */
export function lentView(engine: MarginEngine): Record<string, string> {
  const lent = new Map<string, bigint>();
  for (const session of engine.sessions.values()) {
    lent.set(engine.config.collateralAssetId, (lent.get(engine.config.collateralAssetId) ?? 0n) + session.quoteDrawn);
    for (const [asset, amount] of session.debts) lent.set(asset, (lent.get(asset) ?? 0n) + amount);
  }
  return Object.fromEntries([...lent].map(([asset, amount]) => [asset, amount.toString()]));
}

export function discountView(engine: MarginEngine, user: string): Json {
  const bps = engine.discountOf(user);
  return { user, discount_bps: bps.toString(), active: bps > 0n };
}

function sessionView(session: MarginSession, risk: RiskReport | undefined): Json {
  return {
    session_id: String(session.id),
    status: session.status,
    cohort: session.cohort,
    tier_id: session.tier.tierId,
    version: session.tier.version,
    collateral: session.collateral.toString(),
    fees: session.fees.toString(),
    quote_drawn: session.quoteDrawn.toString(),
    // ★ The basis of realized profit (docs/protocol.md (Margin) 3.2): trading PnL = equity - pnl_basis.
    pnl_basis: session.basis.toString(),
    ...(risk === undefined ? {} : { credit_line: risk.creditLine.toString() }),
    debts: Object.fromEntries([...session.debts].filter(([, amount]) => amount !== 0n).map(([asset, amount]) => [asset, amount.toString()])),
    opened_at: session.openedAt.toString(),
    expires_at: session.expiresAt.toString(),
    auto_prolong: session.autoProlong,
    ...(session.endedAt === null ? {} : { ended_at: session.endedAt.toString(), settlement: session.settlement }),
  };
}

/** GET /v1/margin/state and the `state` of the first subscribe_margin message. */
export function stateView(engine: MarginEngine, child: ContractAccount): Json {
  const session = engine.sessions.get(child.id) ?? null;
  const tier = session?.tier ?? engine.latestTiers()[0];
  const risk = engine.risk(child);
  const report = risk?.ok === true ? risk.value : undefined;
  const parent = engine.ledger.accounts.get(child.margin?.parent ?? '');
  const prices: Record<string, Json> = {};
  for (const asset of engine.oracle.assets()) {
    const price = engine.oracle.price(asset);
    if (price !== undefined) prices[asset] = { bid: price.bid.toString(), ask: price.ask.toString(), decimals: price.decimals, timestamp: price.timestamp.toString(), stale: price.stale };
  }
  const balances = tier === undefined ? {} : balancesOf(engine.ledger, engine.config, child, tier, session);
  const params = riskParamsOf(engine.config);
  const turbo = session?.tier.turbo;
  const rollover = session?.rollover ?? null;
  const history = engine.history.get(child.id) ?? [];
  const last = history[history.length - 1];
  return {
    account: child.id,
    parent: child.margin?.parent ?? null,
    index: child.margin?.index.toString() ?? null,
    sequence: (engine.sequences.get(child.id) ?? 0n).toString(),
    session: session === null ? null : sessionView(session, report),
    tier: session === null ? null : tierView(engine, session.tier),
    // Only on prepaid tiers that grant free terms (absent on legacy and forfeit-only tiers).
    ...(session === null || rollover === null || turbo === undefined
      ? {}
      : {
          rollover: {
            anchor: rollover.anchor.toString(),
            withdrawn: rollover.withdrawn.toString(),
            outside: rollover.outside.toString(),
            rollovers_used: rollover.rolloversUsed,
            max_rollovers: turbo.maxRollovers,
            profit_required: profitRequired(session.tier.line, turbo.rolloverProfitBps).toString(),
            eligible_now:
              report !== undefined &&
              rollover.rolloversUsed < turbo.maxRollovers &&
              rolloverProgress(report.accountValue, { ...rollover, maxRollovers: turbo.maxRollovers }, profitRequired(session.tier.line, turbo.rolloverProfitBps)).reached,
          },
        }),
    balances: Object.fromEntries(
      Object.entries(balances).map(([asset, balance]) => [
        asset,
        { on_account: balance.onAccount.toString(), received: balance.received.toString(), locked: balance.locked.toString(), settled: balance.settled.toString(), debt: balance.debt.toString() },
      ]),
    ),
    prices,
    collateral_asset_id: engine.config.collateralAssetId,
    collateral_decimals: engine.config.collateralDecimals,
    discount: discountView(engine, parent === undefined ? '' : engine.ledger.ownerWalletOf(parent)),
    risk_params: {
      stress_band_bps: Object.fromEntries(Object.entries(params.stressBandBps).map(([asset, bps]) => [asset, bps.toString()])),
      default_stress_band_bps: (params.defaultStressBandBps ?? 0n).toString(),
      absorption_band_bps: Object.fromEntries(Object.entries(params.absorptionBandBps).map(([asset, bps]) => [asset, bps.toString()])),
      default_absorption_band_bps: (params.defaultAbsorptionBandBps ?? 0n).toString(),
    },
    pool: poolView(engine),
    ...(session === null && last !== undefined ? { last_session: sessionView(last, undefined) } : {}),
  };
}

/**
 * One margin stream update (docs/sandbox.md): `sequence` (one per committed transaction that
 * touched the account, no gaps), `kind` and `activities`, then POST-EVENT TOTALS that replace
 * the client's values: the session (or null and `session_closed` when it ended), drawn,
 * collateral and fee totals, every balance with its debt, every price, the rollover.
 */
export function marginEventView(engine: MarginEngine, child: ContractAccount, activities: readonly { kind: string; details?: Readonly<Record<string, unknown>> }[]): Json {
  const state = stateView(engine, child);
  const session = engine.sessions.get(child.id);
  const closed = session === undefined && activities.some((activity) => activity.kind.startsWith('Session') && activity.kind !== 'SessionStarted');
  const event: Json = {
    sequence: state.sequence,
    kind: activities[0]?.kind ?? 'Update',
    activities: activities.map((activity) => ({ kind: activity.kind, ...(activity.details ?? {}) })),
    session: state.session,
    ...(closed ? { session_closed: true } : {}),
    balances: state.balances,
    prices: state.prices,
    pool_paused: engine.poolPaused,
  };
  if (session !== undefined) {
    event.drawn_total = session.quoteDrawn.toString();
    event.collateral_total = session.collateral.toString();
    event.fees_total = session.fees.toString();
    const debtAsset = activities.map((activity) => activity.details?.asset_id).find((asset): asset is string => typeof asset === 'string' && asset !== engine.config.collateralAssetId);
    if (debtAsset !== undefined) {
      event.asset_id = debtAsset;
      event.debt_total = debtOf(session, debtAsset).toString();
      event.received_total = (state.balances as Record<string, { received: string }>)[debtAsset]?.received ?? '0';
    }
    if (state.rollover !== undefined) event.rollover = state.rollover;
  }
  if (activities.some((activity) => activity.kind === 'TierPublished')) event.published_tiers = engine.latestTiers().map((tier) => tierView(engine, tier));
  return event;
}
