// The session's view of the exchange with the children of main's algorithms left out (the other
// steps' postconditions must not count them as their doing), and everything() with none left out
// (the screen oracle, the algorithms' own checks). A local HTTP server answers as the sandbox does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import { Truth } from '../../support/trader-session/truth';

const market: Market = {
  contract_id: `0x${'c1'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: `0x${'ba'.repeat(32)}` as B256, decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: `0x${'9c'.repeat(32)}` as B256, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000n,
  dust: 1_000_000n,
  price_window: 20,
};
const wire = (id: string) => ({ order_id: id, side: 'Buy', order_type: 'Spot', price: '3000000000', quantity: '1000000', timestamp: '1' });

describe('Truth with hidden order ids', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = request.url?.startsWith('/v1/orders/active') ? { entries: [{ kind: 'order', order_id: 'mine', order: wire('mine') }, { kind: 'order', order_id: 'child', order: wire('child') }] } : { orders: [wire('mine'), wire('child')] };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('leaves the hidden ids out of orders and open orders, and everything() reads them all', async () => {
    const truth = new Truth(base, [market], () => Promise.resolve(new Set(['child'])));
    expect((await truth.orders(market, false, ['0xaccount'], false)).map((order) => order.orderId)).toEqual(['mine']);
    expect((await truth.resting(['0xaccount'], [])).open.map((order) => order.orderId)).toEqual(['mine']);
    expect((await truth.everything().orders(market, false, ['0xaccount'], false)).map((order) => order.orderId)).toEqual(['mine', 'child']);
    expect((await truth.everything().resting(['0xaccount'], [])).open.map((order) => order.orderId)).toEqual(['mine', 'child']);
  });
});
