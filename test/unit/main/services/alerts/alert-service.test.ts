// The alert service: firings written to disk before they are announced, a firing never announced
// (the app stopped in between) announced at the next start, alerts kept across restarts, and a
// damaged line of the file costing that line only.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertService, type AlertServiceDeps } from '../../../../../main/services/alerts/alert-service';
import { ALERTS_FILE, AlertStore } from '../../../../../main/services/alerts/alert-store';
import { ManualClock } from '../../../../../shared/clock';
import type { AlertFiringView, AlertsSnapshot } from '../../../../../shared/ipc/views/alerts';

const MARKET = `0x${'a1'.repeat(32)}`;

interface Harness {
  readonly service: AlertService;
  readonly announced: AlertFiringView[];
  readonly published: AlertsSnapshot[];
  readonly logs: string[];
  setBid(bid: bigint): void;
  watches(): number;
}

function start(dir: string, clock: ManualClock, overrides: Partial<AlertServiceDeps> = {}): Harness {
  const announced: AlertFiringView[] = [];
  const published: AlertsSnapshot[] = [];
  const logs: string[] = [];
  let bid: bigint | null = null;
  const listeners = new Set<() => void>();
  const service = new AlertService({
    clock,
    store: new AlertStore(join(dir, ALERTS_FILE), (line) => logs.push(line), () => clock.now()),
    watch: (_marketId, _turbo, onChange) => {
      listeners.add(onChange);
      return { quote: () => ({ bid, ask: null, last: null }), close: () => listeners.delete(onChange) };
    },
    market: () => null,
    silentMs: () => null,
    announce: (firing) => {
      announced.push(firing);
      return true;
    },
    publish: (snapshot) => published.push(snapshot),
    log: (line) => logs.push(line),
    ...overrides,
  });
  service.start();
  return {
    service,
    announced,
    published,
    logs,
    setBid: (next) => {
      bid = next;
      for (const listener of listeners) listener();
    },
    watches: () => listeners.size,
  };
}

const priceAlert = { kind: 'price' as const, marketId: MARKET, turbo: false, source: 'bid' as const, direction: 'above' as const, price: 3_000n, hysteresis: 0n };
const settings = { repeat: false, cooldownSeconds: 0, sound: true, note: '' };

describe('the alert service', () => {
  it('judges each alert on its own market when a pass evaluates alerts of several markets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(1_000);
    const other = `0x${'b2'.repeat(32)}`;
    const bids = new Map<string, bigint>([
      [MARKET, 2_000n],
      [other, 2_000n],
    ]);
    const listeners = new Set<() => void>();
    const terminal = start(dir, clock, {
      watch: (marketId, _turbo, onChange) => {
        listeners.add(onChange);
        return { quote: () => ({ bid: bids.get(marketId) ?? null, ask: null, last: null }), close: () => listeners.delete(onChange) };
      },
    });
    expect(terminal.service.create(priceAlert, settings).ok).toBe(true);
    expect(terminal.service.create({ ...priceAlert, marketId: other }, settings).ok).toBe(true);
    expect(terminal.service.create({ ...priceAlert, price: 2_500n }, settings).ok).toBe(true);
    // Only the first market crosses 3,000; the second stays at 2,000.
    bids.set(MARKET, 3_100n);
    terminal.service.evaluate();
    expect(terminal.announced.map((firing) => firing.text)).toEqual([
      'Alert: market 0xa1a1a1a1… bid crossed above 3000 (raw units) (now 3100 (raw units))',
      'Alert: market 0xa1a1a1a1… bid crossed above 2500 (raw units) (now 3100 (raw units))',
    ]);
  });

  it('fires on a crossing seen through its own watch, with no window, and records the firing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(1_000);
    const terminal = start(dir, clock);
    const created = terminal.service.create(priceAlert, settings);
    expect(created.ok).toBe(true);
    expect(terminal.watches()).toBe(1);
    terminal.setBid(2_990n);
    terminal.setBid(3_000n);
    expect(terminal.announced.map((firing) => firing.text)).toEqual(['Alert: market 0xa1a1a1a1… bid crossed above 3000 (raw units) (now 3000 (raw units))']);
    const snapshot = terminal.service.snapshot();
    expect(snapshot.alerts[0]).toMatchObject({ enabled: false, lastFiredAt: 1_000 });
    expect(snapshot.firings[0]).toMatchObject({ delivered: true });
    // A one-shot alert that fired needs no market data any more.
    expect(terminal.watches()).toBe(0);
    // The alert and its firing are on disk.
    const again = start(dir, clock);
    expect(again.service.snapshot()).toEqual(snapshot);
    expect(again.announced).toEqual([]);
  });

  it('a firing recorded but never announced (the app stopped in between) is announced at the next start, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(5_000);
    // The process dies while announcing: the firing is on disk, not yet delivered.
    const dying = start(dir, clock, {
      announce: () => {
        throw new Error('the process stopped here');
      },
    });
    dying.service.create(priceAlert, settings);
    dying.setBid(2_000n);
    expect(() => dying.setBid(3_100n)).toThrow('the process stopped here');
    const onDisk = readFileSync(join(dir, ALERTS_FILE), 'utf8');
    expect(onDisk).toContain('"delivered":false');

    const restarted = start(dir, clock);
    expect(restarted.announced).toHaveLength(1);
    expect(restarted.announced[0]?.text).toContain('bid crossed above 3000');
    expect(restarted.service.snapshot().firings[0]?.delivered).toBe(true);
    // Delivered now, so not again at the start after.
    expect(start(dir, clock).announced).toEqual([]);
  });

  it('a firing no one could take (no window, no desktop notifier) waits for the next window', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(0);
    let windows = 0;
    const announced: AlertFiringView[] = [];
    const terminal = start(dir, clock, {
      announce: (firing) => {
        announced.push(firing);
        return windows > 0;
      },
    });
    terminal.service.create({ kind: 'rejected' }, settings);
    terminal.service.onRejected('A signed request was refused (PRICE_BAND): "outside the band"');
    expect(terminal.service.snapshot().firings[0]?.delivered).toBe(false);
    windows = 1;
    terminal.service.deliverPending();
    expect(announced).toHaveLength(2);
    expect(terminal.service.snapshot().firings[0]?.delivered).toBe(true);
  });

  it('a repeating alert waits out its cool-down between firings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(0);
    const terminal = start(dir, clock);
    terminal.service.create({ kind: 'fill', marketId: null }, { ...settings, repeat: true, cooldownSeconds: 30 });
    terminal.service.onFill(MARKET, 'Order filled');
    clock.advance(29_000);
    terminal.service.onFill(MARKET, 'Order filled');
    clock.advance(1_000);
    terminal.service.onFill(MARKET, 'Order filled');
    expect(terminal.announced.map((firing) => firing.at)).toEqual([0, 30_000]);
    expect(terminal.service.snapshot().alerts[0]?.enabled).toBe(true);
  });

  it('keeps the intact lines of a damaged file and sets the file as found aside', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(7_000);
    const first = start(dir, clock);
    first.service.create(priceAlert, settings);
    first.service.create({ kind: 'stale', seconds: 10 }, settings);
    first.service.stop();
    const path = join(dir, ALERTS_FILE);
    const [line1, line2] = readFileSync(path, 'utf8').trim().split('\n');
    writeFileSync(path, `${line1}\n{"type":"alert","alert":{"id":"half\n${line2}\n`);
    const second = start(dir, clock);
    expect(second.service.snapshot().alerts.map((alert) => alert.condition.kind)).toEqual(['price', 'stale']);
    expect(second.logs.join('\n')).toMatch(/line\(s\) 2 could not be read and were dropped; the other 2 were kept/);
    expect(readdirSync(dir).some((name) => name.startsWith(`${ALERTS_FILE}.damaged-`))).toBe(true);
    second.service.stop();
  });

  it('edits and deletes, naming an unknown alert', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const terminal = start(dir, new ManualClock(0));
    const created = terminal.service.create(priceAlert, settings);
    if (!created.ok) throw new Error(created.message);
    expect(terminal.service.update(created.value.id, { cooldownSeconds: 90, note: 'breakout' })).toMatchObject({ ok: true, value: { cooldownSeconds: 90, note: 'breakout' } });
    expect(terminal.service.delete('alert-nope')).toMatchObject({ ok: false, code: 'UNKNOWN_ALERT', message: 'alertId: no alert alert-nope' });
    expect(terminal.service.delete(created.value.id)).toEqual({ ok: true, value: null });
    expect(terminal.service.snapshot().alerts).toEqual([]);
    expect(terminal.watches()).toBe(0);
  });
  it('reads an alert on the mid written before "mark" named it as the mark (the same price)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-alerts-'));
    const clock = new ManualClock(0);
    const first = start(dir, clock);
    first.service.create(priceAlert, settings);
    first.service.stop();
    const path = join(dir, ALERTS_FILE);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"source":"bid"', '"source":"mid"'));
    const second = start(dir, clock);
    expect(second.service.snapshot().alerts.map((alert) => alert.condition)).toEqual([{ ...priceAlert, source: 'mark' }]);
    expect(second.logs).toEqual([]);
    second.service.stop();
  });
});
