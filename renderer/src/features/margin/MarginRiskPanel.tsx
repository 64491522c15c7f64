// The risk panel of one Turbo Account: every figure of shared/margin's RiskReport as main computed
// it from one consistent snapshot, live or stale (with the reason), frozen and liquidatable states
// shown first and prominently, the distance to the threshold and to the freeze line, rollover
// progress on prepaid tiers, the expiry countdown (none for the no-expiry value), stale oracle
// prices, and the last session's settlement (a liquidation, an expiry or a close).
import { createSignal, For, onCleanup, Show, useContext, type Component } from 'solid-js';
import type { MarginRiskFrame } from '../../../../shared/ipc/views/margin';
import { basisPoints, expiryText, holding, markPrice, money, oraclePrice, percentOf, shortAccount, signedMoney } from './margin-format';
import { FailureLine } from './parts';
import { createMarginRiskSource } from './margin-risk-source';
import './margin.css';
import { TerminalContext } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { createFreshness, FreshnessBadge, windowClock } from '../../lib/freshness';

/** LOAN_CAP -> "loan cap". */
function boundText(bound: string): string {
  return bound.toLowerCase().replaceAll('_', ' ');
}

export const MarginRiskPanel: Component<{
  marginAccountId: string;
  now?: () => number;
  /** Every frame shown (a panel beside it may react to the pool or the session changing). */
  onFrame?: (frame: MarginRiskFrame) => void;
}> = (props) => {
  const bridge = useBridge();
  const now = () => (props.now ?? Date.now)();
  // Taken again when the account or the network changes (a round trip replaces main's service).
  const { frame, failure } = createMarginRiskSource(bridge, () => props.marginAccountId, (payload) => props.onFrame?.(payload));
  const [tick, setTick] = createSignal(now());
  const timer = setInterval(() => setTick(now()), 1000);
  // The connection (main's word) and the margin state's own status: a stale state is being fetched again.
  const terminal = useContext(TerminalContext);
  const freshness = createFreshness(
    terminal?.freshness ?? { view: () => null, receivedAt: () => 0, clock: windowClock },
    (view) => [view.link],
    () => {
      const current = frame();
      if (!current) return { state: 'resyncing', detail: 'loading the margin state' };
      return current.status === 'live' ? null : { state: 'resyncing', detail: current.staleReason ?? 'the margin state is being fetched again' };
    },
  );

  onCleanup(() => clearInterval(timer));

  const risk = () => frame()?.risk ?? null;
  const collateral = () => frame()?.collateral ?? { assetId: '', symbol: '', decimals: 0 };
  const show = (raw: bigint) => money(raw, collateral());
  const sign = (raw: bigint) => (raw < 0n ? 'negative' : 'positive');

  return (
    <section class="margin margin-risk" data-testid="margin-risk" data-account={props.marginAccountId} data-status={frame()?.status ?? 'loading'} data-freshness={freshness.state()}>
      <FailureLine failure={failure()} testId="margin-risk-error" />
      <div class="freshness-line">
        <FreshnessBadge mark={freshness} testId="margin-risk-freshness" />
      </div>
      <Show when={frame()} fallback={<p class="muted" data-testid="margin-risk-loading">Loading the margin state of {shortAccount(props.marginAccountId)}…</p>}>
        {(current) => (
          <>
            <div class="margin-status">
              <span class="margin-badge" data-tone={current().status === 'live' ? 'ok' : 'warning'} data-testid="margin-risk-status">
                {current().status === 'live' ? 'Live' : 'Stale'}
              </span>
              <Show when={current().cohort}>
                {(cohort) => (
                  <span class="margin-badge" data-testid="margin-risk-cohort">
                    {cohort() === 'Turbo' ? 'Turbo (prepaid)' : 'Legacy'}
                  </span>
                )}
              </Show>
              <Show when={current().session}>
                <span class="margin-badge" data-testid="margin-risk-expiry" data-no-expiry={current().noExpiry ? 'true' : 'false'}>
                  {current().noExpiry ? 'No expiry' : `Expires in ${expiryText(current().expiresAt, current().noExpiry, tick())}`}
                </span>
              </Show>
              <Show when={current().poolPaused}>
                <span class="margin-badge" data-tone="warning" data-testid="margin-risk-pool-paused">
                  Pool paused: no draws or borrows
                </span>
              </Show>
              <span class="muted mono" data-testid="margin-risk-sequence">
                #{current().sequence?.toString() ?? '—'}
              </span>
            </div>

            <Show when={current().liquidatable}>
              <p class="margin-alert" data-tone="danger" role="alert" data-testid="margin-risk-liquidatable">
                LIQUIDATABLE: the account value is at or below the liquidation threshold. Anyone may liquidate it now.
              </p>
            </Show>
            <Show when={current().frozen && !current().liquidatable}>
              <p class="margin-alert" data-tone="danger" role="alert" data-testid="margin-risk-frozen">
                FROZEN: stressed equity is below the freeze line. Only risk-reducing orders are accepted (sell down longs, buy back shorts).
              </p>
            </Show>
            <Show when={current().status === 'stale'}>
              <p class="margin-alert" data-testid="margin-risk-stale">
                Figures are from the last live state: {current().staleReason ?? 'the state is being fetched again'}. No margin action is signed until it is live.
              </p>
            </Show>
            <Show when={current().stalePrices.length > 0}>
              <p class="margin-alert" data-testid="margin-risk-stale-prices">
                Stale oracle price for {current().stalePrices.map((asset) => asset.symbol).join(', ')}: values using it may be off.
              </p>
            </Show>
            <Show when={current().riskProblem && current().session}>
              <p class="error" data-testid="margin-risk-problem" data-code={current().riskProblem?.code}>
                {current().riskProblem?.message}
              </p>
            </Show>

            <Show when={risk()}>
              {(view) => (
                <>
                  <dl class="margin-grid fresh-dim" data-testid="margin-risk-figures">
                    <dt>Account value V</dt>
                    <dd data-testid="margin-risk-value">{show(view().accountValue)}</dd>
                    <dt>Equity (V − k)</dt>
                    <dd data-testid="margin-risk-equity" data-sign={sign(view().traderEquity)}>
                      {signedMoney(view().traderEquity, collateral())}
                    </dd>
                    <dt title="Realized profit if the session closed now: equity − PnL basis (what the trader put in, fees reported apart). Settlement pays this figure; the profit share is taken from it. It is the whole account's, valued at the exchange's oracle prices as the margin formulas are, not a market's position P&L (Positions, the ladder and the chart mark those where each market's choice says).">
                      Trading PnL <span class="muted small" data-testid="margin-risk-pnl-mark">at oracle prices</span>
                    </dt>
                    <dd data-testid="margin-risk-pnl" data-sign={sign(view().tradingPnl)}>
                      {signedMoney(view().tradingPnl, collateral())}
                    </dd>
                    <dt>Credit line L</dt>
                    <dd data-testid="margin-risk-line">
                      {show(view().creditLine)} <span class="muted">of cap {show(view().lineCap)}</span>
                    </dd>
                    <dt>Outstanding</dt>
                    <dd data-testid="margin-risk-outstanding">{show(view().outstanding)}</dd>
                    <dt>Loan headroom</dt>
                    <dd data-testid="margin-risk-loan-headroom">{show(view().loanHeadroom)}</dd>
                    <dt>Drawable quote</dt>
                    <dd data-testid="margin-risk-drawable">{show(view().drawableQuote)}</dd>
                    <dt>Buy capacity</dt>
                    <dd data-testid="margin-risk-buy-capacity">{show(view().buyCapacity)}</dd>
                    <dt>Exposure headroom</dt>
                    <dd data-testid="margin-risk-exposure-headroom">
                      {show(view().exposureHeadroom)} <span class="muted">gross {show(view().exposure.gross)} ({view().exposure.pass.toLowerCase().replace('_', ' ')})</span>
                    </dd>
                    <dt>Spendable cash</dt>
                    <dd data-testid="margin-risk-spendable">{show(view().spendableCash)}</dd>
                    <dt>Liquidation threshold</dt>
                    <dd data-testid="margin-risk-threshold">{show(view().health.threshold)}</dd>
                    <dt>Distance to threshold</dt>
                    <dd data-testid="margin-risk-distance-threshold" data-sign={sign(view().health.distanceToThreshold)}>
                      {signedMoney(view().health.distanceToThreshold, collateral())}
                    </dd>
                    <dt>Freeze line</dt>
                    <dd data-testid="margin-risk-freeze-line">{show(view().health.freezeLine)}</dd>
                    <dt>Distance to freeze</dt>
                    <dd data-testid="margin-risk-distance-freeze" data-sign={sign(view().health.distanceToFreeze)}>
                      {signedMoney(view().health.distanceToFreeze, collateral())}
                    </dd>
                    <dt>Drawn quote</dt>
                    <dd data-testid="margin-risk-drawn">{show(current().session?.quoteDrawn ?? 0n)}</dd>
                    <dt>Posted collateral − fees</dt>
                    <dd data-testid="margin-risk-net-collateral">{show(view().netCollateral)}</dd>
                  </dl>
                  <p class="muted" data-testid="margin-risk-rule">
                    Health rule {view().health.rule.toLowerCase().replace('_', ' ')}
                    {view().health.lossFloor === null ? '' : `, loss floor ${show(view().health.lossFloor ?? 0n)}`}, absorption cost {show(view().health.absorptionCost)}, withdrawable value {show(view().health.giveawayAllowance)}
                  </p>

                  <Show when={view().rollover}>
                    {(rollover) => (
                      <div data-testid="margin-risk-rollover">
                        <div class="margin-row">
                          <span>
                            Free term {rollover().rolloversUsed} of {rollover().maxRollovers}: profit {signedMoney(rollover().progress, collateral())} of {show(rollover().profitRequired)} required
                          </span>
                          <span class="margin-badge" data-tone={rollover().reached ? 'ok' : undefined} data-testid="margin-risk-rollover-state">
                            {rollover().reached ? (rollover().canEarnMore ? 'Bar reached: next term is free' : 'Bar reached (no free terms left)') : `${show(rollover().remaining)} to go`}
                          </span>
                        </div>
                        <div class="margin-bar" data-testid="margin-risk-rollover-bar">
                          <span style={{ width: `${percentOf(rollover().progress, rollover().profitRequired)}%` }} />
                        </div>
                      </div>
                    )}
                  </Show>

                  <table class="margin-table" data-testid="margin-risk-assets">
                    <thead>
                      <tr>
                        <th>Asset</th>
                        <th title="Holdings minus debt, in the asset">Position</th>
                        <th title="Borrowed in kind, in the asset">Debt</th>
                        <th title="The oracle price the position is marked at: the bid for a holding, the ask for a short (one whole unit, in the collateral)">Mark price</th>
                        <th title="The position marked at the mark price, in the collateral">Position value</th>
                        <th title="The oracle's bid and ask for one whole unit, in the collateral">Oracle bid / ask</th>
                        <th title="What Borrow allows now (current loan headroom); in brackets, what it allows when the same batch returns quote first">Borrowable</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={view().assets}>
                        {(asset) => (
                          <tr data-testid="margin-risk-asset" data-asset={asset.assetId} data-stale={asset.stale ? 'true' : 'false'}>
                            <td>
                              {asset.symbol}
                              <Show when={asset.stale}>
                                <span class="warning"> stale</span>
                              </Show>
                            </td>
                            <td>{holding(asset.position, asset)}</td>
                            <td>{holding(asset.debt, asset)}</td>
                            <td data-testid="margin-risk-mark-price">
                              {oraclePrice(markPrice(asset.position, asset.bid, asset.ask).price, collateral(), asset.assetId)} <span class="muted">{markPrice(asset.position, asset.bid, asset.ask).side}</span>
                            </td>
                            <td data-testid="margin-risk-position-value">{show(asset.mark)}</td>
                            <td>
                              {oraclePrice(asset.bid, collateral(), asset.assetId)} / {oraclePrice(asset.ask, collateral(), asset.assetId)}
                            </td>
                            <td title={`What Borrow allows now, on the current loan headroom; limited by ${boundText(asset.borrowLimitedBy)}; stress band ${basisPoints(asset.stressBandBps)}`}>
                              <span data-testid="margin-risk-borrowable">{money(asset.borrowable, asset)}</span>
                              <Show when={asset.borrowableReturningQuoteFirst > asset.borrowable}>
                                <span
                                  class="muted"
                                  data-testid="margin-risk-borrowable-returning"
                                  title={`Borrow in one batch after ReturnQuote of the returnable ${show(view().returnableQuote)}; limited by ${boundText(asset.borrowReturningLimitedBy)}`}
                                >
                                  {' '}
                                  (up to {money(asset.borrowableReturningQuoteFirst, asset)} returning {show(view().returnableQuote)} first)
                                </span>
                              </Show>
                            </td>
                          </tr>
                        )}
                      </For>
                    </tbody>
                  </table>
                  <Show when={view().fallbackRiskParamAssets.length > 0}>
                    <p class="muted" data-testid="margin-risk-fallback-bands">
                      Some assets are valued with the built-in stress bands: those figures are estimates.
                    </p>
                  </Show>
                </>
              )}
            </Show>

            <Show when={!current().session}>
              <p class="muted" data-testid="margin-risk-no-session">
                No live session on this account.
              </p>
            </Show>
            <Show when={current().lastSession}>
              {(last) => (
                <div class={last().status === 'Liquidated' ? 'margin-alert' : 'margin-card'} data-tone={last().status === 'Liquidated' ? 'danger' : undefined} data-testid="margin-risk-last-session" data-status={last().status}>
                  <strong>
                    Last session: {last().status === 'Liquidated' ? 'liquidated' : last().status === 'Expired' ? 'expired' : 'closed'}
                  </strong>
                  <span>
                    {' '}
                    PnL {last().pnl === null ? '—' : signedMoney(last().pnl ?? 0n, collateral())}, profit share {last().profitShare === null ? '—' : show(last().profitShare ?? 0n)}, collateral returned{' '}
                    {last().collateralReturned === null ? '—' : show(last().collateralReturned ?? 0n)}, forfeited {last().collateralForfeited === null ? '—' : show(last().collateralForfeited ?? 0n)}
                  </span>
                  <Show when={last().returnedToParent.length > 0}>
                    <span> · returned to the trading account: {last().returnedToParent.map((entry) => holding(entry.amount, entry)).join(', ')}</span>
                  </Show>
                  <Show when={last().status !== 'Closed' && last().returnedToParent.length === 0}>
                    <span data-testid="margin-risk-nothing-returned"> · nothing was left to return to the trading account</span>
                  </Show>
                  <Show when={current().cohort === 'Turbo'}>
                    <span> · the prepaid entry paid at the open is not refunded</span>
                  </Show>
                </div>
              )}
            </Show>
          </>
        )}
      </Show>
    </section>
  );
};
