// Every margin action's outcome reaches the notification centre: a success with what was done, a
// refusal and a revert as trader sentences (never a raw code first), the raw text behind Details.
import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/ipc/contract';
import { fail, ok } from '../../shared/result';
import { createTerminalStore } from '../../renderer/src/stores/terminal-store';
import { marginSentence, notifyMarginOutcome } from '../../renderer/src/features/margin/margin-notices';

const api = new Proxy({} as TerminalApi, {
  get: (_target, name: string) => (name.startsWith('on') ? () => () => undefined : () => Promise.resolve(fail('NOT_READY', 'not yet'))),
});

describe('margin outcomes in the notification centre', () => {
  it('notifies a success, a refusal and a revert', () => {
    createRoot((dispose) => {
      const store = createTerminalStore(api, () => 1_000);
      const id = `0x1234${'0'.repeat(56)}abcd`;
      notifyMarginOutcome(store, 'Draw quote', ok({ description: `Draw 50 USDC on margin account ${id}`, notes: ['Outstanding is now 50 USDC.'], journalIds: ['j1'], txIds: [] }));
      notifyMarginOutcome(store, 'Draw quote', fail('MARGIN_ABOVE_LIMIT', 'amount: 99,999,999,999 USDC is above the drawable 1,500 USDC', { field: 'amount' }));
      notifyMarginOutcome(store, 'Repay in kind', fail('ONCHAIN_REVERT', 'reverted', { reason: 'RepayExceedsDebt' }));
      const [success, refusal, revert] = store.state.notices;
      expect(success).toMatchObject({ level: 'info', title: 'Draw quote', text: 'Draw 50 USDC on margin account 0x1234…abcd. Outstanding is now 50 USDC.' });
      expect(success!.details).toContain(id);
      expect(refusal).toMatchObject({ level: 'error', title: 'Draw quote refused', text: 'Amount: 99,999,999,999 USDC is above the drawable 1,500 USDC', code: 'MARGIN_ABOVE_LIMIT' });
      expect(refusal!.details).toContain('MARGIN_ABOVE_LIMIT');
      expect(revert).toMatchObject({ level: 'error', title: 'Repay in kind refused', text: 'The repayment is more than the debt: repay at most what is owed.' });
      expect(revert!.details).toContain('RepayExceedsDebt');
      for (const notice of [refusal!, revert!]) expect(notice.text).not.toMatch(/MARGIN_|ONCHAIN_REVERT|INVALID_AMOUNT/);
      dispose();
    });
  });

  it('reads main\'s "field: reason" as a labelled sentence', () => {
    expect(marginSentence('returnQuoteFirst: 5 USDC is above the returnable quote')).toBe('Return quote first: 5 USDC is above the returnable quote');
    expect(marginSentence('The pool is paused.')).toBe('The pool is paused.');
    expect(marginSentence('OutstandingAboveCreditLine: drawing 10,000 USDC would leave outstanding 10,000 USDC above the credit line L of 2,000 USDC')).toBe(
      'This would take the Turbo Account above its credit line: reduce the size or add collateral. (drawing 10,000 USDC would leave outstanding 10,000 USDC above the credit line L of 2,000 USDC)',
    );
  });
});
