// Partial close and reverse from the page: the confirmation states main's plan exactly (the share,
// its rounding to the size step, dust and its cleanup; a reverse's two orders and the position it
// ends with), and what is sent names the share and the size the confirmation stated.
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { PositionView } from '../../shared/ipc/views';
import { createTradingActions, signerText } from '../../renderer/src/features/trading/trading-actions';
import type { TerminalStore } from '../../renderer/src/stores/terminal-store';
import { ethUsdc, positionView } from '../support/renderer/fixtures';

const trading = `0x${'aa'.repeat(32)}`;

function harness(fresh?: readonly PositionView[]) {
  const asked: { title: string; lines: readonly string[] }[] = [];
  const sent: { method: string; input: unknown }[] = [];
  const notes: string[] = [];
  const report = { ok: true, value: { requested: 1, placed: [], failed: [], batches: 1 } };
  const api = {
    flattenPositions: (input: unknown) => (sent.push({ method: 'flattenPositions', input }), Promise.resolve(report)),
    reversePosition: (input: unknown) => (sent.push({ method: 'reversePosition', input }), Promise.resolve(report)),
    // Main's view read again when a close by limit is asked for; none here unless a test gives one.
    getPositions: () => Promise.resolve(fresh === undefined ? { ok: false, code: 'NOT_CONNECTED', message: 'not read' } : { ok: true, value: { positions: fresh, asOf: 0, problems: [] } }),
  } as unknown as TerminalApi;
  const store = { state: { settings: { confirmOrders: true }, account: { tradeAccount: { tradeAccountId: trading } }, openOrders: [] }, notify: (_tone: string, text: string) => notes.push(text) } as unknown as TerminalStore;
  let answer = true;
  const confirm = (title: string, lines: readonly string[]) => (asked.push({ title, lines }), Promise.resolve(answer));
  const actions = createTradingActions(api, store, confirm, { signer: (turbo) => signerText(turbo, trading, null) });
  return { asked, sent, notes, actions, refuse: () => (answer = false) };
}

describe('partial close from the page', () => {
  it('states the share, its rounding to the step and the position left, and sends the share with the stated size', async () => {
    const h = harness();
    const position = positionView({ size: 44_172_755n, mark: 3_000_000_000n, markSide: 'bid' });
    await h.actions.closePart(ethUsdc, position, 50);
    expect(h.asked[0]!.title).toBe('Close 50 % of ETH/USDC (Canonical book)');
    expect(h.asked[0]!.lines).toEqual([
      'Sell 0.022 ETH on ETH/USDC, Canonical book, at market, no worse than 1 % below the bid of 3,000.00 USDC',
      '50 % is 0.022086377 ETH, rounded down to 0.022 ETH (the 0.0001 ETH size step).',
      'Leaves a long of 0.022172755 ETH.',
      'Signed by Trading account 0xaaaa…aaaa; one signed batch.',
    ]);
    expect(h.sent).toEqual([{ method: 'flattenPositions', input: { positions: [{ marketId: ethUsdc.market_id, turbo: false, account: trading, quantity: 22_000_000n, percent: 50 }] } }]);
  });

  it('says plainly when what is left is dust no order can close, with its cleanup', async () => {
    const h = harness();
    await h.actions.closePart(ethUsdc, positionView({ size: 3_600_000n, mark: 3_000_000_000n, markSide: 'bid' }), 75);
    expect(h.asked[0]!.lines).toContain("Leaves 0.0009 ETH, below the market's dust threshold of 0.001 ETH: no order can close it; close 100 % instead to take it along.");
  });

  it('sends nothing for a share no order can close, saying why', async () => {
    const h = harness();
    await h.actions.closePart(ethUsdc, positionView({ size: 1_300_000n, mark: 3_000_000_000n, markSide: 'bid' }), 75);
    expect(h.asked).toEqual([]);
    expect(h.sent).toEqual([]);
    expect(h.notes[0]).toMatch(/^Close 75 % not sent: 75 % of 0\.0013 ETH is 0\.000975 ETH, below the market's dust threshold/);
  });
});

describe('reverse from the page', () => {
  it('states both orders and the position it ends with, in one signed batch, and sends the stated size', async () => {
    const h = harness();
    const position = positionView({ size: 50_000_000n, mark: 3_000_000_000n, markSide: 'bid' });
    await h.actions.reverse(ethUsdc, position);
    expect(h.asked[0]!.title).toBe('Reverse ETH/USDC (Canonical book)');
    expect(h.asked[0]!.lines).toEqual([
      'Sell 0.05 ETH on ETH/USDC, Canonical book, at market, no worse than 1 % below the bid of 3,000.00 USDC, to close the long',
      'then Sell 0.05 ETH more at the same bound, to open a short of the same size',
      'Ends with a short of 0.05 ETH once both fill in full.',
      'Signed by Trading account 0xaaaa…aaaa; one signed batch, both orders or neither.',
    ]);
    expect(h.sent).toEqual([{ method: 'reversePosition', input: { position: { marketId: ethUsdc.market_id, turbo: false, account: trading, quantity: 50_000_000n } } }]);
  });

  it("states a Turbo Account's reverse as one order of both sizes in one signed request, refused whole when frozen", async () => {
    const h = harness();
    const child = `0x${'cc'.repeat(32)}`;
    const position = positionView({ account: child, accountKind: 'turbo-account', turbo: true, size: 50_000_000n, mark: 3_000_000_000n, markSide: 'bid' });
    await h.actions.reverse(ethUsdc, position);
    expect(h.asked[0]!.title).toBe('Reverse ETH/USDC (Turbo book)');
    expect(h.asked[0]!.lines).toEqual([
      'Sell 0.1 ETH on ETH/USDC, Turbo book, at market, no worse than 1 % below the bid of 3,000.00 USDC: 0.05 ETH closes the long, 0.05 ETH opens a short of the same size',
      'One order in one signed request, with the funding the Turbo Account needs for the short (borrowing ETH): all of it or nothing; refused whole if the account is frozen or lacks the capacity (then Flatten alone still goes through).',
      'Ends with a short of 0.05 ETH once it fills in full.',
      'Signed by Turbo Account 0xcccc…cccc; one signed request, all or nothing.',
    ]);
    expect(h.sent).toEqual([{ method: 'reversePosition', input: { position: { marketId: ethUsdc.market_id, turbo: true, account: child, quantity: 50_000_000n } } }]);
  });

  it('sends nothing when not confirmed', async () => {
    const h = harness();
    h.refuse();
    await h.actions.reverse(ethUsdc, positionView({ size: 50_000_000n, mark: 3_000_000_000n, markSide: 'bid' }));
    expect(h.sent).toEqual([]);
  });
});

describe('close by limit from the page', () => {
  it('states the post-only order at the touch, that it rests and is capped only now, and sends the share, size and price stated', async () => {
    const h = harness();
    // A long of 0.044172755 ETH; the best ask (the touch a sell joins) is 3,000.50.
    const position = positionView({ size: 44_172_755n, mark: 3_000_000_000n, markSide: 'bid', limitTouch: 3_000_500_000n });
    await h.actions.closeByLimit(ethUsdc, position, 50);
    expect(h.asked[0]!.title).toBe('Close 50 % by limit of ETH/USDC (Canonical book)');
    expect(h.asked[0]!.lines).toEqual([
      'Sell 0.022 ETH on ETH/USDC, Canonical book, post-only at 3,000.50 USDC (the best ask, joining it)',
      'It rests until it fills: the position stays until then, and the order is refused if it would trade at once (the book moved).',
      'Main sizes it to your position now, less the orders already closing it; the venue has no reduce-only flag, so once resting it is not held to the position: cancel it if the position changes.',
      '50 % is 0.022086377 ETH, rounded down to 0.022 ETH (the 0.0001 ETH size step).',
      'Leaves a long of 0.022172755 ETH once filled.',
      'Signed by Trading account 0xaaaa…aaaa; one signed batch.',
    ]);
    expect(h.sent).toEqual([{ method: 'flattenPositions', input: { positions: [{ marketId: ethUsdc.market_id, turbo: false, account: trading, quantity: 22_000_000n, percent: 50, style: 'limit', price: 3_000_500_000n }] } }]);
  });

  it('states and sends the touch main reads now, not the one of the view on screen', async () => {
    const shown = positionView({ size: 44_172_755n, mark: 3_000_000_000n, markSide: 'bid', limitTouch: 3_003_000_000n });
    const h = harness([positionView({ size: 44_172_755n, mark: 3_000_000_000n, markSide: 'bid', limitTouch: 3_001_500_000n })]);
    await h.actions.closeByLimit(ethUsdc, shown, 50);
    expect(h.asked[0]!.lines[0]).toBe('Sell 0.022 ETH on ETH/USDC, Canonical book, post-only at 3,001.50 USDC (the best ask, joining it)');
    expect(h.sent).toEqual([{ method: 'flattenPositions', input: { positions: [{ marketId: ethUsdc.market_id, turbo: false, account: trading, quantity: 22_000_000n, percent: 50, style: 'limit', price: 3_001_500_000n }] } }]);
  });

  it('says the dust a full close by limit leaves, and sends nothing without a touch to join', async () => {
    const h = harness();
    // A short of 0.05 ETH joins the best bid; at 100 % the buy's fee in base leaves dust.
    await h.actions.closeByLimit(ethUsdc, positionView({ size: -50_000_000n, mark: 3_000_000_000n, markSide: 'ask', limitTouch: 2_999_000_000n }), 100);
    expect(h.asked[0]!.lines[0]).toBe('Buy 0.05 ETH on ETH/USDC, Canonical book, post-only at 2,999.00 USDC (the best bid, joining it)');
    expect(h.asked[0]!.lines.at(-2)).toMatch(/^Leaves 0\.\d+ ETH \(the buy's fee of 0\.\d+ ETH is paid in ETH\), below the 0\.0001 ETH size step: no order can close it\.$/);
    const empty = harness();
    await empty.actions.closeByLimit(ethUsdc, positionView({ size: 50_000_000n, mark: 3_000_000_000n, markSide: 'bid', limitTouch: null }), 50);
    expect(empty.asked).toEqual([]);
    expect(empty.sent).toEqual([]);
    expect(empty.notes[0]).toMatch(/^Close 50 % by limit not sent/);
  });
});
