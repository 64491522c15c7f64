// The online custody components together, for a "Funds" panel: deposit instructions, the withdraw
// form, a watch-only owner's session request, the pending requests with their import, and referral
// codes. The shell may place them one by one instead; this is the arrangement that reads in order.
import { createResource, createSignal, onCleanup, Show, type Component } from 'solid-js';
import type { AccountState } from '../../../../shared/ipc/views';
import { DepositInstructions } from './DepositInstructions';
import { ImportSignature } from './ImportSignature';
import { PendingRequests } from './PendingRequests';
import { ReferralCode } from './ReferralCode';
import { SessionRequestForm } from './SessionRequestForm';
import { WithdrawForm } from './WithdrawForm';
import { useBridge } from '../../stores/bridge-context';

export const CustodyPanel: Component<{ now?: () => number }> = (props) => {
  const bridge = useBridge();
  const [loaded] = createResource(async () => {
    const state = await bridge.getAccountState({});
    return state.ok ? state.value : null;
  });
  // The owner may change while the panel is open (a watch-only owner registered in account setup).
  const [pushed, setPushed] = createSignal<AccountState | null>(null);
  onCleanup(bridge.onAccount((state) => setPushed(state)));
  const account = () => pushed() ?? loaded() ?? null;
  const watchOnly = () => account()?.activeOwner?.custody === 'watch-only';
  return (
    <div class="custody" data-testid="custody-panel">
      <h2>Deposit</h2>
      <DepositInstructions />
      <h2>Withdraw</h2>
      <WithdrawForm />
      <Show when={watchOnly()}>
        <h2>Trading session (signed offline)</h2>
        <SessionRequestForm />
      </Show>
      <h2>Requests for the offline signer</h2>
      <PendingRequests {...(props.now ? { now: props.now } : {})} />
      <ImportSignature showResult={false} />
      <h2>Referral</h2>
      <ReferralCode />
    </div>
  );
};
