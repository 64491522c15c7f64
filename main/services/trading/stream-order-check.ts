// Orders the order stream names that the terminal does not hold yet. The stream is the exchange's
// word, and a lying or broken exchange can name an order it does not have, with fills: shown,
// that is a fill the trader never got. So an order new to the terminal is first read back over
// REST (GET /v1/order) and applied as that read answers it; one the exchange refuses to name is
// dropped (and logged). Orders the terminal holds are applied at once: the hot path of fills of
// resting orders pays nothing. A new order of the terminal's own placement is usually held before
// its stream message comes (the placement's answer applies it); when not, the read costs one round trip.
// A read that fails without an answer about the order (a timeout, a network error, the rate limit,
// a server error) says nothing of it: the read is tried again after a backoff, and when none is
// answered the orders are given up as lost (`lost`: read again from the exchange, shown as
// resyncing), never dropped as if the exchange had denied the order. Dropped, a real order's fills
// were not counted until the next reconnect (positions off by a fired stop's size).
import type { Order } from '../../../shared/api/market-schemas';
import type { Result } from '../../../shared/result';
import { EXCHANGE_ERRORS } from '../../exchange/errors';

export interface StreamOrderCheckDeps {
  /** The terminal holds this order already (placed, read or verified before). */
  knows(orderId: string): boolean;
  /** GET /v1/order of the market and book the stream named. */
  read(order: Order, marketId: string, turbo: boolean): Promise<Result<Order>>;
  apply(order: Order, marketId: string, turbo: boolean): void;
  /** The orders changed after a deferred apply. */
  publish(): void;
  log(line: string): void;
  /** The orders stream may have lost what it said: read the account's orders and fills again. */
  lost(): void;
  wait(ms: number): Promise<void>;
}

/** Failures that say nothing about the order: read it again. */
const TRANSIENT: ReadonlySet<string> = new Set([EXCHANGE_ERRORS.TIMEOUT, EXCHANGE_ERRORS.NETWORK_ERROR, EXCHANGE_ERRORS.RATE_LIMITED, EXCHANGE_ERRORS.SERVER_ERROR]);
/** The backoffs between reads of one order that fail transiently (then: lost). */
export const READ_BACKOFF_MS: readonly number[] = [250, 1_000, 3_000];

export class StreamOrderCheck {
  /**
   * Orders being read back: one read per order, however often the stream names it meanwhile, and
   * the newest of what the stream said of it during the read (applied after the read confirms it).
   */
  private readonly reading = new Map<string, { order: Order; marketId: string; turbo: boolean } | null>();

  constructor(private readonly deps: StreamOrderCheckDeps) {}

  /** Applies the order now when it is held (true), or once the exchange has confirmed it (false). */
  take(order: Order, marketId: string, turbo: boolean): boolean {
    if (this.deps.knows(order.order_id)) {
      this.deps.apply(order, marketId, turbo);
      return true;
    }
    if (this.reading.has(order.order_id)) {
      // Named again while it is read back (a fired stop: new, then filled a moment later). The read
      // may have been answered before this, so this is kept and applied once the read confirms the order.
      this.reading.set(order.order_id, { order, marketId, turbo });
      return false;
    }
    this.reading.set(order.order_id, null);
    void this.readBack(order, marketId, turbo)
      .then((read) => {
        const later = this.reading.get(order.order_id) ?? null;
        if (read === 'lost') {
          this.deps.log(`order ${order.order_id}, which the order stream named, could not be read back after ${READ_BACKOFF_MS.length + 1} tries; the orders are read again`);
          this.deps.lost();
          return;
        }
        if (!read.ok) {
          this.deps.log(`the order stream named order ${order.order_id}, which the exchange does not confirm (${read.code}: ${read.message}); not shown`);
          return;
        }
        if (read.value.order_id !== order.order_id) {
          this.deps.log(`the exchange answered order ${read.value.order_id} when asked for ${order.order_id}; not shown`);
          return;
        }
        this.deps.apply(read.value, marketId, turbo);
        // Confirmed: what the stream said of it meanwhile is applied as for any order the terminal
        // holds (an older view than the read's is ignored there).
        if (later !== null) this.deps.apply(later.order, later.marketId, later.turbo);
        this.deps.publish();
      })
      .finally(() => this.reading.delete(order.order_id));
    return false;
  }

  /** The read's answer, tried again after each transient failure; `lost` when none was answered. */
  private async readBack(order: Order, marketId: string, turbo: boolean): Promise<Result<Order> | 'lost'> {
    for (let attempt = 0; ; attempt++) {
      const read = await this.deps.read(order, marketId, turbo);
      if (read.ok || !TRANSIENT.has(read.code)) return read;
      const backoff = READ_BACKOFF_MS[attempt];
      if (backoff === undefined) return 'lost';
      await this.deps.wait(backoff);
    }
  }
}
