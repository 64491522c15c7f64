// Margin (Turbo accounts) components, self-contained: each reads the bridge with useBridge
// (stores/bridge-context) and talks to main through the margin area of the contract only. None is wired into the
// app shell here; the shell places them.
//
// | component            | props                                                                 | shows / does |
// |----------------------|-----------------------------------------------------------------------|--------------|
// | MarginRiskPanel      | marginAccountId; now?() ms                                            | the live risk of one Turbo Account (subscribeMarginRisk / onMarginRisk): V, equity, PnL, L and its cap, outstanding, loan headroom, drawable, buy capacity, exposure headroom, threshold and freeze line with the distance to each, cohort, rollover progress, expiry countdown (none for no expiry), stale-price and stale-state warnings, FROZEN / LIQUIDATABLE banners, per-asset positions, prices and borrowable, the last session's settlement |
// | MarginAccountManager | now?() ms; onSelectAccount?(id or null)                               | pool, discount, session scope (why a new session is needed), register, one AccountCard per account, Turbo order settings |
// | AccountCard          | account; overview; now; onChanged(); onSelectAccount?                 | one account: session, select for Turbo trading, open (tier, period, exact amount), credit actions, close, withdraw |
// | OpenSessionForm      | marginAccountId; tiers; collateral; discountBps; onDone?()            | tier and allowed period, the exact opening amount and its legs, open |
// | CreditActionForm     | marginAccountId; cohort; collateral; assets; onDone?()                | draw, return, borrow (return first), repay, add collateral, withdraw; legacy: repay from collateral, buy debt out, prolong, auto-prolong |
// | CloseSessionForm     | marginAccountId; onDone?()                                            | close with the fetched cleanups, after cancel/settle/return/repay; the steps and what remains |
// | MarginSettingsForm   | settings; onSaved?(settings)                                          | market orders bounded (slippage bps) or refused; draw/borrow what an order lacks |
// | TurboToggle          | marketId; turbo; onChange(turbo)                                      | Canonical ↔ Turbo for a market; disabled with the reason without a Turbo book; paused / disconnected; who signs Turbo orders |
//
// data-testid of the controls: margin-risk(-status, -cohort, -expiry, -pool-paused, -sequence,
// -liquidatable, -frozen, -stale, -stale-prices, -problem, -figures, -value, -equity, -pnl, -line,
// -outstanding, -loan-headroom, -drawable, -buy-capacity, -exposure-headroom, -spendable, -threshold,
// -distance-threshold, -freeze-line, -distance-freeze, -drawn, -net-collateral, -rule, -rollover,
// -rollover-state, -rollover-bar, -assets, -asset, -fallback-bands, -no-session, -last-session,
// -loading, -error), margin-manager(-pool, -discount, -trading-as, -refresh, -problems, -scope,
// -inventory, -register, -next, -registration, -empty, -settings-toggle, -loading, -error),
// margin-account(-id, -session, -expiry, -out-of-scope, -select, -holdings, -withdraw, -error,
// -result), margin-open(-tier, -period, -terms, -amount, -extra, -submit, -error, -result),
// margin-credit(-action, -asset, -amount, -return-first, -period, -times, -submit, -error, -result),
// margin-close(-prepare, -start, -confirm, -cancel, -error, -report, -step, -cleanups),
// margin-settings(-convert, -slippage, -slippage-save, -fund, -error), turbo-toggle(-canonical,
// -turbo, -reason, -paused, -disconnected, -trading-as). Failures carry data-code with the stable code.
export { MarginRiskPanel } from './MarginRiskPanel';
export { MarginAccountManager } from './MarginAccountManager';
export { AccountCard } from './AccountCard';
export { OpenSessionForm } from './OpenSessionForm';
export { CreditActionForm } from './CreditActionForm';
export { CloseSessionForm } from './CloseSessionForm';
export { MarginSettingsForm } from './MarginSettingsForm';
export { TurboToggle } from './TurboToggle';
