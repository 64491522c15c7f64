import { For, Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { formatPpm, formatUnits, shortId } from '../../format/units';
import { marketLabel } from './market-label';

// Every market with the asset ids it trades: the pair text alone is not unique (spec 2.3).
export const MarketList: Component<{ markets: readonly Market[]; selected: string | null; onSelect: (marketId: string) => void }> = (props) => (
  <table class="market-list" data-testid="market-list">
    <thead>
      <tr>
        <th>Market</th>
        <th>Base asset</th>
        <th>Quote asset</th>
        <th class="num">Maker</th>
        <th class="num">Taker</th>
        <th class="num">Min order</th>
      </tr>
    </thead>
    <tbody>
      <For each={props.markets}>
        {(market) => (
          <tr
            data-testid="market-row"
            data-market-id={market.market_id}
            classList={{ selected: props.selected === market.market_id }}
            onClick={() => props.onSelect(market.market_id)}
          >
            <td>
              <span class="pair">
                {market.base.symbol}/{market.quote.symbol}
              </span>{' '}
              <Show when={marketLabel(market, props.markets).qualifier}>
                <span class="quote-id">{marketLabel(market, props.markets).qualifier}</span>
              </Show>
            </td>
            <td class="mono" title={market.base.asset}>{shortId(market.base.asset)}</td>
            <td class="mono" title={market.quote.asset}>{shortId(market.quote.asset)}</td>
            <td class="num">{formatPpm(market.maker_fee)}</td>
            <td class="num">{formatPpm(market.taker_fee)}</td>
            <td class="num">
              {formatUnits(market.min_order, market.quote.decimals)} {market.quote.symbol}
            </td>
          </tr>
        )}
      </For>
      <Show when={props.markets.length === 0}>
        <tr>
          <td colSpan={6} class="empty">No markets on this network</td>
        </tr>
      </Show>
    </tbody>
  </table>
);
