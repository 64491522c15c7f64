// The CSV writer (quoting and the formula guard) and the daily records (per-fill realized P&L and
// the UTC-day summary add up to the position's own figures).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsRequests } from '../../../../shared/ipc/areas/records';
import { accountFills } from '../../../../shared/positions/accounting';
import { csvDocument, csvField, parseCsv } from '../../../../shared/records/csv';
import { dailySummary, dayWithin, realizedFills, utcDayOfNs, type RecordFill } from '../../../../shared/records/daily';
import { checkProperty } from '../../../support/property';

const ETH = 10n ** 9n;
const DAY_NS = 86_400_000_000_000n;

describe('csvField', () => {
  it('quotes every field and doubles quotes inside', () => {
    expect(csvField('ETH')).toBe('"ETH"');
    expect(csvField('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField(12n)).toBe('"12"');
    expect(csvField(null)).toBe('""');
  });

  it('neutralises text a spreadsheet would run as a formula, and leaves numbers alone', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('+1+cmd')).toBe('"\'+1+cmd"');
    expect(csvField('-2+3')).toBe('"\'-2+3"');
    expect(csvField('@SUM(A1)')).toBe('"\'@SUM(A1)"');
    expect(csvField('\t=1')).toBe('"\'\t=1"');
    expect(csvField('-12.5')).toBe('"-12.5"');
    expect(csvField(-3n)).toBe('"-3"');
  });

  it('reads back what it wrote, for any text', () => {
    checkProperty(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), { maxLength: 8 }), fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 5 }), (rows, header) => {
        const width = header.length;
        const shaped = rows.map((row) => Array.from({ length: width }, (_, index) => row[index] ?? ''));
        const parsed = parseCsv(csvDocument(header, shaped));
        const unguard = (text: string) => (text.startsWith("'") ? text.slice(1) : text);
        expect(parsed.length).toBe(shaped.length + 1);
        expect(parsed.map((record) => record.map(unguard))).toEqual([header, ...shaped].map((record) => record.map((field) => unguard(csvField(field).slice(1, -1).replaceAll('""', '"')))));
        for (const record of parsed) for (const field of record) expect(/^[=+\-@\t\r]/.test(field) && !/^-?\d+(\.\d+)?$/.test(field)).toBe(false);
      }),
    );
  });
});

describe('daily records', () => {
  const fill = (side: 'Buy' | 'Sell', price: bigint, quantity: bigint, fee: bigint, timestamp: bigint): RecordFill => ({ side, price, quantity, fee, timestamp });

  it('splits realized P&L, fees and volume by UTC day', () => {
    const day1 = 1_700_000_000_000_000_000n;
    const fills = [fill('Buy', 2_000_000_000n, ETH, 1_000_000n, day1), fill('Sell', 2_100_000_000n, ETH / 2n, 2_000n, day1 + 1n), fill('Sell', 2_200_000_000n, ETH / 4n, 3_000n, day1 + DAY_NS)];
    const realized = realizedFills(fills, ETH);
    const days = dailySummary(realized);
    expect(days.map((day) => day.day)).toEqual([utcDayOfNs(day1), utcDayOfNs(day1 + DAY_NS)]);
    expect(days[0]).toMatchObject({ trades: 2, volumeBase: ETH + ETH / 2n, volumeQuote: 2_000_000_000n + 1_050_000_000n, feesBase: 1_000_000n, feesQuote: 2_000n });
    expect(days[1]).toMatchObject({ trades: 1, volumeBase: ETH / 4n, feesBase: 0n, feesQuote: 3_000n });
    expect(days[0]!.realized + days[1]!.realized).toBe(accountFills(fills, ETH).realized);
  });

  it('days add up to the position: realized, fees, volume and trades, for any fills', () => {
    const fills = fc.array(
      fc.record({ side: fc.constantFrom('Buy' as const, 'Sell' as const), price: fc.bigInt({ min: 1n, max: 10n ** 13n }), quantity: fc.bigInt({ min: 1n, max: 10n ** 10n }), fee: fc.bigInt({ min: 0n, max: 10n ** 6n }), step: fc.bigInt({ min: 0n, max: DAY_NS }) }),
      { maxLength: 40 },
    );
    checkProperty(
      fc.property(fills, (drawn) => {
        let at = 1_700_000_000_000_000_000n;
        const list = drawn.map((one) => fill(one.side, one.price, one.quantity, one.side === 'Buy' && one.fee > one.quantity ? one.quantity : one.fee, (at += one.step)));
        const days = dailySummary(realizedFills(list, ETH));
        const position = accountFills(list, ETH);
        const sum = (pick: (day: (typeof days)[number]) => bigint) => days.reduce((total, day) => total + pick(day), 0n);
        expect(sum((day) => day.realized)).toBe(position.realized);
        expect(sum((day) => day.feesBase)).toBe(position.feesBase);
        expect(sum((day) => day.feesQuote)).toBe(position.feesQuote);
        expect(sum((day) => day.volumeBase)).toBe(list.reduce((total, one) => total + one.quantity, 0n));
        expect(days.reduce((total, day) => total + day.trades, 0)).toBe(list.length);
        expect([...days.map((day) => day.day)].sort()).toEqual(days.map((day) => day.day));
      }),
    );
  });

  it('selects days within an inclusive range', () => {
    expect(dayWithin('2026-01-02', '2026-01-02', '2026-01-02')).toBe(true);
    expect(dayWithin('2026-01-03', null, '2026-01-02')).toBe(false);
    expect(dayWithin('2026-01-01', '2026-01-02', null)).toBe(false);
  });
});

describe('records inputs', () => {
  const parse = (input: unknown) => recordsRequests.exportRecords.input.safeParse(input);

  it('takes a kind, a market and a UTC day range, and refuses a range backwards or a day not on the calendar', () => {
    expect(parse({ kind: 'fills', from: '2026-01-01', to: '2026-01-31' }).success).toBe(true);
    expect(parse({ kind: 'orders' }).success).toBe(true);
    expect(parse({ kind: 'fills', from: '2026-02-01', to: '2026-01-01' }).success).toBe(false);
    expect(parse({ kind: 'fills', from: '2026-02-30' }).success).toBe(false);
    expect(parse({ kind: 'fills', from: '2026-1-01' }).success).toBe(false);
    expect(parse({ kind: 'everything' }).success).toBe(false);
    expect(parse({ kind: 'fills', path: '/etc/passwd' }).success).toBe(false);
    expect(recordsRequests.getRecords.input.safeParse({ marketId: 'ETH' }).success).toBe(false);
  });
});
