// The Working algorithms panel: every algorithm main runs on the active network, each with its
// progress (bar and figures in the market's precision, the cells Open orders uses), its average
// price against the price when it started, its children on the exchange, its state and why; pause,
// resume, a new price limit, cancel; and its children listed on demand. Main runs them and pushes
// every change on the `algos` stream: this panel only shows and asks.
// Stopping (pause, cancel) is always offered: it only stops main signing and cancels children.
// Resuming and changing the limit start trading again on what the window shows, so they wait for
// live data.
import { createMemo, createSignal, For, onCleanup, Show, type Component } from 'solid-js';
import type { TimerHandle } from '../../../../shared/clock';
import { parseUnits } from '../../../../shared/encoding/units';
import type { AlgoView } from '../../../../shared/ipc/views/algos';
import type { Market } from '../../../../shared/market/market';
import type { Result } from '../../../../shared/result';
import { priceCell, quantityCell } from '../../format/columns';
import { editablePrice } from '../../format/market-format';
import { formatClock } from '../../format/time';
import { shortId } from '../../format/units';
import { FreshnessBadge } from '../../lib/freshness';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { marketName } from '../markets/market-label';
import { createAlgoFreshness, createAlgoSource } from './algo-data';
import { algoActive, algoFigures, CHILD_STATUS_TEXT } from './algo-figures';
import './algos.css';

const TICK_MS = 1000;

/** Active algorithms first (newest first), then those that ended (newest first). */
function ordered(algos: readonly AlgoView[]): AlgoView[] {
  return [...algos].sort((a, b) => Number(algoActive(b.state)) - Number(algoActive(a.state)) || b.startedAt - a.startedAt);
}

export const AlgosPanel: Component = () => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const source = createAlgoSource(bridge);
  const freshness = createAlgoFreshness(terminal.freshness, source);
  const [now, setNow] = createSignal(terminal.clock.now());
  let timer: TimerHandle | null = null;
  const tick = () => {
    setNow(terminal.clock.now());
    timer = terminal.clock.setTimeout(tick, TICK_MS);
  };
  timer = terminal.clock.setTimeout(tick, TICK_MS);
  onCleanup(() => {
    if (timer !== null) terminal.clock.clearTimeout(timer);
  });

  // Rows keyed by id: a new snapshot updates a row in place (its open children list, a limit being
  // typed) instead of building it again.
  const [showEnded, setShowEnded] = createSignal(true);
  const ended = () => source.algos().filter((algo) => !algoActive(algo.state)).length;
  const rows = createMemo(
    () => ordered(source.algos().filter((algo) => showEnded() || algoActive(algo.state))).map((algo) => algo.id),
    undefined,
    { equals: (a, b) => a.length === b.length && a.every((id, index) => id === b[index]) },
  );
  const byId = createMemo(() => new Map(source.algos().map((algo) => [algo.id, algo])));
  const working = () => source.algos().filter((algo) => algoActive(algo.state)).length;

  return (
    <div class="algos" data-testid="algos" data-freshness={freshness.state()} data-received={source.received() ? 'true' : 'false'}>
      <div class="panel-head" style={{ 'min-height': '24px' }}>
        <span class="muted" data-testid="algos-count">
          {working()} working
        </span>
        <FreshnessBadge mark={freshness} testId="algos-freshness" />
        <label class="field-inline muted" title="Finished and cancelled algorithms, kept by main">
          <input type="checkbox" data-testid="algos-show-ended" checked={showEnded()} onChange={(event) => setShowEnded(event.currentTarget.checked)} /> ended ({ended()})
        </label>
        <Show when={!freshness.live()}>
          <span class="muted" data-testid="algos-not-live">
            Resume and new limits wait for live data; pause and cancel still work
          </span>
        </Show>
      </div>
      <div class="fresh-dim">
        <For each={rows()}>
          {(id) => (
            <Show when={byId().get(id)}>
              {(algo) => <AlgoRow algo={algo()} now={now()} live={freshness.live()} market={terminal.market(algo().spec.marketId)} />}
            </Show>
          )}
        </For>
        <Show when={rows().length === 0}>
          <div class="empty muted" data-testid="algos-empty">
            {!source.received()
              ? (source.problem() ?? 'Reading the algorithms main runs…')
              : ended() > 0 && !showEnded()
                ? `No working algorithms (${ended()} ended, hidden).`
                : 'No algorithms: start one from the ticket (order type → Algorithms), or Chase from the ladder’s right-click menu.'}
          </div>
        </Show>
      </div>
    </div>
  );
};

const AlgoRow: Component<{ algo: AlgoView; now: number; live: boolean; market: Market | null }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [expanded, setExpanded] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [limitText, setLimitText] = createSignal<string | null>(null);
  const figures = () => (props.market === null ? null : algoFigures(props.market, props.algo, props.now));
  const active = () => algoActive(props.algo.state);
  const takesLimit = () => props.algo.spec.params.kind === 'twap' || props.algo.spec.params.kind === 'chase';
  const limitValue = () => limitText() ?? (props.algo.spec.limitPrice === null || props.market === null ? '' : editablePrice(props.market, props.algo.spec.limitPrice));

  const act = async (what: string, call: () => Promise<Result<AlgoView>>) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await call();
      if (!answer.ok) {
        setError(`${what}: ${answer.message} (${answer.code})`);
        terminal.store.notify('error', `${figures()?.tag ?? 'Algorithm'} ${what.toLowerCase()}: ${answer.message}`, { code: answer.code });
      }
      return answer.ok;
    } finally {
      setBusy(false);
    }
  };
  const saveLimit = async () => {
    const market = props.market;
    if (market === null) return;
    const text = limitValue().trim();
    let limitPrice: bigint | null = null;
    if (text !== '') {
      const parsed = parseUnits(text, market.quote.decimals, 'Price limit');
      if (!parsed.ok || parsed.value === 0n) {
        setError(parsed.ok ? `Price limit: ${JSON.stringify(text)} must be above zero (empty: none).` : parsed.message);
        return;
      }
      limitPrice = parsed.value;
    }
    if (await act('New limit not set', () => bridge.amendAlgoLimit({ id: props.algo.id, limitPrice }))) setLimitText(null);
  };
  const unsafe = () => (props.live ? undefined : 'Waits for live data: the panel is not live now');

  return (
    <div class="algo-row" data-testid="algo-row" data-algo-id={props.algo.id} data-state={props.algo.state} data-kind={props.algo.spec.params.kind} data-market-id={props.algo.spec.marketId}>
      <div class="algo-line">
        <span class="algo-tag" data-testid="algo-tag">
          {figures()?.tag ?? props.algo.id}
        </span>
        <span classList={{ 'buy-text': props.algo.spec.side === 'Buy', 'sell-text': props.algo.spec.side === 'Sell' }}>{props.algo.spec.side}</span>
        <span title={props.algo.spec.marketId}>
          {props.market ? marketName(props.market, terminal.store.state.markets?.markets ?? []) : 'unknown market'}
          {props.algo.spec.turbo ? ' · Turbo' : ''}
        </span>
        <span class="muted" data-testid="algo-terms">
          {figures()?.terms ?? ''}
        </span>
        <span class="spacer" />
        <span class="algo-state" data-testid="algo-state">
          {figures()?.state ?? props.algo.state}
        </span>
      </div>
      <Show when={props.algo.reason}>
        <div class="algo-reason" data-testid="algo-reason" data-code={props.algo.reason!.code}>
          {figures()?.reason}
        </div>
      </Show>
      <div class="algo-line">
        <div class="algo-progress" data-testid="algo-progress" data-permille={figures()?.permille ?? 0} title={`${((figures()?.permille ?? 0) / 10).toFixed(1)} % filled`}>
          <i style={{ width: `${(figures()?.permille ?? 0) / 10}%` }} />
        </div>
        <span class="num" data-testid="algo-filled" data-raw={props.algo.filled.toString()}>
          {figures()?.filled ?? props.algo.filled.toString()}
        </span>
      </div>
      <Show when={figures()}>
        {(shown) => (
          <div class="algo-figures">
            <span>
              Remaining <b data-testid="algo-remaining" data-raw={props.algo.remaining.toString()}>{shown().remaining}</b>
            </span>
            <span title="Volume-weighted average of the fills, against the touch on its side when it started">
              Avg <b data-testid="algo-average">{shown().average}</b> vs arrival <b data-testid="algo-arrival">{shown().arrival}</b>
            </span>
            <span title="Average price against arrival, in basis points: positive is worse for you">
              Slippage <b data-testid="algo-slippage">{shown().slippage}</b>
            </span>
            <span>
              Children <b data-testid="algo-children-counts">{shown().children}</b>
            </span>
            <Show when={shown().next}>
              <span>
                Next slice <b data-testid="algo-next">{shown().next}</b>
              </span>
            </Show>
          </div>
        )}
      </Show>
      <For each={props.algo.notes}>{(note) => <div class="help" data-testid="algo-note">{note}</div>}</For>
      <div class="algo-line">
        <Show when={props.algo.state === 'running'}>
          <button type="button" data-testid="algo-pause" disabled={busy()} title="Stop placing new children; those open stay on the book" onClick={() => void act('Not paused', () => bridge.pauseAlgo({ id: props.algo.id }))}>
            Pause
          </button>
        </Show>
        <Show when={props.algo.state === 'paused'}>
          <button type="button" data-testid="algo-resume" disabled={busy() || !props.live} title={unsafe() ?? 'Place children again from now'} onClick={() => void act('Not resumed', () => bridge.resumeAlgo({ id: props.algo.id }))}>
            Resume
          </button>
        </Show>
        <Show when={active() && takesLimit()}>
          <label class="field-inline" title="No child at a worse price than this (empty: none); applies to the next child">
            <span>Limit</span>
            <input
              class="algo-limit-input num"
              data-testid="algo-limit-input"
              inputmode="decimal"
              placeholder="none"
              value={limitValue()}
              onInput={(event) => setLimitText(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && props.live) void saveLimit();
                if (event.key === 'Escape') setLimitText(null);
              }}
            />
          </label>
          <button type="button" data-testid="algo-limit-save" disabled={busy() || !props.live || limitText() === null} title={unsafe() ?? 'Set the new price limit'} onClick={() => void saveLimit()}>
            Set limit
          </button>
        </Show>
        <Show when={active()}>
          <button type="button" class="danger" data-testid="algo-cancel" disabled={busy()} title="Stop it and cancel its open children" onClick={() => void act('Not cancelled', () => bridge.cancelAlgo({ id: props.algo.id }))}>
            Cancel
          </button>
        </Show>
        <span class="spacer" />
        <button type="button" class="link" data-testid="algo-children-toggle" aria-expanded={expanded()} onClick={() => setExpanded(!expanded())}>
          {expanded() ? 'Hide' : 'Show'} children ({props.algo.children.length})
        </button>
      </div>
      <Show when={error()}>
        <div class="amend-error" data-testid="algo-error">
          {error()}
        </div>
      </Show>
      <Show when={expanded()}>
        <table class="algo-children" data-testid="algo-children">
          <thead>
            <tr>
              <th>Placed</th>
              <th class="num">Price</th>
              <th class="num">Quantity</th>
              <th class="num">Filled</th>
              <th>Status</th>
              <th>Order</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.algo.children}>
              {(child) => (
                <tr data-testid="algo-child" data-order-id={child.orderId ?? ''} data-status={child.status}>
                  <td class="mono">{formatClock(child.placedAt)}</td>
                  <td class="num">{props.market ? priceCell(props.market, child.price) : child.price.toString()}</td>
                  <td class="num">{props.market ? quantityCell(props.market, child.quantity) : child.quantity.toString()}</td>
                  <td class="num">{props.market ? quantityCell(props.market, child.filled) : child.filled.toString()}</td>
                  <td>{CHILD_STATUS_TEXT[child.status]}</td>
                  <td class="mono muted" title={child.orderId ?? child.journalId}>
                    {child.orderId === null ? '—' : shortId(child.orderId)}
                  </td>
                </tr>
              )}
            </For>
            <Show when={props.algo.children.length === 0}>
              <tr>
                <td colSpan={6} class="empty">
                  No child placed yet
                </td>
              </tr>
            </Show>
          </tbody>
        </table>
      </Show>
    </div>
  );
};
