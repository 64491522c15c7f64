// What the trusted surface shows before an owner is forgotten: the owner in full, what forgetting
// it does and what it does not. Only a watch-only owner can be forgotten (the terminal never
// deletes a key that controls funds), so nothing here shows or touches a private key; the
// confirmation still goes through the trusted surface, so a page cannot quietly drop the owner the
// trader watches and switch the screen to another.
import type { OwnerStyle } from '../../../shared/crypto/address';
import { confirmationDigest, type ConfirmationRequest } from '../confirm/trusted-confirmer';
import { trusted } from '../confirm/trusted-text';

export interface ForgetOwnerFacts {
  readonly networkId: string;
  readonly networkName: string;
  readonly address: string;
  readonly style: OwnerStyle;
  readonly active: boolean;
  readonly tradeAccountId: string | null;
}

export function forgetOwnerConfirmation(facts: ForgetOwnerFacts): ConfirmationRequest {
  const style = facts.style === 'evm' ? 'EVM-style' : 'ledger-style';
  return {
    action: 'forgetOwner',
    title: trusted`Forget the watch-only owner on ${facts.networkName}`,
    destination: { heading: trusted`Owner to forget (${style}, watch-only: its key is offline)`, value: facts.address, label: '' },
    lines: [
      facts.tradeAccountId === null ? trusted`Trading account: none recorded on this network` : trusted`Trading account: ${facts.tradeAccountId} (it and its funds stay on the exchange)`,
      facts.active ? trusted`It is the owner in use: the screen then shows no owner until you choose one.` : trusted`It is not the owner in use: the screen does not change.`,
      trusted`No key is deleted (the terminal holds none for it). Register the address again to watch it.`,
    ],
    digest: confirmationDigest('forgetOwner', { network: facts.networkId, address: facts.address }),
  };
}
