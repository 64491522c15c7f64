// The session's length against the real sandbox: a session longer than the configured length is
// signed only after the trusted confirmation (asked with main's own words, bound to that length),
// and renewal keeps the length the trader chose instead of replacing a short session with one of
// the configured length.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../../../main/services/confirm/trusted-confirmer';
import { fail, ok } from '../../../../../shared/result';
import { caller, startOnboarded, value, type Harness } from '../../../../support/terminal-harness';

interface ExchangeSession {
  readonly session_id: { Address?: string };
  readonly expiry: string;
}

describe('the session length', () => {
  let harness: Harness;
  let tradeAccountId: string;
  let marketIds: string[];
  const asked: ConfirmationRequest[] = [];
  let answer = true;
  const confirmer: TrustedConfirmer = {
    surface: 'dialog',
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve(answer ? ok(undefined) : fail('CONFIRMATION_DECLINED', 'declined'));
    },
  };

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer });
    harness = onboarded.harness;
    tradeAccountId = onboarded.tradeAccountId;
    marketIds = onboarded.markets.map((market) => market.market_id);
  }, 120_000);
  afterAll(() => harness?.stop());

  const exchangeSession = async (): Promise<ExchangeSession | null> => {
    const response = await fetch(`${harness.base()}/v1/accounts?trade_account_id=${tradeAccountId}`);
    return ((await response.json()) as { session: ExchangeSession | null }).session;
  };
  const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

  it('signs nothing longer than the configured length without the trusted confirmation', async () => {
    const h = harness.terminal.handlers;
    const before = await exchangeSession();
    // The onboarding session was the configured 30 days: no confirmation was asked for it.
    expect(asked).toEqual([]);
    answer = false;
    for (const input of [{ days: 365 }, { hours: 8760 }, { days: 31 }, { hours: 24 * 30 + 1 }]) {
      const refused = await h.createSession({ marketIds, ...input }, caller);
      expect(refused, JSON.stringify(input)).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
    }
    expect(await exchangeSession()).toEqual(before);
    expect(asked.map((request) => request.action)).toEqual(['longSession', 'longSession', 'longSession', 'longSession']);
    expect(asked[0]!.lines.map((line) => line.text).join('\n')).toMatch(/365 days.*configured.*30 days/s);
    // Each confirmation is bound to its length (365 days and 8,760 hours are one request).
    expect(asked[0]!.digest).toBe(asked[1]!.digest);
    expect(new Set(asked.map((request) => request.digest)).size).toBe(3);

    answer = true;
    const created = value(await h.createSession({ marketIds, days: 365 }, caller));
    expect(created.expiry).toBeGreaterThan(nowSeconds() + 364n * 86_400n);
    expect((await exchangeSession())?.expiry).toBe(created.expiry.toString());
  }, 60_000);

  it('asks nothing for the configured length or less', async () => {
    const h = harness.terminal.handlers;
    asked.length = 0;
    value(await h.createSession({ marketIds, days: 30 }, caller));
    value(await h.createSession({ marketIds, days: 0, hours: 5 }, caller));
    expect(asked).toEqual([]);
  }, 60_000);

  it('a length of days and hours is both added up, as account setup shows them side by side', async () => {
    const h = harness.terminal.handlers;
    const before = nowSeconds();
    const created = value(await h.createSession({ marketIds, days: 1, hours: 5 }, caller));
    expect(created.expiry - before).toBeGreaterThanOrEqual(29n * 3_600n);
    expect(created.expiry - before).toBeLessThan(29n * 3_600n + 60n);
  }, 60_000);

  it('renewal keeps a short session short and says when it renews', async () => {
    const h = harness.terminal.handlers;
    const created = value(await h.createSession({ marketIds, hours: 2 }, caller));
    const runtime = harness.terminal.runtime()!;
    // Two hours left is far from the end of a two-hour session: nothing is renewed.
    await runtime.accounts.renewIfDue();
    const session = await exchangeSession();
    expect(session?.session_id.Address).toBe(created.sessionAddress);
    expect(session?.expiry).toBe(created.expiry.toString());
    // The account view says when main will renew it: a tenth of its two hours before the end.
    const view = value(await h.getAccountState({}, caller)).session!;
    expect(view.renewsAt).toBe(created.expiry - 720n);
    const step = value(await h.getAccountState({}, caller)).steps.find((candidate) => candidate.id === 'session');
    expect(step?.detail).toContain(`renewed from ${new Date(Number(created.expiry - 720n) * 1000).toISOString()}`);
  }, 60_000);
});
