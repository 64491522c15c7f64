// Writes a window's P&L display choices to main one after another: each patch is built from main's
// answer to the one before, so two quick choices (the mark, then the unit) do not overwrite each
// other with the record as it stood before either.
import type { Result } from '../../../../shared/result';
import type { Settings } from '../../../../shared/ipc/views';
import { pnlDisplayOf, type PnlDisplay } from '../../../../shared/positions/pnl-display';

export interface PnlDisplayWriter {
  choose(marketId: string, change: Partial<PnlDisplay>): Promise<void>;
}

export function createPnlDisplayWriter(
  saved: () => Readonly<Record<string, PnlDisplay>>,
  update: (patch: { pnlDisplay: Record<string, PnlDisplay> }) => Promise<Result<Settings>>,
  apply: (settings: Settings) => void,
): PnlDisplayWriter {
  let writing: Promise<void> = Promise.resolve();
  const write = async (marketId: string, change: Partial<PnlDisplay>) => {
    const current = saved();
    // One entry per market, whatever the case of the id it was saved under.
    const others = Object.fromEntries(Object.entries(current).filter(([id]) => id.toLowerCase() !== marketId.toLowerCase()));
    const result = await update({ pnlDisplay: { ...others, [marketId]: { ...pnlDisplayOf(current, marketId), ...change } } });
    if (result.ok) apply(result.value);
  };
  return {
    choose(marketId, change) {
      const next = writing.then(() => write(marketId, change));
      writing = next.catch(() => undefined);
      return next;
    },
  };
}
