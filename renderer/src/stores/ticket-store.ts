// The ticket's choices per market (side, order type, quantity, bounds) in this window. The ladder
// and the buy/sell hotkeys take the ticket's order type (shown in the ladder's armed banner) but
// never its quantity: they trade the ladder's own size (ladder-size-store.ts).
import { createStore } from 'solid-js/store';
import type { AlgoParameterName } from '../../../shared/algos/algo-kinds';
import type { AlgoKind } from '../../../shared/ipc/views/algos';
import type { OrderTypeKind, Side } from '../../../shared/market/order-type';
import type { TicketFields } from '../features/ticket/ticket-model';

export type TicketDraft = TicketFields;

/**
 * The algorithm chosen in the ticket's selector (null: an order kind) and the texts typed for each
 * algorithm's parameters. Kept apart from the draft's order kind, which the ladder and the hotkeys
 * trade with: choosing an algorithm never changes what a ladder click places.
 */
export interface AlgoDraft {
  readonly kind: AlgoKind | null;
  readonly texts: Readonly<Partial<Record<AlgoKind, Readonly<Partial<Record<AlgoParameterName, string>>>>>>;
}

const NO_ALGO: AlgoDraft = { kind: null, texts: {} };

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
  algo(marketId: string): AlgoDraft;
  chooseAlgo(marketId: string, kind: AlgoKind | null): void;
  setAlgoText(marketId: string, kind: AlgoKind, name: AlgoParameterName, text: string): void;
}

export function createTicketStore(): TicketStore {
  const [drafts, setDrafts] = createStore<Record<string, TicketDraft>>({});
  const [algos, setAlgos] = createStore<Record<string, AlgoDraft>>({});
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
    algo: (marketId) => algos[marketId] ?? NO_ALGO,
    chooseAlgo(marketId, kind) {
      setAlgos(marketId, { ...(algos[marketId] ?? NO_ALGO), kind });
    },
    setAlgoText(marketId, kind, name, text) {
      const current = algos[marketId] ?? NO_ALGO;
      setAlgos(marketId, { ...current, texts: { ...current.texts, [kind]: { ...current.texts[kind], [name]: text } } });
    },
  };
}
