// Every order kind of the venue (exchange-api.md 2.4), written once: what each kind carries, how
// it is signed (docs/protocol.md, OrderArgs), and how the ticket, the ladder and the confirmations
// treat it. The client's unions, zod enums and lists are derived from here, so a new kind is added
// in this file and the compiler then names every place that must learn it (the bridge schema in
// shared/ipc/inputs.ts, the REST schema in shared/api/primitives.ts, the ticket's help texts).
// The sandbox does not read this table: it is the client's referee and keeps its own reading of the
// spec (sandbox/engine/placement.ts).
import type { ByteWriter } from '../encoding/byte-writer';

type NoFields = Record<never, never>;

interface KindShape {
  /** Its fields as signed, under the protocol's names. */
  readonly signed: object;
  /** Its fields as the trader asks for it over the bridge; main adds the rest when it signs. */
  readonly intent: object;
  /** Its form in a JSON request body. */
  readonly json: unknown;
}

/** Holds only when every entry is a KindShape: a kind without all three shapes does not compile. */
type Shapes<T extends Record<string, KindShape>> = T;

type OrderKindShapes = Shapes<{
  Limit: {
    signed: { readonly price: bigint; readonly timestamp: bigint };
    /** Seconds; main stamps the current time when absent. */
    intent: { readonly timestamp?: bigint | undefined };
    json: { Limit: [string, string] };
  };
  Spot: { signed: NoFields; intent: NoFields; json: 'Spot' };
  PostOnly: { signed: NoFields; intent: NoFields; json: 'PostOnly' };
  FillOrKill: { signed: NoFields; intent: NoFields; json: 'FillOrKill' };
  Market: { signed: NoFields; intent: NoFields; json: 'Market' };
  BoundedMarket: {
    signed: { readonly max_price: bigint; readonly min_price: bigint };
    intent: { readonly maxPrice: bigint; readonly minPrice: bigint };
    json: { BoundedMarket: { max_price: string; min_price: string } };
  };
}>;

export type OrderKind = keyof OrderKindShapes;

// Distributive (K extends OrderKind ? …), so that a union of kinds gives the union of their shapes.
/** One kind's order type as signed. */
export type OrderTypeOf<K extends OrderKind> = K extends OrderKind ? { readonly kind: K } & OrderKindShapes[K]['signed'] : never;
/** One kind's order type as the bridge carries it. */
export type OrderTypeIntentOf<K extends OrderKind> = K extends OrderKind ? { readonly kind: K } & OrderKindShapes[K]['intent'] : never;
export type OrderTypeJsonOf<K extends OrderKind> = K extends OrderKind ? OrderKindShapes[K]['json'] : never;

/** The order type as signed (shared/protocol encodes it). */
export type OrderType = OrderTypeOf<OrderKind>;
/** The order type as the renderer asks for it: the one shape from the bridge to the signer, converted once (signOrderType). */
export type OrderTypeIntent = OrderTypeIntentOf<OrderKind>;
export type OrderTypeJson = OrderTypeJsonOf<OrderKind>;

export interface OrderKindSpec<K extends OrderKind> {
  /** The trader's words for it: the ticket, the order lists, the confirmations. */
  readonly label: string;
  /** The trader sets its price: the ticket asks for one, and a ladder click or an at-price hotkey may place it. */
  readonly takesPrice: boolean;
  /**
   * It executes at once and never rests, so nothing is left on the book for later fills: reduce-only
   * can be exact for it, and what it did is told as soon as it is placed.
   */
  readonly executesAtOnce: boolean;
  /** Its number in the signed bytes (docs/protocol.md, OrderArgs). */
  readonly discriminant: bigint;
  /** The signed value of an intent: main adds the order's price and the time where the kind carries them. */
  sign(intent: OrderTypeIntentOf<K>, price: bigint, nowSeconds: bigint): OrderTypeOf<K>;
  /** Its fields after the discriminant in the signed bytes. */
  writeFields(writer: ByteWriter, orderType: OrderTypeOf<K>): void;
  json(orderType: OrderTypeOf<K>): OrderTypeJsonOf<K>;
}

const noFieldsToWrite = (): void => {};

/** In the order the ticket offers them. */
export const ORDER_KIND_TABLE: { readonly [K in OrderKind]: OrderKindSpec<K> } = {
  Limit: {
    label: 'Limit',
    takesPrice: true,
    executesAtOnce: false,
    discriminant: 0n,
    sign: (intent, price, nowSeconds) => ({ kind: 'Limit', price, timestamp: intent.timestamp ?? nowSeconds }),
    writeFields: (writer, orderType) => writer.u64(orderType.price).u64(orderType.timestamp),
    json: (orderType) => ({ Limit: [orderType.price.toString(), orderType.timestamp.toString()] }),
  },
  Spot: {
    label: 'Spot',
    takesPrice: true,
    executesAtOnce: false,
    discriminant: 1n,
    sign: () => ({ kind: 'Spot' }),
    writeFields: noFieldsToWrite,
    json: () => 'Spot',
  },
  PostOnly: {
    label: 'Post only',
    takesPrice: true,
    executesAtOnce: false,
    discriminant: 3n,
    sign: () => ({ kind: 'PostOnly' }),
    writeFields: noFieldsToWrite,
    json: () => 'PostOnly',
  },
  FillOrKill: {
    label: 'Fill or kill',
    takesPrice: true,
    executesAtOnce: true,
    discriminant: 2n,
    sign: () => ({ kind: 'FillOrKill' }),
    writeFields: noFieldsToWrite,
    json: () => 'FillOrKill',
  },
  Market: {
    label: 'Market',
    takesPrice: false,
    executesAtOnce: true,
    discriminant: 4n,
    sign: () => ({ kind: 'Market' }),
    writeFields: noFieldsToWrite,
    json: () => 'Market',
  },
  BoundedMarket: {
    label: 'Bounded market',
    takesPrice: false,
    executesAtOnce: true,
    discriminant: 5n,
    sign: (intent) => ({ kind: 'BoundedMarket', max_price: intent.maxPrice, min_price: intent.minPrice }),
    writeFields: (writer, orderType) => writer.u64(orderType.max_price).u64(orderType.min_price),
    json: (orderType) => ({ BoundedMarket: { max_price: orderType.max_price.toString(), min_price: orderType.min_price.toString() } }),
  },
};

/** Every kind, in the table's order (a tuple, as z.enum wants it). */
export const ORDER_KINDS = Object.keys(ORDER_KIND_TABLE) as [OrderKind, ...OrderKind[]];

/** A record's values in the table's order (a tuple, as z.union and z.discriminatedUnion want them). */
export function inKindOrder<R extends Record<OrderKind, unknown>>(record: R): [R[OrderKind], ...R[OrderKind][]] {
  return ORDER_KINDS.map((kind) => record[kind]) as [R[OrderKind], ...R[OrderKind][]];
}

/** A record with an entry for every kind, each computed from the kind. */
export function orderKindRecord<T>(entry: (kind: OrderKind) => T): Record<OrderKind, T> {
  return Object.fromEntries(ORDER_KINDS.map((kind) => [kind, entry(kind)])) as Record<OrderKind, T>;
}

/** The kinds that have a trait, in the table's order. */
export function orderKindsWhere(trait: 'takesPrice' | 'executesAtOnce'): readonly OrderKind[] {
  return ORDER_KINDS.filter((kind) => ORDER_KIND_TABLE[kind][trait]);
}

/**
 * The table's entry for a kind, taken as an entry for any kind: its functions are methods, which
 * TypeScript checks both ways, so an order type of one kind is handed to its own kind's entry only
 * because each caller passes the entry the order type's own kind.
 */
function entryOf(kind: OrderKind): OrderKindSpec<OrderKind> {
  return ORDER_KIND_TABLE[kind];
}

/** The order type main signs for an intent (the one conversion between the bridge and the signer). */
export function signOrderType(intent: OrderTypeIntent, price: bigint, nowSeconds: bigint): OrderType {
  return entryOf(intent.kind).sign(intent, price, nowSeconds);
}

/** The order type in the signed bytes: its discriminant, then its fields. */
export function writeOrderTypeFields(writer: ByteWriter, orderType: OrderType): void {
  const entry = entryOf(orderType.kind);
  writer.u64(entry.discriminant);
  entry.writeFields(writer, orderType);
}

export function orderTypeJson(orderType: OrderType): OrderTypeJson {
  return entryOf(orderType.kind).json(orderType);
}
