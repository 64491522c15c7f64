// Builds the context value of one window: its stores over the bridge, its frame scheduler and
// its trading actions. The app and the ladder benchmark build it the same way.
import { createSignal } from 'solid-js';
import type { Clock } from '../../../shared/clock';
import type { TerminalApi } from '../../../shared/ipc/contract';
import { windowClock } from '../lib/freshness';
import { createTradingActions, signerText, type Confirm } from '../features/trading/trading-actions';
import { createFrameScheduler, type FrameScheduler } from '../lib/frame-scheduler';
import { armingEnvironment, createArming, followMainDisarm } from '../stores/arming-store';
import { createMarkSource } from '../stores/mark-source';
import { pnlDisplayOf } from '../../../shared/positions/pnl-display';
import { createPositionsSource } from '../stores/positions-source';
import { createTerminalStore } from '../stores/terminal-store';
import { createTicketStore } from '../stores/ticket-store';
import { createLadderSizes } from '../stores/ladder-size-store';
import { createTurboBooks } from '../stores/turbo-store';
import { createLadderCommands, type TerminalContextValue } from '../stores/terminal-context';

export function createTerminal(api: TerminalApi, confirm: Confirm, frames: FrameScheduler = createFrameScheduler(), clock: Clock = windowClock): TerminalContextValue {
  const store = createTerminalStore(api, () => clock.now());
  const tickets = createTicketStore();
  const turboBooks = createTurboBooks(api);
  // The account that signs Turbo orders is part of the account: choosing another disarms too.
  const arming = createArming(() => `${armingEnvironment(store.state)}|${turboBooks.view()?.tradingAs ?? ''}`);
  // Whether a confirmation is on screen now: a ticket waiting for one says so, not "Sending…".
  const [asking, setAsking] = createSignal(0);
  const tracked: Confirm = async (title, lines) => {
    setAsking((count) => count + 1);
    try {
      return await confirm(title, lines);
    } finally {
      setAsking((count) => count - 1);
    }
  };
  const trading = createTradingActions(api, store, tracked, {
    onKillSwitch: () => arming.disarm('the kill switch was used', true),
    signer: (turbo) => signerText(turbo, store.state.account?.tradeAccount?.tradeAccountId, turboBooks.view()?.tradingAs),
  });
  // Main's word on a daily loss limit's breach: every window drops its arming, saying why.
  followMainDisarm(api.onGuardDisarm, arming);
  const positions = createPositionsSource(api, () => clock.now());
  const freshness = { view: () => store.state.freshness, receivedAt: () => store.state.freshnessAt, clock };
  const market = (marketId: string) => store.state.markets?.markets.find((candidate) => candidate.market_id === marketId) ?? null;
  const display = (marketId: string) => pnlDisplayOf(store.state.settings?.pnlDisplay ?? {}, marketId);
  const marks = createMarkSource({ api, frames, positions, market, freshness, clock, display });
  return {
    store,
    tickets,
    ladderSizes: createLadderSizes(),
    trading,
    frames,
    turboBooks,
    arming,
    positions,
    marks,
    confirming: () => asking() > 0,
    ...createLadderCommands(),
    clock,
    freshness,
    market,
  };
}
