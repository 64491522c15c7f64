// The ladder's own size per market and book, in this window: what its clicks and the buy/sell
// hotkeys trade, shown in its Size field and its armed banner. Kept apart from the ticket's
// quantity: a value typed in the ticket, refused there or not, never becomes the ladder's size.
import { createStore } from 'solid-js/store';

export interface LadderSizes {
  /** The Size field's text for this market and book ('' when empty). */
  text(marketId: string, turbo: boolean): string;
  set(marketId: string, turbo: boolean, text: string): void;
  /**
   * The first size of this market and book in this window, written once: a field the trader has
   * typed in or cleared is never filled again behind their back.
   */
  offerDefault(marketId: string, turbo: boolean, text: string): void;
}

const keyOf = (marketId: string, turbo: boolean) => `${marketId}|${turbo ? 'turbo' : 'canonical'}`;

export function createLadderSizes(): LadderSizes {
  const [sizes, setSizes] = createStore<Record<string, string>>({});
  return {
    text: (marketId, turbo) => sizes[keyOf(marketId, turbo)] ?? '',
    set: (marketId, turbo, text) => setSizes(keyOf(marketId, turbo), text),
    offerDefault(marketId, turbo, text) {
      const key = keyOf(marketId, turbo);
      if (sizes[key] === undefined) setSizes(key, text);
    },
  };
}
