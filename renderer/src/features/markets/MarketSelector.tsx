// The market selector: the current market with its quote asset id when its pair text is shared,
// and a searchable list (symbols or pasted asset ids). The list stays in the page while closed
// so a test or a screen reader can still find every market row.
import { createMemo, createSignal, Show, type Component } from 'solid-js';
import { closeOnPressOutside } from '../../lib/click-outside';
import type { Market } from '../../../../shared/market/market';
import { labelText, marketLabel, marketMatches } from './market-label';
import { MarketList } from './MarketList';

export const MarketSelector: Component<{ markets: readonly Market[]; selected: Market | null; onSelect: (marketId: string) => void; problem: string | null }> = (props) => {
  const [open, setOpen] = createSignal(false);
  const [query, setQuery] = createSignal('');
  const shown = createMemo(() => props.markets.filter((market) => marketMatches(market, query())));
  let root: HTMLDivElement | undefined;
  closeOnPressOutside(() => root, () => setOpen(false));
  return (
    <div class="market-selector" ref={(element) => (root = element)}>
      <button type="button" class="current" data-testid="market-selector" title={props.selected ? `base ${props.selected.base.asset}\nquote ${props.selected.quote.asset}\nmarket ${props.selected.market_id}` : ''} onClick={() => setOpen(!open())}>
        <Show when={props.selected} fallback={<span class="muted">{props.problem ?? 'Loading markets…'}</span>}>
          {(market) => <b data-testid="selected-market">{labelText(marketLabel(market(), props.markets))}</b>}
        </Show>
        <span class="muted">▾</span>
      </button>
      <div class="menu" style={{ display: open() ? 'block' : 'none' }} data-testid="market-menu">
        <input placeholder="Search: symbol or asset id" data-testid="market-search" value={query()} onInput={(event) => setQuery(event.currentTarget.value)} />
        <MarketList
          markets={shown()}
          selected={props.selected?.market_id ?? null}
          onSelect={(marketId) => {
            props.onSelect(marketId);
            setOpen(false);
          }}
        />
      </div>
    </div>
  );
};
