// Packaging: `npx electron-builder --config build/electron-builder.config.ts [--linux|--mac|--win]`
// after `npm run build` (electron-vite writes out/). electron-builder loads this TypeScript file
// itself (through jiti). Artifacts go to release/ (git-ignored). test/unit/build checks this file:
// every fuse, target and icon, and that only out/ and package.json are packaged.
import type { Configuration } from 'app-builder-lib';

/**
 * Never packaged, wherever they appear: the offline signer's keystores and passphrase files,
 * environment files, private keys and certificates. The app never needs them at run time; a
 * developer's test keystore lying in out/ must not ship to every user.
 */
export const SECRET_EXCLUSIONS = [
  '!**/*.keystore.json',
  '!**/keystore*.json',
  '!**/*.keystore',
  '!**/*passphrase*.txt',
  '!**/*.passphrase',
  '!**/.env',
  '!**/.env.*',
  '!**/*.pem',
  '!**/*.key',
  '!**/*.p12',
  '!**/*.pfx',
] as const;

const config: Configuration = {
  appId: 'io.ledgerterminal.app',
  productName: 'Ledger Terminal',
  copyright: 'Copyright © Ledger Terminal contributors',
  directories: { output: 'release', buildResources: 'build' },
  // Only the built app: electron-vite's bundles and package.json (electron-builder adds the
  // production dependencies itself). Sources, tests, docs and build scripts never ship.
  files: ['out/**/*', 'package.json', '!out/**/*.map', ...SECRET_EXCLUSIONS],
  asar: true,
  // The keychain binding is a native module; it must sit outside the archive to be loaded.
  asarUnpack: ['**/*.node'],
  // Prebuilt binaries come per platform from npm; never compile on the packaging machine.
  npmRebuild: false,
  // Publishing is a separate, deliberate step.
  publish: null,
  artifactName: '${productName}-${version}-${os}-${arch}.${ext}',
  electronFuses: {
    // ELECTRON_RUN_AS_NODE would turn the signed binary into a plain Node for any caller. The
    // sandbox runs through utilityProcess.fork, which does not need it.
    runAsNode: false,
    // NODE_OPTIONS (--require, --inspect) would let the environment inject code into main.
    enableNodeOptionsEnvironmentVariable: false,
    // --inspect / SIGUSR1 would open a debugger into the process that holds the keys.
    enableNodeCliInspectArguments: false,
    // The app archive must match the hash embedded in the binary (macOS, Windows).
    enableEmbeddedAsarIntegrityValidation: true,
    // Only app.asar is loaded, never an unchecked app/ folder placed beside it.
    onlyLoadAppFromAsar: true,
    enableCookieEncryption: true,
    // Pages come from the app's own protocol, never file://.
    grantFileProtocolExtraPrivileges: false,
    loadBrowserProcessSpecificV8Snapshot: false,
  },
  linux: {
    target: ['AppImage', 'deb'],
    // A directory of NxN.png files.
    icon: 'build/icons',
    category: 'Office',
    executableName: 'ledger-terminal',
    synopsis: 'Trading terminal for an order-book exchange that settles on a ledger',
    maintainer: 'Ledger Terminal maintainers <dev@ledger-terminal.invalid>',
  },
  mac: {
    target: ['dmg'],
    icon: 'build/icons/512x512.png',
    category: 'public.app-category.finance',
    hardenedRuntime: true,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
    gatekeeperAssess: false,
  },
  win: {
    target: ['nsis'],
    icon: 'build/icon.ico',
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
  },
};

export default config;
