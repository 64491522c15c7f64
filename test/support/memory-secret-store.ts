// An in-memory SecretStore for unit tests of services. The app itself never uses it: with no
// OS keychain it refuses to store keys.
import { ok } from '../../shared/result';
import type { SecretStore } from '../../main/services/keys/secret-store';

export class MemorySecretStore implements SecretStore {
  readonly description = 'test memory store';
  readonly entries = new Map<string, string>();
  set(account: string, secret: string) {
    this.entries.set(account, secret);
    return Promise.resolve(ok(undefined));
  }
  get(account: string) {
    return Promise.resolve(ok(this.entries.get(account) ?? null));
  }
  delete(account: string) {
    return Promise.resolve(ok(this.entries.delete(account)));
  }
  list() {
    return Promise.resolve(ok([...this.entries.keys()].sort()));
  }
}
