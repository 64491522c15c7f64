// Two quick P&L display choices (the mark, then the unit) both stick: the second patch is built
// from main's answer to the first, not from the record as it stood before either.
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/ipc/views';
import { ok } from '../../shared/result';
import type { PnlDisplay } from '../../shared/positions/pnl-display';
import { createPnlDisplayWriter } from '../../renderer/src/features/positions/pnl-display-writer';

describe('P&L display writer', () => {
  it('writes quick choices one after another, each from the saved record main answered', async () => {
    let saved: Record<string, PnlDisplay> = {};
    const sent: Record<string, PnlDisplay>[] = [];
    // Main answers a moment later, as over the bridge.
    const update = async (patch: { pnlDisplay: Record<string, PnlDisplay> }) => {
      sent.push(patch.pnlDisplay);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return ok({ pnlDisplay: patch.pnlDisplay } as unknown as Settings);
    };
    const writer = createPnlDisplayWriter(() => saved, update, (settings) => (saved = { ...settings.pnlDisplay }));
    const first = writer.choose('0xAB', { mark: 'mid' });
    const second = writer.choose('0xab', { unit: 'ticks' });
    await Promise.all([first, second]);
    expect(sent).toEqual([{ '0xAB': { mark: 'mid', unit: 'percent' } }, { '0xab': { mark: 'mid', unit: 'ticks' } }]);
    expect(saved).toEqual({ '0xab': { mark: 'mid', unit: 'ticks' } });
  });
});
