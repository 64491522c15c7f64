// The browser host confirms withdrawals, new allow-list addresses, loosened safety settings,
// sessions longer than the configured length, the automatic bracket on fill, forgetting an owner, owner requests (callOwnerMethod) and network addresses with a one-time code it prints on its own terminal, not in the page. Here the
// page only carries the code the trader reads there: a request main answers CONFIRMATION_REQUIRED
// is asked again with the code the trader types (CodeDialog), and again after a wrong code while
// attempts are left. The page never sees the code unless the trader types it, and cannot complete
// a request without it. In Electron the confirmation is a native dialog and none of this shows.
import type { TerminalApi } from '../../../shared/ipc/contract';
import { fail, type Result } from '../../../shared/result';

/** The requests main may confirm through the host's terminal. */
export const HOST_CONFIRMED_REQUESTS = ['withdraw', 'allowWithdrawAddress', 'updateSettings', 'updateMarginSettings', 'configureNetwork', 'createSession', 'setAutoBracket', 'forgetOwner', 'callOwnerMethod'] as const;

export interface CodeQuestion {
  /** What main said it printed (names the action). */
  readonly message: string;
  /** The previous code was wrong: main's words, with the attempts left. */
  readonly problem: string | null;
}

/** Asks the trader for the code; null when they cancel. */
export type AskCode = (question: CodeQuestion) => Promise<string | null>;

type AnyCall = (input: Record<string, unknown>) => Promise<Result<unknown>>;

export function withHostConfirmation(api: TerminalApi, ask: AskCode): TerminalApi {
  const wrapped: Record<string, unknown> = { ...api };
  for (const name of HOST_CONFIRMED_REQUESTS) {
    const original = api[name] as unknown as AnyCall;
    wrapped[name] = async (input: Record<string, unknown>) => {
      let result = await original(input);
      let problem: string | null = null;
      while (!result.ok && (result.code === 'CONFIRMATION_REQUIRED' || (result.code === 'CONFIRMATION_CODE_WRONG' && Number(result.details?.attemptsLeft ?? 0) > 0))) {
        const code = await ask({ message: result.code === 'CONFIRMATION_REQUIRED' ? result.message : (problem ?? result.message), problem });
        if (code === null) return fail('CONFIRMATION_DECLINED', 'Not confirmed: nothing was done');
        result = await original({ ...input, confirmationCode: code.trim() });
        problem = !result.ok && result.code === 'CONFIRMATION_CODE_WRONG' ? result.message : null;
      }
      return result;
    };
  }
  return Object.freeze(wrapped) as unknown as TerminalApi;
}
