import { describe, expect, it } from 'vitest';
import { cancelReportText, sweepAccount, type SweepDeps } from '../../../../../main/services/trading/cancel-sweep';
import type { ActiveOrdersResponse } from '../../../../../shared/api/market-schemas';
import { b256, type B256 } from '../../../../../shared/encoding/b256';
import { ethUsdcSixDecimals } from '../../../../support/shared/market/fixtures';
import type { ActionGroup } from '../../../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../../../shared/result';

const id = (byte: string) => b256(`0x${byte.repeat(32)}`);
const eth = ethUsdcSixDecimals;
const account = id('77');
const leg = (legId: B256, parent: B256 | null = null) => ({ order_id: legId, side: 'Sell' as const, trigger_price: 2_800_000_000n, ...(parent === null ? {} : { parent_order_id: parent }) });
const orderEntry = (orderId: B256, legs: B256[] = []) => ({ kind: 'order' as const, order_id: orderId, triggers: legs.map((legId) => leg(legId, orderId)) });
const triggerEntry = (legId: B256) => ({ kind: 'trigger' as const, ...leg(legId) });

/** A fake exchange: reads answer from `pages` in turn (the last repeats); each batch answers from `answers` in turn. */
function deps(pages: ActiveOrdersResponse['entries'][], answers: Result<unknown>[]): SweepDeps & { sent: ActionGroup[][] } {
  const sent: ActionGroup[][] = [];
  let read = 0;
  let answered = 0;
  return {
    sent,
    account,
    books: [{ market: eth, turbo: false }],
    rest: { getActiveOrders: () => Promise.resolve(ok({ entries: pages[Math.min(read++, pages.length - 1)]! })) } as unknown as SweepDeps['rest'],
    submit: (batch) => {
      sent.push(batch.groups);
      return Promise.resolve(answers[Math.min(answered++, answers.length - 1)]!);
    },
  };
}

const kinds = (groups: ActionGroup[]) => groups.flatMap((group) => group.actions.map((action) => `${action.kind}:${'order_id' in action ? action.order_id.slice(2, 4) : ''}`));

describe('cancel sweep (kill switch, cancel all)', () => {
  it('cancels orders and standalone legs, five to a batch; a leg bound to a cancelled order goes with it and is not cancelled on its own', async () => {
    const fake = deps([[orderEntry(id('01'), [id('b1'), id('b2')]), triggerEntry(id('51')), triggerEntry(id('52')), triggerEntry(id('53')), triggerEntry(id('54')), triggerEntry(id('55'))]], [ok(null)]);
    const report = await sweepAccount(fake);
    expect(fake.sent.map(kinds)).toEqual([
      ['CancelTriggerOrder:51', 'CancelTriggerOrder:52', 'CancelTriggerOrder:53', 'CancelTriggerOrder:54', 'CancelTriggerOrder:55'],
      ['CancelOrder:01'],
    ]);
    expect(report).toMatchObject({ requested: 1, cancelled: [id('01')], failed: [], triggersRequested: 7, triggersFailed: [], batches: 2 });
    expect([...report.triggersCancelled].sort()).toEqual([id('51'), id('52'), id('53'), id('54'), id('55'), id('b1'), id('b2')].sort());
    expect(cancelReportText(report, () => 'ETH/USDC')).toBe('Cancelled 1 of 1 open order and 7 of 7 pending trigger legs in 2 signed batches');
  });

  it('a batch that reverts (a leg fired meanwhile) is read again and what is still there sent again', async () => {
    const fake = deps([[orderEntry(id('01')), triggerEntry(id('51'))], [orderEntry(id('01'))], []], [fail('ONCHAIN_REVERT', 'OrderNotFound: trigger 0x51… is no longer pending (fired)'), ok(null)]);
    const report = await sweepAccount(fake);
    expect(fake.sent.map(kinds)).toEqual([['CancelTriggerOrder:51', 'CancelOrder:01'], ['CancelOrder:01']]);
    expect(report.cancelled).toEqual([id('01')]);
    expect(report.triggersFailed).toEqual([{ orderId: id('51'), description: 'Sell trigger leg at 2800 USDC on ETH/USDC', reason: 'it fired or was cancelled by the exchange before its cancel landed' }]);
  });

  it('a refusal that is not a revert names each order and leg of the batch, and the legs of its orders; a book not read is named', async () => {
    const fake = deps([[orderEntry(id('01'), [id('b1')]), triggerEntry(id('51'))]], [fail('RATE_LIMITED', 'the session actions budget is spent')]);
    const rest = { getActiveOrders: (query: { turbo?: boolean }) => Promise.resolve(query.turbo ? fail('NETWORK', 'timed out') : ok({ entries: [orderEntry(id('01'), [id('b1')]), triggerEntry(id('51'))] })) } as unknown as SweepDeps['rest'];
    const report = await sweepAccount({ ...fake, rest, books: [{ market: eth, turbo: false }, { market: eth, turbo: true }] });
    expect(report.cancelled).toEqual([]);
    expect(report.failed.map((failure) => failure.reason)).toEqual(['the session actions budget is spent']);
    expect(report.triggersFailed.map((failure) => [failure.orderId, failure.reason])).toEqual([
      [id('51'), 'the session actions budget is spent'],
      [id('b1'), 'its order could not be cancelled: the session actions budget is spent'],
    ]);
    expect(report.unread).toEqual([{ marketId: eth.market_id, turbo: true, account, reason: 'timed out' }]);
    expect(cancelReportText(report, (_, turbo) => `ETH/USDC${turbo ? ' (Turbo book)' : ''}`)).toContain('not read, so not known: ETH/USDC (Turbo book)');
  });
});
