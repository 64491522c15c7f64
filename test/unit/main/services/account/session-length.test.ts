// The session length's pure rules: what a renewal signs, when it is due, and what the trusted
// confirmation says of a session longer than the configured length.
import { describe, expect, it } from 'vitest';
import { DAY, HOUR, longSessionLines, renewalMargin, renewalSeconds, renewalTime, sessionLengthText } from '../../../../../main/services/account/session-length';

describe('the session length', () => {
  it('a renewal keeps the length chosen, at most the configured length', () => {
    expect(renewalSeconds(2n * HOUR, 30n * DAY)).toBe(2n * HOUR);
    expect(renewalSeconds(365n * DAY, 30n * DAY)).toBe(30n * DAY);
    expect(renewalSeconds(undefined, 30n * DAY)).toBe(30n * DAY);
  });

  it('is due a tenth of the length before the end, at most a day', () => {
    expect(renewalMargin(2n * HOUR)).toBe(12n * 60n);
    expect(renewalMargin(30n * DAY)).toBe(DAY);
    expect(renewalTime(1_000_000n, HOUR)).toBe(1_000_000n - 360n);
  });

  it('is said in whole hours and days', () => {
    expect(sessionLengthText(HOUR)).toBe('1 hour');
    expect(sessionLengthText(5n * HOUR)).toBe('5 hours');
    expect(sessionLengthText(DAY)).toBe('1 day');
    expect(sessionLengthText(DAY + 5n * HOUR)).toBe('1 day and 5 hours');
    expect(sessionLengthText(365n * DAY)).toBe('365 days');
  });

  it('asks for a confirmation only beyond the configured length', () => {
    expect(longSessionLines(30n * DAY, 30, 3)).toBeNull();
    expect(longSessionLines(2n * HOUR, 30, 3)).toBeNull();
    expect(longSessionLines(30n * DAY + HOUR, 30, 3)?.map((line) => line.text)).toEqual(['Session length: 30 days and 1 hour (the configured length is 30 days): a session key may trade for longer', 'Markets: 3']);
  });
});
