// The ticket with an algorithm chosen: the side, the total (the ticket's Quantity), the algorithm's
// parameters from its table (shared/algos/algo-kinds.ts) parsed exactly with the market's decimals
// (algo-form.ts), main's preview of what it would place (previewAlgo: the planned children, the
// signed batches, the rounding in words), and Start, which only follows a preview of exactly the
// spec on screen. Main runs it (main/services/algos); the Working algorithms panel follows it.
import { createMemo, createSignal, For, Match, Show, Switch, type Component } from 'solid-js';
import { ALGO_KIND_TABLE, type AlgoParameter, type AlgoParameterName } from '../../../../shared/algos/algo-kinds';
import type { AlgoKind, AlgoPreview } from '../../../../shared/ipc/views/algos';
import type { Market } from '../../../../shared/market/market';
import type { Result } from '../../../../shared/result';
import { priceCell, quantityCell } from '../../format/columns';
import { editablePrice, formatPrice, formatQuantity } from '../../format/market-format';
import { FreshnessBadge } from '../../lib/freshness';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { createTouchFeed } from '../market-data/touch-feed';
import { KindSelect } from '../ticket/KindSelect';
import '../ticket/ticket.css';
import { algoTag } from './algo-figures';
import { algoSpec, fieldShown, specKey } from './algo-form';
import { previewRows, previewSummary } from './algo-preview-text';
import './algos.css';

/** Rows of planned children listed in the preview (runs of equal ones folded); the rest are counted. */
const PREVIEW_ROWS = 12;

export const AlgoTicketForm: Component<{ market: Market; turbo: boolean; kind: AlgoKind }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const marketId = () => props.market.market_id;
  const draft = () => terminal.tickets.draft(marketId());
  const texts = () => terminal.tickets.algo(marketId()).texts[props.kind] ?? {};
  const table = () => ALGO_KIND_TABLE[props.kind];
  const [touched, setTouched] = createSignal(false);
  const [preview, setPreview] = createSignal<{ key: string; result: Result<AlgoPreview> } | null>(null);
  const [busy, setBusy] = createSignal<'preview' | 'start' | null>(null);
  const [lastResult, setLastResult] = createSignal<{ ok: boolean; text: string; code?: string } | null>(null);

  // The touch, for the price shortcuts and to hold Start while the book is not live (TWAP and
  // chase price their children from it).
  const touch = createTouchFeed(bridge, terminal.frames, terminal.freshness, marketId, () => props.turbo, () => props.market);
  const bookFreshness = touch.freshness;
  const { live, bestBid, bestAsk } = touch;

  const evaluation = createMemo(() => algoSpec(props.market, props.turbo, { kind: props.kind, side: draft().side, quantityText: draft().quantityText, texts: texts() }));
  const spec = () => {
    const current = evaluation();
    return current.ok ? current.spec : null;
  };
  const key = () => {
    const current = spec();
    return current === null ? null : specKey(current);
  };
  /** Main's preview of exactly the spec on screen (an older one is not shown). */
  const shownPreview = () => {
    const current = preview();
    return current !== null && current.key === key() ? current.result : null;
  };
  const problemField = () => {
    const current = evaluation();
    return !current.ok && touched() ? current.field : null;
  };

  const setText = (name: AlgoParameterName, text: string) => {
    setTouched(true);
    terminal.tickets.setAlgoText(marketId(), props.kind, name, text);
  };
  const textOf = (parameter: AlgoParameter) => texts()[parameter.name] ?? parameter.initial;
  const shown = () => table().parameters.filter((parameter) => fieldShown(props.kind, parameter, texts()));

  const canTrade = () => terminal.store.state.account?.canTrade === true;
  const needsTouch = () => props.kind === 'twap' || props.kind === 'chase';
  const why = (): string => {
    const current = evaluation();
    if (!current.ok) return touched() ? '' : current.message;
    if (!canTrade()) return 'No trading session yet: finish the account setup first';
    if (needsTouch() && live() === null) return `The book is ${bookFreshness.label()}: ${table().label} prices its orders from the touch, so it starts once the book is live`;
    const previewed = shownPreview();
    if (previewed === null) return 'Preview first: main shows what it would place before anything is signed';
    if (!previewed.ok) return `Main refuses this ${table().label}: ${previewed.message}`;
    return '';
  };

  const runPreview = async () => {
    setTouched(true);
    const current = spec();
    const currentKey = key();
    if (current === null || currentKey === null || busy() !== null) return;
    setBusy('preview');
    setLastResult(null);
    try {
      const answer = await bridge.previewAlgo(current);
      setPreview({ key: currentKey, result: answer });
    } finally {
      setBusy(null);
    }
  };

  const start = async () => {
    setTouched(true);
    const current = spec();
    if (current === null || why() !== '' || busy() !== null) return;
    setBusy('start');
    try {
      const started = await bridge.startAlgo(current);
      if (started.ok) {
        const text = `Started ${algoTag(started.value)}: ${current.side.toLowerCase()} ${formatQuantity(props.market, current.quantity)} ${props.market.base.symbol}; follow it under Working algorithms.`;
        // Main announces the start itself (its notice): the ticket says it in place only.
        setLastResult({ ok: true, text });
        setPreview(null);
      } else {
        setLastResult({ ok: false, text: `${table().label} not started: ${started.message}`, code: started.code });
      }
    } finally {
      setBusy(null);
    }
  };

  const side = () => draft().side;
  const sideClass = () => (side() === 'Buy' ? 'buy-side' : 'sell-side');
  const priceShortcut = (parameter: AlgoParameter, price: bigint | null) => {
    if (price !== null) setText(parameter.name, editablePrice(props.market, price));
  };

  return (
    <form
      class="ticket algo-ticket"
      data-testid="ticket-form"
      data-algo={props.kind}
      data-book={props.turbo ? 'turbo' : 'canonical'}
      data-book-freshness={bookFreshness.state()}
      onSubmit={(event) => {
        event.preventDefault();
        void (shownPreview()?.ok ? start() : runPreview());
      }}
    >
      <div class="side-toggle">
        <button type="button" class="buy-side" classList={{ on: side() === 'Buy' }} data-testid="ticket-side-buy" onClick={() => terminal.tickets.setSide(marketId(), 'Buy')}>
          Buy
        </button>
        <button type="button" class="sell-side" classList={{ on: side() === 'Sell' }} data-testid="ticket-side-sell" onClick={() => terminal.tickets.setSide(marketId(), 'Sell')}>
          Sell
        </button>
      </div>
      <KindSelect marketId={marketId()} />
      <label class="field">
        <span class="field-title">
          <span>Total ({props.market.base.symbol})</span>
          <FreshnessBadge mark={bookFreshness} testId="ticket-book-freshness" />
        </span>
        <input
          data-testid="ticket-quantity"
          inputmode="decimal"
          autocomplete="off"
          spellcheck={false}
          classList={{ invalid: problemField() === 'quantity' }}
          value={draft().quantityText}
          onInput={(event) => {
            setTouched(true);
            terminal.tickets.update(marketId(), { quantityText: event.currentTarget.value });
          }}
        />
      </label>
      <div class="algo-params" data-testid="algo-params">
        <For each={shown()}>
          {(parameter) => (
            <label class="field" classList={{ 'field-check': parameter.kind === 'flag' }} title={parameter.help}>
              <Switch
                fallback={
                  <>
                    <span class="field-title">
                      <span>
                        {parameter.label}
                        {unitOf(props.market, parameter)}
                        {parameter.optional ? <span class="muted"> · optional</span> : ''}
                      </span>
                      <Show when={parameter.kind === 'price'}>
                        <button type="button" class="link" data-testid={`algo-param-${parameter.name}-bid`} onClick={() => priceShortcut(parameter, bestBid())}>
                          bid {bestBid() !== null ? formatPrice(props.market, bestBid()!) : '—'}
                        </button>
                        <button type="button" class="link" data-testid={`algo-param-${parameter.name}-ask`} onClick={() => priceShortcut(parameter, bestAsk())}>
                          ask {bestAsk() !== null ? formatPrice(props.market, bestAsk()!) : '—'}
                        </button>
                      </Show>
                    </span>
                    <input
                      data-testid={`algo-param-${parameter.name}`}
                      inputmode="decimal"
                      autocomplete="off"
                      spellcheck={false}
                      classList={{ invalid: problemField() === parameter.name }}
                      placeholder={parameter.optional ? 'none' : ''}
                      value={textOf(parameter)}
                      onInput={(event) => setText(parameter.name, event.currentTarget.value)}
                    />
                  </>
                }
              >
                <Match when={parameter.kind === 'choice'}>
                  <span>{parameter.label}</span>
                  <select data-testid={`algo-param-${parameter.name}`} value={textOf(parameter)} onChange={(event) => setText(parameter.name, event.currentTarget.value)}>
                    <For each={parameter.choices ?? []}>{(choice) => <option value={choice.value}>{choice.label}</option>}</For>
                  </select>
                </Match>
                <Match when={parameter.kind === 'flag'}>
                  <input type="checkbox" data-testid={`algo-param-${parameter.name}`} checked={textOf(parameter) !== 'false'} onChange={(event) => setText(parameter.name, event.currentTarget.checked ? 'true' : 'false')} /> {parameter.label}
                </Match>
              </Switch>
              <span class="help">{parameter.help}</span>
            </label>
          )}
        </For>
      </div>
      <Show when={shownPreview()}>
        {(answer) => (
          <Show
            when={answer().ok ? (answer() as { value: AlgoPreview }).value : null}
            fallback={
              <div class="ticket-warning" data-testid="algo-preview-refused" data-code={(answer() as { code: string }).code}>
                Main refuses this {table().label}: {(answer() as { message: string }).message}
              </div>
            }
          >
            {(value) => (
              <div
                class="algo-preview"
                data-testid="algo-preview"
                data-children={value().children.length}
                data-batches={value().batches}
                // The preview lands under the parameters, often below the fold of the panel: brought into view when it arrives.
                ref={(element) => requestAnimationFrame(() => element.scrollIntoView({ block: 'start', behavior: 'auto' }))}
              >
                <div class="algo-preview-summary" data-testid="algo-preview-summary">
                  {previewSummary(props.market, value())}
                </div>
                <table class="algo-preview-children">
                  <thead>
                    <tr>
                      <th class="num">Orders</th>
                      <th class="num">Price ({props.market.quote.symbol})</th>
                      <th class="num">Size ({props.market.base.symbol})</th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={previewRows(value().children).slice(0, PREVIEW_ROWS)}>
                      {(child) => (
                        <tr data-testid="algo-preview-child" data-price={child.price.toString()} data-quantity={child.quantity.toString()} data-count={child.count}>
                          <td class="num muted">{child.count > 1 ? `${child.count} ×` : '1'}</td>
                          <td class="num">{priceCell(props.market, child.price)}</td>
                          <td class="num">{quantityCell(props.market, child.quantity)}</td>
                        </tr>
                      )}
                    </For>
                    <Show when={previewRows(value().children).length > PREVIEW_ROWS}>
                      <tr>
                        <td colSpan={3} class="muted">
                          … and {previewRows(value().children).slice(PREVIEW_ROWS).reduce((sum, row) => sum + row.count, 0)} more
                        </td>
                      </tr>
                    </Show>
                  </tbody>
                </table>
                <For each={value().notes}>{(note) => <div class="help" data-testid="algo-preview-note">{note}</div>}</For>
              </div>
            )}
          </Show>
        )}
      </Show>
      <div class="ticket-footer" data-testid="ticket-footer">
        <div class="ticket-problem" data-testid="ticket-problem" role="status">
          {!evaluation().ok && touched() ? (evaluation() as { message: string }).message : ''}
        </div>
        <Show when={why() !== ''}>
          <div class="help" data-testid="ticket-why" role="status">
            {why()}
          </div>
        </Show>
        <div class="algo-buttons">
          <button type="button" data-testid="algo-preview-button" disabled={spec() === null || busy() !== null} onClick={() => void runPreview()}>
            {busy() === 'preview' ? 'Asking main…' : 'Preview'}
          </button>
          <button type="button" class={`ticket-submit ${sideClass()}`} data-testid="algo-start" disabled={why() !== '' || busy() !== null} title={why()} onClick={() => void start()}>
            {busy() === 'start' ? 'Starting…' : `Start ${table().label}: ${side()} ${draft().quantityText.trim() || ''} ${props.market.base.symbol}${props.turbo ? ' · Turbo' : ''}`}
          </button>
        </div>
        <Show when={lastResult()}>
          {(result) => (
            <div classList={{ 'ticket-warning': !result().ok, help: result().ok }} data-testid="ticket-result" data-ok={result().ok ? 'true' : 'false'} data-code={result().code ?? ''}>
              {result().text}
            </div>
          )}
        </Show>
      </div>
    </form>
  );
};

/** " (USDC)", " (min)", " (%)": the unit a parameter is typed in. */
function unitOf(market: Market, parameter: AlgoParameter): string {
  switch (parameter.kind) {
    case 'price':
      return ` (${market.quote.symbol})`;
    case 'size':
      return ` (${market.base.symbol})`;
    case 'minutes':
      return ' (min)';
    case 'seconds':
      return ' (s)';
    case 'percent':
      return ' (%)';
    case 'bps':
      return ' (bps)';
    case 'ratio':
      return ' (×)';
    case 'ticks':
      return ' (ticks)';
    default:
      return '';
  }
}
