// A ledger with two funded trading accounts on the sandbox network, for engine tests.
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { OrderType, Side } from '../../../shared/market/order-type';
import { buildNetwork, type MarketConfig } from '../../../sandbox/config/network';
import { deriveId } from '../../../sandbox/ids';
import type { ContractAccount } from '../../../sandbox/ledger/accounts';
import { Ledger } from '../../../sandbox/ledger/ledger';
import type { MarketState } from '../../../sandbox/ledger/market';
import type { OrderRecord } from '../../../sandbox/ledger/orders';
import { isRevert, type Revert } from '../../../sandbox/ledger/revert';

export const ETH = 1_000_000_000n;
export const USDC = 1_000_000n;

export interface Fixture {
  readonly ledger: Ledger;
  readonly market: MarketState;
  readonly config: MarketConfig;
  readonly alice: ContractAccount;
  readonly bob: ContractAccount;
}

let txCounter = 0;

export function fixture(marketName = 'ETH/USDC'): Fixture {
  const network = buildNetwork(7, 1n);
  const ledger = new Ledger(network);
  const config = network.markets.find((m) => m.name === marketName);
  if (!config) throw new Error(marketName);
  const market = ledger.markets.get(config.market_id) as MarketState;
  const make = (name: string): ContractAccount => {
    const account = ledger.createAccount(deriveId(7, `test/${name}`), { Address: deriveId(7, `owner/${name}`) }, 0);
    account.whitelisted = true;
    for (const asset of network.assets) ledger.mint(contractIdentity(account.id), asset.id, asset.faucetAmount * 10n);
    return account;
  };
  return { ledger, market, config, alice: make('alice'), bob: make('bob') };
}

export function place(f: Fixture, account: ContractAccount, side: Side, price: bigint, quantity: bigint, orderType: OrderType = { kind: 'Spot' }): OrderRecord | Revert {
  const txId = `tx${++txCounter}` as B256;
  return f.ledger.transact(() => f.market.createOrder({ account, txId, timestamp: BigInt(txCounter) }, { side, price, quantity, orderType }));
}

export function placed(result: OrderRecord | Revert): OrderRecord {
  if (isRevert(result)) throw new Error(`unexpected revert ${result.reason}: ${result.message}`);
  return result;
}
