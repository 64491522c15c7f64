// Positions of the trading account on every book it traded (Canonical and Turbo), and of the
// selected Turbo Account on its Turbo books, computed from their fills by average cost
// (shared/positions/accounting.ts), marked at the exit price (best bid for a long, best ask for a
// short, GET /v1/depth at full depth), with a Turbo Account's liquidation and freeze prices from
// the margin formulas (shared/positions/liquidation.ts). Flatten closes positions with bounded
// market orders, the trading account's packed into as few signed batches as the caps allow.
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { FlattenReport, PositionsView, PositionView, TriggerPriceView } from '../../../shared/ipc/views';
import type { MarginSnapshot } from '../../../shared/margin/index';
import type { Market } from '../../../shared/market/market';
import { powerOfTen } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import { CLOSE_PERCENTS, closePlan, partialClosePlan, reversePlan, type ClosePercent, type ClosePlan, type PartialClosePlan, type ReversePlan } from '../../../shared/positions/close-plan';
import { accountFills, averageEntry, percentBps, unrealizedAt, type PositionState } from '../../../shared/positions/accounting';
import { positionTriggers, toQuotePrice, type TriggerPrice } from '../../../shared/positions/liquidation';
import type { SessionAction } from '../../../shared/protocol/actions';
import { MAX_ACTIONS_PER_BATCH, MAX_GROUPS_PER_BATCH, type ActionGroup } from '../../../shared/protocol/session-actions';
import { BugError, fail, ok, type Result } from '../../../shared/result';
import { formatUnits } from '../../../shared/encoding/units';
import { FreshRead } from '../../../shared/fresh-read';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { BookHandle } from '../../exchange/book-feed';
import type { BalanceView, PlacedOrder } from '../../../shared/ipc/views';
import type { MarketsIndex } from '../market-data/markets-index';
import { boundMarketOrder } from '../margin/turbo-orders';
import { pairName, prepareOrder, type PlaceIntent } from '../trading/order-intents';
import type { Submitter } from '../trading/submitter';
import type { StoredFill } from '../fills/fill-book';
import type { FillSource } from '../fills/fill-source';

/** A flatten is a bounded market order this far past the mark (1 %). */
export const FLATTEN_SLIPPAGE_BPS = 100;

export interface PositionsDeps {
  readonly rest: Pick<ExchangeRestClient, 'getDepth'>;
  /**
   * The book main keeps live from the stream while a window or a service follows it, if any: its
   * top is the mark without a request (the guards read positions before an order is signed, so a
   * REST read here would sit on the order's path).
   */
  readonly liveBook?: (marketId: string, turbo: boolean) => BookHandle | null;
  /** Main's one source of fills (main/services/fills): no order history is read here. */
  readonly fills: Pick<FillSource, 'fills'>;
  readonly markets: () => MarketsIndex | null;
  readonly tradeAccount: () => B256 | null;
  /** The selected Turbo Account and its live margin snapshot (null snapshot while not live). */
  readonly turboAccount: () => Promise<{ readonly account: B256; readonly snapshot: MarginSnapshot | null } | null>;
  readonly balances: () => readonly BalanceView[];
  readonly submitter: Submitter;
  /** The session key is loaded for the trading account (before signing). */
  readonly ready: () => Promise<Result<unknown>>;
  /** A Turbo Account's order, signed as it (the margin service). */
  readonly placeTurboOrder: (input: PlaceIntent & { marketId: string }) => Promise<Result<PlacedOrder>>;
  readonly afterTrades: () => void;
  /**
   * Before a close of the trading account's position on a book: a take-profit / stop-loss pair main
   * keeps sized to that position locks what the close sells, so it is lifted; the release lets it
   * be placed again at the size left.
   */
  readonly holdProtection?: (marketId: string, turbo: boolean) => Promise<() => void>;
  /** The trader's maximum order size for a market (Settings), raw base units. */
  readonly maxQuantity: (marketId: string) => bigint | undefined;
  /**
   * What the account's resting orders and pending legs on the closing side of a book already close
   * (the reduce-only guard's reading): a close by limit rests, so main caps it to what is left.
   */
  readonly closingCommitted: (account: string, market: Market, turbo: boolean) => Promise<Result<{ readonly restingClosing: bigint; readonly legsClosing: bigint }>>;
  /**
   * The same reading from what main holds now, for a position of signed `size` (no read of the
   * position): the Positions row's close-by-limit plans are capped with it, so a button says before
   * the click what the send would refuse.
   */
  readonly closingNow?: (account: string, market: Market, turbo: boolean, size: bigint) => { readonly restingClosing: bigint; readonly legsClosing: bigint; readonly legsUnknown: string | null };
  readonly nowSeconds: () => bigint;
  readonly nowMs: () => number;
  readonly log: (line: string) => void;
}

interface Book {
  readonly account: B256;
  readonly accountKind: PositionView['accountKind'];
  readonly market: Market;
  readonly turbo: boolean;
}

export interface CloseItem {
  readonly key: string;
  readonly market: Market;
  readonly turbo: boolean;
  readonly create: SessionAction;
  /** A reverse's opening order, after the close in the same group (one more action). */
  readonly open?: SessionAction;
  /** The book's unlocked funds must be settled to the account first (one more action). */
  readonly settle: boolean;
}

/**
 * Pack closing orders into batches: each takes 1 action (2 with its SettleBalance) in its own
 * market group, at most 5 actions and 5 groups per batch.
 */
export function packCloses(items: readonly CloseItem[], tradeAccountId: B256): { groups: ActionGroup[]; keys: string[] }[] {
  const batches: { groups: ActionGroup[]; keys: string[]; actions: number }[] = [];
  // First fit, larger items first: the fewest batches for items of sizes 1 and 2.
  const ordered = [...items.filter((item) => item.settle), ...items.filter((item) => !item.settle)];
  for (const item of ordered) {
    const cost = 1 + (item.settle ? 1 : 0) + (item.open ? 1 : 0);
    let batch = batches.find((candidate) => candidate.actions + cost <= MAX_ACTIONS_PER_BATCH && candidate.groups.length < MAX_GROUPS_PER_BATCH);
    if (!batch) {
      batch = { groups: [], keys: [], actions: 0 };
      batches.push(batch);
    }
    const orders = item.open ? [item.create, item.open] : [item.create];
    const actions: SessionAction[] = item.settle ? [{ kind: 'SettleBalance', to: contractIdentity(tradeAccountId) }, ...orders] : orders;
    batch.groups.push({ market_id: item.market.market_id, market: item.market, ...(item.turbo ? { turbo: true } : {}), actions });
    batch.keys.push(item.key);
    batch.actions += cost;
  }
  return batches.map(({ groups, keys }) => ({ groups, keys }));
}

/**
 * The closing order of a flatten for a position of signed `size` marked at `mark` (the exit price),
 * and what it leaves: the bounded market order's worst price is where the book's rules are applied.
 */
export function flattenPlan(market: Market, size: bigint, mark: bigint | null, maxQuantity?: bigint): ClosePlan {
  const side: Side = size < 0n ? 'Buy' : 'Sell';
  const price = mark === null ? null : boundMarketOrder(market, side, mark, FLATTEN_SLIPPAGE_BPS).price;
  return closePlan(market, size, { price, maxQuantity, takerFee: market.taker_fee });
}

/** A close of `percent` of a position at the flatten's bounded price (shared/positions/close-plan.ts). */
export function partialFlattenPlan(market: Market, size: bigint, percent: ClosePercent, mark: bigint | null, maxQuantity?: bigint): PartialClosePlan {
  const side: Side = size < 0n ? 'Buy' : 'Sell';
  const price = mark === null ? null : boundMarketOrder(market, side, mark, FLATTEN_SLIPPAGE_BPS).price;
  return partialClosePlan(market, size, percent, { price, maxQuantity, takerFee: market.taker_fee });
}

/** A reverse of a position at the flatten's bounded price: both orders at the same bound. */
export function reverseFlattenPlan(market: Market, size: bigint, mark: bigint | null, maxQuantity?: bigint): ReversePlan {
  const side: Side = size < 0n ? 'Buy' : 'Sell';
  const price = mark === null ? null : boundMarketOrder(market, side, mark, FLATTEN_SLIPPAGE_BPS).price;
  return reversePlan(market, size, { price, maxQuantity, takerFee: market.taker_fee });
}

/**
 * A close by limit of `percent` of a position: a post-only order at the closing side's touch
 * (`touch`: the best ask for a long, the best bid for a short), sized as a partial close at that
 * price, paying the maker fee. No touch (that side is empty): no order, and why.
 */
export function limitClosePlan(market: Market, size: bigint, percent: ClosePercent, touch: bigint | null, maxQuantity?: bigint): PartialClosePlan {
  const plan = partialClosePlan(market, size, percent, { price: touch, maxQuantity, takerFee: market.maker_fee });
  if (touch !== null || size === 0n || plan.refusal !== null) return plan;
  const refusal = `the ${size > 0n ? 'ask' : 'bid'} side of the book is empty: there is no best price to join`;
  return { ...plan, quantity: 0n, remainder: size, refusal, notClosable: false, dust: null };
}

/** Why no order can close a position of `size` (null when one can, or when it is flat). */
export function closable(market: Market, size: bigint, mark: bigint | null): string | null {
  const plan = flattenPlan(market, size, mark);
  return plan.notClosable ? plan.refusal : null;
}

/** Why a close by limit of `quantity` would close more than the position less what already closes it (`free`). */
function limitCloseBeyond(market: Market, position: bigint, quantity: bigint, committed: { readonly restingClosing: bigint; readonly legsClosing: bigint }, free: bigint): string {
  const size = (raw: bigint) => `${formatUnits(raw, market.base.decimals)} ${market.base.symbol}`;
  const held = position < 0n ? -position : position;
  const parts = [committed.restingClosing > 0n ? `${size(committed.restingClosing)} in resting ${position > 0n ? 'sells' : 'buys'}` : '', committed.legsClosing > 0n ? `${size(committed.legsClosing)} in pending take-profit/stop-loss legs` : ''].filter(Boolean);
  return `closing ${size(quantity)} by limit would go beyond your ${size(held)} ${position > 0n ? 'long' : 'short'} less ${parts.join(' and ')} already closing it (at most ${size(free > 0n ? free : 0n)}); cancel or resize those first`;
}

/** The partial closes a position offers besides the flatten (100 %). */
const PARTIAL_PERCENTS = [25, 50, 75] as const satisfies readonly ClosePercent[];

function triggerView(trigger: TriggerPrice, quoteDecimals: number): TriggerPriceView {
  return { price: trigger.price === null ? null : toQuotePrice(trigger.price, quoteDecimals), now: trigger.now };
}

interface Target {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly account: string;
  readonly quantity: bigint | undefined;
  readonly percent: ClosePercent;
  readonly style: 'market' | 'limit';
  readonly price: bigint | undefined;
}

/** A position to close (a share of it, 100 % unless named) or reverse, as the page names it. */
export interface CloseTarget {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly account: string;
  /** The closing quantity the confirmation stated. */
  readonly quantity?: bigint | undefined;
  readonly percent?: ClosePercent | undefined;
  /** 'limit': a post-only order at the closing side's touch instead of a bounded market order. */
  readonly style?: 'market' | 'limit' | undefined;
  /** A close by limit: the touch the confirmation stated. */
  readonly price?: bigint | undefined;
}

/** What a batch of closes does, for its journal line: a flatten, or a close of a share of each position (by limit where named). */
function closeVerb(targets: readonly Pick<Target, 'percent' | 'style'>[]): string {
  if (targets.every((target) => target.percent === 100 && target.style === 'market')) return 'Flatten';
  return `Close ${targets.map((target) => `${target.percent} %${target.style === 'limit' ? ' by limit' : ''}`).join(', ')} of`;
}

function bookKey(account: string, marketId: string, turbo: boolean): string {
  return `${account}:${marketId}:${turbo ? 'turbo' : 'canonical'}`;
}

export class PositionsService {
  private readonly reads = new FreshRead(() => this.read());
  /**
   * Each book's fills folded, by the list the fill source returned: it hands back the same list
   * until a fill arrives or a read replaces it, so a position is folded again only then, not on
   * every read of the positions (the guards' check before each order is signed, the panel, the
   * alerts).
   */
  private readonly folded = new WeakMap<readonly StoredFill[], { readonly scale: bigint; readonly state: PositionState }>();

  constructor(private readonly deps: PositionsDeps) {}

  private books(markets: MarketsIndex, turboAccount: B256 | null): Book[] {
    const books: Book[] = [];
    const trading = this.deps.tradeAccount();
    if (trading !== null) {
      for (const market of markets.markets()) books.push({ account: trading, accountKind: 'trading', market, turbo: false });
      for (const market of markets.turboMarkets()) books.push({ account: trading, accountKind: 'trading', market, turbo: true });
    }
    if (turboAccount !== null) for (const market of markets.turboMarkets()) books.push({ account: turboAccount, accountKind: 'turbo-account', market, turbo: true });
    return books;
  }

  /** Read the fills and marks and compute every position. Concurrent callers share a read begun after they asked. */
  positions(): Promise<PositionsView> {
    return this.reads.run();
  }

  /** The book's best bid and ask: the live book's top when main keeps it live, else one read of the top level. */
  private async top(market: Market, turbo: boolean): Promise<Result<{ bid: bigint | null; ask: bigint | null }>> {
    const live = this.deps.liveBook?.(market.market_id, turbo) ?? null;
    if (live !== null && live.state() === 'live') {
      const top = live.top(1);
      if (top.ok) return ok({ bid: top.value.buys[0]?.[0] ?? null, ask: top.value.sells[0]?.[0] ?? null });
    }
    const depth = await this.deps.rest.getDepth({ market_id: market.market_id, depth: 1, level: 3, ...(turbo ? { turbo: true } : {}) });
    if (!depth.ok) return depth;
    return ok({ bid: depth.value.buys[0]?.price ?? null, ask: depth.value.sells[0]?.price ?? null });
  }

  private async read(): Promise<PositionsView> {
    const markets = this.deps.markets();
    const problems: string[] = [];
    if (!markets) return { positions: [], asOf: this.deps.nowMs(), problems: ['The markets of the network are not loaded yet'] };
    const turbo = await this.deps.turboAccount();
    const positions: PositionView[] = [];
    for (const book of this.books(markets, turbo?.account ?? null)) {
      const read = await this.deps.fills.fills(book.account, book.market.market_id, book.turbo);
      const where = `${pairName(book.market)} ${book.turbo ? 'Turbo' : 'Canonical'}`;
      if (!read.ok) {
        problems.push(`${where}: the fills could not be read (${read.message})`);
        continue;
      }
      const fills = read.value;
      if (fills.length === 0) continue;
      const scale = powerOfTen(book.market.base.decimals);
      let held = this.folded.get(fills);
      if (held === undefined || held.scale !== scale) this.folded.set(fills, (held = { scale, state: accountFills(fills, scale) }));
      const state = held.state;
      const view = await this.view(book, state, scale, book.accountKind === 'turbo-account' ? (turbo?.snapshot ?? null) : null, problems, where);
      positions.push(view);
    }
    return { positions, asOf: this.deps.nowMs(), problems };
  }

  private async view(book: Book, state: PositionState, scale: bigint, snapshot: MarginSnapshot | null, problems: string[], where: string): Promise<PositionView> {
    const markSide = state.size > 0n ? 'bid' : state.size < 0n ? 'ask' : null;
    let mark: bigint | null = null;
    // The closing side's touch, where a close by limit rests: the ask for a long, the bid for a short.
    let touch: bigint | null = null;
    if (markSide !== null) {
      const read = await this.top(book.market, book.turbo);
      if (read.ok) {
        mark = read.value[markSide];
        touch = read.value[markSide === 'bid' ? 'ask' : 'bid'];
      } else problems.push(`${where}: the book could not be read for a mark (${read.message})`);
    }
    const unrealized = mark === null ? null : unrealizedAt(state, mark, scale);
    let liquidation: TriggerPriceView | null = null;
    let freeze: TriggerPriceView | null = null;
    if (book.accountKind === 'turbo-account' && snapshot !== null && state.size !== 0n) {
      const triggers = positionTriggers(snapshot, book.market.base.asset, state.size > 0n);
      liquidation = triggerView(triggers.liquidation, book.market.quote.decimals);
      freeze = triggerView(triggers.freeze, book.market.quote.decimals);
    }
    const maxQuantity = this.deps.maxQuantity(book.market.market_id);
    const close = flattenPlan(book.market, state.size, mark, maxQuantity);
    return {
      notClosable: close.notClosable ? close.refusal : null,
      close,
      partials: PARTIAL_PERCENTS.map((percent) => partialFlattenPlan(book.market, state.size, percent, mark, maxQuantity)),
      reverse: reverseFlattenPlan(book.market, state.size, mark, maxQuantity),
      limitTouch: touch,
      limitCloses: CLOSE_PERCENTS.map((percent) => this.capLimitClose(book, state.size, limitClosePlan(book.market, state.size, percent, touch, maxQuantity))),
      account: book.account,
      accountKind: book.accountKind,
      marketId: book.market.market_id,
      turbo: book.turbo,
      size: state.size,
      averageEntry: averageEntry(state, scale),
      basis: state.basis,
      mark,
      markSide: mark === null ? null : markSide,
      unrealized,
      unrealizedBps: unrealized === null ? null : percentBps(unrealized, state.basis),
      realized: state.realized,
      realizedBps: percentBps(state.realized, state.closedBasis),
      feesBase: state.feesBase,
      feesQuote: state.feesQuote,
      fills: state.fills,
      liquidation,
      freeze,
    };
  }

  /** A close by limit that would close more than what no resting order or pending leg closes yet: refused in the plan, with the same words as at the send. */
  private capLimitClose(book: Book, size: bigint, plan: PartialClosePlan): PartialClosePlan {
    if (plan.refusal !== null || size === 0n || this.deps.closingNow === undefined) return plan;
    const committed = this.deps.closingNow(book.account, book.market, book.turbo, size);
    const held = size < 0n ? -size : size;
    const free = held - committed.restingClosing - committed.legsClosing;
    if (committed.legsUnknown === null && plan.quantity <= free) return plan;
    const refusal = committed.legsUnknown !== null ? `the orders already closing this position cannot be read now (${committed.legsUnknown}), so the close cannot be capped to the position` : limitCloseBeyond(book.market, size, plan.quantity, committed, free);
    return { ...plan, refusal };
  }

  /**
   * Why a close by limit of `quantity` cannot be sent now (null when it can): the touch moved since
   * the confirmation, or the order would close more than the position less what the account's
   * resting closing orders and pending legs already close. The venue has no reduce-only flag and
   * the order rests, so this is checked once, here, before signing; it cannot be held afterwards.
   */
  private async limitCloseCheck(position: PositionView, market: Market, quantity: bigint, stated: bigint | undefined): Promise<string | null> {
    const touchName = position.size > 0n ? 'ask' : 'bid';
    const price = (raw: bigint) => `${formatUnits(raw, market.quote.decimals)} ${market.quote.symbol}`;
    if (position.limitTouch === null) return `the ${touchName} side of the book is empty: there is no best price to join`;
    if (stated !== undefined && stated !== position.limitTouch) {
      return `the best ${touchName} moved since the confirmation: it is now ${price(position.limitTouch)}, not the ${price(stated)} confirmed; nothing was sent, close by limit again to see the new price`;
    }
    const committed = await this.deps.closingCommitted(position.account, market, position.turbo);
    if (!committed.ok) return `the orders already closing this position cannot be read now (${committed.message}), so the close cannot be capped to the position; nothing was sent`;
    const held = position.size < 0n ? -position.size : position.size;
    const free = held - committed.value.restingClosing - committed.value.legsClosing;
    return quantity > free ? `${limitCloseBeyond(market, position.size, quantity, committed.value, free)}; nothing was sent` : null;
  }

  /**
   * Close the named positions: sizes are recomputed here from the fills, never taken from the page.
   * A target that names the closing quantity its confirmation stated is refused, with nothing sent,
   * when the close recomputed now would trade another quantity (the position or the book moved).
   */
  async flatten(targets: readonly CloseTarget[], mode: 'close' | 'reverse' = 'close'): Promise<Result<FlattenReport>> {
    const markets = this.deps.markets();
    if (!markets) return fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
    const view = await this.positions();
    const trading = this.deps.tradeAccount();
    const placed: { marketId: string; turbo: boolean; account: string; orderIds: string[]; quantity: bigint; remainder: bigint }[] = [];
    const failed: { marketId: string; turbo: boolean; account: string; reason: string }[] = [];
    const closes: CloseItem[] = [];
    const turboCloses: { target: Target; plan: ClosePlan; intent: PlaceIntent & { marketId: string } }[] = [];
    const plans = new Map<string, ClosePlan>();
    // What the account holds outside the books, consumed as closes are added (a close that the
    // account cannot fund from it settles its book first).
    const onAccount = new Map(this.deps.balances().map((balance) => [balance.assetId, balance.onAccount]));
    const unique = new Map(targets.map((target) => [bookKey(target.account.toLowerCase(), target.marketId.toLowerCase(), target.turbo), { marketId: target.marketId, turbo: target.turbo, account: target.account, quantity: target.quantity, percent: target.percent ?? 100, style: mode === 'reverse' ? ('market' as const) : (target.style ?? 'market'), price: target.price }]));
    for (const [key, target] of unique) {
      const position = view.positions.find((candidate) => bookKey(candidate.account, candidate.marketId, candidate.turbo) === key);
      const refuse = (reason: string) => failed.push({ marketId: target.marketId, turbo: target.turbo, account: target.account, reason });
      if (!position) {
        refuse('no position on this book for this account');
        continue;
      }
      if (position.size === 0n) {
        refuse('the position is already flat');
        continue;
      }
      const market = markets.market(position.marketId, position.turbo);
      if (!market.ok) {
        refuse(market.message);
        continue;
      }
      const reverse = mode === 'reverse' ? position.reverse : null;
      const limit = target.style === 'limit';
      const limitPlan = limit ? position.limitCloses.find((candidate) => candidate.percent === target.percent) : undefined;
      if (limit && limitPlan === undefined) {
        refuse(`no close by limit of ${target.percent} % is planned for this position`);
        continue;
      }
      const plan: ClosePlan = reverse?.close ?? limitPlan ?? (target.percent === 100 ? position.close : (position.partials.find((partial) => partial.percent === target.percent) ?? position.close));
      if (plan.refusal !== null) {
        refuse(plan.notClosable && target.percent === 100 ? `the position cannot be closed by an order: ${plan.refusal}` : plan.refusal);
        continue;
      }
      if (limit) {
        const closing = await this.limitCloseCheck(position, market.value, plan.quantity, target.price);
        if (closing !== null) {
          refuse(closing);
          continue;
        }
      }
      if (!limit && position.mark === null) {
        refuse(`the ${position.size > 0n ? 'bid' : 'ask'} side of the book is empty: there is no price to close at`);
        continue;
      }
      if (target.quantity !== undefined && target.quantity !== plan.quantity) {
        const now = `${formatUnits(plan.quantity, market.value.base.decimals)} ${market.value.base.symbol}`;
        const stated = `${formatUnits(target.quantity, market.value.base.decimals)} ${market.value.base.symbol}`;
        refuse(`the position or the book changed since the confirmation: the close would now be ${now}, not the ${stated} confirmed; nothing was sent, flatten again to see the new size`);
        continue;
      }
      const side: Side = position.size > 0n ? 'Sell' : 'Buy';
      let intent: PlaceIntent;
      if (limit) intent = { side, orderType: { kind: 'PostOnly' }, price: position.limitTouch!, quantity: plan.quantity };
      else {
        const bounded = boundMarketOrder(market.value, side, position.mark!, FLATTEN_SLIPPAGE_BPS);
        intent = { side, orderType: bounded.orderType, price: bounded.price, quantity: plan.quantity };
      }
      plans.set(key, reverse === null ? plan : { ...plan, remainder: reverse.after });
      if (position.accountKind === 'turbo-account') {
        // A Turbo Account signs one order per request (with its settle and funding: Draw, Borrow), so
        // its reverse is ONE order of the close and the opening size together, same side and bound:
        // both or neither, as the trading account's batch of two. The margin service plans its
        // funding and refuses it whole (a frozen account, capacity), never a part.
        const quantity = reverse === null ? plan.quantity : plan.quantity + reverse.open;
        turboCloses.push({ target, plan, intent: { ...intent, quantity, marketId: position.marketId } });
        continue;
      }
      if (trading === null || position.account !== trading) {
        refuse('this position belongs to another trading account than the one in use');
        continue;
      }
      const prepared = prepareOrder(market.value, intent, { nowSeconds: this.deps.nowSeconds(), turbo: position.turbo });
      if (!prepared.ok) {
        refuse(prepared.message);
        continue;
      }
      // The plan applied prepareOrder's own rules: an adjustment here would trade another size than the confirmation stated.
      if (prepared.value.quantity !== plan.quantity) throw new BugError(`flatten plan ${plan.quantity} and prepared order ${prepared.value.quantity} disagree on ${pairName(market.value)}`);
      let open: SessionAction | undefined;
      let forwardedAmount = prepared.value.validated.forwarded.amount;
      if (reverse !== null) {
        // The opening order is the closing one again: same side, bound and size, so the same rules pass it.
        const opening = prepareOrder(market.value, { ...intent, quantity: reverse.open }, { nowSeconds: this.deps.nowSeconds(), turbo: position.turbo });
        if (!opening.ok) {
          refuse(`the opening order: ${opening.message}`);
          continue;
        }
        if (opening.value.quantity !== reverse.open) throw new BugError(`reverse plan ${reverse.open} and prepared opening order ${opening.value.quantity} disagree on ${pairName(market.value)}`);
        open = opening.value.group.actions[0]!;
        forwardedAmount += opening.value.validated.forwarded.amount;
      }
      const forwarded = prepared.value.validated.forwarded;
      const available = onAccount.get(forwarded.asset) ?? 0n;
      const settle = available < forwardedAmount;
      if (!settle) onAccount.set(forwarded.asset, available - forwardedAmount);
      closes.push({ key, market: market.value, turbo: position.turbo, create: prepared.value.group.actions[0]!, ...(open ? { open } : {}), settle });
    }

    let batches = 0;
    const releases: (() => void)[] = [];
    try {
      if (closes.length > 0 && trading !== null) {
        const ready = await this.deps.ready();
        if (!ready.ok) return fail(ready.code, ready.message, ready.details);
        if (this.deps.holdProtection) for (const close of closes) releases.push(await this.deps.holdProtection(close.market.market_id, close.turbo));
        for (const batch of packCloses(closes, trading)) {
          batches++;
          const names = batch.keys.map((key) => closes.find((close) => close.key === key)!).map((close) => `${pairName(close.market)} ${close.turbo ? 'Turbo' : 'Canonical'}`);
          const verb = mode === 'reverse' ? 'Reverse' : closeVerb(batch.keys.map((key) => unique.get(key)!));
          const submitted = await this.deps.submitter.submit({ groups: batch.groups, description: `${verb} ${names.join(', ')} as trading account ${trading}`, settleFirst: false });
          let offset = 0;
          for (const [index, key] of batch.keys.entries()) {
            const target = unique.get(key)!;
            const group = batch.groups[index]!;
            const creates = group.actions.filter((action) => action.kind !== 'SettleBalance').length;
            const first = offset;
            offset += creates;
            if (!submitted.ok) {
              failed.push({ marketId: target.marketId, turbo: target.turbo, account: target.account, reason: submitted.message });
              continue;
            }
            // Orders come back in the order of the creates; by market when they name it.
            const orders = submitted.value.orders as { order_id?: string; market_id?: string }[];
            const named = orders.every((order) => typeof order.market_id === 'string');
            const orderIds = (named ? orders.filter((order) => order.market_id === group.market_id) : orders.slice(first, first + creates))
              .map((order) => order.order_id)
              .filter((id): id is string => typeof id === 'string');
            const plan = plans.get(key)!;
            placed.push({ marketId: target.marketId, turbo: target.turbo, account: target.account, orderIds, quantity: plan.quantity, remainder: plan.remainder });
          }
        }
      }
    } finally {
      for (const release of releases) release();
    }
    for (const { target, plan, intent } of turboCloses) {
      batches++;
      const result = await this.deps.placeTurboOrder(intent);
      const where = { marketId: target.marketId, turbo: target.turbo, account: target.account };
      if (result.ok) placed.push({ ...where, orderIds: result.value.orders.map((order) => order.orderId), quantity: plan.quantity, remainder: plan.remainder });
      else failed.push({ ...where, reason: result.message });
    }
    if (batches > 0) this.deps.afterTrades();
    return ok({ requested: unique.size, placed, failed, batches });
  }
}
