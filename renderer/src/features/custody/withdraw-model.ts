// The withdraw form's text fields turned into the contract's input: the amount parsed exactly into
// raw units with the asset's decimals (never a float, never rounded), the destination a 32-byte id
// of the kind chosen. Every refusal names the field and what was typed.
import { parseB256 } from '../../../../shared/encoding/b256';
import { parseUnits } from '../../../../shared/encoding/units';
import type { DepositAssetView } from '../../../../shared/ipc/views/custody';
import { fail, ok, type Result } from '../../../../shared/result';

export type DestinationKind = 'Address' | 'ContractId';

export interface WithdrawDraft {
  readonly assetId: string;
  readonly amountText: string;
  readonly destinationKind: DestinationKind;
  readonly destinationText: string;
}

export interface WithdrawFields {
  readonly assetId: string;
  readonly amount: bigint;
  readonly to: { readonly Address: string } | { readonly ContractId: string };
}

export function parseWithdrawDraft(draft: WithdrawDraft, assets: readonly DepositAssetView[]): Result<WithdrawFields & { readonly asset: DepositAssetView }> {
  const asset = assets.find((candidate) => candidate.assetId === draft.assetId);
  if (!asset) return fail('UNKNOWN_ASSET', 'asset: choose one of the assets the markets use', { field: 'asset' });
  const amount = parseUnits(draft.amountText.trim(), asset.decimals, 'amount');
  if (!amount.ok) return amount;
  if (amount.value === 0n) return fail('INVALID_AMOUNT', 'amount: a withdrawal of 0 does nothing', { field: 'amount' });
  const id = parseB256(draft.destinationText.trim().toLowerCase(), `to.${draft.destinationKind}`);
  if (!id.ok) return id;
  const to = draft.destinationKind === 'Address' ? { Address: id.value } : { ContractId: id.value };
  return ok({ assetId: asset.assetId, amount: amount.value, to, asset });
}
