// Fixed scenarios of the trader session, one per contract of docs/actions.md: each runs a short list
// of steps once (the same steps, postconditions and screen oracle as the random session) and prints
// what failed. To see a contract hold after a fix, or fail on a deliberate mutation of the product
// (docs/reliability.md lists the mutations and what caught them).
//
//   npx tsx bench/trader-contracts.ts <scenario>   (LT_SKIP_BUILD=1 to use the last build)
//   scenarios: kill, cancel-all-stop, amend-bracket, flatten, partial-close, close-by-limit, legs, place, cancel-all, cancel-one,
//              network, stop, amend, chart-drag, chart-click, ladder-drag, hotkeys, alert, guards, position-tpsl, trail, algos,
//              owner-settle
import * as step from '../test/support/trader-session/commands';
import { PriceAlertFromLadder } from '../test/support/trader-session/steps/alerts';
import { AlgoFromPanel, StartAlgo } from '../test/support/trader-session/steps/algos';
import { ChoosePnlDisplay, CloseByLimit } from '../test/support/trader-session/steps/positions';
import { runTraderSession } from '../test/support/trader-session/run';
import { PositionTakeProfitStopLoss, TrailStop } from '../test/support/trader-session/steps/protect';
import { startWorld } from '../test/support/trader-session/world';
import { GuardRefusal } from '../test/support/trader-session/steps/guards';
import { ChartClickToPlace } from '../test/support/trader-session/steps/chart';
import { SettleBookAsOwner } from '../test/support/trader-session/steps/owner';
import { ensureBuilt } from '../scripts/build-stamp.mjs';

const restingBuy = () => new step.TicketOrder('Limit', 'Buy', false, 2);
const restingSell = () => new step.TicketOrder('Limit', 'Sell', false, 2);

const SCENARIOS: Record<string, () => unknown[]> = {
  kill: () => [new step.StopOrder('Sell', false), restingBuy(), new step.KillSwitch()],
  'cancel-all-stop': () => [new step.StopOrder('Sell', false), restingBuy(), new step.CancelAllMarket()],
  'amend-bracket': () => [new step.BracketOrder('Buy', true), new step.AmendOrder(0, true)],
  flatten: () => [new step.TicketOrder('Market', 'Buy', true, 5), new step.Flatten(0)],
  'partial-close': () => [new step.TicketOrder('Market', 'Buy', true, 5), new step.ClosePart(0, 50), new step.ClosePart(0, 0), new step.Flatten(0)],
  // The P&L marked at the mid in ticks (every panel alike); a close by limit rests; a second one beyond the position less it is refused; cancelling frees the position for the flatten.
  'close-by-limit': () => [new step.TicketOrder('Market', 'Buy', true, 5), new ChoosePnlDisplay(0, 'mid', 'ticks'), new CloseByLimit(0, 50), new CloseByLimit(0, 75), new step.CancelAllMarket(), new CloseByLimit(0, 100), new step.CancelAllMarket(), new step.Flatten(0)],
  legs: () => [new step.StopOrder('Sell', true), new step.MoveLeg(0), new step.BracketOrder('Buy', true), new step.MoveLeg(0), new step.CancelLeg(0), new step.CancelOne(0, true)],
  place: () => [restingBuy()],
  faults: () => [new step.Fault('fail', restingBuy()), new step.Fault('lost-answer', restingSell()), new step.Fault('delay', restingBuy()), new step.Fault('stream-drop', restingSell()), restingBuy()],
  'cancel-all': () => [restingBuy(), restingSell(), new step.CancelAllMarket()],
  'cancel-one': () => [restingBuy(), new step.CancelOne(0)],
  network: () => [restingBuy(), new step.SwitchNetwork('devnet'), new step.SwitchNetwork('sandbox')],
  stop: () => [new step.StopOrder('Sell', false), new step.StopOrder('Buy', true)],
  amend: () => [restingBuy(), new step.AmendOrder(0, false)],
  'chart-drag': () => [restingBuy(), new step.ChartDrag(30)],
  // A buy under the market and a sell over it placed by chart clicks, each read on the exchange; then cancelled.
  'chart-click': () => [new ChartClickToPlace('Buy', 6), new ChartClickToPlace('Sell', 6), new step.CancelAllMarket()],
  // An order near the inside is on the ladder's screen: a ladder click places one there.
  'ladder-drag': () => [new step.LadderClick('Buy', 4), new step.DragOrder(2)],
  // A resting buy and sell: the market moved through the alert's level must not make the alert trade.
  alert: () => [restingBuy(), new PriceAlertFromLadder('above', 3), new PriceAlertFromLadder('below', 4), restingSell()],
  // A guard just under a ticket order: refused before signing, flat or long; the setting restored after each.
  guards: () => [new GuardRefusal('notional', 3), new GuardRefusal('position', 2), new step.TicketOrder('Market', 'Buy', true, 3), new GuardRefusal('position', 4), new GuardRefusal('notional', 2), restingBuy()],
  hotkeys: () => [restingBuy(), restingSell(), new step.CancelAllMarket(true), new step.Hotkey('Buy'), new step.KillSwitch(true), new step.Flatten(0, true)],
  // A long and a stop-loss under it, armed to trail: the stop follows on the exchange, never looser; then cancelled.
  trail: () => [new step.TicketOrder('Market', 'Buy', true, 5), new step.StopOrder('Sell', false), new TrailStop(0), new step.CancelLeg(0)],
  // A long, its position TP/SL armed and read on the exchange, then a partial close (the pair shrinks) and a flatten.
  // A TWAP and a chase from the ticket: one cancelled, the other paused (the only one left running); a chase from the ladder; the kill switch over the rest.
  algos: () => [new StartAlgo('twap', 'Buy', false, 10, 6, 1, true), new StartAlgo('chase', 'Sell', false, 5, 4, 1, true), new AlgoFromPanel('pause', 0, true), new AlgoFromPanel('cancel', 0, true), new StartAlgo('chase', 'Buy', true, 5, 4, 2, true), new step.KillSwitch()],
  // A fill leaves proceeds on the book; the owner methods table settles it with the owner key (host code), twice (the second has nothing to move).
  'owner-settle': () => [new step.TicketOrder('Market', 'Buy', true, 3), new SettleBookAsOwner(), new SettleBookAsOwner(), new step.Flatten(0)],
  'position-tpsl': () => [new step.TicketOrder('Market', 'Buy', true, 5), new PositionTakeProfitStopLoss(0), new step.ClosePart(0, 50), new PositionTakeProfitStopLoss(0), new step.Flatten(0)],
};

async function main() {
  const name = process.argv[2] ?? '';
  const scenario = SCENARIOS[name];
  if (!scenario) {
    process.stderr.write(`trader-contracts: name a scenario: ${Object.keys(SCENARIOS).join(', ')}\n`);
    process.exit(2);
  }
  if (process.env.LT_SKIP_BUILD !== '1') {
    if (!ensureBuilt()) throw new Error('electron-vite build failed');
  }
  const world = await startWorld({ turboAccount: false });
  const failed = await runTraderSession(world, { seed: 1, numRuns: 1, maxCommands: 20, boundMs: 10_000, restart: false, commands: scenario() as Parameters<typeof runTraderSession>[1]['commands'], print: (line) => console.log(line) })
    .then((result) => {
      console.log(JSON.stringify({ scenario: name, steps: result.steps, failed: result.failure !== null }));
      if (result.failure) console.log(result.failure);
      return result.failure !== null;
    })
    .finally(() => world.stop());
  process.exit(failed ? 1 : 0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
