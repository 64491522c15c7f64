// Lint rules, including the import boundaries of docs/architecture.md:
// - shared/ is platform-free: no electron, no ws, no node:* modules, no DOM or Node globals;
// - electron is imported only by main/index.ts, main/platform, main/ipc and preload;
// - main never imports the renderer, the renderer never imports main, the sandbox or electron;
// - the sandbox is a separate program: it may use shared/ but never main/ or renderer/;
// - inside the renderer, features never import the app layer (renderer/src/app composes them).
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

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.tmp/**', 'out/**', 'dist/**', 'release/**', 'coverage/**', '.test-results/**', '**/*.d.ts'],
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
