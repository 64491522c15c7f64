// The take-profit and stop-loss legs of an order being amended, carried to its replacement in the
// same signed batch. Cancelling an order takes every pending leg bound to it (ParentCancelled,
// docs/protocol.md "Dormant legs"), so an amend signed as CancelOrder + CreateOrder would leave the
// position without its protection. The replacement is therefore CreateOrderWithTriggers with the
// old legs' kinds and prices, sized from the new order (the zero parent id: the only way to bind a
// leg to an order whose id is not known before the batch lands). What the old order had already
// filled was protected by the same legs; a pair of them sized to that filled quantity
// (CreateTriggerOrder(s) with an explicit quantity) keeps it protected in the same batch. Where
// that cannot be done the amend is refused before signing, naming the legs and the rule. Pure.
import type { ActiveTrigger } from '../../../shared/api/market-schemas';
import { ZERO_B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { CarriedLeg } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { TriggerLeg } from '../../../shared/protocol/trigger';
import { fail, ok, type Result } from '../../../shared/result';
import { describeLeg, explicitQuantity, fromParent, orderPairByLock } from '../triggers/trigger-intents';

export const AMEND_LEGS_NOT_CARRIED = 'AMEND_LEGS_NOT_CARRIED';

type CreateOrderAction = Extract<SessionAction, { kind: 'CreateOrder' }>;

export interface AmendLegsPlan {
  /** The replacement with the legs attached (it takes the place of the plain CreateOrder). */
  readonly create: SessionAction;
  /** The legs sized to what the old order filled, or null when it filled nothing. */
  readonly protect: SessionAction | null;
  readonly carried: CarriedLeg[];
  /** The filled quantity `protect` covers (0 when none). */
  readonly protectedFilled: bigint;
  readonly adjustments: string[];
  /** " with take-profit … and stop-loss … carried" for the journal. */
  readonly description: string;
}

export interface AmendedOrder {
  readonly side: Side;
  /** The old order's price: a leg's role is read against it when the exchange gave no direction. */
  readonly price: bigint;
  /** What the old order had filled (its legs protected that). */
  readonly filled: bigint;
}

function roleOf(leg: ActiveTrigger, order: AmendedOrder): CarriedLeg['role'] {
  const direction = leg.direction ?? (leg.trigger_price > order.price ? 'rise' : 'fall');
  return (leg.side === 'Sell') === (direction === 'rise') ? 'take-profit' : 'stop-loss';
}

function price(market: Market, value: bigint): string {
  return `${formatUnits(value, market.quote.decimals)} ${market.quote.symbol}`;
}

/**
 * Plan the legs of an amend. `legs`: the pending legs the exchange lists under the old order.
 * `check`: the pre-flight (checkAction with the market row and the last price) of an action.
 */
export function planAmendLegs(market: Market, order: AmendedOrder, create: CreateOrderAction, legs: readonly ActiveTrigger[], check: (action: SessionAction) => Result<void>): Result<AmendLegsPlan> {
  const named = legs.map((leg) => `${roleOf(leg, order)} ${price(market, leg.trigger_price)}`).join(' and ');
  const refuse = (why: string) => fail(AMEND_LEGS_NOT_CARRIED, `The order's ${named} cannot be carried to the amended order: ${why}. Cancelling the order takes them (ParentCancelled), so nothing was signed.`, { field: 'orderId' });
  if (legs.length > 2) return refuse(`an order carries at most two attached legs, as one OCO pair (create_order_with_triggers: trigger_1, trigger_2), and this one has ${legs.length}`);
  const [one, two] = legs;
  if (one !== undefined && two !== undefined && one.oco_order_id !== two.order_id) return refuse('two legs attached to one order form one OCO pair (create_order_with_triggers), and these two are not a pair');
  const attached: TriggerLeg[] = [];
  for (const leg of legs) {
    if (leg.order_type === undefined || leg.quantity === undefined) return refuse('the exchange did not report how the leg executes or how it is sized, so it cannot be rebuilt');
    if (leg.quantity.kind === 'Quantity') {
      return refuse(
        'it has a size of its own, and a leg attached to a new order must be sized from that order (QuantityMustBeParentOrder), while a standalone leg cannot name the new order before the batch lands',
      );
    }
    attached.push({ order_type: leg.order_type, quantity: fromParent(ZERO_B256), trigger_price: leg.trigger_price, side: leg.side });
  }
  // Take-profit first, as the ticket places them.
  const ordered = legs.map((leg, index) => ({ leg: attached[index]!, role: roleOf(leg, order) })).sort((left, right) => (left.role === right.role ? 0 : left.role === 'take-profit' ? -1 : 1));
  const first = ordered[0];
  if (first === undefined) return fail('BUG', 'planAmendLegs needs at least one leg');
  const withTriggers: SessionAction = { ...create, kind: 'CreateOrderWithTriggers', trigger_1: first.leg, ...(ordered[1] === undefined ? {} : { trigger_2: ordered[1].leg }) };
  const checked = check(withTriggers);
  if (!checked.ok) return refuse(`the exchange would refuse them on the new order (${checked.code}: ${checked.message})`);
  const carried: CarriedLeg[] = ordered.map(({ leg, role }) => ({ role, side: leg.side, triggerPrice: leg.trigger_price }));
  const adjustments: string[] = [];
  let protect: SessionAction | null = null;
  let protectedFilled = 0n;
  if (order.filled > 0n) {
    const sized = explicitQuantity(market, order.filled, ordered.map(({ leg }) => leg));
    const filledText = `${formatUnits(order.filled, market.base.decimals)} ${market.base.symbol}`;
    if (sized.quantity === 0n) return refuse(`the ${filledText} already filled is too small for a leg of its own at their prices`);
    const explicit = ordered.map(({ leg }) => ({ ...leg, quantity: { kind: 'Quantity' as const, quantity: sized.quantity } }));
    const [a, b] = explicit;
    if (a === undefined) return fail('BUG', 'no leg to size');
    if (b === undefined) protect = { kind: 'CreateTriggerOrder', args: a };
    else {
      const [firstLeg, secondLeg] = orderPairByLock(market, a, b);
      protect = { kind: 'CreateTriggerOrders', first: firstLeg, second: secondLeg };
    }
    const protectChecked = check(protect);
    if (!protectChecked.ok) return refuse(`the ${filledText} already filled would lose them, and a pair sized to it would be refused (${protectChecked.code}: ${protectChecked.message})`);
    protectedFilled = sized.quantity;
    adjustments.push(...sized.adjustments.map((line) => `Protection of the filled part: ${line}`));
    if (sized.quantity < order.filled) adjustments.push(`${formatUnits(order.filled - sized.quantity, market.base.decimals)} ${market.base.symbol} of the ${filledText} filled is below what a leg can size and is no longer protected.`);
  }
  const legsText = ordered.map(({ leg, role }) => describeLeg(market, leg, role)).join(' and ');
  const description = ` with ${legsText} carried${protectedFilled > 0n ? `, and the ${formatUnits(protectedFilled, market.base.decimals)} ${market.base.symbol} already filled kept protected by the same legs` : ''}`;
  return ok({ create: withTriggers, protect, carried, protectedFilled, adjustments, description });
}
