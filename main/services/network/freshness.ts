// Freshness of every source the windows show: derived from data actually arriving on
// the network's WebSocket (heartbeats included) and from each subscription's state, never from a
// socket merely being open. `computeFreshness` is pure (time is a parameter); FreshnessPublisher
// pushes the view to the windows when it changes and once a second while frames arrive, so the
// age a panel shows restarts from main's latest evidence.
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { FreshnessView, MarketFreshness, SourceFreshness } from '../../../shared/ipc/views';
import type { StreamStatus } from '../../exchange/stream-client';
import type { ChannelStates } from '../market-data/market-data-hub';

export type TopicState = 'absent' | 'awaiting' | 'live';

export interface FreshnessInputs {
  readonly networkId: string;
  readonly generation: number;
  /** Null while no runtime serves the network (a switch in progress, or it could not start). */
  readonly link: Pick<StreamStatus, 'state' | 'lastInboundAt' | 'lastError' | 'gaveUp'> | null;
  /** Why there is no link, when `link` is null. */
  readonly switching: string | null;
  readonly orders: TopicState;
  readonly ordersTurbo: TopicState;
  readonly balances: TopicState;
  readonly channels: readonly ChannelStates[];
  readonly staleAfterMs: number;
}

function seconds(ms: number): string {
  return `${Math.floor(ms / 1000)} s`;
}

/** The connection: disconnected (not open), stale (silent past the cadence), resyncing (topics await their snapshot), live. */
export function linkFreshness(inputs: FreshnessInputs, now: number): SourceFreshness {
  const link = inputs.link;
  if (link === null) return { state: 'disconnected', ageMs: null, detail: inputs.switching ?? 'not connected' };
  if (link.lastInboundAt === null || link.state === 'down' || link.state === 'closed' || link.state === 'connecting' || link.state === 'idle') {
    const detail = link.gaveUp ? `gave up reconnecting: ${link.lastError ?? 'no answer'}` : link.state === 'connecting' || link.state === 'idle' ? 'connecting' : (link.lastError ?? 'the stream is down');
    return { state: 'disconnected', ageMs: null, detail };
  }
  const ageMs = Math.max(0, now - link.lastInboundAt);
  if (ageMs > inputs.staleAfterMs) return { state: 'stale', ageMs, detail: `nothing from the exchange for ${seconds(ageMs)}, heartbeats included` };
  if (link.state === 'resyncing') return { state: 'resyncing', ageMs, detail: 'waiting for fresh snapshots' };
  return { state: 'live', ageMs, detail: null };
}

/**
 * A source that depends on the link: the link's own problem first (disconnected, stale), then the
 * source's (resyncing); live only when both are. A live connection vouches for a subscribed
 * source: had anything changed, its message would have come before the heartbeat.
 */
function dependent(link: SourceFreshness, own: 'resyncing' | 'live', what: string): SourceFreshness {
  if (link.state === 'disconnected' || link.state === 'stale') return link;
  if (own === 'resyncing') return { state: 'resyncing', ageMs: link.ageMs, detail: `waiting for a fresh ${what}` };
  return { state: 'live', ageMs: link.ageMs, detail: null };
}

function topic(link: SourceFreshness, states: readonly TopicState[], what: string): SourceFreshness {
  return dependent(link, states.includes('awaiting') ? 'resyncing' : 'live', what);
}

export function computeFreshness(inputs: FreshnessInputs, now: number): FreshnessView {
  const link = linkFreshness(inputs, now);
  const markets: MarketFreshness[] = inputs.channels.map((channel) => ({
    marketId: channel.marketId,
    turbo: channel.turbo,
    book: dependent(link, channel.depth === 'live' ? 'live' : 'resyncing', 'book snapshot'),
    trades: dependent(link, channel.tradesAwaiting === false ? 'live' : 'resyncing', 'trade snapshot'),
  }));
  return {
    networkId: inputs.networkId,
    generation: inputs.generation,
    staleAfterMs: inputs.staleAfterMs,
    // The header: the connection as data shows it; resyncing topics are the panels' concern.
    link: link.state === 'resyncing' ? { ...link, state: 'live', detail: null } : link,
    orders: topic(link, [inputs.orders, inputs.ordersTurbo], 'order snapshot'),
    balances: topic(link, [inputs.balances], 'balance snapshot'),
    markets,
  };
}

/** The state of a view without its ages: a change of it is published at once. */
function signature(view: FreshnessView): string {
  const states = (source: SourceFreshness) => `${source.state}:${source.detail ?? ''}`;
  return [view.networkId, view.generation, states(view.link), states(view.orders), states(view.balances), ...view.markets.map((entry) => `${entry.marketId}/${entry.turbo}/${states(entry.book)}/${states(entry.trades)}`)].join('|');
}

export interface FreshnessPublisherOptions {
  readonly clock: Clock;
  readonly inputs: () => FreshnessInputs;
  readonly publish: (view: FreshnessView) => void;
  /** Every tick, after the view (the header's connection status is aged on the same beat). */
  readonly onTick?: () => void;
  readonly intervalMs?: number;
}

export class FreshnessPublisher {
  private timer: TimerHandle | null = null;
  private lastSignature = '';
  private lastEvidence: number | null = null;

  constructor(private readonly options: FreshnessPublisherOptions) {}

  current(): FreshnessView {
    return computeFreshness(this.options.inputs(), this.options.clock.now());
  }

  start(): void {
    if (this.timer !== null) return;
    const tick = () => {
      this.timer = this.options.clock.setTimeout(tick, this.options.intervalMs ?? 1000);
      this.check('tick');
      this.options.onTick?.();
    };
    this.timer = this.options.clock.setTimeout(tick, this.options.intervalMs ?? 1000);
  }

  stop(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * `state`: publish when a state changed. `tick`: also when new evidence arrived since the last
   * view, so the windows' ages restart (at most once a tick). `force`: regardless (a network switch).
   */
  check(mode: 'state' | 'tick' | 'force'): void {
    const inputs = this.options.inputs();
    const view = computeFreshness(inputs, this.options.clock.now());
    const next = signature(view);
    const evidence = inputs.link?.lastInboundAt ?? null;
    if (mode !== 'force' && next === this.lastSignature && (mode === 'state' || evidence === this.lastEvidence)) return;
    this.lastSignature = next;
    this.lastEvidence = evidence;
    this.options.publish(view);
  }
}
