// The one routing table of the stream's server messages (spec 6, margin-api 4.6 and 6), and the
// consumers that register into it.
//
// Every frame is parsed once with shared/api's serverMessageSchema, whose union picks its branch by
// `action`. The table then says, per action, who handles the parsed message (the consumers
// registered for it, or the stream client itself) and which subscription it marks arrived (the
// first message a (re)subscribe waits for). The compiler refuses a table that misses an action of
// the schema. Consumers (book feed, margin feed, the runtime's orders, balances and nonce readers)
// register a handler per action with `StreamRouter.consume`, instead of each testing the action
// string; a frame that could not be read is routed to the consumers whose action it names, so each
// learns it may have lost one of its messages.
import type { ServerMessage } from '../../shared/api/websocket-schemas';

/** Every `action` a server message carries on the wire (the `{error}` object of spec 7 has none). */
export type StreamAction = Exclude<ServerMessage['action'], 'stream_error'>;

export type MarketTopicKind = 'depth' | 'depth_view' | 'trades' | 'margin';
export type IdentityTopicName = 'orders' | 'orders_turbo' | 'balances' | 'nonce' | 'nonce_v2';

/**
 * The subscription a message is the (first) message of. `market`: the topics of that kind with the
 * message's Turbo flag and market_id (every one of them when it names no market; the margin topic
 * is the connection's only one and names neither). `identities`: the identity topic, its Turbo
 * variant when the message has `turbo: true` and the topic has one.
 */
export type Arrival = { readonly market: MarketTopicKind } | { readonly identities: IdentityTopicName; readonly turbo?: IdentityTopicName };

export interface StreamRoute {
  /** `consumers`: a data message, handed to the consumers registered for it. `client`: the stream client acts on it. */
  readonly handledBy: 'consumers' | 'client';
  /** What the message marks arrived; null for messages that follow a first one (deltas, events). */
  readonly arrival: Arrival | null;
}

export const STREAM_ROUTES = {
  subscribe_depth: { handledBy: 'consumers', arrival: { market: 'depth' } },
  // Deltas belong to the snapshot before them: only a snapshot ends a resubscribe's wait.
  subscribe_depth_update: { handledBy: 'consumers', arrival: null },
  subscribe_depth_view: { handledBy: 'consumers', arrival: { market: 'depth_view' } },
  subscribe_trades: { handledBy: 'consumers', arrival: { market: 'trades' } },
  // Turbo and canonical order subscriptions are separate and can run together (margin-api 4.6).
  subscribe_orders: { handledBy: 'consumers', arrival: { identities: 'orders', turbo: 'orders_turbo' } },
  subscribe_balances: { handledBy: 'consumers', arrival: { identities: 'balances' } },
  subscribe_nonce: { handledBy: 'consumers', arrival: { identities: 'nonce' } },
  subscribe_nonce_v2: { handledBy: 'consumers', arrival: { identities: 'nonce_v2' } },
  subscribe_margin: { handledBy: 'consumers', arrival: { market: 'margin' } },
  // Events folded onto the snapshot (margin-api 6): the snapshot is what the subscription waits for.
  subscribe_margin_update: { handledBy: 'consumers', arrival: null },
  // A restarted Turbo trade stream (margin-api 6): the client resubscribes, or reports the error.
  error: { handledBy: 'client', arrival: null },
} as const satisfies Record<StreamAction, StreamRoute>;

/** The actions whose messages reach consumers, as the table says. */
export type ConsumedAction = { [A in StreamAction]: (typeof STREAM_ROUTES)[A]['handledBy'] extends 'consumers' ? A : never }[StreamAction];

/** A data message of a subscription (errors are separate events). */
export type StreamMessage = Extract<ServerMessage, { action: ConsumedAction }>;

export type MessageOf<A extends ConsumedAction> = Extract<StreamMessage, { action: A }>;

/**
 * A frame that is not JSON or does not match the schema (the message names the field). `action`
 * and `marketId` are the frame's own members when they could be read, so a consumer can tell
 * whether the frame it lost was one of its own (a book that missed an update must resync).
 */
export interface InvalidFrame {
  readonly type: 'invalid_frame';
  readonly code: string;
  readonly message: string;
  readonly action?: string;
  readonly marketId?: string;
}

export type StreamEvent =
  | { readonly type: 'message'; readonly message: StreamMessage }
  /** `{error}` objects (spec 7): malformed JSON, too many topics, bad frequency, inactivity. */
  | { readonly type: 'stream_error'; readonly error: string }
  /** The Turbo trade stream restarted and closed its subscription; the client resubscribed it. */
  | { readonly type: 'resync_required'; readonly message: string; readonly turbo: boolean }
  | InvalidFrame
  | { readonly type: 'connected'; readonly reconnect: boolean }
  | { readonly type: 'disconnected'; readonly reason: string };

/** What happens to the connection rather than to one subscription. */
export type ConnectionEvent = Exclude<StreamEvent, { type: 'message' } | InvalidFrame>;

export type StreamListener = (event: StreamEvent) => void;

/** A consumer of stream messages: one handler per action it takes. */
export interface StreamConsumer {
  readonly messages: { readonly [A in ConsumedAction]?: (message: MessageOf<A>) => void };
  /**
   * A frame that could not be read and may have been one of this consumer's: it names one of its
   * actions, or no action (or, with `unknownActionsMayBeMine`, an action the table does not know).
   */
  readonly lost?: (frame: InvalidFrame) => void;
  /** A mangled action may have been this consumer's (a book that misses an update serves a wrong book). */
  readonly unknownActionsMayBeMine?: boolean;
  readonly connection?: (event: ConnectionEvent) => void;
}

function knownAction(action: string): action is StreamAction {
  return Object.hasOwn(STREAM_ROUTES, action);
}

function consumed(action: StreamAction): action is ConsumedAction {
  return STREAM_ROUTES[action].handledBy === 'consumers';
}

/**
 * Hands each event to the registered consumers and listeners, in the order they registered (one
 * list, so the order of handling is the order of registration whatever the kind of registration).
 */
export class StreamRouter {
  private readonly registrations = new Set<StreamConsumer | StreamListener>();

  /** Register a consumer; the returned function removes it. */
  consume(consumer: StreamConsumer): () => void {
    this.registrations.add(consumer);
    return () => this.registrations.delete(consumer);
  }

  /** Every event, messages of every action included (diagnostics and tests). */
  listen(listener: StreamListener): () => void {
    this.registrations.add(listener);
    return () => this.registrations.delete(listener);
  }

  /** How many consumers take the action's messages now. */
  consumersOf(action: ConsumedAction): number {
    let count = 0;
    for (const registration of this.registrations) if (typeof registration === 'function' || registration.messages[action] !== undefined) count++;
    return count;
  }

  dispatch(event: StreamEvent): void {
    for (const registration of this.registrations) {
      if (typeof registration === 'function') registration(event);
      else deliver(registration, event);
    }
  }
}

function deliver(consumer: StreamConsumer, event: StreamEvent): void {
  switch (event.type) {
    case 'message': {
      const handler = consumer.messages[event.message.action] as ((message: StreamMessage) => void) | undefined;
      handler?.(event.message);
      return;
    }
    case 'invalid_frame': {
      if (consumer.lost === undefined) return;
      const action = event.action;
      const mine = action === undefined || (knownAction(action) ? consumed(action) && consumer.messages[action] !== undefined : consumer.unknownActionsMayBeMine === true);
      if (mine) consumer.lost(event);
      return;
    }
    default:
      consumer.connection?.(event);
  }
}
