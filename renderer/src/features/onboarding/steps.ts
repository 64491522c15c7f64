// Onboarding rules kept apart from the component so they are tested as plain functions.
import type { OnboardingStep } from '../../../../shared/ipc/views';

/** The first earlier step that is not finished, if any: a later step waits for it. */
export function waitingFor(steps: readonly OnboardingStep[], index: number): OnboardingStep | null {
  for (let earlier = 0; earlier < index; earlier++) {
    const step = steps[earlier];
    if (step && step.state !== 'done' && step.state !== 'not-needed') return step;
  }
  return null;
}

/** Main's refusal, in a trader's words where the code says more than the message. */
export function explain(code: string, message: string): string {
  if (code === 'FAUCET_COOLDOWN' || /cooldown/i.test(message)) {
    // Main's message may already say it; otherwise the trader learns the rule here.
    return /minute|60 ?s/i.test(message) ? message : `The faucet gives once a minute per account: ${message}`;
  }
  if (code === 'KEYCHAIN_UNAVAILABLE') return `The system keychain is not available: ${message}`;
  if (code === 'NOT_READY') return `This step is not available in this build yet (${message}).`;
  if (code === 'BRIDGE_CLOSED') return `${message}.`;
  return message;
}
