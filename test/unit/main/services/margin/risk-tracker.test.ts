// The followed margin account on a ManualClock and an in-memory WebSocket: the risk is recomputed
// at most once per frame however many events arrive, a reconnect or a sequence gap makes it stale
// (the figures kept, flagged, with the reason) and refuses to serve a state to sign against until
// GET /v1/margin/state answered, and after the account's own request the state is read again
// before the next check, skipping events that read already includes.
import { describe, expect, it } from 'vitest';
import type { MarginState } from '../../../../../shared/api/margin-schemas';
import { ManualClock } from '../../../../../shared/clock';
import type { B256 } from '../../../../../shared/encoding/b256';
import { computeRisk, type MarginSnapshot } from '../../../../../shared/margin/index';
import { fail, ok, type Result } from '../../../../../shared/result';
import { ExchangeStream } from '../../../../../main/exchange/stream-client';
import { RiskTracker, type RiskFrameBody } from '../../../../../main/services/margin/risk-tracker';
import { FakeServer } from '../../../../support/main/exchange/fake-socket';
import { CHILD, ETH, USDC, USDC_ID, eventWire, parsedState, stateWire } from '../../../../support/main/margin/fixtures';

const flush = async () => {
  for (let index = 0; index < 10; index++) await Promise.resolve();
};

class FakeRest {
  stateCalls = 0;
  private pending: ((result: Result<MarginState>) => void)[] = [];
  getMarginState(): Promise<Result<MarginState>> {
    this.stateCalls++;
    return new Promise((resolve) => this.pending.push(resolve));
  }
  answer(result: Result<MarginState>): void {
    this.pending.shift()?.(result);
  }
  getOrders() {
    return Promise.resolve(ok({ orders: [] }));
  }
  getOrder() {
    return Promise.resolve(fail('UNKNOWN', 'no order'));
  }
}

function setup() {
  const clock = new ManualClock(1_700_000_000_000);
  const server = new FakeServer();
  const stream = new ExchangeStream({ url: 'ws://fake/v1/ws', clock, socketFactory: server.factory });
  const rest = new FakeRest();
  const frames: RiskFrameBody[] = [];
  let computed = 0;
  const tracker = new RiskTracker({
    account: CHILD as B256,
    clock,
    stream,
    rest: rest as unknown as ConstructorParameters<typeof RiskTracker>[0]['rest'],
    pool: () => Promise.resolve(fail('NOT_READ', 'the pool is embedded in the state here')),
    turboMarkets: () => [],
    tierOf: () => undefined,
    asset: (assetId) => ({ assetId, symbol: assetId === USDC_ID ? 'USDC' : 'ETH', decimals: assetId === USDC_ID ? 6 : 9 }),
    compute: (snapshot: MarginSnapshot) => {
      computed++;
      return computeRisk(snapshot);
    },
    onFrame: (frame) => frames.push(frame),
    poolRefreshMs: 3_600_000,
  });
  expect(tracker.start().ok).toBe(true);
  server.last.open();
  return { clock, server, rest, tracker, frames, computed: () => computed };
}

const update = (sequence: number, state: Record<string, unknown>, kind = 'Draw') => ({ action: 'subscribe_margin_update', event: eventWire(sequence, kind, state) });

describe('risk tracker', () => {
  it('subscribes the account on its own connection and recomputes at most once per frame', async () => {
    const { clock, server, tracker, frames, computed } = setup();
    expect(server.last.requests()).toEqual(expect.arrayContaining([{ action: 'subscribe_margin', margin_account_id: CHILD }]));
    server.last.push({ action: 'subscribe_margin', state: stateWire({ sequence: 1 }) });
    clock.advance(0);
    expect(computed()).toBe(1);
    expect(frames.at(-1)).toMatchObject({ status: 'live', cohort: 'Turbo', sequence: 1n, noExpiry: false, expiresAt: 1_700_604_800n });
    expect(frames.at(-1)?.risk).toMatchObject({ creditLine: 2_000n * USDC, accountValue: 2_000n * USDC, buyCapacity: 2_000n * USDC });

    // Five events inside one frame: one recompute, from the last post-event totals.
    for (let draw = 1; draw <= 5; draw++) server.last.push(update(1 + draw, stateWire({ sequence: 1 + draw, drawn: BigInt(draw) * 100n * USDC, cash: BigInt(draw) * 100n * USDC })));
    clock.advance(5);
    expect(computed()).toBe(1);
    clock.advance(11);
    expect(computed()).toBe(2);
    expect(frames.at(-1)?.sequence).toBe(6n);
    expect(frames.at(-1)?.risk?.outstanding).toBe(500n * USDC);
    // V is unchanged by draws (balance-sheet movements, not PnL).
    expect(frames.at(-1)?.risk?.accountValue).toBe(2_000n * USDC);
    const live = await tracker.live(0);
    expect(live.ok && live.value.report?.outstanding).toBe(500n * USDC);
    tracker.close();
  });

  it('turns stale on a sequence gap, keeps the figures with the reason, and serves nothing to sign until the state is fetched', async () => {
    const { clock, server, rest, tracker, frames } = setup();
    server.last.push({ action: 'subscribe_margin', state: stateWire({ sequence: 4, drawn: 100n * USDC, cash: 100n * USDC }) });
    clock.advance(20);
    server.last.push(update(6, stateWire({ sequence: 6, drawn: 300n * USDC, cash: 300n * USDC })));
    clock.advance(20);
    const stale = frames.at(-1);
    expect(stale).toMatchObject({ status: 'stale', staleReason: 'sequence gap: expected 5, got 6' });
    expect(stale?.risk?.outstanding).toBe(100n * USDC);
    expect(rest.stateCalls).toBe(1);

    const waiting = tracker.live(1_000);
    clock.advance(1_000);
    const refused = await waiting;
    expect(refused).toMatchObject({ ok: false, code: 'MARGIN_STALE' });
    expect(!refused.ok && refused.message).toContain('no margin action is signed until it is fresh again');

    rest.answer(ok(parsedState(stateWire({ sequence: 6, drawn: 300n * USDC, cash: 300n * USDC }))));
    await flush();
    clock.advance(20);
    expect(frames.at(-1)).toMatchObject({ status: 'live', sequence: 6n });
    const served = await tracker.live(0);
    expect(served.ok && served.value.report?.outstanding).toBe(300n * USDC);
    tracker.close();
  });

  it('after a reconnect refuses until GET /v1/margin/state answered', async () => {
    const { clock, server, rest, tracker, frames } = setup();
    server.last.push({ action: 'subscribe_margin', state: stateWire({ sequence: 2 }) });
    clock.advance(20);
    server.last.serverClose(1006);
    clock.advance(20);
    expect(frames.at(-1)).toMatchObject({ status: 'stale', staleReason: expect.stringContaining('disconnected') as string });
    clock.advance(2_000);
    server.last.open();
    expect(rest.stateCalls).toBe(1);
    const waiting = tracker.live(500);
    clock.advance(500);
    expect(await waiting).toMatchObject({ ok: false, code: 'MARGIN_STALE' });
    rest.answer(ok(parsedState(stateWire({ sequence: 2, drawn: 40n * USDC, cash: 40n * USDC }))));
    await flush();
    const served = await tracker.live(0);
    expect(served.ok && served.value.state.session?.quote_drawn).toBe(40n * USDC);
    tracker.close();
  });

  it('reads the state again after the own request of the account, and skips events that read includes', async () => {
    const { clock, server, rest, tracker, frames } = setup();
    server.last.push({ action: 'subscribe_margin', state: stateWire({ sequence: 1, eth: 0n }) });
    clock.advance(20);
    tracker.noteWrite();
    const checked = tracker.live(0);
    await flush();
    expect(rest.stateCalls).toBe(1);
    // The read includes the fill of the account's own order (the stream has not said so yet).
    rest.answer(ok(parsedState(stateWire({ sequence: 2, drawn: 300n * USDC, cash: 0n, eth: ETH / 10n }))));
    const served = await checked;
    expect(served.ok && served.value.state.balances[`0x${'e7'.repeat(32)}`]?.on_account).toBe(ETH / 10n);
    // The stream's event 2 arrives late: already included, not a gap, not folded again.
    server.last.push(update(2, stateWire({ sequence: 2, drawn: 300n * USDC, cash: 0n, eth: ETH / 10n })));
    server.last.push(update(3, stateWire({ sequence: 3, drawn: 350n * USDC, cash: 50n * USDC, eth: ETH / 10n })));
    clock.advance(50);
    expect(frames.at(-1)).toMatchObject({ status: 'live', sequence: 3n });
    expect(frames.at(-1)?.risk?.outstanding).toBe(350n * USDC);
    tracker.close();
  });
});
