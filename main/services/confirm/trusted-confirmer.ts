// The trusted confirmer: the one port through which main asks the trader, outside the renderer, to
// confirm whatever moves funds out of the trading account or weakens a safety setting. Services
// describe the request as MAIN decoded it (destination, amount, asset, the setting and its new
// value) and bind it to a digest of the exact request; they do not know which surface answers:
//  - Electron: a native dialog of the main process on the window that asked (dialog-confirmer.ts);
//  - the browser host: a one-time code printed on the host's own terminal, typed into the app by
//    the trader and checked by main against the request's digest (host-code-confirmer.ts).
// The renderer can ask for a confirmation and can pass on a code the trader typed; it can never
// answer one itself: it cannot script the native dialog, and it never sees the printed code.
import { createHash } from 'node:crypto';
import type { Result } from '../../../shared/result';
import type { TrustedText } from './trusted-text';

/** Expected failures of a confirmation, as data with stable codes. */
export const CONFIRM_CODES = {
  /** Browser host: a code was printed on the host's terminal; call again with it (details: channel, expiresAt, attempts). */
  REQUIRED: 'CONFIRMATION_REQUIRED',
  /** The trader declined (dialog cancelled), or the window that asked is gone. */
  DECLINED: 'CONFIRMATION_DECLINED',
  /** The code typed does not match (details: attemptsLeft; at 0 a new code must be asked for). */
  WRONG_CODE: 'CONFIRMATION_CODE_WRONG',
  /** No code is outstanding for this exact request (expired, used up, or printed for another request). */
  EXPIRED: 'CONFIRMATION_EXPIRED',
  /** Another confirmation is being asked right now. */
  BUSY: 'CONFIRMATION_BUSY',
} as const;

export type ConfirmAction = 'withdraw' | 'allowWithdrawAddress' | 'weakenSettings' | 'networkAddress' | 'longSession' | 'armAutoBracket' | 'forgetOwner' | 'ownerMethod';

/** Where funds go, or the address being trusted: shown first, in full, grouped in fours, before its label. */
export interface ConfirmationDestination {
  /** What it is, in main's words ("To (Address, on the allow-list)"). */
  readonly heading: TrustedText;
  /** The 32-byte address or contract id as main decoded it (0x and 64 hex digits). */
  readonly value: string;
  /** The name the page gave it ("" for none): shown after it, escaped, bounded and quoted. */
  readonly label: string;
}

export interface ConfirmationRequest {
  readonly action: ConfirmAction;
  /** One line saying what will happen ("Withdraw from the trading account"). */
  readonly title: TrustedText;
  readonly destination?: ConfirmationDestination;
  /** What main decoded, one fact a line ("Amount: 1.5 USDC (1500000 raw units)"); built with `trusted`, so foreign values are escaped. */
  readonly lines: readonly TrustedText[];
  /** SHA-256 (hex) of the exact request (confirmationDigest): a confirmation is good for that request only. */
  readonly digest: string;
}

export interface ConfirmationContext {
  /** The window (Electron web contents id, or browser tab) that asked. */
  readonly windowId: string;
  /** A code the trader typed into the app (browser host); ignored by the dialog. */
  readonly code: string | undefined;
}

export interface TrustedConfirmer {
  /** 'dialog': answered in a native dialog; 'host-code': a code printed on the host's terminal. */
  readonly surface: 'dialog' | 'host-code';
  confirm(request: ConfirmationRequest, context: ConfirmationContext): Promise<Result<void>>;
}

type Canonical = string | number | boolean | null | bigint | readonly Canonical[] | { readonly [key: string]: Canonical | undefined };

function canonical(value: Canonical | undefined): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'bigint') return JSON.stringify(`${value.toString()}n`);
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly Canonical[]).map(canonical).join(',')}]`;
  const record = value as { readonly [key: string]: Canonical | undefined };
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`;
}

/** The digest a confirmation is bound to: the action and every field of the request, canonically. */
export function confirmationDigest(action: ConfirmAction, fields: Canonical): string {
  return createHash('sha256').update(canonical({ action, fields })).digest('hex');
}
