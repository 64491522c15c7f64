// Stream payloads (spec 6): every data message carries `onchain_timestamp` (seconds) and
// `seen_timestamp` (nanoseconds), both strings.
import type { SandboxApp } from '../app-types';
import { nowNanos, nowSeconds } from '../clock';
import type { ContractAccount } from '../ledger/accounts';
import { windowView } from '../ledger/nonces';
import { identityToJson } from '../../shared/encoding/identity';
import { accountBalanceView } from '../views/accounts';

export function stamped(app: SandboxApp, body: Record<string, unknown>): Record<string, unknown> {
  return { ...body, onchain_timestamp: nowSeconds(app.clock).toString(), seen_timestamp: nowNanos(app.clock).toString() };
}

export function balancesOf(app: SandboxApp, account: ContractAccount): Record<string, unknown>[] {
  return app.network.assets.map((asset) => ({
    identity: identityToJson({ ContractId: account.id }),
    asset_id: asset.id,
    ...accountBalanceView(app.ledger, account, asset.id),
  }));
}

export function nonceV2Updates(account: ContractAccount): Record<string, unknown>[] {
  const updates: Record<string, unknown>[] = [{ update: { sequential: { contract_id: account.id, nonce: account.nonce.toString() } } }];
  const lanes = new Set([0, ...account.lanes.keys()]);
  for (const lane of [...lanes].sort()) updates.push({ update: { parallel: { contract_id: account.id, ...windowView(account, lane) } } });
  return updates;
}
