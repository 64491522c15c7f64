// The WebSocket endpoint /v1/ws: subscriptions (spec 6), their first messages, and the fan-out
// of every committed change set to the connections subscribed to it. Depth deltas are
// computed once per (market, precision) per change set against the last view sent, so every
// subscriber of a key applies the same deltas to the same snapshot.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { MAX_IDENTITIES_PER_REQUEST, TOO_MANY_TOPICS_MESSAGE } from '../../shared/api/limits';
import type { DEPTH_VIEW_FREQUENCIES} from '../../shared/api/websocket-schemas';
import { DEPTH_PRECISIONS, isDepthViewFrequency } from '../../shared/api/websocket-schemas';
import { parseIdentity, type Identity } from '../../shared/encoding/identity';
import { streamErrorName } from '../http/errors';
import type { SandboxApp, StreamServer } from '../app-types';
import type { ContractAccount } from '../ledger/accounts';
import type { ChangeSet } from '../ledger/changes';
import { ownerKey } from '../ledger/ledger';
import type { MarketState } from '../ledger/market';
import { depthView, levelsJson, turboDepthView, type DepthLevel, type DepthView, type TurboView } from '../market-data/depth';
import { marginEventView, stateView } from '../margin/views';
import type { Trade } from '../ledger/trades';
import { marketOrderView, tradeView } from '../views/orders';
import { triggerView } from '../views/triggers';
import { Connection } from './connection';
import { invalidJsonOffset, malformedJsonMessage } from './json-error';
import { balancesOf, nonceV2Updates, stamped } from './payloads';

export const STREAM_DEPTH = 100;
export const MAX_MESSAGE_BYTES = 16 * 1024;
export const MAX_CONNECTIONS = 1000;
const PRECISIONS: readonly string[] = DEPTH_PRECISIONS;
/** Periods of the depth_view frequencies (shared/api's DEPTH_VIEW_FREQUENCIES). */
const FREQUENCIES: Readonly<Record<(typeof DEPTH_VIEW_FREQUENCIES)[number], number>> = { '100ms': 100, '500ms': 500, '1s': 1000, '3s': 3000 };
const RECENT_TRADES = 50;

type Topic = 'depth' | 'trades' | 'orders' | 'balances' | 'nonce' | 'nonce_v2';

function levelMap(levels: readonly DepthLevel[]): Map<bigint, bigint> {
  return new Map(levels.map((level) => [level.price, level.quantity]));
}

/** Levels that changed from `before` to `after`; a removed level has quantity 0. */
function levelChanges(before: readonly DepthLevel[], after: readonly DepthLevel[]): { price: string; quantity: string }[] {
  const old = levelMap(before);
  const now = levelMap(after);
  const changes: { price: string; quantity: string }[] = [];
  for (const [price, quantity] of now) if (old.get(price) !== quantity) changes.push({ price: price.toString(), quantity: quantity.toString() });
  for (const price of old.keys()) if (!now.has(price)) changes.push({ price: price.toString(), quantity: '0' });
  return changes;
}

function viewJson(view: DepthView, precision: string): Record<string, unknown> {
  return { precision, buys: levelsJson(view.buys), sells: levelsJson(view.sells) };
}

export class StreamHub implements StreamServer {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly connections = new Set<Connection>();
  private readonly subscribers = new Map<string, Set<Connection>>();
  /** Last depth view sent per `marketId|precision`. */
  private readonly depthViews = new Map<string, DepthView>();

  constructor(private readonly app: SandboxApp) {
    app.onChange((changes) => this.publish(changes));
    // After a reset every stream is stale: close the connections so clients resync.
    app.onReset(() => {
      this.closeAll();
      this.depthViews.clear();
    });
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/v1/ws' || this.connections.size >= MAX_CONNECTIONS) {
      socket.end(path !== '/v1/ws' ? 'HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n' : 'HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\r\n');
      return;
    }
    this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  restartTurboTrades(marketId: string, message: string): number {
    const key = `trades|T|${marketId}`;
    const set = [...(this.subscribers.get(key) ?? [])];
    for (const connection of set) {
      connection.send({ action: 'error', turbo: true, resync_required: true, market_id: marketId, message });
      this.unsubscribeKey(connection, key);
    }
    return set.length;
  }

  /** Until then, connections (also those opened meanwhile) send nothing; wall-clock ms. */
  private stalledUntil = 0;

  /** Every connection, open now or opened within `ms`, sends nothing until then, then what it held (control surface). */
  stallAll(ms: number): number {
    this.stalledUntil = Date.now() + ms;
    for (const connection of this.connections) connection.stall(ms);
    return this.connections.size;
  }

  closeAll(): number {
    const count = this.connections.size;
    for (const connection of [...this.connections]) connection.close(1001, 'closed by the sandbox');
    return count;
  }

  stop(): void {
    this.closeAll();
    this.server.close();
  }

  private accept(ws: WebSocket): void {
    const connection = new Connection(ws, this.app.options.wsIdleMs, (idle) => {
      idle.send({ error: 'Client is inactive' });
      idle.close(1000, 'Client is inactive');
    });
    this.connections.add(connection);
    const stalled = this.stalledUntil - Date.now();
    if (stalled > 0) connection.stall(stalled);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        this.receive(connection, data, isBinary);
      } catch (error) {
        // A bug must not take the sandbox down: report it to this client and the log.
        this.app.log(`bug in the stream handler: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        connection.send({ error: 'internal error' });
      }
    });
    ws.on('close', () => this.drop(connection));
    ws.on('error', () => this.drop(connection));
  }

  private drop(connection: Connection): void {
    connection.dispose();
    this.connections.delete(connection);
    for (const topic of connection.topics) this.unsubscribeKey(connection, topic);
  }

  private receive(connection: Connection, data: RawData, isBinary: boolean): void {
    connection.touch();
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    if (!isBinary && text === 'PING') {
      connection.send('PONG');
      return;
    }
    const offset = invalidJsonOffset(text);
    if (offset !== undefined) {
      connection.send({ error: malformedJsonMessage(text, offset) });
      return;
    }
    const message = JSON.parse(text) as unknown;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      connection.send({ error: `expected an object with an action, got ${text.slice(0, 80)}` });
      return;
    }
    const error = this.handle(connection, message as Record<string, unknown>);
    if (error === undefined) return;
    // The spec's error name travels with the text where the spec names one (margin 7: MarketNotFound).
    const name = streamErrorName(error);
    connection.send(name === undefined ? { error } : { error, name });
  }

  /** Apply one request; returns the error text, if any. */
  private handle(connection: Connection, message: Record<string, unknown>): string | undefined {
    const action = message.action;
    switch (action) {
      case 'subscribe_depth':
      case 'subscribe_depth_view':
      case 'unsubscribe_depth':
      case 'unsubscribe_depth_view':
        return this.depthRequest(connection, action, message);
      case 'subscribe_trades':
      case 'unsubscribe_trades': {
        const turbo = message.turbo === true;
        const market = turbo ? this.turboMarket(message.market_id) : this.market(message.market_id);
        if (typeof market === 'string') return market;
        const key = `trades|${turbo ? 'T|' : ''}${market.config.market_id}`;
        if (action === 'unsubscribe_trades') return this.unsubscribeKey(connection, key);
        this.subscribeKey(connection, key);
        const recent = market.trades.all().slice(-RECENT_TRADES).reverse();
        connection.send(stamped(this.app, { action, market_id: market.config.market_id, ...(turbo ? this.turboTrades(recent) : { trades: recent.map(tradeView) }) }));
        return undefined;
      }
      case 'unsubscribe_orders': {
        // Turbo and canonical order subscriptions are separate: unsubscribe with the same flag.
        const prefix = message.turbo === true ? 'orders|T|' : 'orders|';
        for (const topic of [...connection.topics]) if (topic.startsWith(prefix) && (message.turbo === true || !topic.startsWith('orders|T|'))) this.unsubscribeKey(connection, topic);
        return undefined;
      }
      case 'subscribe_margin': {
        const id = typeof message.margin_account_id === 'string' ? message.margin_account_id.toLowerCase() : '';
        const child = this.app.ledger.accounts.get(id);
        if (child === undefined || child.kind !== 'margin') return `margin_account_id: not a registered margin account, got ${JSON.stringify(message.margin_account_id)?.slice(0, 80) ?? 'undefined'}`;
        this.subscribeKey(connection, `margin|${child.id}`);
        connection.send(stamped(this.app, { action: 'subscribe_margin', margin_account_id: child.id, state: stateView(this.app.margin, child) }));
        return undefined;
      }
      case 'unsubscribe_margin':
        for (const topic of [...connection.topics]) if (topic.startsWith('margin|')) this.unsubscribeKey(connection, topic);
        return undefined;
      case 'subscribe_orders':
      case 'subscribe_balances':
      case 'subscribe_nonce':
      case 'subscribe_nonce_v2':
      case 'unsubscribe_balances':
      case 'unsubscribe_nonce':
      case 'unsubscribe_nonce_v2':
        return this.identityRequest(connection, action, message);
      default:
        return `Unknown action: ${JSON.stringify(action)?.slice(0, 80) ?? 'undefined'}`;
    }
  }

  /** The Turbo book of a market, or the margin spec's MarketNotFound text. */
  private turboMarket(id: unknown): MarketState | string {
    const market = this.market(id);
    if (typeof market === 'string') return market;
    return this.app.ledger.turbo.get(market.config.market_id)?.turbo ?? `Market ${market.config.market_id} has no Turbo order book`;
  }

  /** Turbo trade payload: the trades plus `turbo`, `confirmed` and the indexer height (margin 6). */
  private turboTrades(trades: readonly Trade[]): Record<string, unknown> {
    const height = trades.reduce((max, trade) => (trade.sequence > max ? trade.sequence : max), 0);
    return { turbo: true, confirmed: true, indexed_height: String(height), trades: trades.map(tradeView) };
  }

  private market(id: unknown): MarketState | string {
    if (typeof id !== 'string') return `market_id: expected a B256, got ${JSON.stringify(id)?.slice(0, 80) ?? 'undefined'}`;
    return this.app.ledger.markets.get(id.toLowerCase()) ?? `Market not found: ${id.slice(0, 80)}`;
  }

  private depthRequest(connection: Connection, action: string, message: Record<string, unknown>): string | undefined {
    const turbo = message.turbo === true;
    const market = turbo ? this.turboMarket(message.market_id) : this.market(message.market_id);
    if (typeof market === 'string') return market;
    const precision = String(message.precision ?? '');
    if (!PRECISIONS.includes(precision)) return `Invalid subscription precision: ${precision.slice(0, 40)}`;
    if (turbo) return this.turboDepthRequest(connection, action, message, market.config.market_id, precision);
    const marketId = market.config.market_id;
    if (action === 'unsubscribe_depth') return this.unsubscribeKey(connection, `depth|${marketId}|${precision}`);
    const viewKey = `${marketId}|${precision}`;
    if (action === 'unsubscribe_depth_view') {
      connection.stopDepthView(viewKey);
      return undefined;
    }
    if (action === 'subscribe_depth') {
      const key = `depth|${marketId}|${precision}`;
      this.subscribeKey(connection, key);
      let view = this.depthViews.get(viewKey);
      if (view === undefined) {
        view = depthView(market, BigInt(precision), STREAM_DEPTH);
        this.depthViews.set(viewKey, view);
      }
      connection.send(stamped(this.app, { action, market_id: marketId, view: viewJson(view, precision) }));
      return undefined;
    }
    const frequency = String(message.frequency ?? '');
    if (!isDepthViewFrequency(frequency)) return `Invalid subscription frequency: ${frequency.slice(0, 40)}`;
    connection.startDepthView(viewKey, FREQUENCIES[frequency], () => {
      const current = this.app.ledger.markets.get(marketId);
      if (current === undefined || connection.congested) return;
      connection.send(stamped(this.app, { action, market_id: marketId, view: viewJson(depthView(current, BigInt(precision), STREAM_DEPTH), precision) }));
    });
    return undefined;
  }

  /** Turbo depth (margin 4.6): `view` executable (shared quotes a Turbo taker can hit, default) or demand (resting Turbo orders). */
  private turboDepthRequest(connection: Connection, action: string, message: Record<string, unknown>, marketId: string, precision: string): string | undefined {
    const view = message.view === undefined ? 'executable' : message.view;
    if (view !== 'executable' && view !== 'demand') return `Invalid depth view: ${JSON.stringify(view)?.slice(0, 40) ?? 'undefined'} (executable or demand)`;
    const viewKey = `T|${view}|${marketId}|${precision}`;
    const link = this.app.ledger.turbo.get(marketId);
    if (link === undefined) return `Market ${marketId} has no Turbo order book`;
    const current = (): DepthView => turboDepthView(link, view, BigInt(precision), STREAM_DEPTH);
    const payload = (depth: DepthView) => ({ action, market_id: marketId, turbo: true, view: { ...viewJson(depth, precision), kind: view } });
    if (action === 'unsubscribe_depth') return this.unsubscribeKey(connection, `depth|${viewKey}`);
    if (action === 'unsubscribe_depth_view') {
      connection.stopDepthView(viewKey);
      return undefined;
    }
    if (action === 'subscribe_depth') {
      this.subscribeKey(connection, `depth|${viewKey}`);
      let depth = this.depthViews.get(viewKey);
      if (depth === undefined) {
        depth = current();
        this.depthViews.set(viewKey, depth);
      }
      connection.send(stamped(this.app, payload(depth)));
      return undefined;
    }
    const frequency = String(message.frequency ?? '');
    if (!isDepthViewFrequency(frequency)) return `Invalid subscription frequency: ${frequency.slice(0, 40)}`;
    connection.startDepthView(viewKey, FREQUENCIES[frequency], () => {
      if (!connection.congested) connection.send(stamped(this.app, payload(current())));
    });
    return undefined;
  }

  private identityRequest(connection: Connection, action: string, message: Record<string, unknown>): string | undefined {
    const list = message.identities;
    if (!Array.isArray(list)) return `identities: expected an array of {Address} or {ContractId}, got ${JSON.stringify(list)?.slice(0, 80) ?? 'undefined'}`;
    if (list.length > MAX_IDENTITIES_PER_REQUEST) return TOO_MANY_TOPICS_MESSAGE;
    const identities: Identity[] = [];
    for (const [index, entry] of list.entries()) {
      const parsed = parseIdentity(entry, `identities[${index}]`);
      if (!parsed.ok) return parsed.message;
      identities.push(parsed.value);
    }
    const topic = action.replace(/^(un)?subscribe_/, '') as Topic;
    const turboOrders = topic === 'orders' && message.turbo === true;
    if (action.startsWith('subscribe_nonce')) {
      const other = topic === 'nonce' ? 'nonce_v2' : 'nonce';
      if (connection.nonceStream === other) return `subscribe_${topic} cannot be used with subscribe_${other} on the same connection`;
      connection.nonceStream = topic as 'nonce' | 'nonce_v2';
    }
    for (const identity of identities) {
      const key = `${topic}|${turboOrders ? 'T|' : ''}${ownerKey(identity)}`;
      if (action.startsWith('unsubscribe_')) {
        this.unsubscribeKey(connection, key);
        continue;
      }
      this.subscribeKey(connection, key);
    }
    if (action.startsWith('unsubscribe_')) {
      if ((topic === 'nonce' || topic === 'nonce_v2') && ![...connection.topics].some((key) => key.startsWith(`${topic}|`))) connection.nonceStream = undefined;
      return undefined;
    }
    const accounts = identities.map((identity) => this.accountOf(identity)).filter((account): account is ContractAccount => account !== undefined);
    this.sendFirst(connection, topic, accounts, turboOrders);
    return undefined;
  }

  private accountOf(identity: Identity): ContractAccount | undefined {
    return 'ContractId' in identity ? this.app.ledger.accounts.get(identity.ContractId) : this.app.ledger.accountOfOwner(identity);
  }

  private sendFirst(connection: Connection, topic: Topic, accounts: readonly ContractAccount[], turbo = false): void {
    const app = this.app;
    switch (topic) {
      case 'orders': {
        const orders: Record<string, unknown>[] = [];
        const triggers: Record<string, unknown>[] = [];
        const books = turbo ? [...app.ledger.turbo.values()].map((link) => link.turbo) : [...app.ledger.markets.values()];
        for (const market of books) {
          for (const account of accounts) {
            for (const order of market.ordersByAccount.get(account.id) ?? []) if (!order.close) orders.push(marketOrderView(market, order));
            for (const record of market.triggers.pendingOf(account.id)) triggers.push(triggerView(market, record));
          }
        }
        connection.send(stamped(app, { action: 'subscribe_orders', ...(turbo ? { turbo: true } : {}), orders, triggers }));
        return;
      }
      case 'balances':
        connection.send(stamped(app, { action: 'subscribe_balances', balance: accounts.flatMap((account) => balancesOf(app, account)) }));
        return;
      case 'nonce':
        for (const account of accounts) connection.send(stamped(app, { action: 'subscribe_nonce', contract_id: account.id, nonce: account.nonce.toString() }));
        return;
      case 'nonce_v2':
        for (const account of accounts) for (const update of nonceV2Updates(account)) connection.send(stamped(app, { action: 'subscribe_nonce_v2', ...update }));
        return;
      default:
        return;
    }
  }

  private subscribeKey(connection: Connection, key: string): void {
    let set = this.subscribers.get(key);
    if (set === undefined) {
      set = new Set();
      this.subscribers.set(key, set);
    }
    set.add(connection);
    connection.topics.add(key);
  }

  private unsubscribeKey(connection: Connection, key: string): undefined {
    const set = this.subscribers.get(key);
    set?.delete(connection);
    if (set?.size === 0) {
      this.subscribers.delete(key);
      if (key.startsWith('depth|')) this.depthViews.delete(key.slice('depth|'.length));
    }
    connection.topics.delete(key);
    return undefined;
  }

  private send(key: string, message: () => Record<string, unknown>): void {
    const set = this.subscribers.get(key);
    if (set === undefined || set.size === 0) return;
    const text = JSON.stringify(message());
    for (const connection of set) connection.send(text);
  }

  private publish(changes: ChangeSet): void {
    if (this.subscribers.size === 0) return;
    const app = this.app;
    for (const marketId of changes.depth) {
      const market = app.ledger.markets.get(marketId);
      if (market === undefined) continue;
      // A Turbo book's views move with either book (shared quotes live on the canonical one).
      const link = app.ledger.turbo.get(marketId);
      if (link !== undefined) {
        for (const view of ['executable', 'demand'] as TurboView[]) {
          for (const precision of PRECISIONS) {
            const viewKey = `T|${view}|${marketId}|${precision}`;
            const before = this.depthViews.get(viewKey);
            if (before === undefined || !this.subscribers.has(`depth|${viewKey}`)) continue;
            const after = turboDepthView(link, view, BigInt(precision), STREAM_DEPTH);
            this.depthViews.set(viewKey, after);
            const buys = levelChanges(before.buys, after.buys);
            const sells = levelChanges(before.sells, after.sells);
            if (buys.length === 0 && sells.length === 0) continue;
            this.send(`depth|${viewKey}`, () => stamped(app, { action: 'subscribe_depth_update', market_id: marketId, turbo: true, view: view, precision, changes: { buys, sells } }));
          }
        }
      }
      for (const precision of PRECISIONS) {
        const viewKey = `${marketId}|${precision}`;
        const before = this.depthViews.get(viewKey);
        if (before === undefined || !this.subscribers.has(`depth|${viewKey}`)) continue;
        const after = depthView(market, BigInt(precision), STREAM_DEPTH);
        this.depthViews.set(viewKey, after);
        const buys = levelChanges(before.buys, after.buys);
        const sells = levelChanges(before.sells, after.sells);
        if (buys.length === 0 && sells.length === 0) continue;
        this.send(`depth|${viewKey}`, () => stamped(app, { action: 'subscribe_depth_update', market_id: marketId, precision, changes: { buys, sells } }));
      }
    }
    const tradesByKey = new Map<string, Trade[]>();
    for (const trade of changes.trades) {
      const key = `trades|${trade.turbo === true ? 'T|' : ''}${trade.marketId}`;
      const list = tradesByKey.get(key) ?? [];
      list.push(trade);
      tradesByKey.set(key, list);
    }
    for (const [key, trades] of tradesByKey) {
      const marketId = trades[0]?.marketId;
      const newest = [...trades].reverse();
      this.send(key, () => stamped(app, { action: 'subscribe_trades', market_id: marketId, ...(key.startsWith('trades|T|') ? this.turboTrades(newest) : { trades: newest.map(tradeView) }) }));
    }

    // Orders and trigger legs that changed, per account and book kind, in one message each.
    const ordersByAccount = new Map<string, { orders: Record<string, unknown>[]; triggers: Record<string, unknown>[] }>();
    const entryOf = (key: string) => {
      let entry = ordersByAccount.get(key);
      if (entry === undefined) {
        entry = { orders: [], triggers: [] };
        ordersByAccount.set(key, entry);
      }
      return entry;
    };
    for (const order of changes.orders) {
      const market = app.ledger.marketOf(order);
      if (market === undefined) continue;
      entryOf(`${order.turbo === true ? 'T|' : ''}${order.account}`).orders.push(marketOrderView(market, order));
    }
    for (const record of changes.triggers) {
      const market = app.ledger.marketOf(record);
      if (market === undefined) continue;
      entryOf(`${record.turbo === true ? 'T|' : ''}${record.account}`).triggers.push(triggerView(market, record));
    }
    for (const [key, { orders, triggers }] of ordersByAccount) {
      const turbo = key.startsWith('T|');
      const accountId = turbo ? key.slice(2) : key;
      const keys = this.keysOf('orders', accountId).map((topic) => (turbo ? topic.replace('orders|', 'orders|T|') : topic));
      for (const topic of keys) this.send(topic, () => stamped(app, { action: 'subscribe_orders', ...(turbo ? { turbo: true } : {}), orders, ...(triggers.length > 0 ? { triggers } : {}) }));
    }
    for (const [childId, activities] of changes.margin) {
      const child = app.ledger.accounts.get(childId);
      if (child === undefined) continue;
      this.send(`margin|${childId}`, () => stamped(app, { action: 'subscribe_margin_update', margin_account_id: childId, event: marginEventView(app.margin, child, activities) }));
    }

    for (const accountId of changes.balances) {
      const account = app.ledger.accounts.get(accountId);
      if (account === undefined) continue;
      for (const key of this.keysOf('balances', accountId)) this.send(key, () => stamped(app, { action: 'subscribe_balances', balance: balancesOf(app, account) }));
    }
    for (const accountId of changes.nonces) {
      const account = app.ledger.accounts.get(accountId);
      if (account === undefined) continue;
      for (const key of this.keysOf('nonce', accountId)) this.send(key, () => stamped(app, { action: 'subscribe_nonce', contract_id: account.id, nonce: account.nonce.toString() }));
      for (const key of this.keysOf('nonce_v2', accountId)) {
        for (const update of nonceV2Updates(account)) this.send(key, () => stamped(app, { action: 'subscribe_nonce_v2', ...update }));
      }
    }
  }

  /**
   * Subscription keys that name an account: by its id, or by its owner wallet ({Address}). A
   * margin child's owner is its parent's contract: a subscription naming the parent's ContractId
   * follows the parent's own orders, never its children's (those are subscribed by the child's id).
   */
  private keysOf(topic: Topic, accountId: string): string[] {
    const account = this.app.ledger.accounts.get(accountId);
    const keys = [`${topic}|ContractId:${accountId}`];
    if (account !== undefined && 'Address' in account.owner) keys.push(`${topic}|${ownerKey(account.owner)}`);
    return keys;
  }
}
