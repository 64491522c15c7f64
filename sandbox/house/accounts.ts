// The house: two trading accounts of the sandbox itself, one that quotes (maker) and one that
// takes (taker), so the prints are between two parties as on a real venue. They are funded by
// minting (counted in `minted`, so the ledger invariant covers them), whitelisted, and exempt
// from the price window (they move the price on purpose).
import { contractIdentity } from '../../shared/encoding/identity';
import type { NetworkConfig } from '../config/network';
import { deriveId } from '../ids';
import type { ContractAccount } from '../ledger/accounts';
import type { Ledger } from '../ledger/ledger';

export interface House {
  readonly maker: ContractAccount;
  readonly taker: ContractAccount;
}

/** Raw units of each asset minted to each house account: far above any book's needs, within u64. */
const HOUSE_FUNDS = 10n ** 18n;

export function createHouse(ledger: Ledger, network: NetworkConfig, seed: number): House {
  const make = (role: string): ContractAccount => {
    const account = ledger.createAccount(deriveId(seed, `house/${role}/account`), { Address: deriveId(seed, `house/${role}/owner`) }, 0);
    account.whitelisted = true;
    account.house = true;
    for (const asset of network.assets) ledger.mint(contractIdentity(account.id), asset.id, HOUSE_FUNDS);
    return account;
  };
  const house = { maker: make('maker'), taker: make('taker') };
  ledger.changes.clear();
  return house;
}
