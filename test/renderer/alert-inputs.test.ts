// What the alert menu (a ladder row's or the chart's context menu) and the Alerts panel's form ask
// main for: a price alert in the direction the level lies from each source, re-armed one step back,
// and the form's fields read with the market's decimals, each problem named by its field.
import { describe, expect, it } from 'vitest';
import { alertFormInput, levelText, withLevel, type AlertForm } from '../../renderer/src/features/alerts/alert-form';
import { alertChoices } from '../../renderer/src/features/alerts/alert-menu-model';
import { ethUsdc } from '../support/renderer/fixtures';

const USDC = 1_000_000n;
const TICK = 10_000n;

describe('the alert menu at a price', () => {
  it('offers bid, ask and last, each in the direction the level lies from it now', () => {
    const choices = alertChoices(ethUsdc, false, 3_000n * USDC, { bid: 2_999n * USDC, ask: 3_001n * USDC, last: null });
    expect(choices.map((choice) => choice.label)).toEqual(['Alert when the bid crosses above 3,000.00', 'Alert when the ask crosses below 3,000.00']);
    expect(choices[0]?.input).toEqual({
      condition: { kind: 'price', marketId: ethUsdc.market_id, turbo: false, source: 'bid', direction: 'above', price: 3_000n * USDC, hysteresis: TICK },
      repeat: false,
      cooldownSeconds: 60,
      sound: true,
    });
  });

  it('offers the mark (the midpoint of bid and ask) when both sides have a price', () => {
    const choices = alertChoices(ethUsdc, false, 3_010n * USDC, { bid: 2_999n * USDC, ask: 3_001n * USDC, last: 3_000n * USDC });
    expect(choices.map((choice) => choice.label)).toEqual([
      'Alert when the bid crosses above 3,010.00',
      'Alert when the ask crosses above 3,010.00',
      'Alert when the last trade crosses above 3,010.00',
      'Alert when the mark crosses above 3,010.00',
    ]);
    expect(choices[3]?.input.condition).toMatchObject({ kind: 'price', source: 'mark', direction: 'above' });
  });

  it('leaves out a source already at the level, or with no price yet', () => {
    expect(alertChoices(ethUsdc, true, 3_000n * USDC, { bid: 3_000n * USDC, ask: null, last: 2_990n * USDC }).map((choice) => choice.source)).toEqual(['last']);
  });
});

const form: AlertForm = {
  kind: 'price',
  market: ethUsdc,
  turbo: false,
  source: 'last',
  direction: 'below',
  priceText: '2950.5',
  ticksText: '5',
  secondsText: '10',
  onlyThisMarket: false,
  repeat: true,
  cooldownText: '30',
  sound: false,
  note: ' breakdown ',
  marginAccountId: `0x${'c3'.repeat(32)}`,
  line: 'liquidation',
  percentText: '5',
};

describe('the Alerts panel form', () => {
  it('reads a price alert in raw units', () => {
    expect(alertFormInput(form)).toEqual({
      ok: true,
      value: { condition: { kind: 'price', marketId: ethUsdc.market_id, turbo: false, source: 'last', direction: 'below', price: 2_950_500_000n, hysteresis: TICK }, repeat: true, cooldownSeconds: 30, sound: false, note: 'breakdown' },
    });
  });

  it('names the field of each problem', () => {
    expect(alertFormInput({ ...form, priceText: 'abc' })).toMatchObject({ ok: false, message: expect.stringMatching(/^Price: /) });
    expect(alertFormInput({ ...form, cooldownText: '-1' })).toMatchObject({ ok: false, message: 'Cool-down: a whole number is needed' });
    expect(alertFormInput({ ...form, kind: 'spread', ticksText: '0' })).toMatchObject({ ok: false, message: 'Ticks: between 1 and 1000000' });
    expect(alertFormInput({ ...form, kind: 'price', market: null })).toMatchObject({ ok: false, message: 'Market: choose a market' });
  });

  it('reads the other kinds', () => {
    expect(alertFormInput({ ...form, kind: 'stale', secondsText: '15' })).toMatchObject({ ok: true, value: { condition: { kind: 'stale', seconds: 15 } } });
    expect(alertFormInput({ ...form, kind: 'fill', onlyThisMarket: true })).toMatchObject({ ok: true, value: { condition: { kind: 'fill', marketId: ethUsdc.market_id } } });
    expect(alertFormInput({ ...form, kind: 'fill' })).toMatchObject({ ok: true, value: { condition: { kind: 'fill', marketId: null } } });
    expect(alertFormInput({ ...form, kind: 'rejected' })).toMatchObject({ ok: true, value: { condition: { kind: 'rejected' } } });
  });

  it('reads a Turbo Account alert: the line and the distance in % as basis points', () => {
    expect(alertFormInput({ ...form, kind: 'margin', line: 'freeze', percentText: '2.5' })).toMatchObject({ ok: true, value: { condition: { kind: 'margin', marginAccountId: form.marginAccountId, line: 'freeze', belowBps: 250 } } });
    expect(alertFormInput({ ...form, kind: 'margin', percentText: '0.001' })).toMatchObject({ ok: false, message: expect.stringMatching(/^Distance: /) });
    expect(alertFormInput({ ...form, kind: 'margin', percentText: '0' })).toMatchObject({ ok: false, message: 'Distance: between 0.01 and 100 %' });
    expect(alertFormInput({ ...form, kind: 'margin', marginAccountId: '' })).toMatchObject({ ok: false, message: 'Turbo Account: choose one (register one in the Margin panel first)' });
  });
});

describe("an alert's level, edited in the list", () => {
  const price = { kind: 'price' as const, marketId: ethUsdc.market_id, turbo: false, source: 'bid' as const, direction: 'above' as const, price: 3_000n * USDC, hysteresis: TICK };

  it('shows the level of each kind that has one, in the units it was typed in', () => {
    expect(levelText(price, ethUsdc)).toBe('3000.00');
    expect(levelText({ kind: 'spread', marketId: ethUsdc.market_id, turbo: false, ticks: 7 }, ethUsdc)).toBe('7');
    expect(levelText({ kind: 'stale', seconds: 12 }, null)).toBe('12');
    expect(levelText({ kind: 'margin', marginAccountId: '0xa', line: 'freeze', belowBps: 1250 }, null)).toBe('12.5');
    expect(levelText({ kind: 'rejected' }, null)).toBe('');
  });

  it('keeps everything but the level, and names the field and the value it refuses', () => {
    expect(withLevel(price, '3010.5', ethUsdc)).toEqual({ ok: true, value: { ...price, price: 3_010_500_000n } });
    expect(withLevel({ kind: 'spread', marketId: ethUsdc.market_id, turbo: false, ticks: 7 }, '9', ethUsdc)).toEqual({ ok: true, value: { kind: 'spread', marketId: ethUsdc.market_id, turbo: false, ticks: 9 } });
    expect(withLevel({ kind: 'margin', marginAccountId: '0xa', line: 'freeze', belowBps: 1250 }, '5', null)).toEqual({ ok: true, value: { kind: 'margin', marginAccountId: '0xa', line: 'freeze', belowBps: 500 } });
    const refused = withLevel(price, '3010.123', ethUsdc);
    expect(refused.ok ? 'accepted' : refused.message).toMatch(/^Price.*3010\.123/);
    const zero = withLevel(price, '0', ethUsdc);
    expect(zero.ok ? 'accepted' : zero.message).toMatch(/^Price: must be positive/);
    const ticks = withLevel({ kind: 'spread', marketId: ethUsdc.market_id, turbo: false, ticks: 7 }, 'x', ethUsdc);
    expect(ticks.ok ? 'accepted' : ticks.message).toMatch(/^Ticks: a whole number is needed \(not "x"\)/);
    expect(withLevel({ kind: 'fill', marketId: null }, '5', null).ok).toBe(false);
  });
});
