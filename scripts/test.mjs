// `npm test`: set up what is missing (npm packages; Chromium, gnome-keyring, D-Bus, Xvfb as root
// with apt), then typecheck, lint, unit, renderer, integration and end-to-end tests, and the
// Electron smoke test where a runtime exists. Ends with one line: `N passed, N failed`.
// Flags: --only <suite,...> runs a subset (typecheck, lint, unit, renderer, integration, e2e, electron).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { electronRuntime, ensureNodeModules, ensureTestPackages, npmEnv, root } from './setup.mjs';

const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? new Set((process.argv[onlyIndex + 1] ?? '').split(',')) : null;
const wanted = (suite) => only === null || only.has(suite);

ensureNodeModules();
ensureTestPackages();

const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

// Every suite's temporary files (data directories, journals, keyrings, browser profiles) go under
// one directory of this run, removed at the end, so runs leave nothing behind in the system's /tmp.
const runTmp = mkdtempSync(join(tmpdir(), 'lt-test-run-'));
const suiteEnv = { ...npmEnv, TMPDIR: runTmp };

/** @type {{suite: string, passed: number, failed: number, skipped: number, note?: string}[]} */
const summary = [];
/** The failed tests by name, repeated in the summary: the end of a long log names what failed. */
const failures = [];

function banner(text) {
  console.log(`\n\u001b[1m== ${text} ==\u001b[0m`);
}

function check(suite, command, args) {
  if (!wanted(suite)) return;
  banner(suite);
  const status = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: suiteEnv }).status;
  summary.push({ suite, passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, skipped: 0 });
}

function vitest(suite, projects, extraEnv = {}) {
  if (!wanted(suite)) return;
  banner(`${suite} tests`);
  const output = join(resultsDir, `${suite}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((project) => ['--project', project]), '--reporter=default', '--reporter=json', `--outputFile.json=${output}`];
  // A report left by an earlier run must never stand in for this one.
  rmSync(output, { force: true });
  const status = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: { ...suiteEnv, ...extraEnv } }).status;
  if (!existsSync(output)) {
    summary.push({ suite, passed: 0, failed: 1, skipped: 0, note: `vitest exited with ${status} and wrote no report` });
    return;
  }
  const report = JSON.parse(readFileSync(output, 'utf8'));
  // A file that failed with no failed test (it did not load, or a beforeAll/afterAll hook failed or
  // timed out) counts as one failure: its tests may all have passed, the file did not.
  const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'));
  let failed = report.numFailedTests + brokenFiles.length;
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue;
      const reason = String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      failures.push(`${suite}: ${relative(root, file.name)} > ${test.fullName ?? test.title}: ${reason}`);
    }
  }
  const notes = brokenFiles.map((file) => `${relative(root, file.name)} failed outside its tests: ${String(file.message ?? '').split('\n')[0]}`);
  if (failed === 0 && (status !== 0 || report.success === false)) {
    failed = 1;
    notes.push(`vitest exited with ${status} and reported no failure`);
  }
  summary.push({
    suite,
    passed: report.numPassedTests,
    failed,
    skipped: report.numPendingTests + report.numTodoTests,
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  });
}

check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npm', ['run', '--silent', 'lint']);
vitest('unit', ['unit']);
vitest('renderer', ['renderer']);
vitest('integration', ['integration']);
vitest('e2e', ['e2e']);

if (wanted('electron')) {
  banner('electron smoke test');
  const runtime = electronRuntime();
  if (runtime.path === null && runtime.binary === undefined) {
    console.log(`SKIPPED: the Electron smoke test needs the Electron runtime, and ${runtime.reason}.`);
    summary.push({ suite: 'electron', passed: 0, failed: 0, skipped: 1, note: `skipped: ${runtime.reason}` });
  } else {
    const output = join(resultsDir, 'electron.json');
    const args = ['-a', 'npx', 'vitest', 'run', '--project', 'electron', '--reporter=default', '--reporter=json', `--outputFile.json=${output}`];
    spawnSync('xvfb-run', args, { cwd: root, stdio: 'inherit', env: suiteEnv });
    const report = existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : null;
    summary.push(report ? { suite: 'electron', passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests } : { suite: 'electron', passed: 0, failed: 1, skipped: 0 });
  }
}

banner('summary');
for (const row of summary) {
  console.log(`${row.suite.padEnd(12)} ${String(row.passed).padStart(5)} passed ${String(row.failed).padStart(4)} failed ${String(row.skipped).padStart(4)} skipped${row.note ? `  (${row.note})` : ''}`);
}
for (const failure of failures) console.log(`FAILED ${failure}`);
rmSync(runTmp, { recursive: true, force: true });
const passed = summary.reduce((sum, row) => sum + row.passed, 0);
const failed = summary.reduce((sum, row) => sum + row.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && summary.length > 0 ? 0 : 1);
