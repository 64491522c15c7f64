// A margin alert against the real sandbox: a Turbo Account holding a long bought on credit, an
// alert on its distance to liquidation a little under where it is now, and every window closed
// (nothing else follows the account: it is not the Turbo Account Turbo books are traded as, and no
// risk panel is open). The sandbox's control surface walks the market down; the oracle follows the
// book, the account's value falls toward its threshold, and main, following the account itself,
// fires the alert once, with the distance the risk panel's own figures give, and signs nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { marginDistance } from '../../../../../main/services/alerts/alert-rules';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { AlertFiringView } from '../../../../../shared/ipc/views/alerts';
import { ACCEPTING_DIALOG, caller, startOnboarded, openTurboSession, turboSetup, until, value, type Harness } from '../../../../support/terminal-harness';

describe('a margin alert evaluated in main', () => {
  let harness: Harness | undefined;

  afterAll(async () => {
    await harness?.stop();
  });

  it('fires once when the market falls and the Turbo Account nears its liquidation threshold, with no window open', async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    harness = onboarded.harness;
    const h = harness.terminal.handlers;
    const { market, child } = await turboSetup(harness, onboarded.markets);
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    await openTurboSession(harness, child);

    // A long of about 70 % of what the account can buy, drawn from its credit line.
    const { ask } = await harness.insidePrices(market);
    const unit = harness.sizeFor(market, ask);
    const check = value(await h.checkTurboOrder({ marketId: market.market_id, side: 'Buy', orderKind: 'Market', price: ask, quantity: unit }, caller));
    const capacity = check.buyCapacity ?? 0n;
    const unitValue = (unit * ask) / 10n ** BigInt(market.base.decimals);
    const units = (capacity * 70n) / 100n / unitValue;
    expect(units).toBeGreaterThan(0n);
    const bought = value(await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: units * unit }, caller));
    expect(bought.orders[0]?.filled).toBeGreaterThan(0n);

    const tracker = () => harness!.terminal.runtime()!.margin.trackerOf(child as B256);
    const held = await until(() => {
      const frame = tracker()?.frame();
      const position = frame?.risk?.assets.find((asset) => asset.assetId === market.base.asset)?.position ?? 0n;
      return frame?.status === 'live' && frame.risk !== null && position > 0n ? frame.risk : null;
    }, 20_000, 'the risk of the Turbo Account with its long');
    const now = marginDistance(held, 'liquidation');
    expect(now.bps).toBeGreaterThan(0);
    // A level 15 % under the distance now: not below it yet.
    const belowBps = Math.floor((now.bps * 85) / 100);
    const alert = value(await h.createAlert({ condition: { kind: 'margin', marginAccountId: child, line: 'liquidation', belowBps }, repeat: false, cooldownSeconds: 0 }, caller));
    expect(alert.description).toMatch(/^Turbo Account 0x[0-9a-f]{8}…[0-9a-f]{4}: distance to liquidation below [\d.]+ %$/);

    // Nothing else follows the account now: Turbo books are traded as the trading account, and every window closes.
    value(await h.selectMarginAccount({ marginAccountId: null }, caller));
    const journalBefore = value(await h.getJournal({ limit: 200 }, caller)).filter((entry) => entry.kind === 'signed').length;
    harness.terminal.windows.detach(caller.windowId);
    const since = harness.pushes.length;
    const firings = () => harness!.terminal.handlers.listAlerts({}, caller);
    expect(harness.pushes.slice(since).filter((push) => push.stream === 'alertFired')).toHaveLength(0);

    // The market walks down 3 % at a time until the distance is under the level (a quarter down at most).
    const tick = harness.priceTick(market);
    let fired: AlertFiringView | undefined;
    for (let step = 1n; step <= 8n && fired === undefined; step++) {
      const price = ((ask * (100n - 3n * step)) / 100n / tick) * tick;
      await harness.control('/control/markets/price', { market_id: market.market_id, price: price.toString() });
      fired = await until(async () => value(await firings()).firings.find((firing) => firing.alertId === alert.id), 6_000, 'the margin alert').catch(() => undefined);
    }
    expect(fired?.text).toMatch(/^Alert: Turbo Account 0x[0-9a-f]{8}…[0-9a-f]{4} is -?[\d.]+ % from liquidation \(below [\d.]+ %\): value [\d,.]+ \w+, threshold [\d,.]+ \w+$/);
    const shown = Number(/ is (-?[\d.]+) %/.exec(fired?.text ?? '')?.[1]);
    expect(shown * 100).toBeLessThan(belowBps);
    // The firing was recorded while no window was open; a window opening takes it.
    const listed = value(await firings());
    expect(listed.alerts.find((candidate) => candidate.id === alert.id)).toMatchObject({ enabled: false });
    expect(listed.firings.filter((firing) => firing.alertId === alert.id)).toHaveLength(1);
    // The alert signed nothing: the journal has no new signed request.
    expect(value(await h.getJournal({ limit: 200 }, caller)).filter((entry) => entry.kind === 'signed')).toHaveLength(journalBefore);
  }, 180_000);
});
