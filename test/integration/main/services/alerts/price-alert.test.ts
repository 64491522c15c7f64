// A price alert against the real sandbox: main watches the market with no window open, the
// sandbox's control surface trades the price through the level, and main records the firing on
// disk. With no window and no OS notifier to take it, the firing stays pending; a restart of the
// terminal on the same data directory announces it (the notice and the alertFired stream) once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALERTS_FILE } from '../../../../../main/services/alerts/alert-store';
import type { AlertFiringView } from '../../../../../shared/ipc/views/alerts';
import type { Notice } from '../../../../../shared/ipc/views';
import type { FillNotice } from '../../../../../shared/ipc/views';
import { caller, startHarness, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

describe('a price alert evaluated in main', () => {
  const harnesses: Harness[] = [];

  afterAll(async () => {
    for (const harness of harnesses) await harness.stop().catch(() => undefined);
  });

  it('fires when the sandbox trades the last price through the level, with no window, and is announced after a restart', async () => {
    const first = await startHarness();
    harnesses.push(first);
    const h = first.terminal.handlers;
    const market = value(await h.listMarkets({}, caller)).markets[0];
    if (market === undefined) throw new Error('the sandbox lists no market');
    const tick = first.priceTick(market);
    const { ask } = await first.insidePrices(market);
    const level = ((ask * 110n) / 100n / tick) * tick;

    const created = value(await h.createAlert({ condition: { kind: 'price', marketId: market.market_id, source: 'last', direction: 'above', price: level, hysteresis: tick }, repeat: false, cooldownSeconds: 0, sound: true, note: '<b>breakout</b>' }, caller));
    expect(created.description).toContain(`last crosses above`);
    // Every window closes: main keeps watching on its own.
    first.terminal.windows.detach(caller.windowId);
    expect(first.terminal.hub.upstreamCount().trades).toBeGreaterThanOrEqual(1);

    // Below the level first (the alert arms once the price is seen on the near side), then through it.
    await first.control('/control/markets/price', { market_id: market.market_id, price: ((level * 95n) / 100n / tick * tick).toString() });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await first.control('/control/markets/price', { market_id: market.market_id, price: (level + 5n * tick).toString() });

    const path = join(first.dataDir, ALERTS_FILE);
    const firingLine = await until(() => readFileSync(path, 'utf8').split('\n').find((line) => line.includes('"type":"firing"')), 20_000, 'the firing on disk');
    expect(firingLine).toContain('"delivered":false');
    expect(firingLine).toContain('last crossed above');
    // The trader's note is shown as data: quoted, never as markup of the terminal's own.
    expect(firingLine).toContain('Note: \\"<b>breakout</b>\\"');
    await first.stop();
    harnesses.pop();

    const second = await startHarness({ dataDir: first.dataDir });
    harnesses.push(second);
    const fired = second.pushes.filter((push) => push.stream === 'alertFired').map((push) => push.payload as AlertFiringView);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.text).toMatch(/last crossed above .* \(now /);
    const notices = second.pushes.filter((push) => push.stream === 'notice').map((push) => push.payload as Notice);
    expect(notices.some((notice) => notice.code === 'ALERT_FIRED' && notice.text === fired[0]?.text)).toBe(true);
    const listed = value(await second.terminal.handlers.listAlerts({}, caller));
    expect(listed.firings[0]).toMatchObject({ delivered: true, alertId: created.id });
    // A one-shot alert turned itself off when it fired, and it is still listed after the restart.
    expect(listed.alerts[0]).toMatchObject({ id: created.id, enabled: false });
    // Announced once: not again when a window asks for the list.
    expect(second.pushes.filter((push) => push.stream === 'alertFired')).toHaveLength(1);
  }, 120_000);

  it('a fill alert fires on a fill of the account’s order, and a one-shot refusal alert stays quiet until the exchange refuses an order, then fires once', async () => {
    const { harness, market } = await startOnboarded();
    harnesses.push(harness);
    const h = harness.terminal.handlers;
    const fillAlert = value(await h.createAlert({ condition: { kind: 'fill', marketId: market.market_id }, repeat: true, cooldownSeconds: 0 }, caller));
    const refusalAlert = value(await h.createAlert({ condition: { kind: 'rejected' } }, caller));
    const since = harness.pushes.length;
    const inside = await harness.insidePrices(market);
    // A buy at the best ask takes from the maker at once.
    const orderId = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: inside.ask, quantity: harness.sizeFor(market, inside.ask) }, caller)).orders[0]!.orderId;
    await until(() => harness.pushes.slice(since).some((push) => push.stream === 'fill' && (push.payload as FillNotice).fill.orderId === orderId), 20_000, 'the fill');
    const fired = await until(
      () => {
        const list = harness.pushes.slice(since).filter((push) => push.stream === 'alertFired').map((push) => push.payload as AlertFiringView);
        return list.length > 0 ? list : null;
      },
      10_000,
      'the fill alert',
    );
    expect(fired.every((firing) => firing.alertId === fillAlert.id)).toBe(true);
    expect(fired[0]?.text).toMatch(/^Alert: Order filled on .+: Buy .+ at /);
    const listed = value(await h.listAlerts({}, caller));
    expect(listed.alerts.find((alert) => alert.id === refusalAlert.id)).toMatchObject({ enabled: true, lastFiredAt: null });
    expect(listed.alerts.find((alert) => alert.id === fillAlert.id)).toMatchObject({ enabled: true });

    // A sell 28 % above the market: inside main's price band, outside the exchange's window, so the exchange refuses it.
    const beforeRefusal = harness.pushes.length;
    const tick = harness.priceTick(market);
    const far = ((inside.bid * 128n) / 100n / tick) * tick;
    const refused = await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Spot' }, price: far, quantity: harness.sizeFor(market, far) }, caller);
    expect(refused.ok).toBe(false);
    const refusal = await until(() => harness.pushes.slice(beforeRefusal).filter((push) => push.stream === 'alertFired').map((push) => push.payload as AlertFiringView).find((payload) => payload.alertId === refusalAlert.id), 10_000, 'the refusal alert');
    // The exchange's words are shown quoted, as data.
    expect(refusal.text).toMatch(/^Alert: A signed request was (refused|reverted)( \(.+\))?(: ".*")?$/);
    expect(value(await h.listAlerts({}, caller)).alerts.find((alert) => alert.id === refusalAlert.id)).toMatchObject({ enabled: false });
  }, 120_000);
});
