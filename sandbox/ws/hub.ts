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
import type { SandboxApp, StreamServer } from '../app';
import type { ContractAccount } from '../ledger/accounts';
import type { ChangeSet } from '../ledger/changes';
import { ownerKey } from '../ledger/ledger';
import type { MarketState } from '../ledger/market';
import { depthView, levelsJson, type DepthLevel, type DepthView } from '../market-data/depth';
import { marketOrderView, tradeView } from '../views/orders';
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
    if (error !== undefined) connection.send({ error });
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
        const market = this.market(message.market_id);
        if (typeof market === 'string') return market;
        const key = `trades|${market.config.market_id}`;
        if (action === 'unsubscribe_trades') return this.unsubscribeKey(connection, key);
        this.subscribeKey(connection, key);
        const recent = market.trades.all().slice(-RECENT_TRADES).reverse();
        connection.send(stamped(this.app, { action, market_id: market.config.market_id, trades: recent.map(tradeView) }));
        return undefined;
      }
      case 'unsubscribe_orders':
        for (const topic of [...connection.topics]) if (topic.startsWith('orders|')) this.unsubscribeKey(connection, topic);
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

  private market(id: unknown): MarketState | string {
    if (typeof id !== 'string') return `market_id: expected a B256, got ${JSON.stringify(id)?.slice(0, 80) ?? 'undefined'}`;
    return this.app.ledger.markets.get(id.toLowerCase()) ?? `Market not found: ${id.slice(0, 80)}`;
  }

  private depthRequest(connection: Connection, action: string, message: Record<string, unknown>): string | undefined {
    const market = this.market(message.market_id);
    if (typeof market === 'string') return market;
    const precision = String(message.precision ?? '');
    if (!PRECISIONS.includes(precision)) return `Invalid subscription precision: ${precision.slice(0, 40)}`;
    const marketId = market.config.market_id;
    if (action === 'unsubscribe_depth') return this.unsubscribeKey(connection, `depth|${marketId}|${precision}`);
    const viewKey = `${marketId}|${precision}`;
    if (action === 'unsubscribe_depth_view') {
      const timer = connection.depthViews.get(viewKey);
      if (timer) clearInterval(timer);
      connection.depthViews.delete(viewKey);
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
    const period = FREQUENCIES[frequency];
    const sendView = (): void => {
      const current = this.app.ledger.markets.get(marketId);
      if (current === undefined || connection.congested) return;
      connection.send(stamped(this.app, { action, market_id: marketId, view: viewJson(depthView(current, BigInt(precision), STREAM_DEPTH), precision) }));
    };
    const previous = connection.depthViews.get(viewKey);
    if (previous) clearInterval(previous);
    sendView();
    const timer = setInterval(sendView, period);
    timer.unref();
    connection.depthViews.set(viewKey, timer);
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
    if (action.startsWith('subscribe_nonce')) {
      const other = topic === 'nonce' ? 'nonce_v2' : 'nonce';
      if (connection.nonceStream === other) return `subscribe_${topic} cannot be used with subscribe_${other} on the same connection`;
      connection.nonceStream = topic as 'nonce' | 'nonce_v2';
    }
    for (const identity of identities) {
      const key = `${topic}|${ownerKey(identity)}`;
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
    this.sendFirst(connection, topic, accounts);
    return undefined;
  }

  private accountOf(identity: Identity): ContractAccount | undefined {
    return 'ContractId' in identity ? this.app.ledger.accounts.get(identity.ContractId) : this.app.ledger.accountOfOwner(identity);
  }

  private sendFirst(connection: Connection, topic: Topic, accounts: readonly ContractAccount[]): void {
    const app = this.app;
    switch (topic) {
      case 'orders': {
        const orders: Record<string, unknown>[] = [];
        for (const market of app.ledger.markets.values()) {
          for (const account of accounts) for (const order of market.ordersByAccount.get(account.id) ?? []) if (!order.close) orders.push(marketOrderView(market, order));
        }
        connection.send(stamped(app, { action: 'subscribe_orders', orders }));
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
    const tradesByMarket = new Map<string, Record<string, unknown>[]>();
    for (const trade of changes.trades) {
      const list = tradesByMarket.get(trade.marketId) ?? [];
      list.push(tradeView(trade));
      tradesByMarket.set(trade.marketId, list);
    }
    for (const [marketId, trades] of tradesByMarket) this.send(`trades|${marketId}`, () => stamped(app, { action: 'subscribe_trades', market_id: marketId, trades: trades.reverse() }));

    const ordersByAccount = new Map<string, Record<string, unknown>[]>();
    for (const order of changes.orders) {
      const market = app.ledger.markets.get(order.marketId);
      if (market === undefined) continue;
      const list = ordersByAccount.get(order.account) ?? [];
      list.push(marketOrderView(market, order));
      ordersByAccount.set(order.account, list);
    }
    for (const [accountId, orders] of ordersByAccount) for (const key of this.keysOf('orders', accountId)) this.send(key, () => stamped(app, { action: 'subscribe_orders', orders }));

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

  /** Subscription keys that name an account: by its id, or by its owner. */
  private keysOf(topic: Topic, accountId: string): string[] {
    const account = this.app.ledger.accounts.get(accountId);
    const keys = [`${topic}|ContractId:${accountId}`];
    if (account !== undefined) keys.push(`${topic}|${ownerKey(account.owner)}`);
    return keys;
  }
}
