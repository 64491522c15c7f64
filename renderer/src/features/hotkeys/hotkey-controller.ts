// The window's hotkeys: buy or sell at the best price with the ticket's size (only while the window
// is armed for that market and book, stores/arming-store), cancel the last order, cancel all in the
// market, recenter the ladders, toggle post-only. A key pressed while typing in a field is left to
// the field.
import { onCleanup } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import type { Side } from '../../../../shared/market/order-type';
import type { TerminalContextValue } from '../../app/terminal-context';
import { editablePrice } from '../../format/market-format';
import { bookRules } from '../../stores/turbo-store';
import { evaluateTicket } from '../ticket/ticket-model';
import { findHotkeyAction, isTypingTarget } from './hotkeys';

export interface HotkeyTarget {
  readonly market: () => Market | null;
  readonly turbo: () => boolean;
  readonly bestBid: () => bigint | null;
  readonly bestAsk: () => bigint | null;
  /** Whether the book the hotkeys trade at is live, and its state in words ("stale 12 s"). */
  readonly book?: () => { readonly live: boolean; readonly label: string };
}

export function installHotkeys(terminal: TerminalContextValue, target: HotkeyTarget): void {
  // Space on a focused button would also click it on key-up: swallow the key-up of a handled key.
  let swallowKeyUp: string | null = null;

  const atBest = (side: Side) => {
    const market = target.market();
    if (!market) return;
    const book = target.book?.();
    if (book && !book.live) {
      terminal.store.notify('warning', `Hotkey ${side.toLowerCase()} not sent: the ${market.base.symbol}/${market.quote.symbol} book is ${book.label}; hotkeys trade at the book only while it is live.`);
      return;
    }
    const price = side === 'Buy' ? target.bestAsk() : target.bestBid();
    if (price === null) {
      terminal.store.notify('warning', `No ${side === 'Buy' ? 'offer to buy from' : 'bid to sell to'} in ${market.base.symbol}/${market.quote.symbol}.`);
      return;
    }
    const turbo = target.turbo();
    // One-action trading obeys the window's arming, as ladder clicks do (issue 14 item 8).
    if (!terminal.arming.armed({ marketId: market.market_id, turbo })) {
      const why = terminal.arming.lastDisarm();
      terminal.store.notify('warning', `Hotkey ${side.toLowerCase()} not sent: trading is not armed for ${market.base.symbol}/${market.quote.symbol}${turbo ? ' (Turbo book)' : ''}${why ? ` (disarmed: ${why})` : ''}. Arm the ladder (ARM) to trade by click and hotkey.`);
      return;
    }
    // On a Turbo book its own row's rules (fees, min_order) apply.
    const rules = bookRules(terminal.store.state.markets, market, turbo, turbo ? terminal.turboBooks.row(market.market_id) : null);
    if (rules === null) {
      terminal.store.notify('warning', `Hotkey ${side.toLowerCase()} not sent: the Turbo book's rules of ${market.base.symbol}/${market.quote.symbol} are not loaded yet.`);
      return;
    }
    const draft = terminal.tickets.draft(market.market_id);
    const kind = draft.kind === 'Market' || draft.kind === 'BoundedMarket' ? 'Limit' : draft.kind;
    const balances = terminal.store.state.balances;
    const evaluation = evaluateTicket(
      { ...draft, side, kind, priceText: editablePrice(market, price) },
      {
        market: rules,
        turbo,
        maxOrderQuantity: terminal.store.state.settings?.maxOrderQuantity[market.market_id] ?? null,
        bestBid: target.bestBid(),
        bestAsk: target.bestAsk(),
        availableQuote: turbo ? null : (balances.find((balance) => balance.assetId === market.quote.asset)?.unlocked ?? null),
        availableBase: turbo ? null : (balances.find((balance) => balance.assetId === market.base.asset)?.unlocked ?? null),
      },
    );
    if (!evaluation.ok) {
      terminal.store.notify('error', `Hotkey ${side.toLowerCase()} not sent: ${evaluation.message}`);
      return;
    }
    void terminal.trading.place(market, evaluation.request, 'a hotkey');
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.repeat || isTypingTarget(event.target as HTMLElement | null)) return;
    if (document.querySelector('.modal-backdrop')) return;
    const bindings = terminal.store.state.settings?.hotkeys;
    if (!bindings) return;
    const action = findHotkeyAction(bindings, event);
    if (!action) return;
    event.preventDefault();
    swallowKeyUp = event.code;
    const market = target.market();
    switch (action) {
      case 'buyAtBest':
        atBest('Buy');
        break;
      case 'sellAtBest':
        atBest('Sell');
        break;
      case 'cancelLast': {
        const last = terminal.trading.lastOrder();
        if (last) void terminal.trading.cancel(last.market, last.orderId, last.turbo);
        else terminal.store.notify('info', 'No open order placed from this window to cancel.');
        break;
      }
      case 'cancelAll':
        if (market) void terminal.trading.cancelAll(market);
        break;
      case 'recenter':
        terminal.sendLadderCommand('recenter');
        break;
      case 'togglePostOnly':
        if (market) {
          const kind = terminal.tickets.togglePostOnly(market.market_id);
          terminal.store.notify('info', kind === 'PostOnly' ? 'Post-only on: orders only rest as maker.' : 'Post-only off: Limit orders.');
        }
        break;
    }
  };
  const onKeyUp = (event: KeyboardEvent) => {
    if (swallowKeyUp !== null && event.code === swallowKeyUp) {
      event.preventDefault();
      swallowKeyUp = null;
    }
  };
  window.addEventListener('keydown', onKeyDown);
  window.addEventListener('keyup', onKeyUp);
  onCleanup(() => {
    window.removeEventListener('keydown', onKeyDown);
    window.removeEventListener('keyup', onKeyUp);
  });
}
