// The long trader session: the model-based session of test/e2e/trader-session.test.ts
// run for thousands of steps. The app runs in Chromium through the browser host against the
// sandbox with its market maker; fast-check picks the trader's actions (the exchange restart
// included), the oracle checks every panel after every step, and each action's postcondition on
// the exchange is checked after it acts (test/support/trader-session/postconditions.ts). A failing sequence is shrunk and
// printed with its seed and path; the run then goes on with the next seed until the steps are done,
// so one session reports every distinct failure it meets. Prints one JSON line at the end and
// exits 1 when any sequence failed.
//
//   npx tsx bench/trader-session.ts [--steps 2000] [--minutes M] [--seed N] [--max-commands 40] [--bound-ms 10000] [--restart on|off]
//                                   [--turbo-account on|off] [--seed-minutes 10] [--shrink-minutes 4] [--no-build]
//   (--minutes: stop after M minutes even if the steps are not done; 0, the default, means no limit;
//    --seed-minutes: start no new run of a seed after that long, then go on with the next seed;
//    --shrink-minutes: shrink a failure for at most that long. --steps counts clean steps: those
//    before a seed's first failure, not the failing step nor the replays of shrinking)
//   replay one failure:  npx tsx bench/trader-session.ts --seed <seed> --path <path>
//
// Not part of `npm test` (it runs for an hour or more on this machine).
import { parseArgs } from 'node:util';
import { runTraderSession } from '../test/support/trader-session/run';
import { startWorld } from '../test/support/trader-session/world';
import { ensureBuilt } from '../scripts/build-stamp.mjs';

function parse() {
  const { values } = parseArgs({
    options: {
      steps: { type: 'string', default: '2000' },
      seed: { type: 'string' },
      path: { type: 'string' },
      'max-commands': { type: 'string', default: '40' },
      'bound-ms': { type: 'string', default: '10000' },
      'seed-minutes': { type: 'string', default: '10' },
      'shrink-minutes': { type: 'string', default: '4' },
      restart: { type: 'string', default: 'on' },
      'turbo-account': { type: 'string', default: 'on' },
      minutes: { type: 'string', default: '0' },
      'no-build': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const number = (name: keyof typeof values, raw: string | undefined) => {
    const parsed = Number(raw);
    if (raw === undefined || !Number.isInteger(parsed) || parsed < 0) {
      process.stderr.write(`trader-session: --${name} expects a non-negative integer, got ${JSON.stringify(raw)}\n`);
      process.exit(2);
    }
    return parsed;
  };
  if (values.restart !== 'on' && values.restart !== 'off') {
    process.stderr.write(`trader-session: --restart expects on or off, got ${JSON.stringify(values.restart)}\n`);
    process.exit(2);
  }
  return {
    steps: number('steps', values.steps),
    seed: values.seed === undefined ? Date.now() % 2 ** 31 : number('seed', values.seed),
    path: values.path,
    maxCommands: number('max-commands', values['max-commands']),
    boundMs: number('bound-ms', values['bound-ms']),
    restart: values.restart === 'on',
    turboAccount: values['turbo-account'] !== 'off',
    minutes: number('minutes', values.minutes),
    seedMinutes: number('seed-minutes', values['seed-minutes']),
    shrinkMinutes: number('shrink-minutes', values['shrink-minutes']),
    build: !values['no-build'],
  };
}

async function main() {
  const options = parse();
  if (options.build && process.env.LT_SKIP_BUILD !== '1') {
    if (!ensureBuilt()) throw new Error('electron-vite build failed');
  }
  const started = Date.now();
  let world = await startWorld({ turboAccount: options.turboAccount });
  // Interrupted: stop the host's process group and Chromium before leaving.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void world.stop().finally(() => process.exit(130));
    });
  }
  const failures: { seed: number; report: string }[] = [];
  let steps = 0;
  let cleanSteps = 0;
  let runs = 0;
  let seed = options.seed;
  const stamp = () => `[${((Date.now() - started) / 1000).toFixed(0)} s]`;
  try {
    const endAt = options.minutes > 0 ? started + options.minutes * 60_000 : Infinity;
    while (cleanSteps < options.steps && Date.now() < endAt - 60_000) {
      console.log(`${stamp()} == seed ${seed} (${cleanSteps} clean steps of ${options.steps} so far; ${steps} run in all)`);
      // Runs of one seed until the step budget or a failure; then the next seed.
      const runsLeft = Math.max(1, Math.ceil((options.steps - cleanSteps) / Math.max(1, options.maxCommands / 2)));
      const result = await runTraderSession(world, {
        seed,
        numRuns: runsLeft,
        maxCommands: options.maxCommands,
        boundMs: options.boundMs,
        restart: options.restart,
        // Bounds one seed (its runs and the shrinking of a failure); the next seed goes on.
        timeLimitMs: Math.min(options.seedMinutes * 60_000, endAt - Date.now()),
        shrinkLimitMs: options.shrinkMinutes * 60_000,
        ...(options.path === undefined ? {} : { path: options.path }),
        print: (line) => console.log(`${stamp()} ${line}`),
      });
      steps += result.steps;
      // Steps up to a failure ran clean; the failing one and the replays of shrinking did not.
      cleanSteps += result.cleanSteps;
      runs += result.runs;
      if (result.failure) {
        failures.push({ seed, report: result.failure });
        console.log(`!! FAILURE (seed ${seed}):\n${result.failure}`);
        // A failure may leave the app in the state it failed in: go on in a fresh one.
        await world.stop();
        world = await startWorld({ turboAccount: options.turboAccount });
      }
      if (options.path !== undefined) break;
      seed = (seed + 7919) % 2 ** 31;
    }
  } finally {
    await world.stop();
  }
  const summary = { cleanSteps, steps, runs, minutes: Math.round((Date.now() - started) / 600) / 100, failures: failures.length, seeds: failures.map((failure) => failure.seed) };
  console.log(JSON.stringify(summary));
  for (const failure of failures) console.log(`\n--- seed ${failure.seed}\n${failure.report}`);
  process.exit(failures.length > 0 ? 1 : 0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
