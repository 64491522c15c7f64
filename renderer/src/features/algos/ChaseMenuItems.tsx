// "Chase buy / Chase sell from here" in the ladder's context menu (the right click, never the click
// that trades): a chase of the ladder's own Size, following the touch, never past the row's price.
// It is started after main's preview and a confirmation, as the ticket's Start follows a preview.
import { For, Show, type JSX } from 'solid-js';
import { ALGO_KIND_TABLE, LADDER_ALGO_KINDS } from '../../../../shared/algos/algo-kinds';
import type { Market } from '../../../../shared/market/market';
import type { Side } from '../../../../shared/market/order-type';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { previewSummary } from './algo-preview-text';
import { ladderChase, ladderChaseLimit } from './ladder-chase';

export function ChaseMenuItems(props: { market: Market; turbo: boolean; price: bigint; sizeText: string; live: boolean; liveLabel: string; onClose: () => void }): JSX.Element {
  const terminal = useTerminal();
  const bridge = useBridge();
  const label = ALGO_KIND_TABLE.chase.label;
  const chase = async (side: Side) => {
    // Read before the menu closes: the row it was opened on is gone then, and its props with it.
    const { market, turbo, price, sizeText } = props;
    props.onClose();
    const built = ladderChase(market, turbo, side, price, sizeText);
    if (!built.ok) {
      terminal.store.notify('error', `${label} ${side.toLowerCase()} not started: ${built.field === 'quantity' ? `the ladder's Size field: ${built.message}` : built.message}`, { code: built.code });
      return;
    }
    const spec = built.spec;
    const preview = await bridge.previewAlgo(spec);
    if (!preview.ok) {
      terminal.store.notify('error', `${label} ${side.toLowerCase()} not started: ${preview.message}`, { code: preview.code });
      return;
    }
    const base = market.base.symbol;
    const limit = `${formatPrice(market, spec.limitPrice!)} ${market.quote.symbol}`;
    const confirmed = await terminal.trading.ask(`${label} ${side.toLowerCase()} ${formatQuantity(market, spec.quantity)} ${base}${turbo ? ' (Turbo book)' : ''}`, [
      previewSummary(market, preview.value),
      `Never ${side === 'Buy' ? 'above' : 'below'} ${limit} (the row you clicked): past it, it waits.`,
      ...preview.value.notes,
    ]);
    if (!confirmed) return;
    const started = await bridge.startAlgo(spec);
    // A start is announced by main's own notice; a refusal is said here (nothing else would).
    if (!started.ok) terminal.store.notify('error', `${label} ${side.toLowerCase()} not started: ${started.message}`, { code: started.code });
  };
  const sides: readonly Side[] = ['Buy', 'Sell'];
  return (
    <Show when={LADDER_ALGO_KINDS.includes('chase')}>
      <For each={sides}>
        {(side) => (
          <button
            type="button"
            role="menuitem"
            data-testid={`ladder-chase-${side.toLowerCase()}`}
            disabled={!props.live}
            title={props.live ? `${ALGO_KIND_TABLE.chase.help} Size: the ladder's Size field; limit: this row's price. Asks before starting.` : `The book is ${props.liveLabel}: a chase starts from a live book`}
            onClick={() => void chase(side)}
          >
            {label} {side.toLowerCase()} from here ({props.sizeText.trim() || 'no size'} {props.market.base.symbol}, limit {formatPrice(props.market, ladderChaseLimit(props.market, side, props.price))})
          </button>
        )}
      </For>
      <hr class="menu-separator" />
    </Show>
  );
}
