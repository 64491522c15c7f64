// Electron's own type definitions, vendored (electron.d.ts is an unmodified copy of the file in
// the `electron` npm package at the version package-lock.json pins; MIT, Copyright (c) Electron
// contributors, Copyright (c) 2013-2020 GitHub Inc.). The `electron` package is an optional
// dependency that npm installs only on Node >= 22.12 (its own engines field), while the rest of
// the project, typecheck included, runs on Node 20.19: tsconfig maps 'electron' here so the main
// and preload code is checked against the same types either way. test/unit/build/electron-types.test.ts
// fails when the installed package's electron.d.ts differs from this copy (after an Electron upgrade:
// cp node_modules/electron/electron.d.ts types/electron/electron.d.ts).
/// <reference path="./electron.d.ts" />
export = Electron.CrossProcessExports;
