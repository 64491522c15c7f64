// The first-run message without an OS keychain: plain words and the exact commands of this OS.
import { describe, expect, it } from 'vitest';
import { keychainRemedy, osReleaseIds } from '../../../../main/platform/keychain-remedy';

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\n';
const MINT = 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n';

describe('keychainRemedy', () => {
  it('reads ID and ID_LIKE', () => {
    expect(osReleaseIds(MINT)).toEqual(['linuxmint', 'ubuntu', 'debian']);
  });

  it('gives Debian and its derivatives the apt-get command, then the D-Bus session recipe', () => {
    for (const release of [DEBIAN, UBUNTU, MINT]) {
      const remedy = keychainRemedy('linux', release, 'no D-Bus session');
      expect(remedy.commands[0]).toBe('sudo apt-get install gnome-keyring libsecret-1-0 dbus-user-session');
      expect(remedy.commands[1]).toMatch(/^dbus-run-session -- .*gnome-keyring-daemon --unlock --components=secrets.*exec npm start'$/);
      expect(remedy.explanation).toMatch(/^No OS keychain: .*Secret Service.*\(no D-Bus session\)/);
      expect(remedy.explanation).toMatch(/never written in plain text/);
      expect(remedy.explanation).toMatch(/watch-only owner .* works without a keychain/i);
    }
  });

  it('names the package manager of other distributions, and none it does not know', () => {
    expect(keychainRemedy('linux', FEDORA, 'x').commands[0]).toBe('sudo dnf install gnome-keyring libsecret');
    const unknown = keychainRemedy('linux', 'ID=plan9\n', 'x');
    expect(unknown.commands).toHaveLength(1);
    expect(unknown.explanation).toMatch(/with your package manager/);
    expect(keychainRemedy('linux', null, 'x').commands).toHaveLength(1);
  });

  it('points macOS and Windows at their built-in stores, with no command', () => {
    expect(keychainRemedy('darwin', null, 'denied')).toMatchObject({ commands: [] });
    expect(keychainRemedy('darwin', null, 'denied').explanation).toMatch(/macOS Keychain.*built into macOS.*Keychain Access/);
    expect(keychainRemedy('win32', null, 'denied').explanation).toMatch(/Windows Credential Manager.*built into Windows/);
  });
});
