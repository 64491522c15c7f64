// Fills between a house shared quote (canonical book) and a Turbo order (Turbo book), and the
// two house actions (margin 4.5). Money moves between the two books' balances: the Turbo side
// pays the Turbo book's fee, the house side the canonical book's, each in the asset it
// receives (as every fill does, docs/sandbox.md). The trade prints on the Turbo book with
// `shared.funding_source.order_id`; the events of margin 6 are logged at commit.
import { identityToJson } from '../../shared/encoding/identity';
import { feeOwed } from '../../shared/market/amounts';
import { powerOfTen } from '../../shared/market/market';
import type { FillSink, MakerDone } from '../engine/book';
import type { Journal } from '../engine/journal';
import { takerBounds } from '../engine/placement';
import type { ChangeSet } from '../ledger/changes';
import type { ActionContext } from '../ledger/action-context';
import type { MarketState } from '../ledger/market';
import { addFill, addHistory, touchOrder, type OrderRecord } from '../ledger/orders';
import { revert, type Revert } from '../ledger/revert';
import type { Trade } from '../ledger/trades';
import { SharedVenue, type TurboLink } from './link';

export type HouseRole = 'Maker' | 'Taker';

interface FillSides {
  readonly house: OrderRecord;
  readonly turbo: OrderRecord;
  readonly houseRole: HouseRole;
  /** The shared quote that funds the fill (the house order itself, or ExecuteTurboOrders' source). */
  readonly sourceOrderId: string;
}

/** Move money and record one fill of `quantity` at `price` between a shared quote and a Turbo order. */
export function sharedFill(link: TurboLink, journal: Journal, changes: ChangeSet, context: ActionContext, sides: FillSides, quantity: bigint, price: bigint): void {
  const { house, turbo, houseRole } = sides;
  const canonical = link.canonical;
  const turboBook = link.turbo;
  canonical.touchCounters();
  turboBook.touchCounters();
  touchOrder(journal, house);
  touchOrder(journal, turbo);
  const quote = (price * quantity) / powerOfTen(canonical.config.base.decimals);
  const houseBuys = house.side === 'Buy';
  const houseFeePpm = houseRole === 'Maker' ? canonical.config.maker_fee : canonical.config.taker_fee;
  const turboFeePpm = houseRole === 'Maker' ? turboBook.config.taker_fee : turboBook.config.maker_fee;
  // The buyer pays in base, the seller in quote (feeOwed rounds up).
  const houseFee = houseBuys ? feeOwed(quantity, houseFeePpm) : feeOwed(quote, houseFeePpm);
  const turboFee = houseBuys ? feeOwed(quote, turboFeePpm) : feeOwed(quantity, turboFeePpm);
  const houseBalance = canonical.balanceOf(house.account).touch();
  const turboBalance = turboBook.balanceOf(turbo.account).touch();
  if (houseBuys) {
    house.lockedRemaining -= quote;
    houseBalance.quoteLocked -= quote;
    houseBalance.baseUnlocked += quantity - houseFee;
    houseBalance.feesPaidBase += houseFee;
    canonical.feesBase += houseFee;
    turbo.lockedRemaining -= quantity;
    turboBalance.baseLocked -= quantity;
    turboBalance.quoteUnlocked += quote - turboFee;
    turboBalance.feesPaidQuote += turboFee;
    turboBook.feesQuote += turboFee;
  } else {
    house.lockedRemaining -= quantity;
    houseBalance.baseLocked -= quantity;
    houseBalance.quoteUnlocked += quote - houseFee;
    houseBalance.feesPaidQuote += houseFee;
    canonical.feesQuote += houseFee;
    turbo.lockedRemaining -= quote;
    turboBalance.quoteLocked -= quote;
    turboBalance.baseUnlocked += quantity - turboFee;
    turboBalance.feesPaidBase += turboFee;
    turboBook.feesBase += turboFee;
  }
  const timestamp = context.timestamp;
  for (const order of [house, turbo]) {
    changes.orders.add(order);
    changes.balances.add(order.account);
  }
  const maker = houseRole === 'Maker' ? house : turbo;
  const taker = maker === house ? turbo : house;
  const { idBlock, sequence } = turboBook.nextTrade();
  const trade: Trade = {
    idBlock,
    marketId: turboBook.config.market_id,
    sequence,
    side: taker.side,
    quantity,
    price,
    scale: powerOfTen(canonical.config.base.decimals),
    timestamp,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerAccount: maker.account,
    takerAccount: taker.account,
    // Its fees are read from these (tradeMakerFee, tradeTakerFee: the buyer pays on the quantity,
    // the seller on the total, as above).
    makerFeePpm: maker === house ? houseFeePpm : turboFeePpm,
    takerFeePpm: maker === house ? turboFeePpm : houseFeePpm,
    txId: context.txId,
    sharedSourceOrderId: sides.sourceOrderId as Trade['makerOrderId'],
    turbo: true,
  };
  // Each side's fill is this trade seen from that side (orderFills in sandbox/ledger/orders.ts).
  addFill(house, trade);
  addFill(turbo, trade);
  turboBook.recordTrade(trade);
  changes.depth.add(canonical.config.market_id);
  const ts = timestamp.toString();
  changes.turboEvents.push(
    {
      type: 'SharedExecution',
      market_id: turboBook.config.market_id,
      house_order_id: house.id,
      source_order_id: sides.sourceOrderId,
      turbo_order_id: turbo.id,
      house_trader: identityToJson({ ContractId: house.account }),
      turbo_trader: identityToJson({ ContractId: turbo.account }),
      turbo_side: turbo.side,
      house_execution_role: houseRole,
      quantity: quantity.toString(),
      price: price.toString(),
      house_fee_amount: houseFee.toString(),
      turbo_fee_amount: turboFee.toString(),
      timestamp: ts,
      tx_id: context.txId,
    },
    {
      type: 'SharedTradePerformed',
      market_id: turboBook.config.market_id,
      source_order_id: sides.sourceOrderId,
      turbo_order_id: turbo.id,
      house_execution_role: houseRole,
      quantity: quantity.toString(),
      price: price.toString(),
      timestamp: ts,
      tx_id: context.txId,
    },
  );
}

/**
 * The fill sink while one order takes from the other side: a Turbo taker against shared
 * quotes (house Maker), or a house order against resting Turbo orders (house Taker, or Maker
 * at its own price for ExecuteTurboOrders).
 */
export class SharedFillSink implements FillSink<OrderRecord> {
  constructor(
    private readonly link: TurboLink,
    private readonly journal: Journal,
    private readonly changes: ChangeSet,
    private readonly context: ActionContext,
    private readonly taker: OrderRecord,
    private readonly houseRole: HouseRole,
    /** ExecuteTurboOrders executes at the source quote's price; otherwise the maker's price. */
    private readonly executionPrice?: bigint,
  ) {}

  onFill(maker: OrderRecord, quantity: bigint, price: bigint): void {
    const takerIsHouse = this.taker.turbo !== true;
    const house = takerIsHouse ? this.taker : maker;
    const turbo = takerIsHouse ? maker : this.taker;
    sharedFill(this.link, this.journal, this.changes, this.context, { house, turbo, houseRole: this.houseRole, sourceOrderId: house.id }, quantity, this.executionPrice ?? price);
  }

  onMakerDone(maker: OrderRecord, reason: MakerDone): void {
    const market = this.link.marketOf(maker);
    maker.close = true;
    if (reason === 'dust') addHistory(maker, 'close', this.context.txId);
    market.unlock(maker, market.balanceOf(maker.account).touch());
  }
}

/** CreateOrder on a Turbo book: takes from shared quotes only, rests on the Turbo book. */
export function createTurboOrder(link: TurboLink, journal: Journal, changes: ChangeSet, context: ActionContext, args: Parameters<MarketState['createOrder']>[1]): OrderRecord | Revert {
  let sink: SharedFillSink | undefined;
  return link.turbo.createOrder(context, args, {
    venue: new SharedVenue(link),
    // The sink needs the order, which exists only once createOrder registered it.
    beforeMatch: (order) => {
      sink = new SharedFillSink(link, journal, changes, context, order, 'Maker');
    },
    sink: {
      onFill: (maker, quantity, price) => sink?.onFill(maker, quantity, price),
      onMakerDone: (maker, reason) => sink?.onMakerDone(maker, reason),
    },
  });
}

/**
 * CreateSharedOrder: a canonical quote Turbo takers may fill. A Spot one first fills the
 * resting Turbo orders it crosses (house Taker at their prices), then behaves as a canonical Spot.
 */
export function createSharedOrder(link: TurboLink | undefined, canonical: MarketState, journal: Journal, changes: ChangeSet, context: ActionContext, args: Parameters<MarketState['createOrder']>[1]): OrderRecord | Revert {
  // Without a paired Turbo book a shared order is an ordinary order of the same type (margin 4.5).
  if (link === undefined) return canonical.createOrder(context, args);
  const created = canonical.createOrder(context, args, {
    shared: true,
    beforeMatch: (order) => {
      if (args.orderType.kind !== 'Spot') return;
      const sink = new SharedFillSink(link, journal, changes, context, order, 'Taker');
      const filled = link.turbo.book.match(order.side, order.remaining, takerBounds(order.side, order.price, args.orderType), sink);
      order.remaining -= filled;
    },
  });
  if (typeof created === 'object' && 'id' in created) {
    changes.turboEvents.push({
      type: 'HouseOrderCreated',
      market_id: canonical.config.market_id,
      canonical_book: canonical.config.contract_id,
      order_id: created.id,
      source_order_id: created.id,
      trader: identityToJson({ ContractId: created.account }),
      side: created.side,
      price: created.price.toString(),
      quantity: created.quantity.toString(),
      timestamp: context.timestamp.toString(),
      tx_id: context.txId,
    });
  }
  return created;
}

/** ExecuteTurboOrders: fill resting Turbo orders crossed by an existing shared quote, house Maker at its price. */
export function executeTurboOrders(
  link: TurboLink,
  journal: Journal,
  changes: ChangeSet,
  context: ActionContext,
  args: { readonly sourceOrderId: string; readonly maxBaseQuantity: bigint; readonly maxFills: bigint },
): Revert | undefined {
  const canonical = link.canonical;
  const source = canonical.orders.get(args.sourceOrderId);
  if (source === undefined || source.account !== context.account.id || source.shared !== true) {
    return revert('OrderNotFound', `source_order_id ${args.sourceOrderId} is not a shared order of trade account ${context.account.id} on market ${canonical.config.market_id}`);
  }
  if (source.close) return revert('OrderNotFound', `source_order_id ${args.sourceOrderId} is no longer open`);
  const budget = args.maxBaseQuantity < source.remaining ? args.maxBaseQuantity : source.remaining;
  const maxFills = args.maxFills > 1_000_000n ? 1_000_000 : Number(args.maxFills);
  const sink = new SharedFillSink(link, journal, changes, context, source, 'Maker', source.price);
  const filled = link.turbo.book.matchWhere(source.side, budget, { worst: source.price }, sink, () => true, maxFills);
  if (filled === 0n) return undefined;
  const ended = canonical.book.reduce(source, filled);
  if (ended !== 'open') {
    source.close = true;
    if (ended === 'dust') addHistory(source, 'close', context.txId);
    canonical.unlock(source, canonical.balanceOf(source.account).touch());
  }
  // Turbo buys filled below their limit keep locked only what their remainder can spend.
  for (const order of changes.orders) {
    if (order.turbo === true && !order.close && order.side === 'Buy') link.turbo.releaseExcess(order, link.turbo.balanceOf(order.account).touch());
  }
  changes.depth.add(canonical.config.market_id);
  return undefined;
}
