// Trigger components (take-profit, stop-loss, OCO), self-contained: each reads the bridge with
// useBridge (stores/bridge-context) and talks to main through the triggers area of the contract
// (placeBracketOrder, placeStopOrder, placeOcoOrder, cancelTrigger, moveTrigger, getTriggers,
// onTriggers) plus getOrders / onOrders for the orders legs belong to. None is wired into the app
// shell here.
//
// | export               | props / arguments                                                                                   | shows / does                                                                                          |
// |----------------------|-----------------------------------------------------------------------------------------------------|-------------------------------------------------------------------------------------------------------|
// | BracketSection       | market: Market; turbo?; entry(): BracketEntry | null; onChange?(BracketDraft); onPlaced?(PlacedTriggers); hidePlaceButton?      | take-profit and stop-loss for the ticket's entry (trigger price; slippage, limit or market); checks them against the entry and the market; places entry and legs in one request (placeBracketOrder) |
// | StopOrderForm        | market; turbo?; onPlaced?(PlacedTriggers)                                                           | a stop on its own or an OCO pair; sized by quantity or from one of the market's open orders (legs then on its other side) |
// | TriggersList         | markets: readonly Market[]; marketId?; showRecent? (default true)                                    | pending legs under their orders (open orders first), then legs on their own; cancel and move per leg, trailing / break-even per stop-loss (TrailControls, confirmed once); fired and cancelled legs with why |
// | createTriggerOverlay | (bridge, { market(): Market; turbo(): boolean }) → TriggerOverlay                                    | reactive lines of the book's legs for a ladder or chart (a stop main trails named `managed`), and a drag (startDrag, dragTo(price), drop() → moveTrigger, cancelDrag) |
// | TriggerMarker        | overlay; line: TriggerLine; market; priceAt?(clientY) → bigint | null                               | one leg's marker (TP/SL and price) with a drag handle; with `priceAt` it runs the drag itself           |
// | LegFields            | market; label; testId; tone; value: LegDraft; onChange(LegDraft); toggle?                           | the fields of one leg (used by the two forms)                                                          |
// | trigger-model        | pure: bracketInput, stopInput, ocoInput, parseLeg, triggerLines, linesByRow, rowOf, snapToStep, moveInput, groupUnderOrders, legLabel | the forms' requests (or the first refusal, with its code) and the overlay geometry                      |
//
// What the shell passes:
// - OrderTicket: render <BracketSection market turbo entry={() => the entry the ticket would
//   place now, or null} hidePlaceButton? onPlaced /> under the order fields. Either let the section's
//   "Place with bracket" button place the order, or hide it and, when a leg is enabled (onChange),
//   send `placeBracketOrder(bracketInput(...))` from the ticket's own submit instead of placeOrder.
//   `entry.orderType` is the placeOrder input's orderType; price and quantity raw bigint.
// - A "Stops" panel or a tab next to the ticket: <StopOrderForm market turbo />.
// - Open orders panel: <TriggersList markets={all markets} marketId? /> under the table (legs are
//   grouped under their parent orders by id, so it matches the open-orders rows).
// - Ladder: const overlay = createTriggerOverlay(bridge, { market, turbo }); per row, the lines of
//   linesByRow(overlay.lines(), rowStep).get(rowPrice) rendered as <TriggerMarker overlay line market
//   priceAt={(y) => the row price under y, or null} />. A merged row shows every leg in it.
// - Chart: the same overlay; draw a horizontal line per overlay.lines() at `price` (tone tp/sl, dashed
//   when !armed, a band for `band`), and put a <TriggerMarker ... priceAt={(y) => BigInt price from
//   uPlot posToVal(y - top, 'y') in raw units} /> at the line's right edge.
// - Fill alerts: a FillNotice with `trigger` is a fired leg's fill (`trigger.role`, `trigger.triggerPrice`):
//   label it "Take-profit filled" / "Stop-loss filled". Main also pushes a `notice` when a leg fires or
//   the exchange cancels one.
//
// data-testid of the controls: bracket-section, bracket-take-profit(-enabled, -trigger, -execution,
// -limit, -slippage), bracket-stop-loss(-…), bracket-needs-entry, bracket-error, bracket-place,
// bracket-result(-leg); stop-form, stop-mode-single, stop-mode-oco, stop-size-quantity,
// stop-size-parent, stop-side-buy, stop-side-sell, stop-quantity, stop-parent, stop-parent-side,
// stop-leg-first(-…), stop-leg-second(-…), stop-submit, stop-error, stop-result(-leg);
// triggers-list, trigger-parent-row, trigger-standalone-row, trigger-row (data-trigger-id, data-role,
// data-armed), trigger-move-price, trigger-move, trigger-cancel, triggers-empty, triggers-error,
// triggers-recent, trigger-recent-row (data-state); trigger-marker (data-trigger-id, data-role),
// trigger-marker-handle, trigger-marker-from. Failures carry data-code with the stable code.
export { BracketSection, type BracketDraft } from './BracketSection';
export { StopOrderForm } from './StopOrderForm';
export { TriggersList } from './TriggersList';
export { TriggerMarker } from './TriggerMarker';
export { LegFields } from './LegFields';
export { createTriggerOverlay, type TriggerOverlay, type TriggerDrag } from './trigger-overlay';
export { createOpenOrders, createPositionBrackets, createProtectiveStops, createTriggerSnapshot } from './trigger-data';
export {
  bracketInput,
  emptyLeg,
  groupUnderOrders,
  legLabel,
  linesByRow,
  moveInput,
  ocoInput,
  parseLeg,
  rowOf,
  snapToStep,
  stopInput,
  triggerLines,
  type BracketEntry,
  type LegDraft,
  type SizeDraft,
  type TriggerLine,
} from './trigger-model';
