// The browser host's trusted confirmer: the host prints what main decoded and a one-time code on
// its own terminal (stderr), which no page can read; the trader checks the text there and types
// the code into the app, which calls again with it. The code is 8 random digits, good for this
// exact request (its digest) only, for 2 minutes and 3 attempts; a new request of the same digest
// replaces the code. At most 8 codes are outstanding (the oldest goes), so a page asking again and
// again cannot grow main's memory. 3 guesses at 10^8 codes: a page guessing blind wins once in
// 33 million requests, each of which prints on the trader's terminal.
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../../shared/clock';
import { fail, ok, type Result } from '../../../shared/result';
import { confirmationText } from './confirmation-text';
import { CONFIRM_CODES, type ConfirmationContext, type ConfirmationRequest, type TrustedConfirmer } from './trusted-confirmer';

export const CODE_DIGITS = 8;
export const CODE_LIFETIME_MS = 2 * 60_000;
export const CODE_ATTEMPTS = 3;
export const MAX_OUTSTANDING_CODES = 8;

export interface HostCodeConfirmerOptions {
  readonly clock: Pick<Clock, 'now'>;
  readonly random: (length: number) => Uint8Array;
  /** Writes to the host's own terminal (stderr of the host process). */
  readonly write: (text: string) => void;
}

interface Challenge {
  readonly code: string;
  readonly expiresAt: number;
  attemptsLeft: number;
}

/** A uniform decimal code from random bytes (rejection sampling: no digit is likelier). */
export function randomCode(random: (length: number) => Uint8Array, digits = CODE_DIGITS): string {
  let code = '';
  while (code.length < digits) {
    for (const byte of random(digits)) {
      if (byte < 250 && code.length < digits) code += String(byte % 10);
    }
  }
  return code;
}

/** The code as printed: two groups of four ("1234 5678"); typed with or without the space. */
export function showCode(code: string): string {
  return `${code.slice(0, 4)} ${code.slice(4)}`;
}

export class HostCodeConfirmer implements TrustedConfirmer {
  readonly surface = 'host-code' as const;
  private readonly challenges = new Map<string, Challenge>();

  constructor(private readonly options: HostCodeConfirmerOptions) {}

  confirm(request: ConfirmationRequest, context: ConfirmationContext): Promise<Result<void>> {
    return Promise.resolve(this.check(request, context));
  }

  private check(request: ConfirmationRequest, context: ConfirmationContext): Result<void> {
    const now = this.options.clock.now();
    for (const [digest, challenge] of this.challenges) if (challenge.expiresAt <= now) this.challenges.delete(digest);
    const typed = context.code?.replace(/[\s-]/g, '');
    if (typed === undefined || typed === '') return this.issue(request, now);
    const challenge = this.challenges.get(request.digest);
    if (!challenge) {
      return fail(
        CONFIRM_CODES.EXPIRED,
        'confirmationCode: no code is waiting for this exact request (it expired, was used up, or was printed for a different request); ask again for a new code',
        { field: 'confirmationCode' },
      );
    }
    const given = Buffer.from(typed);
    const expected = Buffer.from(challenge.code);
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      this.challenges.delete(request.digest);
      this.options.write(`Confirmed: ${request.title.text}\n`);
      return ok(undefined);
    }
    challenge.attemptsLeft -= 1;
    if (challenge.attemptsLeft <= 0) {
      this.challenges.delete(request.digest);
      this.options.write(`The code for "${request.title.text}" was typed wrong ${CODE_ATTEMPTS} times and is void; nothing was done.\n`);
    }
    return fail(
      CONFIRM_CODES.WRONG_CODE,
      challenge.attemptsLeft > 0
        ? `confirmationCode: that is not the code the terminal host printed for this request; ${challenge.attemptsLeft} attempt${challenge.attemptsLeft === 1 ? '' : 's'} left`
        : 'confirmationCode: wrong code, and no attempts are left; ask again for a new code',
      { field: 'confirmationCode', attemptsLeft: challenge.attemptsLeft },
    );
  }

  private issue(request: ConfirmationRequest, now: number): Result<void> {
    this.challenges.delete(request.digest);
    while (this.challenges.size >= MAX_OUTSTANDING_CODES) {
      const oldest = this.challenges.keys().next().value;
      if (oldest === undefined) break;
      this.challenges.delete(oldest);
    }
    const code = randomCode(this.options.random);
    const expiresAt = now + CODE_LIFETIME_MS;
    this.challenges.set(request.digest, { code, expiresAt, attemptsLeft: CODE_ATTEMPTS });
    const bar = '-'.repeat(72);
    const text = confirmationText(request);
    this.options.write(
      [
        '',
        bar,
        `CONFIRM IN THE APP ONLY IF YOU ASKED FOR THIS: ${text.title}`,
        ...text.lines.map((line) => `  ${line}`),
        `  Request digest: ${request.digest.slice(0, 16)}`,
        `  confirmation code: ${showCode(code)}   (valid ${CODE_LIFETIME_MS / 60_000} minutes, ${CODE_ATTEMPTS} attempts, for this request only)`,
        bar,
        '',
      ].join('\n'),
    );
    return fail(
      CONFIRM_CODES.REQUIRED,
      `${request.title.text}: confirm it with the code the terminal host printed in its own terminal window, beside what it will do; check the details there first`,
      { channel: 'host-terminal', expiresAt, attempts: CODE_ATTEMPTS, digest: request.digest.slice(0, 16) },
    );
  }
}
