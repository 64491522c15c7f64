// The window's arming: one state for ladder clicks and the buy/sell hotkeys, for
// one market and book, dropped when the network or the account changes and when another window
// uses the kill switch.
import { createRoot, createSignal } from 'solid-js';
import { describe, expect, it } from 'vitest';
import { armingEnvironment, createArming } from '../../renderer/src/stores/arming-store';

const eth = { marketId: `0x${'a1'.repeat(32)}`, turbo: false };
const ethTurbo = { ...eth, turbo: true };

describe('arming', () => {
  it('is armed for exactly the market and book it was armed for', () => {
    createRoot((dispose) => {
      const arming = createArming(() => 'net|owner|account', null);
      expect(arming.armed(eth)).toBe(false);
      arming.arm(eth);
      expect(arming.armed(eth)).toBe(true);
      expect(arming.armed(ethTurbo)).toBe(false);
      arming.disarm('disarmed on the ladder');
      expect(arming.armed(eth)).toBe(false);
      expect(arming.lastDisarm()).toBe('disarmed on the ladder');
      arming.dispose();
      dispose();
    });
  });

  it('drops on a network or account change, and coming back does not re-arm', async () => {
    const [environment, setEnvironment] = createSignal('sandbox|owner|account');
    const arming = createRoot(() => createArming(environment, null));
    arming.arm(eth);
    setEnvironment('mainnet|owner|account');
    await Promise.resolve();
    expect(arming.armed(eth)).toBe(false);
    expect(arming.lastDisarm()).toMatch(/network or the account/);
    setEnvironment('sandbox|owner|account');
    await Promise.resolve();
    expect(arming.armed(eth)).toBe(false);
    arming.dispose();
  });

  it('drops in every window when one uses the kill switch', async () => {
    const first = new BroadcastChannel('arming-test');
    const second = new BroadcastChannel('arming-test');
    const here = createRoot(() => createArming(() => 'e', first));
    const there = createRoot(() => createArming(() => 'e', second));
    here.arm(eth);
    there.arm(eth);
    here.disarm('the kill switch was used', true);
    expect(here.armed(eth)).toBe(false);
    for (let wait = 0; wait < 50 && there.armed(eth); wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(there.armed(eth)).toBe(false);
    expect(there.lastDisarm()).toBe('the kill switch was used');
    here.dispose();
    there.dispose();
  });

  it('keys the environment on network and account', () => {
    const base = { connection: { networkId: 'sandbox' }, account: { networkId: 'sandbox', activeOwner: { address: '0x1' }, tradeAccount: { tradeAccountId: '0x2' } } };
    expect(armingEnvironment(base)).not.toBe(armingEnvironment({ ...base, account: { ...base.account, tradeAccount: { tradeAccountId: '0x3' } } }));
    expect(armingEnvironment(base)).not.toBe(armingEnvironment({ ...base, connection: { networkId: 'mainnet' } }));
  });
});
