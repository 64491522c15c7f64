// The account's pending legs under the orders they belong to (then the legs on their own), each with
// cancel and move, and trailing / break-even for a stop-loss; and the legs that fired or were cancelled, with why. Meant to sit under (or
// inside) the open orders panel.
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import { parseUnits } from '../../../../shared/encoding/units';
import type { TriggerView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { fail, type Failure } from '../../../../shared/result';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatClock } from '../../format/time';
import { shortId } from '../../format/units';
import { createOpenOrders, createPositionBrackets, createProtectiveStops, createTriggerSnapshot } from './trigger-data';
import { TrailControls } from './TrailControls';
import { groupUnderOrders, legLabel, snapToStep, type TriggerGroup } from './trigger-model';
import './triggers.css';
import { useBridge } from '../../stores/bridge-context';

const REASONS: Readonly<Record<string, string>> = {
  Cancelled: 'by you (or moved)',
  OcoSiblingFired: 'the other leg fired',
  ParentCancelled: 'its order was cancelled',
  ParentNotFilled: 'its order closed without a fill',
  SessionEnded: 'the margin session ended',
};

const groupKey = (group: TriggerGroup) => group.parentOrderId ?? '';
const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((key, index) => key === b[index]);

export const TriggersList: Component<{
  /** Every market of the network (to format prices); legs of unknown markets show raw values. */
  markets: readonly Market[];
  /** Only this market's legs; every market when absent. */
  marketId?: string;
  /** Also list legs that fired or were cancelled (default true). */
  showRecent?: boolean;
}> = (props) => {
  const bridge = useBridge();
  const snapshot = createTriggerSnapshot(bridge);
  const openOrders = createOpenOrders(bridge);
  const protective = createProtectiveStops(bridge);
  const managedOf = (triggerId: string) => protective().find((stop) => stop.triggerId === triggerId);
  // A position TP/SL's legs change as a pair from Positions: main refuses moving or trailing one alone.
  const brackets = createPositionBrackets(bridge);
  const ofPositionPair = (triggerId: string) => brackets().some((bracket) => bracket.legIds.some((leg) => leg.toLowerCase() === triggerId.toLowerCase()));
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal<string | null>(null);
  const [moveText, setMoveText] = createSignal<Record<string, string>>({});

  const marketOf = (marketId: string) => props.markets.find((market) => market.market_id === marketId);
  const mine = (leg: TriggerView) => props.marketId === undefined || leg.marketId === props.marketId;
  const groups = createMemo(() => groupUnderOrders(snapshot().pending.filter(mine), openOrders()));
  // Rows are keyed by id, not by the pushed objects: every push of legs or orders brings new
  // objects, and a row re-created from them would drop what the trader is typing into it.
  const groupKeys = createMemo(() => groups().map(groupKey), undefined, { equals: sameKeys });
  const groupOf = (key: string) => groups().find((group) => groupKey(group) === key);
  const legById = createMemo(() => new Map(snapshot().pending.map((leg) => [leg.triggerId, leg])));
  const recent = createMemo(() => snapshot().recent.filter(mine));
  const pendingIds = createMemo(() => new Set(snapshot().pending.map((leg) => leg.triggerId)));
  const price = (leg: TriggerView, value: bigint) => {
    const market = marketOf(leg.marketId);
    return market ? formatPrice(market, value) : value.toString();
  };

  const cancel = async (leg: TriggerView) => {
    setBusy(leg.triggerId);
    setFailure(null);
    const done = await bridge.cancelTrigger({ marketId: leg.marketId, ...(leg.turbo ? { turbo: true } : {}), triggerId: leg.triggerId });
    setBusy(null);
    if (!done.ok) setFailure(done);
  };

  const move = async (leg: TriggerView) => {
    const market = marketOf(leg.marketId);
    if (!market) return;
    setFailure(null);
    const parsed = parseUnits((moveText()[leg.triggerId] ?? '').trim(), market.quote.decimals, 'New trigger price');
    if (!parsed.ok) {
      setFailure(parsed);
      return;
    }
    // Refused, never moved onto the step: the trader typed this price.
    if (snapToStep(market, parsed.value) !== parsed.value) {
      setFailure(fail('PRICE_PRECISION', `New trigger price is finer than the market allows: prices move in steps of ${formatPrice(market, snapToStep(market, 1n))}.`, { field: 'New trigger price' }));
      return;
    }
    setBusy(leg.triggerId);
    const done = await bridge.moveTrigger({ marketId: leg.marketId, ...(leg.turbo ? { turbo: true } : {}), triggerId: leg.triggerId, triggerPrice: parsed.value });
    setBusy(null);
    if (!done.ok) setFailure(done);
    else setMoveText((current) => ({ ...current, [leg.triggerId]: '' }));
  };

  const LegRow: Component<{ leg: TriggerView }> = (row) => {
    const market = () => marketOf(row.leg.marketId);
    return (
      <tr class="trigger-leg-row" data-testid="trigger-row" data-trigger-id={row.leg.triggerId} data-role={row.leg.role} data-armed={String(row.leg.armed)}>
        <td classList={{ buy: row.leg.side === 'Buy', sell: row.leg.side === 'Sell' }}>{market() ? legLabel(market()!, row.leg) : `${row.leg.side} @ ${row.leg.triggerPrice}`}</td>
        <td class="num">{row.leg.quantity === null ? 'from order' : market() ? formatQuantity(market()!, row.leg.quantity) : row.leg.quantity.toString()}</td>
        <td class="mono muted" title={row.leg.triggerId}>
          {shortId(row.leg.triggerId)}
          <Show when={row.leg.ocoId !== null && pendingIds().has(row.leg.ocoId) ? row.leg.ocoId : null}>
            {(other) => (
              <span title={`One cancels the other: ${other()}`} data-testid="trigger-oco">
                {' '}
                ⇄ {shortId(other())}
              </span>
            )}
          </Show>
        </td>
        <td>
          <div class="trigger-actions">
            <Show
              when={!ofPositionPair(row.leg.triggerId)}
              fallback={
                <span class="muted small" data-testid="trigger-position-pair" title="Main keeps this pair sized to the position: change its prices with Change TP/SL in Positions">
                  Position TP/SL: change it in Positions
                </span>
              }
            >
              <input
                class="trigger-move"
                data-testid="trigger-move-price"
                inputMode="decimal"
                placeholder={price(row.leg, row.leg.triggerPrice)}
                value={moveText()[row.leg.triggerId] ?? ''}
                onInput={(event) => {
                  const text = event.currentTarget.value;
                  setMoveText((current) => ({ ...current, [row.leg.triggerId]: text }));
                }}
              />
              <button type="button" data-testid="trigger-move" disabled={busy() !== null || !(moveText()[row.leg.triggerId] ?? '').trim()} onClick={() => void move(row.leg)}>
                Move
              </button>
            </Show>
            <button type="button" data-testid="trigger-cancel" disabled={busy() !== null} onClick={() => void cancel(row.leg)}>
              Cancel
            </button>
          </div>
          <Show when={row.leg.role !== 'take-profit' && !ofPositionPair(row.leg.triggerId) && market() ? market() : undefined}>{(shown) => <TrailControls leg={row.leg} market={shown()} managed={managedOf(row.leg.triggerId)} onFailure={setFailure} />}</Show>
        </td>
      </tr>
    );
  };

  /** One order's legs (or the legs on their own), under a line naming the order. */
  const GroupRows: Component<{ group: TriggerGroup }> = (row) => {
    const legIds = createMemo(() => row.group.legs.map((leg) => leg.triggerId), undefined, { equals: sameKeys });
    return (
      <>
        <Show when={row.group.parentOrderId !== null}>
          <tr class="trigger-parent" data-testid="trigger-parent-row" data-order-id={row.group.parentOrderId ?? ''}>
            <td colSpan={4}>
              <Show
                when={row.group.parent}
                fallback={
                  <span class="muted">
                    Order {shortId(row.group.parentOrderId ?? '')} (filled or closed): legs of its position
                  </span>
                }
              >
                {(parent) => {
                  const market = () => marketOf(parent().marketId);
                  return (
                    <span classList={{ buy: parent().side === 'Buy', sell: parent().side === 'Sell' }}>
                      {parent().side} {market() ? formatQuantity(market()!, parent().quantity) : parent().quantity.toString()} @ {market() ? formatPrice(market()!, parent().price) : parent().price.toString()} (filled{' '}
                      {market() ? formatQuantity(market()!, parent().filled) : parent().filled.toString()}) · {shortId(parent().orderId)}
                    </span>
                  );
                }}
              </Show>
            </td>
          </tr>
        </Show>
        <Show when={row.group.parentOrderId === null}>
          <tr class="trigger-parent" data-testid="trigger-standalone-row">
            <td colSpan={4} class="muted">
              Stops on their own
            </td>
          </tr>
        </Show>
        <For each={legIds()}>{(id) => <Show when={legById().get(id)}>{(leg) => <LegRow leg={leg()} />}</Show>}</For>
      </>
    );
  };

  return (
    <div class="trigger-list" data-testid="triggers-list">
      <table>
        <thead>
          <tr>
            <th>Leg</th>
            <th class="num">Size</th>
            <th>Id</th>
            <th />
          </tr>
        </thead>
        <tbody>
          <For each={groupKeys()}>{(key) => <Show when={groupOf(key)}>{(group) => <GroupRows group={group()} />}</Show>}</For>
          <Show when={groups().length === 0}>
            <tr>
              <td colSpan={4} class="empty" data-testid="triggers-empty">
                No take-profit or stop-loss legs
              </td>
            </tr>
          </Show>
        </tbody>
      </table>
      <Show when={failure()}>
        {(shown) => (
          <p class="error" role="alert" data-testid="triggers-error" data-code={shown().code}>
            <span class="mono">{shown().code}</span> {shown().message}
          </p>
        )}
      </Show>
      <Show when={props.showRecent !== false && recent().length > 0}>
        <details data-testid="triggers-recent">
          <summary>Fired and cancelled ({recent().length})</summary>
          <ul class="trigger-adjustments">
            <For each={recent()}>
              {(leg) => (
                <li data-testid="trigger-recent-row" data-trigger-id={leg.triggerId} data-state={leg.state}>
                  <span class="mono">{formatClock(leg.time)}</span> {marketOf(leg.marketId) ? legLabel(marketOf(leg.marketId)!, leg) : leg.triggerId} —{' '}
                  {leg.state === 'fired' ? `fired${leg.firedOrderId ? ` (order ${shortId(leg.firedOrderId)})` : ''}` : `cancelled: ${REASONS[leg.reason ?? ''] ?? leg.reason ?? 'by the exchange'}`}
                </li>
              )}
            </For>
          </ul>
        </details>
      </Show>
    </div>
  );
};
