// The market bar of the main window: the market, its book (canonical or Turbo, switched here), the
// link group, the rules of the book traded on (tick, size step, minimum order, dust threshold, fees:
// a Turbo book has its own), its price window, the last price with its 24-hour change, and the
// inside market.
import { Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { priceTick, quantityTick } from '../../../../shared/market/tick';
import { useTerminal } from '../../stores/terminal-context';
import { FreshnessBadge, type FreshnessMark } from '../../lib/freshness';
import { formatPrice, formatQuantity, formatQuote } from '../../format/market-format';
import { formatPpm, formatUnits } from '../../format/units';
import { bookRules } from '../../stores/turbo-store';
import { useBridge } from '../../stores/bridge-context';
import { followOverview } from '../overview/overview-source';
import { headerFigures, priceWindowText } from '../overview/overview-text';
import { LinkGroupSelector } from '../desk/LinkGroupSelector';
import { TurboToggle } from '../margin';
import { insideText } from './inside-text';
import { MarketSelector } from './MarketSelector';

export const MarketHeader: Component<{
  markets: readonly Market[];
  market: Market | null;
  onSelect: (marketId: string) => void;
  problem: string | null;
  turbo: boolean;
  onTurbo: (turbo: boolean) => void;
  bestBid: bigint | null;
  bestAsk: bigint | null;
  /** The last trade of the book shown (its live trade stream), when one arrived. */
  lastTrade?: bigint | null;
  /** The grouping of the stream the inside comes from (raw price units), when known. */
  insidePrecision?: bigint | null;
  /** How current the inside market is (the book it comes from). */
  freshness?: FreshnessMark;
}> = (props) => {
  const terminal = useTerminal();
  const rules = () => {
    const market = props.market;
    return market ? bookRules(terminal.store.state.markets, market, props.turbo, props.turbo ? terminal.turboBooks.row(market.market_id) : null) : null;
  };
  // The 24-hour figures are the book's own: the canonical ticker main reads, or on a Turbo book the Turbo book's.
  const overview = followOverview(useBridge());
  const bookRow = (marketId: string) => (props.turbo ? overview.turboRow(marketId) : overview.row(marketId));
  const figures = (market: Market) => headerFigures(market, props.lastTrade ?? null, bookRow(market.market_id));
  const windowTitle = (book: Market) => {
    const band = priceWindowText(book, props.lastTrade ?? bookRow(book.market_id)?.last ?? null).band;
    return `Price window: the exchange refuses limit, spot, post-only and fill-or-kill prices further than ${book.price_window} % from its reference price${band ? ` (around the last trade: ${band} ${book.quote.symbol})` : ''}; market and bounded-market orders are exempt`;
  };
  const inside = (market: Market) => insideText(market, props.bestBid, props.bestAsk, props.insidePrecision ?? null);
  return (
    <div class="marketbar" data-testid="market-bar" data-book={props.turbo ? 'turbo' : 'canonical'}>
      <MarketSelector markets={props.markets} selected={props.market} onSelect={props.onSelect} problem={props.problem} />
      <LinkGroupSelector />
      <Show when={props.market}>{(market) => <TurboToggle marketId={market().market_id} turbo={props.turbo} onChange={props.onTurbo} />}</Show>
      <div class="spacer" />
      <Show when={props.market && rules()}>
        {(book) => (
          <span class="book-facts muted" data-testid="book-facts" title={`The rules of the ${props.turbo ? 'Turbo' : 'canonical'} book: orders are checked against them before they are signed`}>
            tick <b class="mono">{formatPrice(book(), priceTick(book()))}</b> · size step <b class="mono">{formatQuantity(book(), quantityTick(book()))}</b> · min order{' '}
            <b class="mono" data-testid="book-min-order">
              {formatQuote(book(), book().min_order)} {book().quote.symbol}
            </b>{' '}
            ·{' '}
            <span title={`Sizes below the dust threshold are ignored by the book: an order smaller than it is refused, and a remainder smaller than it is closed`}>
              dust{' '}
              <b class="mono" data-testid="book-dust">
                {formatUnits(book().dust, book().base.decimals, Math.min(book().base.decimals, book().base.max_precision))} {book().base.symbol}
              </b>
            </span>{' '}
            · maker/taker <b class="mono">{formatPpm(book().maker_fee)}</b>/<b class="mono">{formatPpm(book().taker_fee)}</b> ·{' '}
            <span title={windowTitle(book())}>
              window <b class="mono" data-testid="book-price-window">{priceWindowText(book(), null).text}</b>
            </span>
          </span>
        )}
      </Show>
      <Show when={props.market && figures(props.market).last !== null ? props.market : null}>
        {(market) => (
          <span class="last-price mono" data-testid="market-last" data-freshness={props.freshness?.state() ?? 'live'} title={props.turbo ? "Last trade on the Turbo book, and its change over 24 hours (the exchange's ticker of the Turbo book)" : "Last trade, and the change over 24 hours (the exchange's ticker)"}>
            <span class="muted">last</span> <b class="fresh-dim">{figures(market()).last}</b>{' '}
            <Show when={figures(market()).change}>
              {(change) => (
                <span data-testid="market-change" classList={{ buy: figures(market()).sign > 0, sell: figures(market()).sign < 0 }}>
                  {change()}
                </span>
              )}
            </Show>
          </span>
        )}
      </Show>
      <Show when={props.market}>
        {(market) => (
          <span
            class="inside mono"
            data-testid="inside-market"
            data-grouping={inside(market()).grouping?.toString()}
            data-freshness={props.freshness?.state() ?? 'live'}
            title={inside(market()).groupingLabel === null ? undefined : `Prices grouped by ${inside(market()).groupingLabel}: the best bid is at least, the best ask at most, the figure shown`}
          >
            <Show when={props.freshness}>{(mark) => <FreshnessBadge mark={mark()} testId="inside-freshness" />}</Show>{' '}
            <span class="buy fresh-dim" title="Best bid">
              {inside(market()).bid}
            </span>
            <span class="muted"> / </span>
            <span class="sell fresh-dim" title="Best ask">
              {inside(market()).ask}
            </span>
          </span>
        )}
      </Show>
    </div>
  );
};
