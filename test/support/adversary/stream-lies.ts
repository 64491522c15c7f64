// The lies the adversarial proxy can tell on the WebSocket: each is a filter of the exchange's
// frames on their way to the terminal, with its own state per connection. A filter returns the
// frames the terminal receives instead of the one the exchange sent (none, the same, several).
import { absurdify, HOSTILE_TEXT } from './rest-lies';

export type FrameFilter = (frame: string) => string[];

export interface StreamLie {
  readonly name: string;
  /** A fresh filter for one connection; `send` delivers a frame the filter held back, later. */
  open(send: (frame: string) => void): FrameFilter;
}

function parsed(frame: string): Record<string, unknown> | null {
  if (!frame.startsWith('{')) return null;
  try {
    const value = JSON.parse(frame) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Every data message (not PING/PONG) twice. */
export function duplicatedMessages(): StreamLie {
  return { name: 'duplicated messages', open: () => (frame) => (parsed(frame) === null ? [frame] : [frame, frame]) };
}

/**
 * Depth updates swapped in pairs: each one is held and sent after the next. One with no next
 * within `holdMs` is sent then (late, in order): this lie reorders, it does not withhold.
 */
export function reorderedMessages(holdMs = 150): StreamLie {
  return {
    name: 'reordered messages',
    open: (send) => {
      let held: string | null = null;
      let timer: NodeJS.Timeout | null = null;
      return (frame) => {
        if (parsed(frame)?.action !== 'subscribe_depth_update') return [frame];
        if (held === null) {
          held = frame;
          timer = setTimeout(() => {
            if (held !== null) send(held);
            held = null;
          }, holdMs);
          return [];
        }
        if (timer !== null) clearTimeout(timer);
        const earlier = held;
        held = null;
        return [frame, earlier];
      };
    },
  };
}

/**
 * The snapshot of a book sent again after `after` of its updates: a snapshot older than deltas
 * the terminal already applied (it still carries its own, older, stamps). Once per subscription.
 */
export function staleSnapshot(after = 3): StreamLie {
  return {
    name: 'snapshot older than the deltas',
    open: () => {
      const snapshots = new Map<string, { frame: string; updates: number }>();
      return (frame) => {
        const message = parsed(frame);
        const marketId = typeof message?.market_id === 'string' ? message.market_id : null;
        if (message === null || marketId === null) return [frame];
        if (message.action === 'subscribe_depth') {
          snapshots.set(marketId, { frame, updates: 0 });
          return [frame];
        }
        const remembered = snapshots.get(marketId);
        if (message.action !== 'subscribe_depth_update' || remembered === undefined) return [frame];
        remembered.updates++;
        if (remembered.updates < after) return [frame];
        snapshots.delete(marketId);
        return [frame, remembered.frame];
      };
    },
  };
}

/** Money fields of depth, trades and balances messages replaced by negative and 10^40 values. */
export function absurdStreamNumbers(values: readonly string[]): StreamLie {
  const actions = new Set(['subscribe_depth', 'subscribe_depth_update', 'subscribe_trades', 'subscribe_balances']);
  return {
    name: 'absurd numbers',
    open: () => {
      let next = 0;
      const pick = () => values[next++ % values.length]!;
      return (frame) => {
        const message = parsed(frame);
        if (message === null || typeof message.action !== 'string' || !actions.has(message.action)) return [frame];
        return [JSON.stringify(absurdify(message, pick))];
      };
    },
  };
}

/** Control, bidi and zero-width characters in the free-text members of stream messages (trade ids, order history). */
export function controlCharactersInStream(): StreamLie {
  return {
    name: 'control characters in names',
    open: () => {
      let next = 0;
      const hostile = () => HOSTILE_TEXT[next++ % HOSTILE_TEXT.length]!;
      const poison = (value: unknown, key: string): unknown => {
        if (Array.isArray(value)) return value.map((item) => poison(item, key));
        if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([member, inner]) => [member, poison(inner, member)]));
        if (typeof value === 'string' && (key === 'trade_id' || key === 'type' || key === 'status')) return `${value}${hostile()}`;
        return value;
      };
      return (frame) => {
        const message = parsed(frame);
        return message === null ? [frame] : [JSON.stringify(poison(message, ''))];
      };
    },
  };
}
