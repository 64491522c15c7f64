// The control surface (only with --control; app.ts answers 404 otherwise): test hooks to move
// time, reset, drop WebSockets, inject faults, move a price and read the ledger. Every
// endpoint is listed in docs/sandbox.md.
import { z } from 'zod';
import type { SandboxApp } from '../app';
import { nowNanos } from '../clock';
import { ErrorCode, refusal, Refusal, show } from '../http/errors';
import { parseBody } from '../http/parse';
import { json, refuse } from '../http/reply';
import { identityToJson } from '../../shared/encoding/identity';
import { tradeThrough } from '../house/price';
import { isRevert } from '../ledger/revert';
import { b256Schema, u64Schema } from '../../shared/api/primitives';
import { accountBalanceView } from '../views/accounts';
import { marketOrderView } from '../views/orders';

const advanceSchema = z.strictObject({ ms: z.number().int().min(0).max(10 * 365 * 86_400_000) });
const faultBase = {
  count: z.number().int().min(1).max(10_000),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
  path_prefix: z.string().startsWith('/').max(200).optional(),
};
const delaySchema = z.strictObject({ ...faultBase, delay_ms: z.number().int().min(0).max(60_000) });
const failSchema = z.strictObject({ ...faultBase, status: z.number().int().min(500).max(599) });
const dropSchema = z.strictObject(faultBase);
const priceSchema = z.strictObject({ market_id: b256Schema, price: u64Schema });

export function registerControlRoutes(app: SandboxApp): void {
  const { router } = app;

  router.on('POST', '/control/clock/advance', (request) => {
    const body = parseBody(advanceSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    app.clock.advance(body.ms);
    return json({ now_ms: app.clock.now() });
  });

  router.on('GET', '/control/clock', () => json({ now_ms: app.clock.now() }));

  router.on('POST', '/control/reset', () => {
    app.reset();
    return json({ reset: true });
  });

  router.on('POST', '/control/ws/close-all', () => json({ closed: app.streams.closeAll() }));

  router.on('POST', '/control/faults/delay', (request) => {
    const body = parseBody(delaySchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return addFault(app, { kind: 'delay', remaining: body.count, method: body.method, pathPrefix: body.path_prefix, delayMs: body.delay_ms });
  });
  router.on('POST', '/control/faults/fail', (request) => {
    const body = parseBody(failSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return addFault(app, { kind: 'fail', remaining: body.count, method: body.method, pathPrefix: body.path_prefix, status: body.status });
  });
  router.on('POST', '/control/faults/drop', (request) => {
    const body = parseBody(dropSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return addFault(app, { kind: 'drop', remaining: body.count, method: body.method, pathPrefix: body.path_prefix });
  });
  router.on('POST', '/control/faults/clear', () => {
    app.faults.clear();
    return json({ cleared: true });
  });
  router.on('GET', '/control/faults', () => json({ faults: app.faults.list() }));

  router.on('POST', '/control/markets/price', (request) => {
    const body = parseBody(priceSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const market = app.ledger.markets.get(body.market_id);
    if (market === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `market_id: no such market, got ${show(body.market_id)}`, 404));
    if (body.price === 0n) return refuse(refusal(ErrorCode.INVALID_FIELD, 'price: must be above zero, got "0"'));
    const outcome = tradeThrough(app.ledger, app.house, market, body.price, app.nextTxId(), nowNanos(app.clock));
    if (isRevert(outcome)) return json({ message: outcome.message, reason: outcome.reason }, 400);
    app.maker.setMid(market.config.market_id, market.lastPrice ?? body.price);
    return json({ market_id: body.market_id, last_price: (market.lastPrice ?? 0n).toString() });
  });

  router.on('GET', '/control/ledger', () => {
    const ledger = app.ledger;
    const holdings = ledger.holdings();
    return json({
      accounts: [...ledger.accounts.values()].map((account) => ({
        trade_account_id: account.id,
        owner: identityToJson(account.owner),
        nonce: account.nonce.toString(),
        whitelisted: account.whitelisted,
        house: account.house,
        implementation: account.implementation,
        referer: account.referer === null ? null : identityToJson(account.referer),
        session: account.session === null ? null : { session_id: identityToJson(account.session.sessionId), expiry: account.session.expiry.toString(), contract_ids: [...account.session.contractIds] },
        balances: Object.fromEntries(app.network.assets.map((asset) => [asset.id, accountBalanceView(ledger, account, asset.id)])),
      })),
      markets: [...ledger.markets.values()].map((market) => ({
        market_id: market.config.market_id,
        name: market.config.name,
        fees_base: market.feesBase.toString(),
        fees_quote: market.feesQuote.toString(),
        last_price: market.lastPrice?.toString() ?? null,
        open_orders: [...market.orders.values()].filter((order) => !order.close).length,
      })),
      minted: Object.fromEntries([...ledger.minted].map(([asset, amount]) => [asset, amount.toString()])),
      held_plus_fees: Object.fromEntries([...holdings].map(([asset, amount]) => [asset, amount.toString()])),
      invariant_problems: ledger.checkInvariants(),
    });
  });

  router.on('GET', '/control/ledger/orders', (request) => {
    const id = request.query.get('market_id');
    const market = id === null ? undefined : app.ledger.markets.get(id);
    if (market === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `market_id: no such market, got ${show(id)}`, 404));
    return json({ market_id: market.config.market_id, orders: [...market.orders.values()].map((order) => marketOrderView(market, order)) });
  });
}

function addFault(app: SandboxApp, rule: Parameters<SandboxApp['faults']['add']>[0]) {
  if (!app.faults.add(rule)) return refuse(refusal(ErrorCode.INVALID_FIELD, 'faults: too many pending rules (64); clear them first'));
  return json({ added: { ...rule } });
}
