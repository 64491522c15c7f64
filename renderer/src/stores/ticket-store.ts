// The ticket's choices per market (side, order type, quantity, bounds) in this window. The ladder
// and the buy/sell hotkeys take the ticket's order type (shown in the ladder's armed banner) but
// never its quantity: they trade the ladder's own size (ladder-size-store.ts).
import { createStore } from 'solid-js/store';
import type { OrderTypeKind, Side } from '../../../shared/market/order-type';
import type { TicketFields } from '../features/ticket/ticket-model';

export type TicketDraft = TicketFields;

const EMPTY: TicketDraft = {
  side: 'Buy',
  kind: 'Limit',
  priceText: '',
  quantityText: '',
  maxPriceText: '',
  minPriceText: '',
  timestampText: '',
};

export interface TicketStore {
  draft(marketId: string): TicketDraft;
  update(marketId: string, change: Partial<TicketDraft>): void;
  /** Post-only toggle of the hotkey: Limit <-> PostOnly (other types become PostOnly). */
  togglePostOnly(marketId: string): OrderTypeKind;
  setSide(marketId: string, side: Side): void;
}

export function createTicketStore(): TicketStore {
  const [drafts, setDrafts] = createStore<Record<string, TicketDraft>>({});
  const ensure = (marketId: string) => {
    if (!drafts[marketId]) setDrafts(marketId, { ...EMPTY });
  };
  return {
    draft: (marketId) => drafts[marketId] ?? EMPTY,
    update(marketId, change) {
      ensure(marketId);
      setDrafts(marketId, change);
    },
    togglePostOnly(marketId) {
      ensure(marketId);
      const next: OrderTypeKind = drafts[marketId]?.kind === 'PostOnly' ? 'Limit' : 'PostOnly';
      setDrafts(marketId, { kind: next });
      return next;
    },
    setSide(marketId, side) {
      ensure(marketId);
      setDrafts(marketId, { side });
    },
  };
}
