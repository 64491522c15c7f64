// The margin reads beside the risk panel that no stream carries, as tabs: the shown Turbo Account's
// activity (post-event totals as the exchange holds them), the pool's statistics, the tier versions
// published, and the Turbo books' events. Main reads them every few seconds while this is shown;
// each tab carries its own freshness mark, stale or resyncing in place, the previous answer dimmed.
import { createMemo, createSignal, For, onCleanup, Show, type Component, type JSX } from 'solid-js';
import type { InsightPart } from '../../../../shared/ipc/views/margin-insights';
import type { Market } from '../../../../shared/market/market';
import { formatClock, formatDateTime } from '../../format/time';
import { formatPrice, formatQuantity, formatQuote } from '../../format/market-format';
import { shortId } from '../../format/units';
import { createFreshness, FreshnessBadge, windowClock } from '../../lib/freshness';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { marketName } from '../markets/market-label';
import { basisPoints, durationText } from './margin-format';
import { createMarginInsightsSource } from './margin-insights-source';
import { activityAmountText, amountText, assetRef, eventText, insightFreshness, keyText } from './insights-model';

type Tab = 'activity' | 'statistics' | 'tiers' | 'events';

const TABS: readonly { tab: Tab; label: string; title: string }[] = [
  { tab: 'activity', label: 'Activity', title: "The Turbo Account's lifecycle and margin activity, newest first (GET /v1/margin/activity)" },
  { tab: 'statistics', label: 'Statistics', title: "The margin pool's aggregate sessions and risk (GET /v1/margin/statistics)" },
  { tab: 'tiers', label: 'Tier history', title: 'Every tier version published, newest first (GET /v1/margin/tiers/history)' },
  { tab: 'events', label: 'Turbo events', title: "The Turbo books' shared executions and trades and their pairing with the canonical books, newest first (GET /v1/events; the house's quote placements are the overlay's executable depth, not listed here)" },
];

const PART_WORDS: Readonly<Record<Tab, string>> = { activity: 'activity', statistics: 'statistics', tiers: 'tier history', events: 'Turbo events' };

/** The time of day in the table; the date and time in full on hover. */
const TimeCell: Component<{ ms: number | null }> = (cell) => <td title={cell.ms === null ? '' : formatDateTime(cell.ms)}>{cell.ms === null ? '—' : formatClock(cell.ms)}</td>;

const dateText = (ms: number | null) => (ms === null ? '—' : formatDateTime(ms));

export const MarginInsights: Component<{ marginAccountId: string | null }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const source = createMarginInsightsSource(bridge, () => props.marginAccountId);
  const [tab, setTab] = createSignal<Tab>('activity');
  const markets = (): readonly Market[] => terminal.store.state.markets?.markets ?? [];
  const marketOf = (marketId: string | null) => (marketId === null ? undefined : markets().find((market) => market.market_id === marketId));

  const [now, setNow] = createSignal(windowClock.now());
  const timer = setInterval(() => setNow(windowClock.now()), 1000);
  onCleanup(() => clearInterval(timer));
  const part = (which: Tab): InsightPart<unknown> | null => {
    const view = source.view();
    if (view === null) return null;
    return which === 'activity' ? view.activity : which === 'statistics' ? view.statistics : which === 'tiers' ? view.tierHistory : view.events;
  };
  const marks = Object.fromEntries(
    TABS.map(({ tab: which }) => [
      which,
      createFreshness(
        terminal.freshness,
        (freshnessView) => [freshnessView.link],
        () => (source.problem() !== null ? { state: 'resyncing' as const, detail: source.problem()! } : insightFreshness(part(which), source.view()?.intervalMs ?? 5_000, now() - source.receivedAt(), PART_WORDS[which])),
      ),
    ]),
  ) as Record<Tab, ReturnType<typeof createFreshness>>;

  const statistics = createMemo(() => source.view()?.statistics.value ?? null);
  const collateral = createMemo(() => assetRef(source.view()?.collateralAssetId ?? null, markets()));

  const Section = (sectionProps: { which: Tab; children: JSX.Element }) => (
    <div class="margin-insight" data-testid={`margin-insights-${sectionProps.which}`} data-freshness={marks[sectionProps.which].state()} data-state={part(sectionProps.which)?.state ?? 'loading'}>
      <div class="freshness-line">
        <FreshnessBadge mark={marks[sectionProps.which]} testId={`margin-insights-${sectionProps.which}-freshness`} />
      </div>
      <div class="fresh-dim">{sectionProps.children}</div>
    </div>
  );

  return (
    <section class="margin margin-insights" data-testid="margin-insights" data-account={props.marginAccountId ?? ''}>
      <div class="tabs" role="tablist">
        <For each={TABS}>
          {(entry) => (
            <button type="button" role="tab" aria-selected={tab() === entry.tab} classList={{ on: tab() === entry.tab }} data-testid={`margin-insights-tab-${entry.tab}`} title={entry.title} onClick={() => setTab(entry.tab)}>
              {entry.label}
            </button>
          )}
        </For>
      </div>
      <Show when={tab() === 'activity'}>
        <Section which="activity">
          <Show when={props.marginAccountId !== null} fallback={<p class="muted">No Turbo Account shown.</p>}>
            <Show when={(source.view()?.activity.value.length ?? 0) > 0} fallback={<p class="muted" data-testid="margin-activity-empty">No activity read yet.</p>}>
              <table class="margin-table margin-insight-table">
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Activity</th>
                    <th>Figures</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={source.view()?.activity.value ?? []}>
                    {(row) => (
                      <tr data-testid="margin-activity-row" data-kind={row.kind} data-sequence={row.sequence.toString()}>
                        <TimeCell ms={row.time} />
                        <td title={row.txId === null ? '' : `Transaction ${row.txId}`}>{row.kind}</td>
                        <td class="margin-insight-figures">
                          {[...row.amounts.map((amount) => activityAmountText(amount, markets())), ...row.notes.map((note) => `${keyText(note.key)} ${note.text}`)].join(' · ')}
                        </td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </Show>
          </Show>
        </Section>
      </Show>
      <Show when={tab() === 'statistics'}>
        <Section which="statistics">
          <Show when={statistics()} fallback={<p class="muted">No statistics read yet.</p>}>
            {(stats) => (
              <dl class="margin-grid" data-testid="margin-statistics">
                <dt>Active sessions</dt>
                <dd data-testid="margin-statistics-active">{stats().activeSessions ?? '—'}</dd>
                <dt>Legacy / Turbo</dt>
                <dd>
                  {stats().activeLegacy ?? '—'} / {stats().activeTurbo ?? '—'}
                </dd>
                <dt>Frozen</dt>
                <dd>{stats().frozen ?? '—'}</dd>
                <dt>Liquidatable</dt>
                <dd>{stats().liquidatable ?? '—'}</dd>
                <dt>Closed</dt>
                <dd>{stats().closedSessions ?? '—'}</dd>
                <dt>Liquidated / expired</dt>
                <dd>
                  {stats().liquidatedSessions ?? '—'} / {stats().expiredSessions ?? '—'}
                </dd>
                <dt>Pool</dt>
                <dd>{stats().poolPaused === null ? '—' : stats().poolPaused ? 'paused' : 'open'}</dd>
                <dt>Bad debt</dt>
                <dd>{stats().badDebt === null ? '—' : amountText(stats().badDebt!, collateral())}</dd>
                <For each={stats().lent}>
                  {(loan) => (
                    <>
                      <dt>Lent</dt>
                      <dd data-testid="margin-statistics-lent">{amountText(loan.amount, assetRef(loan.assetId, markets()))}</dd>
                    </>
                  )}
                </For>
              </dl>
            )}
          </Show>
        </Section>
      </Show>
      <Show when={tab() === 'tiers'}>
        <Section which="tiers">
          <table class="margin-table margin-insight-table">
            <thead>
              <tr>
                <th>Tier</th>
                <th>Version</th>
                <th>Cohort</th>
                <th>Line</th>
                <th>Credit cap</th>
                <th>Duration</th>
                <th>Published</th>
              </tr>
            </thead>
            <tbody>
              <For each={source.view()?.tierHistory.value ?? []}>
                {(row) => (
                  <tr data-testid="margin-tier-row" data-tier={row.tierId} data-version={row.version.toString()}>
                    <td>
                      {row.name ?? `Tier ${row.tierId}`}
                      {row.onSale === false ? ' (not on sale)' : ''}
                    </td>
                    <td>{row.version.toString()}</td>
                    <td>{row.cohort === 'Turbo' ? 'Turbo (prepaid)' : 'Legacy'}</td>
                    <td>{amountText(row.line, collateral())}</td>
                    <td>{basisPoints(row.maxCreditLineBps)}</td>
                    <td>{row.durationSeconds === null ? 'no expiry' : durationText(row.durationSeconds)}</td>
                    <td>{dateText(row.publishedAt)}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Section>
      </Show>
      <Show when={tab() === 'events'}>
        <Section which="events">
          <Show when={(source.view()?.events.value.length ?? 0) > 0} fallback={<p class="muted" data-testid="margin-events-empty">No Turbo events read yet.</p>}>
            <table class="margin-table margin-insight-table">
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Event</th>
                  <th>Market</th>
                  <th>Side</th>
                  <th>Price</th>
                  <th>Size</th>
                  <th>Turbo fee</th>
                </tr>
              </thead>
              <tbody>
                <For each={source.view()?.events.value ?? []}>
                  {(row) => {
                    const market = marketOf(row.marketId);
                    return (
                      <tr data-testid="margin-event-row" data-type={row.type} data-order-id={row.orderId ?? ''} title={[row.role === null ? '' : `House ${row.role.toLowerCase()}`, row.orderId === null ? '' : `order ${row.orderId}`, row.txId === null ? '' : `transaction ${row.txId}`].filter(Boolean).join(' · ')}>
                        <TimeCell ms={row.time} />
                        <td>{eventText(row.type)}</td>
                        <td>{market ? marketName(market, markets()) : row.marketId === null ? '—' : shortId(row.marketId)}</td>
                        <td classList={{ up: row.side === 'Buy', down: row.side === 'Sell' }}>{row.side ?? ''}</td>
                        <td>{row.price === null ? '' : market ? formatPrice(market, row.price) : row.price.toString()}</td>
                        <td>{row.quantity === null ? '' : market ? formatQuantity(market, row.quantity) : row.quantity.toString()}</td>
                        <td>{row.turboFee === null ? '' : market ? formatQuote(market, row.turboFee) : row.turboFee.toString()}</td>
                      </tr>
                    );
                  }}
                </For>
              </tbody>
            </table>
          </Show>
        </Section>
      </Show>
    </section>
  );
};
