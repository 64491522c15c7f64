// The order-kind table is the one place a kind is defined: every client-side list of kinds is
// derived from it or typed by it. The type checks below are compiled by `npm run typecheck`
// (tsconfig.node.json includes test/unit), so a kind missing from any list fails the typecheck;
// the runtime checks take one order of every kind through every conversion and pin what the
// ticket, the ladder and the confirmations read from the table.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { orderTypeSchema } from '../../../../shared/api/primitives';
import { ByteWriter } from '../../../../shared/encoding/byte-writer';
import { marginInputs } from '../../../../shared/ipc/areas/margin';
import { orderTypeInput } from '../../../../shared/ipc/inputs';
import {
  ORDER_KIND_TABLE,
  ORDER_KINDS,
  orderKindRecord,
  orderKindsWhere,
  signOrderType,
  type OrderKind,
  type OrderType,
  type OrderTypeIntent,
  type OrderTypeJson,
} from '../../../../shared/market/order-kinds';
import type { OrderTypeKind } from '../../../../shared/market/order-type';
import { orderTypeToJson, writeOrderType } from '../../../../shared/protocol/order-args';

/** One intent of every kind: a kind added to the table does not compile here until it has one. */
const SAMPLES: Record<OrderKind, OrderTypeIntent> = {
  Limit: { kind: 'Limit', timestamp: 1_700_000_000n },
  Spot: { kind: 'Spot' },
  PostOnly: { kind: 'PostOnly' },
  FillOrKill: { kind: 'FillOrKill' },
  Market: { kind: 'Market' },
  BoundedMarket: { kind: 'BoundedMarket', maxPrice: 2_100_000_000n, minPrice: 1_900_000_000n },
};

const PRICE = 2_000_000_000n;
const NOW = 1_800_000_000n;

describe('order kinds: the types derived from the table', () => {
  it('name the same kinds in the table, the signed type, the intent, the JSON and the schemas', () => {
    expectTypeOf<keyof typeof ORDER_KIND_TABLE>().toEqualTypeOf<OrderKind>();
    expectTypeOf<(typeof ORDER_KINDS)[number]>().toEqualTypeOf<OrderKind>();
    expectTypeOf<OrderTypeKind>().toEqualTypeOf<OrderKind>();
    expectTypeOf<OrderType['kind']>().toEqualTypeOf<OrderKind>();
    expectTypeOf<OrderTypeIntent['kind']>().toEqualTypeOf<OrderKind>();
    // The bridge's schema parses exactly the intent main signs from.
    expectTypeOf<z.output<typeof orderTypeInput>['kind']>().toEqualTypeOf<OrderKind>();
    expectTypeOf<z.output<typeof orderTypeInput>>().toExtend<OrderTypeIntent>();
    expectTypeOf<OrderTypeIntent>().toExtend<z.input<typeof orderTypeInput>>();
    expectTypeOf<z.output<typeof marginInputs.checkTurboOrder>['orderKind']>().toEqualTypeOf<OrderKind>();
    expectTypeOf<z.output<typeof orderTypeSchema>>().toEqualTypeOf<OrderType>();
    expectTypeOf(orderKindRecord(() => 0)).toEqualTypeOf<Record<OrderKind, number>>();
  });

  it('a record of kinds without one of them does not compile', () => {
    // @ts-expect-error: BoundedMarket is missing
    const missing: Record<OrderKind, string> = { Limit: '', Spot: '', PostOnly: '', FillOrKill: '', Market: '' };
    expect(Object.keys(missing)).toHaveLength(ORDER_KINDS.length - 1);
  });
});

describe('order kinds: the table', () => {
  it('lists every kind once, in the order the ticket offers them', () => {
    expect(ORDER_KINDS).toEqual(['Limit', 'Spot', 'PostOnly', 'FillOrKill', 'Market', 'BoundedMarket']);
    expect(Object.keys(SAMPLES).sort()).toEqual([...ORDER_KINDS].sort());
  });

  it('numbers the kinds as docs/protocol.md does (OrderArgs)', () => {
    expect(orderKindRecord((kind) => ORDER_KIND_TABLE[kind].discriminant)).toEqual({ Limit: 0n, Spot: 1n, FillOrKill: 2n, PostOnly: 3n, Market: 4n, BoundedMarket: 5n });
  });

  it('says what the ticket, the ladder and the confirmations need', () => {
    expect(orderKindRecord((kind) => ORDER_KIND_TABLE[kind].label)).toEqual({
      Limit: 'Limit',
      Spot: 'Spot',
      PostOnly: 'Post only',
      FillOrKill: 'Fill or kill',
      Market: 'Market',
      BoundedMarket: 'Bounded market',
    });
    expect(orderKindsWhere('takesPrice')).toEqual(['Limit', 'Spot', 'PostOnly', 'FillOrKill']);
    expect(orderKindsWhere('executesAtOnce')).toEqual(['FillOrKill', 'Market', 'BoundedMarket']);
  });
});

describe('order kinds: one order of every kind through every conversion', () => {
  it.each(ORDER_KINDS)('%s: bridge schema, signing, bytes, JSON and back', (kind) => {
    const intent = SAMPLES[kind];
    expect(intent.kind).toBe(kind);
    expect(orderTypeInput.parse(intent)).toEqual(intent);
    expect(marginInputs.checkTurboOrder.shape.orderKind.parse(kind)).toBe(kind);

    const signed = signOrderType(intent, PRICE, NOW);
    expect(signed.kind).toBe(kind);

    const writer = new ByteWriter();
    writeOrderType(writer, signed);
    const bytes = writer.finish();
    expect(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0)).toBe(ORDER_KIND_TABLE[kind].discriminant);

    const json: OrderTypeJson = orderTypeToJson(signed);
    expect(orderTypeSchema.parse(JSON.parse(JSON.stringify(json)))).toEqual(signed);
  });

  it('signs a Limit at the order price, stamped now when the intent has no timestamp', () => {
    expect(signOrderType({ kind: 'Limit' }, PRICE, NOW)).toEqual({ kind: 'Limit', price: PRICE, timestamp: NOW });
    expect(signOrderType(SAMPLES.Limit, PRICE, NOW)).toEqual({ kind: 'Limit', price: PRICE, timestamp: 1_700_000_000n });
    expect(signOrderType(SAMPLES.BoundedMarket, PRICE, NOW)).toEqual({ kind: 'BoundedMarket', max_price: 2_100_000_000n, min_price: 1_900_000_000n });
  });
});
