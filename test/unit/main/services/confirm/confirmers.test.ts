// The trusted confirmers. Host code: printed on the host's terminal only, 8 digits, bound to the
// request's digest, 2 minutes, 3 attempts, at most 8 outstanding; the caller (the page) learns
// nothing but "a code was printed". Dialog: a native box on the asking window, Cancel by default,
// one at a time. The digest changes with every field of the request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DialogConfirmer, type MessageBoxRequest } from '../../../../../main/services/confirm/dialog-confirmer';
import { CODE_ATTEMPTS, CODE_LIFETIME_MS, HostCodeConfirmer, MAX_OUTSTANDING_CODES, randomCode } from '../../../../../main/services/confirm/host-code-confirmer';
import { settingsWeakenings as weakenings } from '../../../../../main/services/confirm/settings-weakening';
import { confirmationDigest, type ConfirmationRequest } from '../../../../../main/services/confirm/trusted-confirmer';
import { trusted } from '../../../../../main/services/confirm/trusted-text';
import { DEFAULT_SETTINGS } from '../../../../../main/services/storage/preferences';
import { ManualClock } from '../../../../../shared/clock';
import { randomBytes } from 'node:crypto';
import { checkProperty } from '../../../../support/property';

function request(fields: Record<string, string | bigint> = { to: '0xaa', amount: 5n }): ConfirmationRequest {
  return { action: 'withdraw', title: trusted`Withdraw 5 USDC from the trading account`, lines: [trusted`To: Address 0xaa`, trusted`Amount: 0.000005 USDC (5 raw units)`], digest: confirmationDigest('withdraw', fields) };
}

function host() {
  const clock = new ManualClock(1_000_000);
  const printed: string[] = [];
  const confirmer = new HostCodeConfirmer({ clock, random: (length) => new Uint8Array(randomBytes(length)), write: (text) => printed.push(text) });
  const lastCode = () => {
    const codes = [...printed.join('').matchAll(/confirmation code: (\d{4} \d{4})/g)].map((match) => match[1]!);
    return codes.at(-1)!;
  };
  return { clock, printed, confirmer, lastCode };
}

const ctx = (code?: string) => ({ windowId: 'tab-1', code });

describe('the host-code confirmer', () => {
  it('prints what main decoded and a code on the terminal; the answer to the page carries no code', async () => {
    const { confirmer, printed, lastCode } = host();
    const asked = await confirmer.confirm(request(), ctx());
    expect(asked).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED', details: { channel: 'host-terminal', attempts: CODE_ATTEMPTS } });
    const text = printed.join('');
    expect(text).toContain('Withdraw 5 USDC from the trading account');
    expect(text).toContain('To: Address 0xaa');
    const code = lastCode();
    expect(code).toMatch(/^\d{4} \d{4}$/);
    expect(JSON.stringify(asked)).not.toContain(code);
    expect(JSON.stringify(asked)).not.toContain(code.replace(' ', ''));
    expect(await confirmer.confirm(request(), ctx(code))).toEqual({ ok: true, value: undefined });
    // Used once: the same code again is refused.
    expect(await confirmer.confirm(request(), ctx(code))).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
  });

  it('accepts the code typed without the space', async () => {
    const { confirmer, lastCode } = host();
    await confirmer.confirm(request(), ctx());
    expect((await confirmer.confirm(request(), ctx(lastCode().replace(' ', '')))).ok).toBe(true);
  });

  it('binds the code to the exact request: another amount or destination is refused', async () => {
    const { confirmer, lastCode } = host();
    await confirmer.confirm(request({ to: '0xaa', amount: 5n }), ctx());
    const code = lastCode();
    expect(await confirmer.confirm(request({ to: '0xaa', amount: 5000n }), ctx(code))).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
    expect(await confirmer.confirm(request({ to: '0xbb', amount: 5n }), ctx(code))).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
    expect((await confirmer.confirm(request({ to: '0xaa', amount: 5n }), ctx(code))).ok).toBe(true);
  });

  it('allows 3 attempts, then the code is void', async () => {
    const { confirmer, lastCode } = host();
    await confirmer.confirm(request(), ctx());
    const code = lastCode().replace(' ', '');
    const wrong = String((Number(code) + 1) % 100_000_000).padStart(8, '0');
    expect(await confirmer.confirm(request(), ctx(wrong))).toMatchObject({ ok: false, code: 'CONFIRMATION_CODE_WRONG', details: { attemptsLeft: 2 } });
    expect(await confirmer.confirm(request(), ctx(wrong))).toMatchObject({ ok: false, details: { attemptsLeft: 1 } });
    expect(await confirmer.confirm(request(), ctx(wrong))).toMatchObject({ ok: false, details: { attemptsLeft: 0 } });
    expect(await confirmer.confirm(request(), ctx(code))).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
  });

  it('expires after 2 minutes', async () => {
    const { confirmer, clock, lastCode } = host();
    await confirmer.confirm(request(), ctx());
    clock.advance(CODE_LIFETIME_MS);
    expect(await confirmer.confirm(request(), ctx(lastCode()))).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
  });

  it('asking again replaces the code; at most 8 are outstanding, the oldest goes first', async () => {
    const { confirmer, lastCode } = host();
    await confirmer.confirm(request(), ctx());
    const first = lastCode();
    await confirmer.confirm(request(), ctx());
    const second = lastCode();
    if (first !== second) expect(await confirmer.confirm(request(), ctx(first))).toMatchObject({ ok: false, code: 'CONFIRMATION_CODE_WRONG' });
    const codes: string[] = [];
    for (let index = 0; index <= MAX_OUTSTANDING_CODES; index++) {
      await confirmer.confirm(request({ index: BigInt(index) }), ctx());
      codes.push(lastCode());
    }
    expect(await confirmer.confirm(request({ index: 0n }), ctx(codes[0]))).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
    expect((await confirmer.confirm(request({ index: BigInt(MAX_OUTSTANDING_CODES) }), ctx(codes.at(-1)))).ok).toBe(true);
  });

  it('a page guessing codes never completes a request (any 8 digits, 3 at a time)', async () => {
    await checkProperty(
      fc.asyncProperty(fc.array(fc.stringMatching(/^\d{8}$/), { minLength: 1, maxLength: 6 }), async (guesses) => {
        const { confirmer, lastCode } = host();
        await confirmer.confirm(request(), ctx());
        const real = lastCode().replace(' ', '');
        for (const guess of guesses) {
          if (guess === real) continue;
          expect((await confirmer.confirm(request(), ctx(guess))).ok).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('codes are 8 uniform digits', () => {
    const counts = new Array<number>(10).fill(0);
    for (let index = 0; index < 2000; index++) for (const digit of randomCode((length) => new Uint8Array(randomBytes(length)))) counts[Number(digit)]!++;
    for (const count of counts) expect(count).toBeGreaterThan(1300);
    // Bytes 250-255 are skipped, so 0-5 are not likelier than 6-9.
    expect(randomCode((length) => new Uint8Array(length).fill(255).map((_, index) => (index % 2 ? 255 : 7)))).toBe('77777777');
  });
});

describe('the dialog confirmer', () => {
  it('shows the decoded request on the asking window, Cancel the default; only the second button confirms', async () => {
    const shown: { windowId: string; box: MessageBoxRequest }[] = [];
    let answer: number | null = 0;
    const confirmer = new DialogConfirmer((windowId, box) => {
      shown.push({ windowId, box });
      return Promise.resolve(answer);
    });
    expect(await confirmer.confirm(request(), ctx('12345678'))).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
    expect(shown[0]).toMatchObject({ windowId: 'tab-1', box: { message: 'Withdraw 5 USDC from the trading account', defaultId: 0, cancelId: 0, buttons: ['Cancel', 'Withdraw'] } });
    expect(shown[0]!.box.detail).toContain('To: Address 0xaa');
    answer = 1;
    expect(await confirmer.confirm(request(), ctx())).toEqual({ ok: true, value: undefined });
    answer = null;
    expect(await confirmer.confirm(request(), ctx())).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
  });

  it('one dialog at a time', async () => {
    let release: (value: number) => void = () => undefined;
    const confirmer = new DialogConfirmer(() => new Promise((resolve) => (release = resolve)));
    const first = confirmer.confirm(request(), ctx());
    expect(await confirmer.confirm(request(), ctx())).toMatchObject({ ok: false, code: 'CONFIRMATION_BUSY' });
    release(1);
    expect((await first).ok).toBe(true);
  });
});

describe('the digest and the weakened settings', () => {
  it('the digest changes with every field and not with key order', () => {
    const base = confirmationDigest('withdraw', { to: '0xaa', amount: 5n, asset: '0x01' });
    expect(confirmationDigest('withdraw', { asset: '0x01', amount: 5n, to: '0xaa' })).toBe(base);
    expect(confirmationDigest('withdraw', { to: '0xab', amount: 5n, asset: '0x01' })).not.toBe(base);
    expect(confirmationDigest('withdraw', { to: '0xaa', amount: 6n, asset: '0x01' })).not.toBe(base);
    expect(confirmationDigest('withdraw', { to: '0xaa', amount: '5', asset: '0x01' })).not.toBe(base);
    expect(confirmationDigest('weakenSettings', { to: '0xaa', amount: 5n, asset: '0x01' })).not.toBe(base);
  });

  it('names confirmations off, a cap raised or removed, longer sessions; not tightening or harmless changes', () => {
    const words = { market: (id: string) => trusted`M${id}`, quantity: (_id: string, quantity: bigint) => trusted`${quantity}` };
    const current = { ...DEFAULT_SETTINGS, maxOrderQuantity: { a: 10n, b: 20n }, sessionDays: 7 };
    const settingsWeakenings = (...args: Parameters<typeof weakenings>) => weakenings(...args).map((line) => line.text);
    expect(settingsWeakenings(current, { confirmOrders: false }, words)).toEqual([expect.stringContaining('Confirm every order: on → off')]);
    expect(settingsWeakenings(current, { maxOrderQuantity: { a: 11n, b: 20n } }, words)).toEqual(['Maximum order size on Ma: 10 → 11']);
    expect(settingsWeakenings(current, { maxOrderQuantity: { a: 10n } }, words)).toEqual(['Maximum order size on Mb: 20 → no limit']);
    expect(settingsWeakenings(current, { sessionDays: 30 }, words)).toEqual([expect.stringContaining('Session length: 7 → 30 days')]);
    expect(settingsWeakenings(current, { confirmOrders: true, maxOrderQuantity: { a: 5n, b: 20n, c: 1n }, sessionDays: 1 }, words)).toEqual([]);
    expect(settingsWeakenings({ ...current, confirmOrders: false }, { confirmOrders: false }, words)).toEqual([]);
  });

  it('names a maximum notional, position or daily loss limit raised or removed; lowering or adding one is free', () => {
    const words = { market: (id: string) => trusted`M${id}`, quantity: (_id: string, quantity: bigint) => trusted`${quantity} base`, quote: (_id: string, amount: bigint) => trusted`${amount} quote` };
    const settingsWeakenings = (...args: Parameters<typeof weakenings>) => weakenings(...args).map((line) => line.text);
    const current = { ...DEFAULT_SETTINGS, maxOrderNotional: { a: 100n }, maxPosition: { a: 7n } };
    expect(settingsWeakenings(current, { maxOrderNotional: { a: 101n } }, words)).toEqual(['Maximum order notional on Ma: 100 quote → 101 quote']);
    expect(settingsWeakenings(current, { maxOrderNotional: {} }, words)).toEqual(['Maximum order notional on Ma: 100 quote → no limit']);
    expect(settingsWeakenings(current, { maxPosition: { a: 8n } }, words)).toEqual(['Maximum position on Ma: 7 base → 8 base']);
    expect(settingsWeakenings(current, { maxPosition: {} }, words)).toEqual(['Maximum position on Ma: 7 base → no limit']);
    expect(settingsWeakenings(current, { maxOrderNotional: { a: 50n, b: 1n }, maxPosition: { a: 1n, c: 2n } }, words)).toEqual([]);
    const limited = { ...DEFAULT_SETTINGS, dailyLossLimit: { q: 500n } };
    expect(settingsWeakenings(limited, { dailyLossLimit: { q: 600n } }, words)).toEqual(['Daily loss limit in q: 500 raw units → 600 raw units']);
    expect(settingsWeakenings(limited, { dailyLossLimit: {} }, words)).toEqual(['Daily loss limit in q: 500 raw units → no limit']);
    expect(settingsWeakenings(limited, { dailyLossLimit: { q: 400n, r: 1n } }, words)).toEqual([]);
    const rated = { ...DEFAULT_SETTINGS, maxOrdersPerMinute: 30 };
    expect(settingsWeakenings(rated, { maxOrdersPerMinute: 31 }, words)).toEqual(['Maximum orders per minute: 30 → 31']);
    expect(settingsWeakenings(rated, { maxOrdersPerMinute: 0 }, words)).toEqual(['Maximum orders per minute: 30 → no limit']);
    expect(settingsWeakenings(rated, { maxOrdersPerMinute: 10 }, words)).toEqual([]);
    expect(settingsWeakenings(DEFAULT_SETTINGS, { maxOrdersPerMinute: 10 }, words)).toEqual([]);
    // Acting on a daily loss breach: turning it on is free, off again is confirmed.
    expect(settingsWeakenings(DEFAULT_SETTINGS, { flattenOnDailyLoss: true }, words)).toEqual([]);
    expect(settingsWeakenings({ ...DEFAULT_SETTINGS, flattenOnDailyLoss: true }, { flattenOnDailyLoss: false }, words)).toEqual([
      'On the daily loss limit’s breach, cancel open orders and flatten: on → off (positions stay open past the limit)',
    ]);
  });

  it('names a price band widened, turned off, or dropped back to a wider default; tightening is free', () => {
    const words = { market: (id: string) => trusted`M${id}`, quantity: (_id: string, quantity: bigint) => trusted`${quantity}` };
    const settingsWeakenings = (...args: Parameters<typeof weakenings>) => weakenings(...args).map((line) => line.text);
    const current = { ...DEFAULT_SETTINGS, priceBandBps: { a: 500 } };
    expect(settingsWeakenings(current, { priceBandBps: { a: 0 } }, words)).toEqual(['Price band on Ma: 5 % (500 bps) → off (orders at any price are signed)']);
    expect(settingsWeakenings(current, { priceBandBps: { a: 800 } }, words)).toEqual(['Price band on Ma: 5 % (500 bps) → 8 % (800 bps)']);
    expect(settingsWeakenings(current, { priceBandBps: {} }, words)).toEqual(['Price band on Ma: 5 % (500 bps) → 30 % (3000 bps)']);
    expect(settingsWeakenings(DEFAULT_SETTINGS, { priceBandBps: { b: 0 } }, words)).toEqual(['Price band on Mb: 30 % (3000 bps) → off (orders at any price are signed)']);
    expect(settingsWeakenings(current, { priceBandBps: { a: 100, b: 2_000 } }, words)).toEqual([]);
    expect(settingsWeakenings({ ...current, priceBandBps: { a: 0 } }, { priceBandBps: { a: 0 } }, words)).toEqual([]);
  });
});

describe('the weakening lines in the trader’s words', () => {
  it('name a daily loss limit’s asset by its symbol and its amounts as the windows show them', () => {
    const words = {
      market: (id: string) => trusted`M${id}`,
      quantity: (_id: string, quantity: bigint) => trusted`${quantity}`,
      asset: (id: string) => trusted`${id === '0xusdc' ? 'USDC' : id}`,
      assetAmount: (_id: string, amount: bigint) => trusted`${amount / 1_000n},000.00 USDC`,
    };
    const limited = { ...DEFAULT_SETTINGS, dailyLossLimit: { '0xusdc': 5_000n } };
    expect(weakenings(limited, { dailyLossLimit: { '0xusdc': 6_000n } }, words).map((line) => line.text)).toEqual(['Daily loss limit in USDC: 5,000.00 USDC → 6,000.00 USDC']);
    expect(weakenings(limited, { dailyLossLimit: {} }, words).map((line) => line.text)).toEqual(['Daily loss limit in USDC: 5,000.00 USDC → no limit']);
  });
});
