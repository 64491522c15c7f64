// Trailing and break-even for one stop-loss leg of the legs list: arm (a distance in ticks, % or a
// price distance from a reference, and/or break-even after N ticks of profit), confirmed once as orders are; once armed,
// main moves the leg (main/services/protect) and this shows how, with break-even now and disarm.
import { createSignal, Show, type Component } from 'solid-js';
import type { ProtectiveReference, ProtectiveStopView, TriggerView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { fail, ok, type Failure, type Result } from '../../../../shared/result';
import { formatPrice } from '../../format/market-format';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { parseTrailDistance, trailDistanceText, type TrailUnit } from './trail-distance';

/** A whole number of ticks typed by the trader, or empty (none). */
export function parseTicks(text: string, field: string): Result<bigint | null> {
  const trimmed = text.trim();
  if (trimmed === '') return ok(null);
  if (!/^\d{1,7}$/.test(trimmed)) return fail('INVALID_TICKS', `${field}: a whole number of ticks (1 to 9,999,999)`, { field });
  return ok(BigInt(trimmed));
}

export function managedText(market: Market, stop: ProtectiveStopView): string {
  const parts: string[] = [];
  if (stop.distance !== null) parts.push(`Trailing ${trailDistanceText(market, stop.distance)} from the ${stop.reference}`);
  if (stop.breakEven !== null) parts.push(stop.breakEven.done ? 'at break-even' : `break-even after ${stop.breakEven.afterTicks} ticks`);
  return parts.join(' · ');
}

export const TrailControls: Component<{ leg: TriggerView; market: Market; managed: ProtectiveStopView | undefined; onFailure: (failure: Failure | null) => void }> = (props) => {
  const bridge = useBridge();
  const terminal = useTerminal();
  const [ticks, setTicks] = createSignal('');
  const [unit, setUnit] = createSignal<TrailUnit>('ticks');
  const [breakEven, setBreakEven] = createSignal('');
  const [reference, setReference] = createSignal<ProtectiveReference>(props.leg.side === 'Sell' ? 'bid' : 'ask');
  const [busy, setBusy] = createSignal(false);

  const arm = async () => {
    props.onFailure(null);
    const distance = parseTrailDistance(props.market, ticks(), unit());
    if (!distance.ok) return props.onFailure(distance);
    const after = parseTicks(breakEven(), 'Break-even after');
    if (!after.ok) return props.onFailure(after);
    if (distance.value === null && after.value === null) return props.onFailure(fail('NOTHING_TO_MANAGE', 'Enter a trail distance, a break-even after N ticks, or both.'));
    // Confirmed once, as orders are: from now on main moves this stop without asking.
    if (terminal.store.state.settings?.confirmOrders !== false) {
      const what = [
        `${props.leg.side} stop at ${formatPrice(props.market, props.leg.triggerPrice)} ${props.market.quote.symbol} on ${props.market.base.symbol}/${props.market.quote.symbol}`,
        distance.value === null ? 'No trailing' : `Trail ${trailDistanceText(props.market, distance.value)} from the ${reference()}: main moves the stop toward the price, never away from it`,
        after.value === null ? 'No automatic break-even' : `Move to the entry after ${after.value} ticks of profit`,
      ];
      if (!(await terminal.trading.ask('Confirm trailing stop', what))) return;
    }
    setBusy(true);
    const armed = await bridge.armProtectiveStop({
      marketId: props.leg.marketId,
      ...(props.leg.turbo ? { turbo: true } : {}),
      triggerId: props.leg.triggerId,
      reference: reference(),
      distance: distance.value,
      breakEvenAfterTicks: after.value,
    });
    setBusy(false);
    if (!armed.ok) props.onFailure(armed);
  };

  const run = async (work: () => Promise<Result<unknown>>) => {
    props.onFailure(null);
    setBusy(true);
    const done = await work();
    setBusy(false);
    if (!done.ok) props.onFailure(done);
  };

  return (
    <Show
      when={props.managed}
      fallback={
        <div class="trigger-actions" data-testid="trail-controls">
          <input class="trigger-move" data-testid="trail-ticks" inputMode="decimal" placeholder={unit() === 'ticks' ? 'trail ticks' : unit() === 'percent' ? 'trail %' : `trail ${props.market.quote.symbol}`} value={ticks()} onInput={(event) => setTicks(event.currentTarget.value)} />
          <select data-testid="trail-unit" value={unit()} onChange={(event) => setUnit(event.currentTarget.value as TrailUnit)} title="The distance in ticks, in percent of the reference, or as a price distance">
            <option value="ticks">ticks</option>
            <option value="percent">%</option>
            <option value="price">{props.market.quote.symbol}</option>
          </select>
          <select data-testid="trail-reference" value={reference()} onChange={(event) => setReference(event.currentTarget.value as ProtectiveReference)}>
            <option value="bid">bid</option>
            <option value="ask">ask</option>
            <option value="last">last</option>
            <option value="mark">mark</option>
          </select>
          <input class="trigger-move" data-testid="trail-break-even" inputMode="numeric" placeholder="BE after ticks" value={breakEven()} onInput={(event) => setBreakEven(event.currentTarget.value)} />
          <button type="button" data-testid="trail-arm" disabled={busy()} onClick={() => void arm()}>
            Trail
          </button>
        </div>
      }
    >
      {(stop) => (
        <div class="trigger-actions" data-testid="trail-managed" data-stop-id={stop().id}>
          <span class="muted">{managedText(props.market, stop())}</span>
          <button type="button" data-testid="trail-break-even-now" disabled={busy()} onClick={() => void run(() => bridge.moveStopToBreakEven({ id: stop().id }))}>
            Break-even
          </button>
          <button type="button" data-testid="trail-disarm" disabled={busy()} onClick={() => void run(() => bridge.disarmProtectiveStop({ id: stop().id }))}>
            Stop trailing
          </button>
        </div>
      )}
    </Show>
  );
};
