// Request handlers of the journal (the signed requests and their outcomes, and damage found on
// opening it); inputs were parsed by the dispatcher.
import { ok } from '../../../shared/result';
import type { CoreHandlers, HandlerContext } from '../handler-context';
import { damageView, journalView } from './journal-views';

export function journalHandlers(context: HandlerContext): CoreHandlers<'getJournal' | 'getJournalDamage' | 'acknowledgeJournalDamage'> {
  const journal = context.journal;
  return {
    getJournal: ({ limit, beforeSeq }) => ok(journal.list(limit, beforeSeq).map(journalView)),
    getJournalDamage: () => ok(damageView(journal.damage())),
    acknowledgeJournalDamage: ({ reportIds }) => {
      const open = journal.acknowledgeDamage(reportIds);
      return open.ok ? ok(damageView(open.value)) : open;
    },
  };
}
