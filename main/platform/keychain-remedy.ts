// What to tell a trader whose machine has no OS keychain the terminal can use, in plain words,
// with the exact commands that fix it on this OS (pure: the platform and /etc/os-release are
// parameters). macOS and Windows always have theirs (Keychain, Credential Manager); on Linux the
// terminal needs a Secret Service on the D-Bus session bus, which a desktop session starts and a
// bare server or container does not.

export interface KeychainRemedy {
  /** Plain words: what is missing and what it means for the trader. */
  readonly explanation: string;
  /** The exact commands, in order, for this OS (empty when it is not a command away). */
  readonly commands: readonly string[];
}

/** ID and ID_LIKE of /etc/os-release, lowercased. */
export function osReleaseIds(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^(ID|ID_LIKE)=(.*)$/.exec(line.trim());
    if (match) ids.push(...match[2]!.replace(/^["']|["']$/g, '').toLowerCase().split(/\s+/).filter(Boolean));
  }
  return ids;
}

function installCommand(ids: readonly string[]): string | null {
  const has = (...names: string[]) => names.some((name) => ids.includes(name));
  if (has('debian', 'ubuntu')) return 'sudo apt-get install gnome-keyring libsecret-1-0 dbus-user-session';
  if (has('fedora', 'rhel', 'centos')) return 'sudo dnf install gnome-keyring libsecret';
  if (has('arch')) return 'sudo pacman -S gnome-keyring libsecret';
  if (has('opensuse', 'suse')) return 'sudo zypper install gnome-keyring libsecret-1-0';
  if (has('alpine')) return 'sudo apk add gnome-keyring libsecret dbus';
  return null;
}

const WATCH_ONLY = 'A watch-only owner (its key stays offline) works without a keychain: markets, balances, orders and positions are shown; trading needs the keychain for the session key.';

export function keychainRemedy(platform: string, osRelease: string | null, reason: string): KeychainRemedy {
  if (platform === 'darwin') {
    return {
      explanation: `The macOS Keychain did not answer (${reason}). It is built into macOS: open Keychain Access, make sure the login keychain is unlocked, and allow Ledger Terminal when macOS asks. ${WATCH_ONLY}`,
      commands: [],
    };
  }
  if (platform === 'win32') {
    return {
      explanation: `The Windows Credential Manager did not answer (${reason}). It is built into Windows: sign in to your own Windows account (not a temporary profile) and start the terminal again. ${WATCH_ONLY}`,
      commands: [],
    };
  }
  const ids = osReleaseIds(osRelease ?? '');
  const install = installCommand(ids);
  const commands = [
    ...(install ? [install] : []),
    // In a desktop session the keyring starts and unlocks at login; without one (SSH, a container),
    // run the terminal inside a D-Bus session with the keyring unlocked:
    'dbus-run-session -- sh -c \'read -rs -p "Keyring password: " pw; echo; printf %s "$pw" | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec npm start\'',
  ];
  return {
    explanation:
      `No OS keychain: the terminal keeps keys only in the Secret Service (GNOME Keyring or KWallet) on the D-Bus session bus, and none answered (${reason}). ` +
      `Keys are never written in plain text, so no owner or session key can be stored until one runs. ` +
      `${install ? 'Install GNOME Keyring' : 'Install GNOME Keyring (or KWallet) with your package manager'}, then log out and back in: a desktop session starts and unlocks it at login. ` +
      `Without a desktop session (SSH, a container) start the terminal inside a D-Bus session with the keyring unlocked, as in the last command. ${WATCH_ONLY}`,
    commands,
  };
}
