// Alerts across a restart of main: an alert still waiting for its level and a firing recorded with
// no one to take it (every window closed, no OS notifier) both survive. After the restart the
// firing is announced once, and the waiting alert is still armed and watched: when the sandbox's
// control surface trades the price through its level, it fires then.
import { afterAll, describe, expect, it } from 'vitest';
import type { AlertFiringView } from '../../../../../shared/ipc/views/alerts';
import { caller, startHarness, until, value, type Harness } from '../../../../support/terminal-harness';

describe('alerts across a restart of main', () => {
  const harnesses: Harness[] = [];

  afterAll(async () => {
    for (const harness of harnesses) await harness.stop().catch(() => undefined);
  });

  it('keeps a pending alert armed and announces an undelivered firing once', async () => {
    const first = await startHarness();
    harnesses.push(first);
    const h = first.terminal.handlers;
    const market = value(await h.listMarkets({}, caller)).markets[0];
    if (market === undefined) throw new Error('the sandbox lists no market');
    const tick = first.priceTick(market);
    const { ask } = await first.insidePrices(market);
    const high = ((ask * 110n) / 100n / tick) * tick;
    const low = ((ask * 95n) / 100n / tick) * tick;
    const pending = value(await h.createAlert({ condition: { kind: 'price', marketId: market.market_id, source: 'last', direction: 'above', price: high, hysteresis: tick }, repeat: false, cooldownSeconds: 0 }, caller));
    const firing = value(await h.createAlert({ condition: { kind: 'price', marketId: market.market_id, source: 'last', direction: 'below', price: low, hysteresis: tick }, repeat: false, cooldownSeconds: 0 }, caller));

    // No window, no OS notifier: the firing is recorded and waits.
    first.terminal.windows.detach(caller.windowId);
    await first.control('/control/markets/price', { market_id: market.market_id, price: (low - 5n * tick).toString() });
    await until(async () => value(await h.listAlerts({}, caller)).firings.find((entry) => entry.alertId === firing.id && !entry.delivered), 20_000, 'the firing recorded, undelivered');
    const before = value(await h.listAlerts({}, caller));
    expect(before.alerts.find((alert) => alert.id === pending.id)).toMatchObject({ enabled: true, lastFiredAt: null });
    await first.stop();
    harnesses.pop();

    const second = await startHarness({ dataDir: first.dataDir });
    harnesses.push(second);
    const announced = () => second.pushes.filter((push) => push.stream === 'alertFired').map((push) => push.payload as AlertFiringView);
    expect(announced().map((entry) => entry.alertId)).toEqual([firing.id]);
    const after = value(await second.terminal.handlers.listAlerts({}, caller));
    expect(after.alerts.map((alert) => [alert.id, alert.enabled])).toEqual([
      [pending.id, true],
      [firing.id, false],
    ]);
    expect(after.firings.filter((entry) => entry.alertId === firing.id)).toEqual([expect.objectContaining({ delivered: true })]);

    // The pending alert is watched again: the restarted sandbox's price goes through its level.
    const { ask: restartedAsk } = await second.insidePrices(market);
    if (restartedAsk >= high) await second.control('/control/markets/price', { market_id: market.market_id, price: (high - 20n * tick).toString() });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await second.control('/control/markets/price', { market_id: market.market_id, price: (high + 5n * tick).toString() });
    const fired = await until(() => announced().find((entry) => entry.alertId === pending.id), 20_000, 'the pending alert firing after the restart');
    expect(fired.text).toMatch(/last crossed above/);
    // The firing from before the restart was announced once only.
    expect(announced().filter((entry) => entry.alertId === firing.id)).toHaveLength(1);
  }, 150_000);
});
