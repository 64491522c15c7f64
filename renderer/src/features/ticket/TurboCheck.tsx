// What main will do with a ticket's order on a Turbo book (checkTurboOrder): who signs it, the
// order type it signs (a plain Market order becomes a BoundedMarket with its bounds), the quote it
// draws or the base it borrows in the same batch, and, when it would be refused, the reason. The
// exchange stays authoritative; this only spares the trader a refusal.
import { For, Match, Show, Switch, type Component } from 'solid-js';
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { TurboOrderCheck } from '../../../../shared/ipc/views/margin';
import type { Market } from '../../../../shared/market/market';
import type { Result } from '../../../../shared/result';
import { formatPrice, formatQuantity, formatQuote } from '../../format/market-format';
import { shortId } from '../../format/units';
import type { TicketReady } from './ticket-model';

/** The check of the order the ticket would place now. */
export function turboCheckInput(ready: TicketReady): RequestInput<'checkTurboOrder'> {
  const { request } = ready;
  const orderType = request.orderType;
  return {
    marketId: request.marketId,
    side: request.side,
    orderKind: orderType.kind,
    price: request.price,
    quantity: request.quantity,
    ...(orderType.kind === 'BoundedMarket' ? { maxPrice: orderType.maxPrice, minPrice: orderType.minPrice } : {}),
  };
}

/** What identifies a check: the order, without a market order's reference price (it moves with the book). */
export function turboCheckKey(input: RequestInput<'checkTurboOrder'>): string {
  return [input.marketId, input.side, input.orderKind, input.quantity, input.orderKind === 'Market' ? '' : input.price, input.maxPrice ?? '', input.minPrice ?? ''].join('|');
}

/**
 * Main's warnings, less those the check's own lines already say (the conversion's bound, the draw
 * or borrow), so each fact is shown once.
 */
export function otherWarnings(warnings: readonly string[]): string[] {
  return warnings.filter((warning) => !/^(Market order sent as BoundedMarket|Draws |Borrows )/.test(warning));
}

export const TurboCheckView: Component<{ market: Market; check: Result<TurboOrderCheck> | null; pending: boolean }> = (props) => {
  /** The bound that limits the order: a buy's highest price, a sale's lowest. */
  const worst = (check: TurboOrderCheck) => (check.side === 'Buy' ? check.orderType.maxPrice : check.orderType.minPrice);
  return (
    <div
      class="ticket-turbo"
      classList={{ checking: props.pending }}
      data-testid="ticket-turbo-check"
      data-state={props.pending ? 'checking' : props.check === null ? 'idle' : props.check.ok && props.check.value.allowed ? 'allowed' : 'refused'}
    >
      <Switch fallback={<span class="muted">{props.pending ? 'Checking with the margin account…' : 'Main checks a Turbo order against the account before it is signed.'}</span>}>
        <Match when={props.check && !props.check.ok ? props.check : null}>
          {(failure) => (
            <div class="error" data-testid="ticket-turbo-refusal" data-code={failure().code}>
              <span class="mono">{failure().code}</span> {failure().message}
            </div>
          )}
        </Match>
        <Match when={props.check?.ok ? props.check.value : null}>
          {(check) => (
            <>
              <div data-testid="ticket-turbo-signer">
                Signed as {check().tradingAs ? <span class="mono" title={check().tradingAs ?? ''}>Turbo Account {shortId(check().tradingAs ?? '')}</span> : 'the trading account'}
              </div>
              <Show when={check().allowed}>
                <div data-testid="ticket-turbo-order">
                  Sent as <b>{check().orderType.kind}</b>
                  <Show when={worst(check())}>
                    {(price) => (
                      <>
                        {', '}
                        <span data-testid="ticket-turbo-bounds">
                          {check().side === 'Buy' ? 'buying at most at' : 'selling at least at'} <span class="mono">{formatPrice(props.market, price())}</span> {props.market.quote.symbol}
                        </span>
                      </>
                    )}
                  </Show>{' '}
                  · value <span class="mono">{formatQuote(props.market, check().quoteValue)} {props.market.quote.symbol}</span>
                </div>
              </Show>
              <Show when={check().draw > 0n}>
                <div data-testid="ticket-turbo-draw">
                  Draws <b class="mono">{formatQuote(props.market, check().draw)} {props.market.quote.symbol}</b> of credit in the same batch
                </div>
              </Show>
              <Show when={check().borrow > 0n}>
                <div data-testid="ticket-turbo-borrow">
                  Borrows <b class="mono">{formatQuantity(props.market, check().borrow)} {props.market.base.symbol}</b> in the same batch
                </div>
              </Show>
              <Show when={check().buyCapacity !== null && check().side === 'Buy'}>
                <div class="muted" data-testid="ticket-turbo-capacity">
                  Buy capacity {formatQuote(props.market, check().buyCapacity ?? 0n)} {props.market.quote.symbol}
                </div>
              </Show>
              <For each={otherWarnings(check().warnings)}>{(warning) => <div class="ticket-warning">{warning}</div>}</For>
              <Show when={!check().allowed}>
                <div class="error" data-testid="ticket-turbo-refusal" data-code={check().refusal?.code ?? ''}>
                  <span class="mono">{check().refusal?.code}</span> {check().refusal?.message ?? 'Main refuses this order.'}
                </div>
              </Show>
            </>
          )}
        </Match>
      </Switch>
    </div>
  );
};
