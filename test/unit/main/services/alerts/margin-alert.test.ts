// The margin alert: a Turbo Account's distance to its liquidation threshold or its freeze line,
// in % of the value that line is measured on (V for the threshold, the stressed value for the
// freeze line), read from the margin risk panel's own figures (shared/margin computeRisk, carried
// in the risk frame), never computed a second way. It fires when the distance falls below the
// alert's %, only from a live frame, and re-arms once the distance is back a tenth of the % above it.
// Main follows the account's risk itself while such an alert is on, with no window open.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { armedAtStart, marginDistance, NO_OBSERVATION, read, type LevelCondition } from '../../../../../main/services/alerts/alert-rules';
import { AlertService, type MarginWatch } from '../../../../../main/services/alerts/alert-service';
import { ALERTS_FILE, AlertStore } from '../../../../../main/services/alerts/alert-store';
import { describeCondition } from '../../../../../main/services/alerts/alert-text';
import { ManualClock } from '../../../../../shared/clock';
import type { AlertFiringView } from '../../../../../shared/ipc/views/alerts';
import type { MarginRiskFrame, MarginRiskView } from '../../../../../shared/ipc/views/margin';

const ACCOUNT = `0x${'c3'.repeat(32)}`;
const USDC = 1_000_000n;

/** The figures the risk panel shows, with what the margin alert reads set. */
function risk(figures: { value: bigint; threshold: bigint; stressedMarked: bigint; stressedFilled: bigint; freezeLine: bigint }): MarginRiskView {
  return {
    accountValue: figures.value,
    stressedMarkedValue: figures.stressedMarked,
    stressedFilledValue: figures.stressedFilled,
    health: {
      threshold: figures.threshold,
      freezeLine: figures.freezeLine,
      distanceToThreshold: figures.value - figures.threshold,
      // computeRisk: min(V stressed-marked, V stressed-filled) - freeze line.
      distanceToFreeze: (figures.stressedMarked < figures.stressedFilled ? figures.stressedMarked : figures.stressedFilled) - figures.freezeLine,
    },
  } as unknown as MarginRiskView;
}

const frameOf = (view: MarginRiskView | null, status: 'live' | 'stale' = 'live'): Omit<MarginRiskFrame, 'subscriptionId'> =>
  ({ marginAccountId: ACCOUNT, status, risk: view, collateral: { assetId: `0x${'0d'.repeat(32)}`, symbol: 'USDC', decimals: 6 } }) as unknown as Omit<MarginRiskFrame, 'subscriptionId'>;

const liquidation: LevelCondition = { kind: 'margin', marginAccountId: ACCOUNT, line: 'liquidation', belowBps: 1_000 };
const freeze: LevelCondition = { kind: 'margin', marginAccountId: ACCOUNT, line: 'freeze', belowBps: 500 };

describe('the distance of a Turbo Account to its lines', () => {
  it('is the panel’s distance in % of the value the line is measured on', () => {
    const view = risk({ value: 2_000n * USDC, threshold: 1_500n * USDC, stressedMarked: 1_900n * USDC, stressedFilled: 1_950n * USDC, freezeLine: 1_805n * USDC });
    // (V - threshold) / V = 500 / 2,000 = 25 %.
    expect(marginDistance(view, 'liquidation')).toEqual({ distance: 500n * USDC, base: 2_000n * USDC, bps: 2_500 });
    // (min(stressed values) - freeze line) / min(stressed values) = 95 / 1,900 = 5 %.
    expect(marginDistance(view, 'freeze')).toEqual({ distance: 95n * USDC, base: 1_900n * USDC, bps: 500 });
  });

  it('fires below the %, not at it, and re-arms a tenth of the % above it', () => {
    const at = (value: bigint) => read(liquidation, { ...NO_OBSERVATION, margin: frameOf(risk({ value, threshold: 900n * USDC, stressedMarked: value, stressedFilled: value, freezeLine: 0n })) });
    // 10 % of 1,000 is 100: exactly 10 % away is not below.
    expect(at(1_000n * USDC)).toEqual({ state: 'between' });
    expect(at(999n * USDC)).toEqual({ state: 'beyond', value: 990 });
    // Back only at 11 % (distance × 10,000 ≥ 1,100 × V): V = 1,011.24 is 11 %.
    expect(at(1_011n * USDC).state).toBe('between');
    expect(at(1_012n * USDC)).toEqual({ state: 'back', value: 1_106 });
    expect(armedAtStart(liquidation)).toBe(true);
  });

  it('reads the freeze line from the stressed value, and an account past a line as 0 % or less', () => {
    const view = risk({ value: 2_000n * USDC, threshold: 1_500n * USDC, stressedMarked: 1_900n * USDC, stressedFilled: 1_950n * USDC, freezeLine: 1_810n * USDC });
    expect(read(freeze, { ...NO_OBSERVATION, margin: frameOf(view) })).toEqual({ state: 'beyond', value: 473 });
    const frozen = risk({ value: 2_000n * USDC, threshold: 1_500n * USDC, stressedMarked: 1_700n * USDC, stressedFilled: 1_950n * USDC, freezeLine: 1_810n * USDC });
    expect(read(freeze, { ...NO_OBSERVATION, margin: frameOf(frozen) })).toEqual({ state: 'beyond', value: -647 });
    const worthless = risk({ value: 0n, threshold: 1_500n * USDC, stressedMarked: 0n, stressedFilled: 0n, freezeLine: 1_810n * USDC });
    expect(read(liquidation, { ...NO_OBSERVATION, margin: frameOf(worthless) })).toEqual({ state: 'beyond', value: 0 });
  });

  it('reads nothing from a stale frame, a frame without figures (no session), or no frame', () => {
    const view = risk({ value: 999n * USDC, threshold: 900n * USDC, stressedMarked: 0n, stressedFilled: 0n, freezeLine: 0n });
    expect(read(liquidation, { ...NO_OBSERVATION, margin: frameOf(view, 'stale') })).toEqual({ state: 'unknown' });
    expect(read(liquidation, { ...NO_OBSERVATION, margin: frameOf(null) })).toEqual({ state: 'unknown' });
    expect(read(liquidation, NO_OBSERVATION)).toEqual({ state: 'unknown' });
  });

  it('is described by its account, line and %', () => {
    expect(describeCondition({ kind: 'margin', marginAccountId: ACCOUNT, line: 'freeze', belowBps: 250 }, null)).toBe('Turbo Account 0xc3c3c3c3…c3c3: distance to the freeze line below 2.5 %');
    expect(describeCondition(liquidation, null)).toBe('Turbo Account 0xc3c3c3c3…c3c3: distance to liquidation below 10 %');
  });
});

describe('a margin alert in the service', () => {
  it('follows the account itself while armed (no window), fires once from a live frame, then lets the account go', () => {
    const clock = new ManualClock(0);
    const announced: AlertFiringView[] = [];
    const follows: { account: string; onChange: () => void; closed: boolean }[] = [];
    let frame: Omit<MarginRiskFrame, 'subscriptionId'> | null = null;
    const service = new AlertService({
      clock,
      store: new AlertStore(join(mkdtempSync(join(tmpdir(), 'lt-alerts-')), ALERTS_FILE), () => undefined, () => clock.now()),
      watch: () => ({ quote: () => ({ bid: null, ask: null, last: null }), close: () => undefined }),
      watchMargin: (account, onChange): MarginWatch => {
        const follow = { account, onChange, closed: false };
        follows.push(follow);
        return { frame: () => frame, close: () => (follow.closed = true) };
      },
      market: () => null,
      silentMs: () => null,
      announce: (firing) => {
        announced.push(firing);
        return true;
      },
      publish: () => undefined,
      log: () => undefined,
    });
    service.start();
    const created = service.create(liquidation, { repeat: false, cooldownSeconds: 0, sound: true, note: '' });
    expect(created.ok).toBe(true);
    expect(follows.map((follow) => [follow.account, follow.closed])).toEqual([[ACCOUNT, false]]);
    const push = (next: typeof frame) => {
      frame = next;
      for (const follow of follows) if (!follow.closed) follow.onChange();
    };
    push(frameOf(risk({ value: 1_200n * USDC, threshold: 900n * USDC, stressedMarked: 0n, stressedFilled: 0n, freezeLine: 0n })));
    // A stale frame below the % says nothing: its figures are not the account's now.
    push(frameOf(risk({ value: 950n * USDC, threshold: 900n * USDC, stressedMarked: 0n, stressedFilled: 0n, freezeLine: 0n }), 'stale'));
    expect(announced).toEqual([]);
    push(frameOf(risk({ value: 950n * USDC, threshold: 900n * USDC, stressedMarked: 0n, stressedFilled: 0n, freezeLine: 0n })));
    push(frameOf(risk({ value: 940n * USDC, threshold: 900n * USDC, stressedMarked: 0n, stressedFilled: 0n, freezeLine: 0n })));
    expect(announced.map((firing) => firing.text)).toEqual(['Alert: Turbo Account 0xc3c3c3c3…c3c3 is 5.26 % from liquidation (below 10 %): value 950 USDC, threshold 900 USDC']);
    expect(service.snapshot().alerts[0]).toMatchObject({ enabled: false, lastFiredAt: 0 });
    // A one-shot alert that fired follows the account no longer.
    expect(follows[0]?.closed).toBe(true);
  });
});
