// The positions read folds each book's fills once per list the fill source hands out: a read
// with no new fill reuses the fold, and a fill that arrives (a new list) is in the next read.
import { describe, expect, it } from 'vitest';
import type { StoredFill } from '../../../../../main/services/fills/fill-book';
import { MarketsIndex } from '../../../../../main/services/market-data/markets-index';
import { PositionsService, type PositionsDeps } from '../../../../../main/services/positions/positions-service';
import type { B256 } from '../../../../../shared/encoding/b256';
import { ok } from '../../../../../shared/result';
import { ethUsdc } from '../../../../support/renderer/fixtures';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
const id = (byte: string) => `0x${byte.repeat(32)}` as B256;
const market = ethUsdc;

function fill(orderId: string, side: 'Buy' | 'Sell', quantity: bigint, price: bigint, at: bigint): StoredFill {
  return { orderId, index: 0, side, quantity, price, fee: 0n, timestamp: at, tradeId: null, role: null };
}

function service(fills: { current: readonly StoredFill[] }) {
  const index = new MarketsIndex({ books_registry_id: id('01'), accounts_registry_id: id('02'), trade_account_oracle_id: id('03'), chain_id: 0n, base_asset_id: id('04'), markets: [market] });
  const deps = {
    rest: { getDepth: () => Promise.resolve(ok({ buys: [{ price: 2_990n * USDC, quantity: ETH }], sells: [{ price: 3_010n * USDC, quantity: ETH }] })) },
    fills: { fills: () => Promise.resolve(ok(fills.current)) },
    markets: () => index,
    tradeAccount: () => id('7a'),
    turboAccount: () => Promise.resolve(null),
    balances: () => [],
    maxQuantity: () => undefined,
    nowSeconds: () => 1_000n,
    nowMs: () => 1_000_000,
  } as unknown as PositionsDeps;
  return new PositionsService(deps);
}

describe('positions from the fills', () => {
  it('shows a fill that arrives after a read, and the same figures when none did', async () => {
    const fills = { current: [fill('o1', 'Buy', 2n * ETH, 3_000n * USDC, 1n)] as readonly StoredFill[] };
    const positions = service(fills);
    const first = await positions.positions();
    expect(first.problems).toEqual([]);
    expect(first.positions.map((position) => [position.size, position.basis, position.fills])).toEqual([[2n * ETH, 6_000n * USDC, 1]]);
    // No new fill: the same list, the same position.
    const again = await positions.positions();
    expect(again.positions.map((position) => [position.size, position.basis, position.fills])).toEqual([[2n * ETH, 6_000n * USDC, 1]]);
    // A sell of half arrives: the source hands out a new list, and the read counts it.
    fills.current = [...fills.current, fill('o2', 'Sell', ETH, 3_100n * USDC, 2n)];
    const after = await positions.positions();
    expect(after.positions.map((position) => [position.size, position.basis, position.realized, position.fills])).toEqual([[ETH, 3_000n * USDC, 100n * USDC, 2]]);
  });
});
