// What a hot owner's withdrawal must pass after its fields are checked and before anything is
// signed: its destination is on the allow-list and usable (the delay is over), and the trader
// confirms it in the trusted surface (a native dialog, or the code printed on the host's
// terminal), shown destination, amount and asset as main decoded them and bound to the digest of
// the exact request. The allow-list's additions are confirmed the same way.
import type { B256 } from '../../../shared/encoding/b256';
import { identityKind, identityValue, type Identity } from '../../../shared/encoding/identity';
import { formatUnits } from '../../../shared/encoding/units';
import type { Result } from '../../../shared/result';
import { confirmationDigest, type ConfirmationRequest, type TrustedConfirmer } from '../confirm/trusted-confirmer';
import { trusted, type TrustedText } from '../confirm/trusted-text';
import type { AssetInfo } from '../market-data/markets-index';
import type { AllowedAddress, WithdrawAllowList } from './withdraw-allow-list';

export interface WithdrawApproval {
  readonly networkId: string;
  readonly networkName: string;
  readonly chainId: bigint;
  readonly owner: B256;
  readonly tradeAccountId: B256;
  readonly to: Identity;
  readonly amount: bigint;
  readonly asset: AssetInfo;
  readonly nonceMode: 'sequential' | 'parallel';
  readonly windowId: string;
  readonly confirmationCode: string | undefined;
}

export type ApproveWithdraw = (approval: WithdrawApproval) => Promise<Result<void>>;

function amountLine(amount: bigint, asset: AssetInfo): TrustedText {
  return trusted`Amount: ${formatUnits(amount, asset.decimals)} ${asset.symbol} (${amount} raw units)`;
}

export function withdrawConfirmation(approval: WithdrawApproval, allowed: AllowedAddress): ConfirmationRequest {
  return {
    action: 'withdraw',
    title: trusted`Withdraw ${formatUnits(approval.amount, approval.asset.decimals)} ${approval.asset.symbol} from the trading account`,
    destination: { heading: trusted`To (${identityKind(approval.to)}, on the allow-list)`, value: identityValue(approval.to), label: allowed.label },
    lines: [
      amountLine(approval.amount, approval.asset),
      trusted`Asset: ${approval.asset.symbol}, asset id ${approval.asset.assetId}`,
      trusted`From: trading account ${approval.tradeAccountId} of owner ${approval.owner}`,
      trusted`Network: ${approval.networkName} (chain id ${approval.chainId})`,
    ],
    digest: confirmationDigest('withdraw', {
      network: approval.networkId,
      chainId: approval.chainId,
      owner: approval.owner,
      tradeAccountId: approval.tradeAccountId,
      to: { [identityKind(approval.to)]: identityValue(approval.to) },
      amount: approval.amount,
      assetId: approval.asset.assetId,
      nonce: approval.nonceMode,
    }),
  };
}

export function approveWithdrawWith(deps: { readonly allowList: WithdrawAllowList; readonly confirmer: TrustedConfirmer; readonly now: () => number }): ApproveWithdraw {
  return async (approval) => {
    const allowed = deps.allowList.check(approval.networkId, approval.networkName, approval.to, deps.now());
    if (!allowed.ok) return allowed;
    return deps.confirmer.confirm(withdrawConfirmation(approval, allowed.value), { windowId: approval.windowId, code: approval.confirmationCode });
  };
}

export function allowAddressConfirmation(networkId: string, networkName: string, address: AllowedAddress, delayMs: number): ConfirmationRequest {
  const hours = delayMs / 3_600_000;
  const delay = hours >= 1 ? `${Number.isInteger(hours) ? hours : hours.toFixed(1)} h` : `${Math.round(delayMs / 1000)} s`;
  return {
    action: 'allowWithdrawAddress',
    title: trusted`Allow withdrawals to a new address on ${networkName}`,
    destination: { heading: trusted`Address to allow (${address.kind})`, value: address.value, label: address.label },
    lines: [
      trusted`Usable from: ${new Date(address.usableFrom).toISOString()} (after a delay of ${delay})`,
      trusted`A hot owner key will sign withdrawals to it when you ask; check every character.`,
    ],
    // The time is not in the digest: the code stays good for the same address and label.
    digest: confirmationDigest('allowWithdrawAddress', { network: networkId, kind: address.kind, value: address.value, label: address.label }),
  };
}
