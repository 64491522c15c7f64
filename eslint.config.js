// Lint rules, including the import boundaries of docs/architecture.md:
// - shared/ is platform-free: no electron, no ws, no node:* modules, no DOM or Node globals;
// - electron is imported only by main/index.ts, main/platform, main/ipc and preload;
// - main never imports the renderer, the renderer never imports main, the sandbox or electron;
// - the sandbox is a separate program: it may use shared/ but never main/ or renderer/;
// - inside the renderer, features never import the app layer (renderer/src/app composes them).
// Inside main (docs/architecture.md, "Main's services"), checked by @typescript-eslint/no-restricted-imports
// so that type-only imports can be told apart:
// - main/exchange (the exchange's REST and WebSocket client) imports nothing else of main;
// - main/services never imports main/host or main/platform: the platform reaches it through ports
//   (TerminalOptions); of main/ipc it imports only the handler types (type-only); only custody's
//   offline signer imports main/offline (the keystore it shares with the offline signer program);
// - a domain's handlers.ts is imported only by the composition root (main/services/terminal.ts),
//   which nothing in main/services imports; NetworkRuntime is built only there and in network/
//   (elsewhere a type-only import);
// - the foundation domains (storage, journal, keys, nonces, market-data, confirm) never import the
//   trading domains (account, trading, margin, triggers, custody, positions, desk) nor the runtime.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises',
  'http', 'http2', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'timers',
  'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];

// Patterns use gitignore semantics (a bare `crypto` would match `../crypto/x`), so exact module
// names go in `paths` and only globs in `patterns`.
const restrict = (...groups) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: groups.flatMap((group) => (group.names ?? []).map((name) => ({ name, message: group.message }))),
      patterns: groups.filter((group) => group.group).map(({ group, message }) => ({ group, message })),
    },
  ],
});

const noElectron = { names: ['electron'], group: ['electron/*'], message: 'electron is only imported in main/index.ts, main/platform, main/ipc and preload.' };
const noNode = { group: ['node:*'], names: nodeBuiltins, message: 'this folder is platform-free or runs in a browser: no Node modules.' };
const noWs = { names: ['ws'], message: 'WebSocket connections are owned by main/exchange and the sandbox.' };
const noMain = { group: ['**/main/**', '@main/*'], message: 'main is a separate process; go through the contract in shared/ipc.' };
const noRenderer = { group: ['**/renderer/**'], message: 'the renderer is a separate process; go through the contract in shared/ipc.' };
const noSandbox = { group: ['**/sandbox/**'], message: 'the sandbox is a separate program, reached only over HTTP and WebSocket.' };
const noPreload = { group: ['**/preload/**'], message: 'the preload builds the bridge; nothing imports it.' };
const noRendererApp = { group: ['**/app/*', '**/app/**'], message: 'renderer features sit below the app layer: reach the window through stores/terminal-context.' };

// Import boundaries between main's folders and main/services' domains (by the import's text: main's
// files import each other by relative paths). Each is { regex, message, allowTypeImports? }.
const boundaries = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
const up = '^(\\.\\./)+';
const exchangeAlone = { regex: `${up}(services|host|platform|ipc|offline)(/|$)`, message: 'main/exchange is the exchange client alone: it imports nothing else of main.' };
const noHostOrPlatform = { regex: `${up}(host|platform)(/|$)`, message: 'services get platform things through ports (TerminalOptions), never from main/host or main/platform.' };
const ipcTypesOnly = { regex: `${up}ipc(/|$)`, allowTypeImports: true, message: 'services import only the handler types of main/ipc (import type).' };
const noOffline = { regex: `${up}offline(/|$)`, message: 'only custody\'s offline signer shares main/offline\'s keystore.' };
const noHandlers = { regex: '(^|/)handlers$', message: 'a domain\'s handlers.ts is merged only by the composition root (main/services/terminal.ts).' };
const noTerminal = { regex: '^\\.\\.?/terminal$', message: 'the composition root (terminal.ts) is imported by the hosts only, not by services.' };
const runtimeTypeOnly = { regex: '(^|/)network/network-runtime$', allowTypeImports: true, message: 'NetworkRuntime is built by the terminal; elsewhere import its type only.' };
const noTradingDomains = {
  regex: '^\\.\\./(account|trading|margin|triggers|custody|positions|desk)/|(^|/)network/network-runtime$',
  message: 'foundation domains (storage, journal, keys, nonces, market-data, confirm) do not import the trading domains or the runtime.',
};
const servicesRules = [noHostOrPlatform, ipcTypesOnly, noHandlers, noTerminal];

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.tmp/**', 'out/**', 'out-test/**', 'dist/**', 'release/**', 'coverage/**', '.test-results/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.shared.json', './tsconfig.node.json', './tsconfig.preload.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='parseFloat']", message: 'No floats for money: parse decimal strings to bigint.' },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      ...restrict(noElectron, noNode, noWs, noMain, noRenderer, noSandbox, noPreload),
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require', 'localStorage', 'navigator', 'fetch', 'setImmediate'],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...restrict(noElectron, noNode, noWs, noMain, noSandbox, noPreload) },
  },
  {
    files: ['renderer/src/features/**/*.ts', 'renderer/src/features/**/*.tsx'],
    rules: { ...restrict(noElectron, noNode, noWs, noMain, noSandbox, noPreload, noRendererApp) },
  },
  {
    files: ['preload/**/*.ts'],
    rules: { ...restrict(noNode, noWs, noMain, noRenderer, noSandbox) },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/index.ts', 'main/platform/**', 'main/ipc/**'],
    languageOptions: { globals: { ...globals.node } },
    rules: { ...restrict(noElectron, noRenderer, noSandbox, noPreload) },
  },
  {
    files: ['main/exchange/**/*.ts'],
    rules: boundaries(exchangeAlone),
  },
  {
    files: ['main/services/**/*.ts'],
    ignores: ['main/services/terminal.ts', 'main/services/network/**', 'main/services/custody/**'],
    rules: boundaries(...servicesRules, noOffline, runtimeTypeOnly),
  },
  {
    files: ['main/services/network/**/*.ts'],
    rules: boundaries(...servicesRules, noOffline),
  },
  {
    files: ['main/services/custody/**/*.ts'],
    rules: boundaries(...servicesRules, runtimeTypeOnly),
  },
  {
    files: ['main/services/{storage,journal,keys,nonces,market-data,confirm}/**/*.ts'],
    rules: boundaries(...servicesRules, noOffline, runtimeTypeOnly, noTradingDomains),
  },
  {
    files: ['main/services/terminal.ts'],
    rules: boundaries(noHostOrPlatform, ipcTypesOnly, noOffline),
  },
  {
    files: ['main/index.ts', 'main/platform/**/*.ts', 'main/ipc/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: { ...restrict(noRenderer, noSandbox, noPreload) },
  },
  {
    files: ['sandbox/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: { ...restrict(noElectron, noMain, noRenderer, noPreload) },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'scripts/**/*.mjs', '*.config.ts', '*.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node } },
  },
);
