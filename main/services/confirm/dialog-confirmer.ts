// Electron's trusted confirmer: a native message box of the main process, modal on the window that
// asked, showing what main decoded. The page cannot script it (it is not part of any page), and
// "Cancel" is the default and the answer to Escape. One dialog at a time: a page asking again
// while one is open is refused rather than stacking dialogs. Electron-free: main/platform gives
// it the function that shows the box (tests give a fake).
import { fail, ok, type Result } from '../../../shared/result';
import { confirmationText } from './confirmation-text';
import { CONFIRM_CODES, type ConfirmationContext, type ConfirmationRequest, type TrustedConfirmer } from './trusted-confirmer';

export interface MessageBoxRequest {
  readonly type: 'warning';
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  readonly buttons: readonly [string, string];
  readonly defaultId: 0;
  readonly cancelId: 0;
  readonly noLink: true;
}

/** Shows the box on the window with this id; null when that window no longer exists. Resolves to the button index. */
export type ShowMessageBox = (windowId: string, box: MessageBoxRequest) => Promise<number | null>;

/** The box shows confirmationText's words unchanged: the title as its message, the lines as its detail. */
export function confirmationBox(request: ConfirmationRequest): MessageBoxRequest {
  const text = confirmationText(request);
  const verb = request.action === 'withdraw' ? 'Withdraw' : request.action === 'allowWithdrawAddress' ? 'Allow address' : request.action === 'forgetOwner' ? 'Forget owner' : request.action === 'ownerMethod' ? 'Sign' : 'Apply change';
  return {
    type: 'warning',
    title: 'Ledger Terminal: confirm',
    message: text.title,
    detail: [...text.lines, '', `Request digest: ${request.digest.slice(0, 16)}`, 'Confirm only if you asked for exactly this.'].join('\n'),
    buttons: ['Cancel', verb],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

export class DialogConfirmer implements TrustedConfirmer {
  readonly surface = 'dialog' as const;
  private open = false;

  constructor(private readonly show: ShowMessageBox) {}

  async confirm(request: ConfirmationRequest, context: ConfirmationContext): Promise<Result<void>> {
    const title = request.title.text;
    if (this.open) return fail(CONFIRM_CODES.BUSY, `${title}: another confirmation is open; answer it first`);
    this.open = true;
    try {
      const answer = await this.show(context.windowId, confirmationBox(request));
      if (answer === null) return fail(CONFIRM_CODES.DECLINED, `${title}: the window that asked is gone; nothing was done`);
      return answer === 1 ? ok(undefined) : fail(CONFIRM_CODES.DECLINED, `${title}: declined in the confirmation dialog; nothing was done`);
    } finally {
      this.open = false;
    }
  }
}
