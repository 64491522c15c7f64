// The window's hotkeys (keymap in settings, shared/hotkeys/keymap.ts): buy or sell at the best price
// with the ladder's size for that market and book, the one its Size field and armed banner show
// (only while the window is armed for that market and book, stores/arming-store; never the
// ticket's quantity), arm/disarm, the kill switch, flatten, close half or reverse the market's position (confirmed),
// size presets (they set the ladder's Size), cancel the last order, cancel all in the market, recenter the ladders, toggle
// post-only, and the "?" overlay that lists them. A key pressed while typing in a field is left to
// the field; none fires while a dialog is open.
import { createSignal, onCleanup } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import type { PositionView } from '../../../../shared/ipc/views';
import type { Side } from '../../../../shared/market/order-type';
import type { TerminalContextValue } from '../../stores/terminal-context';
import { sizePresetIndex } from '../../../../shared/hotkeys/keymap';
import { ladderPresets } from '../ladder/ladder-size';
import { editableQuantity } from '../../format/market-format';
import { bookRules } from '../../stores/turbo-store';
import { oneClickOrder } from '../ladder/one-click-order';
import { findHotkeyAction, isTypingTarget } from './hotkeys';

export interface HotkeyTarget {
  readonly market: () => Market | null;
  readonly turbo: () => boolean;
  readonly bestBid: () => bigint | null;
  readonly bestAsk: () => bigint | null;
  /** Whether the book the hotkeys trade at is live, and its state in words ("stale 12 s"). */
  readonly book?: () => { readonly live: boolean; readonly label: string };
}

/** Whether this window's hotkey overlay is open (one per window: each window is its own page). */
const [overlayOpen, setOverlayOpen] = createSignal(false);
export { overlayOpen as hotkeysOverlayOpen, setOverlayOpen as setHotkeysOverlayOpen };

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
    // One-action trading obeys the window's arming, as ladder clicks do.
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
    const balances = terminal.store.state.balances;
    const order = oneClickOrder(
      { side, price, sizeText: terminal.ladderSizes.text(market.market_id, turbo), ticketKind: terminal.tickets.draft(market.market_id).kind },
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
    if (!order.evaluation.ok) {
      terminal.store.notify('error', `Hotkey ${side.toLowerCase()} not sent: ${order.evaluation.message}`);
      return;
    }
    void terminal.trading.place(market, order.evaluation.request, "a hotkey (the ladder's Size)", [...(order.note === null ? [] : [order.note]), ...order.evaluation.warnings]);
  };

  const marketName = (market: Market) => `${market.base.symbol}/${market.quote.symbol}`;
  const book = (turbo: boolean) => (turbo ? 'Turbo' : 'Canonical');

  const toggleArm = (market: Market | null) => {
    if (!market) {
      terminal.store.notify('info', 'Arm/disarm: this window trades no market.');
      return;
    }
    const scope = { marketId: market.market_id, turbo: target.turbo() };
    if (terminal.arming.armed(scope)) {
      terminal.arming.disarm('disarmed by hotkey');
      terminal.store.notify('info', `Disarmed: ${marketName(market)} (${book(scope.turbo)} book) no longer trades by click or hotkey.`);
    } else {
      terminal.arming.arm(scope);
      terminal.store.notify('info', `Armed: ${marketName(market)} (${book(scope.turbo)} book) trades by ladder or chart click and hotkey.`);
    }
  };

  const flatten = async (market: Market | null) => {
    if (!market) return;
    const turbo = target.turbo();
    const read = await terminal.positions.refresh();
    if (!read.ok) {
      terminal.store.notify('error', `Flatten not sent: the positions could not be read (${read.code}): ${read.message}`);
      return;
    }
    const open = read.value.positions.filter((position) => position.marketId === market.market_id && position.turbo === turbo && position.size !== 0n);
    if (open.length === 0) {
      terminal.store.notify('info', `Flatten: no position in ${marketName(market)} on the ${book(turbo)} book.`);
      return;
    }
    // Always confirmed, naming the book and the account that signs (TradingActions.flatten).
    await terminal.trading.flatten(open.map((position) => ({ market, position })));
  };

  // Close half or reverse the one position of the market and book in view, always confirmed
  // (TradingActions.closePart / reverse state main's plan); several signing accounts: say so.
  const closePosition = async (market: Market | null, what: string, act: (position: PositionView) => Promise<unknown>) => {
    if (!market) return;
    const turbo = target.turbo();
    const read = await terminal.positions.refresh();
    if (!read.ok) {
      terminal.store.notify('error', `${what} not sent: the positions could not be read (${read.code}): ${read.message}`);
      return;
    }
    const open = read.value.positions.filter((position) => position.marketId === market.market_id && position.turbo === turbo && position.size !== 0n);
    if (open.length !== 1) {
      terminal.store.notify('info', open.length === 0 ? `${what}: no position in ${marketName(market)} on the ${book(turbo)} book.` : `${what}: ${open.length} accounts hold a position in ${marketName(market)} on the ${book(turbo)} book; use its row in Positions.`);
      return;
    }
    await act(open[0]!);
  };

  const sizePreset = (market: Market | null, index: number) => {
    if (!market) return;
    const turbo = target.turbo();
    // The presets the ladder shows for this book: the market's own from Settings, else the defaults.
    const rules = bookRules(terminal.store.state.markets, market, turbo, turbo ? terminal.turboBooks.row(market.market_id) : null) ?? market;
    const { presets, minimum } = ladderPresets(terminal.store.state.settings?.quantityPresets[market.market_id], rules, target.bestAsk() ?? target.bestBid());
    const preset = presets[index - 1];
    if (preset === undefined) {
      terminal.store.notify('warning', `Size preset ${index} is not set for ${marketName(market)} (${presets.length} preset${presets.length === 1 ? '' : 's'}): set the presets in Settings → Quantity presets.`);
      return;
    }
    if (preset < minimum) {
      terminal.store.notify('warning', `Size preset ${index} (${editableQuantity(market, preset)} ${market.base.symbol}) is below the smallest size the ${book(turbo)} book of ${marketName(market)} accepts now (${editableQuantity(market, minimum)} ${market.base.symbol}): the ladder's Size is unchanged.`);
      return;
    }
    terminal.ladderSizes.set(market.market_id, turbo, editableQuantity(market, preset));
    terminal.store.notify('info', `Ladder size ${editableQuantity(market, preset)} ${market.base.symbol} (preset ${index}) for ${marketName(market)} (${book(turbo)} book): clicks and ${terminal.store.state.settings?.hotkeys.buyAtBest ?? 'Shift+B'}/${terminal.store.state.settings?.hotkeys.sellAtBest ?? 'Shift+S'} trade it.`);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.repeat || isTypingTarget(event.target as HTMLElement | null)) return;
    const bindings = terminal.store.state.settings?.hotkeys;
    if (!bindings) return;
    const action = findHotkeyAction(bindings, event);
    if (overlayOpen() && (event.key === 'Escape' || action === 'showHotkeys')) {
      event.preventDefault();
      setOverlayOpen(false);
      return;
    }
    if (document.querySelector('.modal-backdrop')) return;
    if (!action) return;
    event.preventDefault();
    swallowKeyUp = event.code;
    const market = target.market();
    const preset = sizePresetIndex(action);
    if (preset !== null) {
      sizePreset(market, preset);
      return;
    }
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
      case 'toggleArm':
        toggleArm(market);
        break;
      case 'killSwitch':
        // Cancels only reduce risk: no confirmation, as the KILL button (it disarms every window first).
        void terminal.trading.cancelAll(null);
        break;
      case 'flatten':
        void flatten(market);
        break;
      case 'closeHalf':
        void closePosition(market, 'Close 50 %', (position) => terminal.trading.closePart(market!, position, 50));
        break;
      case 'closeHalfByLimit':
        void closePosition(market, 'Close 50 % by limit', (position) => terminal.trading.closeByLimit(market!, position, 50));
        break;
      case 'reverse':
        void closePosition(market, 'Reverse', (position) => terminal.trading.reverse(market!, position));
        break;
      case 'showHotkeys':
        setOverlayOpen(true);
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
