// The OS keychain over @napi-rs/keyring (keytar's maintained successor). On Linux the entry is
// pinned to the Secret Service: the library's default silently falls back to the kernel keyring,
// which forgets every key at reboot, so a trader would lose keys without warning. When no secure
// store answers, opening fails with a reason and nothing is stored anywhere else.
import { AsyncEntry, findCredentialsAsync, type EntryOptions } from '@napi-rs/keyring';
import { readFileSync } from 'node:fs';
import { fail, ok, type Result } from '../../shared/result';
import { keychainRemedy } from './keychain-remedy';
import { KEYCHAIN_FAILURE, KEYCHAIN_UNAVAILABLE, type SecretStore } from '../services/keys/secret-store';

const PROBE_ACCOUNT = '__availability_probe__';
const ACCOUNT_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function storeName(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'macOS Keychain';
    case 'win32':
      return 'Windows Credential Manager';
    default:
      return 'Secret Service';
  }
}

function readOsRelease(): string | null {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return null;
  }
}

export interface OsKeychainOptions {
  /** The service name every entry is filed under. */
  readonly service: string;
  readonly platform?: NodeJS.Platform;
  /** /etc/os-release's text (tests); read from the file otherwise. */
  readonly osRelease?: string;
}

/** Open the OS keychain, or explain why there is none. */
export async function openOsKeychain(options: OsKeychainOptions): Promise<Result<SecretStore>> {
  const platform = options.platform ?? process.platform;
  const entryOptions: EntryOptions = platform === 'linux' ? { linux: { store: 'secret-service' } } : {};
  const entry = (account: string) => new AsyncEntry(options.service, account, entryOptions);
  try {
    // Reading a missing entry answers null when the store works, and throws when it does not.
    await entry(PROBE_ACCOUNT).getPassword();
  } catch (error) {
    // Plain words and the exact commands for this OS (main/platform/keychain-remedy.ts).
    const remedy = keychainRemedy(platform, platform === 'linux' ? (options.osRelease ?? readOsRelease()) : null, describeError(error));
    return fail(KEYCHAIN_UNAVAILABLE, remedy.explanation, { commands: remedy.commands.join('\n') });
  }

  const checkAccount = (account: string): Result<void> =>
    ACCOUNT_PATTERN.test(account) && account !== PROBE_ACCOUNT
      ? ok(undefined)
      : fail('INVALID_INPUT', `keychain account: expected 1-128 letters, digits or ._:-, got ${JSON.stringify(account).slice(0, 60)}`);

  const guard = async <T>(what: string, account: string, action: () => Promise<T>): Promise<Result<T>> => {
    const valid = checkAccount(account);
    if (!valid.ok) return valid;
    try {
      return ok(await action());
    } catch (error) {
      return fail(KEYCHAIN_FAILURE, `Could not ${what} ${account} in the ${storeName(platform)}: ${describeError(error)}`);
    }
  };

  const store: SecretStore = {
    description: platform === 'linux' ? 'Secret Service' : storeName(platform),
    set: (account, secret) =>
      guard('store', account, async () => {
        await entry(account).setPassword(secret);
      }),
    get: (account) => guard('read', account, () => entry(account).getPassword()),
    delete: (account) => guard('delete', account, () => entry(account).deleteCredential()),
    list: async () => {
      try {
        const found = await findCredentialsAsync(options.service);
        return ok(found.map((credential) => credential.account).filter((account) => account !== PROBE_ACCOUNT).sort());
      } catch (error) {
        return fail(KEYCHAIN_FAILURE, `Could not list the keys in the ${storeName(platform)}: ${describeError(error)}`);
      }
    },
  };
  return ok(store);
}
