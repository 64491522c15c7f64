// The Turbo depth overlay main reads for a ladder: both views read while watched, pushed as rows of
// the watched step; a failed read keeps the rows, marked stale with the reason; no read once
// nobody watches; a network switch empties the rows.
import { describe, expect, it } from 'vitest';
import { TurboDepthOverlay, type TurboDepthReader } from '../../../../../main/services/market-data/turbo-depth-overlay';
import { WindowHub } from '../../../../../main/services/window-hub';
import { ManualClock } from '../../../../../shared/clock';
import type { TurboDepthView } from '../../../../../shared/ipc/views';
import { fail, ok } from '../../../../../shared/result';

const MARKET = `0x${'a1'.repeat(32)}`;

describe('TurboDepthOverlay', () => {
  it('reads both views while watched, stale on a failed read, silent once unwatched, empty after a switch', async () => {
    const clock = new ManualClock(1_000_000);
    const windows = new WindowHub();
    const received: TurboDepthView[] = [];
    windows.attach('w1', { send: (stream, payload) => stream === 'turboDepth' && received.push(payload as TurboDepthView) });
    const asked: string[] = [];
    let failing = false;
    const reader: TurboDepthReader = {
      networkId: 'sandbox',
      depth: (marketId, view, step) => {
        asked.push(`${marketId}|${view}|${step}`);
        if (failing) return Promise.resolve(fail('TIMEOUT', 'no answer'));
        return Promise.resolve(ok(view === 'executable' ? { buys: [{ price: 2_995n, quantity: 4n }], sells: [{ price: 3_001n, quantity: 5n }] } : { buys: [{ price: 2_991n, quantity: 7n }], sells: [] }));
      },
    };
    const overlay = new TurboDepthOverlay(windows, clock, () => reader, 2_000);
    const flush = async (ms: number) => {
      clock.advance(ms);
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    expect(overlay.watch('w1', MARKET.toUpperCase().replace('0X', '0x'), 10n).state).toBe('resyncing');
    await flush(0);
    const live = received[received.length - 1]!;
    expect(live).toMatchObject({ state: 'live', marketId: MARKET, step: 10n });
    expect(live.rows).toEqual([
      { price: 3_010n, executableBid: 0n, executableAsk: 5n, demandBid: 0n, demandAsk: 0n },
      { price: 2_990n, executableBid: 4n, executableAsk: 0n, demandBid: 7n, demandAsk: 0n },
    ]);
    expect(asked).toEqual([`${MARKET}|executable|10`, `${MARKET}|demand|10`]);

    failing = true;
    await flush(2_000);
    expect(received[received.length - 1]).toMatchObject({ state: 'stale', problem: 'executable: no answer', rows: live.rows });

    overlay.networkChanged();
    expect(received[received.length - 1]).toMatchObject({ state: 'resyncing', rows: [] });

    overlay.unwatch('w1');
    const count = asked.length;
    await flush(10_000);
    expect(asked.length).toBe(count);
    overlay.close();
  });
});
