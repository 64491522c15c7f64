// A refusal as a notice: the trader sentence first (shared/errors/trader-text.ts, one table for
// main and the renderer), the raw exchange text and codes behind the centre's "Details" toggle.
import { describeFailure, marketRefusalContext, type RefusalContext } from '../../../../shared/errors/trader-text';
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { BalanceView } from '../../../../shared/ipc/views';
import { forwardedAmount } from '../../../../shared/market/amounts';
import type { Market } from '../../../../shared/market/market';
import type { Failure } from '../../../../shared/result';
import type { TerminalStore } from '../../stores/terminal-store';

type OrderRequest = Pick<RequestInput<'placeOrder'>, 'side' | 'price' | 'quantity'> & { readonly turbo?: boolean | undefined };

/** What the sentences may say about a market (its name as the screen writes it, its rules). */
export function marketContext(market: Market, name: string): RefusalContext {
  return marketRefusalContext(market, name);
}

/**
 * The order's side, price and size, and what it locks against what the trading account has
 * unlocked of that asset (a Turbo Account's funds are not in `balances`: no figure then).
 */
export function orderContext(market: Market, name: string, request: OrderRequest, balances: readonly BalanceView[]): RefusalContext {
  const locked = forwardedAmount(market, request.side, request.price, request.quantity);
  const asset = request.side === 'Buy' ? market.quote : market.base;
  const balance = request.turbo ? undefined : balances.find((row) => row.assetId === locked.asset);
  return {
    ...marketContext(market, name),
    side: request.side,
    price: request.price,
    quantity: request.quantity,
    needs: { amount: locked.amount, symbol: asset.symbol, decimals: asset.decimals, available: balance ? balance.unlocked : null },
  };
}

/** Notify a refusal: `title` says what was refused ("Order refused"), the text is the trader sentence. */
export function notifyFailure(store: TerminalStore, title: string, failure: Failure, context: RefusalContext = {}): void {
  const text = describeFailure(failure, context);
  store.notify('error', text.sentence, { title, details: text.details, code: failure.code });
}
