// Every margin and Turbo action's outcome reaches the notification centre, as trading actions'
// do (trading-actions.ts): a success with what the exchange did and the journal entries it made,
// a refusal or a revert as the trader sentence of shared/errors/trader-text.ts with the raw code
// and text behind "Details". The form that acted shows the same outcome in place.
import { REVERT_SENTENCES, revertSentence } from '../../../../shared/errors/trader-text';
import type { MarginActionReceipt } from '../../../../shared/ipc/views/margin';
import type { Result } from '../../../../shared/result';
import type { TerminalStore } from '../../stores/terminal-store';
import { notifyFailure } from '../notices/failure-notice';

/**
 * Main writes its margin refusals "field: what is wrong" ("returnQuoteFirst: …"), or "Reason: figures"
 * after the protocol's revert reason ("OutstandingAboveCreditLine: drawing …"): the trader reads the
 * field as a label, and the reason as its sentence with main's figures after it.
 */
export function marginSentence(text: string): string {
  const reason = /^([A-Z][a-zA-Z]+): (.*)$/s.exec(text);
  if (reason && Object.hasOwn(REVERT_SENTENCES, reason[1]!)) {
    const rest = reason[2]!;
    return `${revertSentence(reason[1]!)} (${rest})`;
  }
  const labelled = /^([a-z][a-zA-Z]*): (.*)$/s.exec(text);
  if (!labelled) return text;
  const field = labelled[1]!.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${field[0]!.toUpperCase()}${field.slice(1)}: ${labelled[2]!}`;
}

/** One notice for the outcome of the margin action named `action` ("Draw quote", "Close the session"). */
export function notifyMarginOutcome(store: TerminalStore, action: string, result: Result<Pick<MarginActionReceipt, 'description' | 'notes' | 'journalIds'>>): void {
  if (!result.ok) {
    notifyFailure(store, `${action} refused`, { ...result, message: marginSentence(result.message) });
    return;
  }
  const notes = result.value.notes.length > 0 ? ` ${result.value.notes.join(' ')}` : '';
  const text = `${result.value.description}.${notes}`.replace(/\.\./g, '.');
  // Account ids read short in the notice; the full text stays behind Details.
  const journal = result.value.journalIds.length > 0 ? `\nJournal: ${result.value.journalIds.join(', ')}` : '';
  store.notify('info', text.replace(/0x([0-9a-f]{4})[0-9a-f]{56}([0-9a-f]{4})/g, '0x$1…$2'), { title: action, details: `${text}${journal}` });
}
