// How journal entries and damage reports are shown to the windows (the journal panel and its banner).
import type { JournalDamageView, JournalEntryView } from '../../../shared/ipc/views/journal';
import type { DamageReport } from './journal-damage';
import type { JournalEntry } from './journal';

export function journalView(entry: JournalEntry): JournalEntryView {
  if (entry.kind === 'signed') {
    const nonce = entry.nonce.mode === 'none' ? null : entry.nonce.mode === 'sequential' ? `sequential ${entry.nonce.value}` : `lane ${entry.nonce.lane} · ${entry.nonce.value}`;
    return { seq: entry.seq, at: entry.at, id: entry.id, kind: 'signed', networkId: entry.networkId, endpoint: entry.endpoint, nonce, description: entry.description, status: null, detail: null, ...(entry.parent === undefined ? {} : { parent: entry.parent }) };
  }
  if (entry.kind === 'outcome') {
    const detail = entry.status === 'accepted' ? (entry.orderIds.length ? `orders ${entry.orderIds.join(', ')}` : (entry.txId ?? null)) : entry.message;
    return { seq: entry.seq, at: entry.at, id: entry.id, kind: 'outcome', networkId: null, endpoint: null, nonce: null, description: null, status: entry.status, detail };
  }
  return { seq: entry.seq, at: entry.at, id: entry.id, kind: 'reconciled', networkId: null, endpoint: null, nonce: null, description: null, status: entry.status, detail: entry.detail };
}

export function damageView(reports: readonly DamageReport[]): JournalDamageView {
  return { reports: reports.map((report) => ({ id: report.id, at: report.at, items: report.items })) };
}
