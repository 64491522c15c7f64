// What every panel of a window reaches: the window's stores and the trading actions (the bridge
// is the BridgeContext's, bridge-context.ts).
// Panels take their market (and turbo flag) as props and everything else from here, so a panel
// can later be mounted alone in a detached window with its own provider over the same feed.
import { createContext, createSignal, useContext, type Accessor } from 'solid-js';
import type { Clock } from '../../../shared/clock';
import type { FreshnessInput } from '../lib/freshness';
import type { Market } from '../../../shared/market/market';
import type { TradingActions } from '../features/trading/trading-actions';
import type { FrameScheduler } from '../lib/frame-scheduler';
import type { Arming } from './arming-store';
import type { LadderSizes } from './ladder-size-store';
import type { MarkSource } from './mark-source';
import type { PositionsSource } from './positions-source';
import type { TerminalStore } from './terminal-store';
import type { TicketStore } from './ticket-store';
import type { TurboBooks } from './turbo-store';

export type LadderCommand = { readonly kind: 'recenter'; readonly serial: number };

export interface TerminalContextValue {
  readonly store: TerminalStore;
  readonly tickets: TicketStore;
  /** The ladder's own size per market and book: what ladder clicks and the buy/sell hotkeys trade. */
  readonly ladderSizes: LadderSizes;
  readonly trading: TradingActions;
  readonly frames: FrameScheduler;
  /** The Turbo rows: which markets have a Turbo book, paused or disconnected now, who signs. */
  readonly turboBooks: TurboBooks;
  /** A confirmation dialog of this window's trading actions is waiting for the trader. */
  readonly confirming: Accessor<boolean>;
  /** The window's one source of positions (every panel shows the same read). */
  readonly positions: PositionsSource;
  /** The window's one mark of every position (the live book's exit price): what every panel shows as mark and unrealized P&L. */
  readonly marks: MarkSource;
  /** Whether one-action trading (ladder clicks, buy/sell hotkeys) is armed, and for which book. */
  readonly arming: Arming;
  /** Commands from hotkeys to the ladders of this window. */
  readonly ladderCommand: Accessor<LadderCommand | null>;
  sendLadderCommand(kind: LadderCommand['kind']): void;
  /** Look a market up by id among the loaded markets. */
  market(marketId: string): Market | null;
  /** The window's clock (time is a parameter: tests pass a ManualClock). */
  readonly clock: Clock;
  /** Main's freshness view as this window holds it, for createFreshness (lib/freshness.tsx). */
  readonly freshness: FreshnessInput;
}

export const TerminalContext = createContext<TerminalContextValue>();

export function useTerminal(): TerminalContextValue {
  const value = useContext(TerminalContext);
  if (!value) throw new Error('useTerminal: no TerminalContext provider above this panel');
  return value;
}

export function createLadderCommands(): Pick<TerminalContextValue, 'ladderCommand' | 'sendLadderCommand'> {
  const [ladderCommand, setLadderCommand] = createSignal<LadderCommand | null>(null);
  let serial = 0;
  return { ladderCommand, sendLadderCommand: (kind) => setLadderCommand({ kind, serial: ++serial }) };
}
