// Run inside a keyring session by keychain.test.ts: exercises the adapter against the real
// Secret Service and prints what happened as one JSON line.
import { openOsKeychain } from '../../../main/platform/keychain';

const service = process.argv[2] ?? 'ledger-terminal-test';
const opened = await openOsKeychain({ service });
if (!opened.ok) {
  console.log(JSON.stringify({ opened: false, code: opened.code, message: opened.message, commands: opened.details?.['commands'] ?? null }));
} else {
  const store = opened.value;
  const steps: Record<string, unknown> = { opened: true, description: store.description };
  steps.before = await store.get('owner-1');
  steps.set1 = await store.set('owner-1', 'secret-one');
  steps.set2 = await store.set('session-2', 'secret-two');
  steps.get = await store.get('owner-1');
  steps.list = await store.list();
  steps.badAccount = await store.set('bad account/with spaces', 'x');
  steps.delete = await store.delete('owner-1');
  steps.deleteAgain = await store.delete('owner-1');
  steps.after = await store.get('owner-1');
  steps.listAfter = await store.list();
  console.log(JSON.stringify(steps));
}
