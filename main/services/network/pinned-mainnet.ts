// Mainnet's endpoints and chain id, compiled into main. The exchange's specification does not
// publish them (it names only `{base_url}`), so this source tree ships none: a release build pins
// them from the reviewed file build/networks.release.json or from build variables, and
// electron-vite's `define` writes them into main's bundle as __LT_PINNED_MAINNET__ (README
// "Packaging"; build/pinned-networks.ts). Nothing reads them at run time: not the renderer
// (configureNetwork refuses mainnet), not the installed app's environment, not a settings file.
// Without them mainnet cannot be selected (NETWORK_NOT_PINNED). Run from source (tests, the
// browser host under tsx) the name is not defined, and mainnet is not pinned.
import { BugError } from '../../../shared/result';
import { parsePinnedMainnet, type PinnedEndpoints } from './pinned-endpoints';

declare const __LT_PINNED_MAINNET__: unknown;

function compiled(): PinnedEndpoints | null {
  const value: unknown = typeof __LT_PINNED_MAINNET__ === 'undefined' ? null : __LT_PINNED_MAINNET__;
  const parsed = parsePinnedMainnet(value, 'the mainnet compiled into main');
  // The build parsed the same value with the same rules: a refusal here is a bug of the build.
  if (!parsed.ok) throw new BugError(parsed.message);
  return parsed.value;
}

export const PINNED_MAINNET: PinnedEndpoints | null = compiled();
