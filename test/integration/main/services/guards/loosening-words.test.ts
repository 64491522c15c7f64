// What the trusted confirmation says when a guard is loosened, as main builds it from the network's
// markets: a cap in the market's formatting (price or size precision, thousands separators, the
// asset's symbol, the raw units beside it) and a daily loss limit named by its asset's symbol, never
// by the asset's id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { ok } from '../../../../../shared/result';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../../../main/services/confirm/trusted-confirmer';
import { caller, startOnboarded, value, type Harness } from '../../../../support/terminal-harness';

describe('the loosening confirmation’s words', () => {
  let harness: Harness;
  let market: Market;
  const asked: ConfirmationRequest[] = [];
  const recording: TrustedConfirmer = {
    surface: 'dialog',
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve(ok(undefined));
    },
  };

  beforeAll(async () => {
    ({ harness, market } = await startOnboarded({ confirmer: recording }));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('names caps and limits in the market’s formatting and the asset’s symbol', async () => {
    const h = harness.terminal.handlers;
    const quote = 10n ** BigInt(market.quote.decimals);
    const base = 10n ** BigInt(market.base.decimals);
    value(await h.updateSettings({ maxOrderNotional: { [market.market_id]: 1_500n * quote }, maxPosition: { [market.market_id]: 2n * base }, dailyLossLimit: { [market.quote.asset]: 500n * quote } }, caller));
    expect(asked).toEqual([]);
    value(await h.updateSettings({ maxOrderNotional: { [market.market_id]: 12_345n * quote }, maxPosition: {}, dailyLossLimit: {} }, caller));
    const lines = asked.at(-1)!.lines.map((line) => line.text);
    const pair = `${market.base.symbol}/${market.quote.symbol}`;
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Maximum order notional on ${pair} \\(0x[0-9a-f]{64}\\): 1,500\\.00+ ${market.quote.symbol} \\(${1_500n * quote} raw units\\) → 12,345\\.00+ ${market.quote.symbol} \\(${12_345n * quote} raw units\\)$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Maximum position on ${pair} \\(0x[0-9a-f]{64}\\): 2\\.0+ ${market.base.symbol} \\(${2n * base} raw units\\) → no limit$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Daily loss limit in ${market.quote.symbol}: 500\\.0+ ${market.quote.symbol} \\(${500n * quote} raw units\\) → no limit$`)));
    expect(lines.join('\n')).not.toContain(market.quote.asset);
  }, 60_000);
});
