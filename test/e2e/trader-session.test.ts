// The model-based trader session: in Chromium through the browser host, against the
// sandbox with its market maker, fast-check picks random sequences of trader actions (ticket
// orders of every type, brackets, stops and OCO pairs, cancels, amends, ladder clicks and drags,
// chart-line drags, flatten, hotkeys, the kill switch,
// markets, the Turbo book, blotter tabs, network switches and back, detached and docked panels,
// reloads, and the sandbox's faults: streams dropped, answers delayed, failed or lost). After every
// step the oracle (test/support/trader-session/oracle.ts, invariants in docs/reliability.md) holds
// each panel to the exchange's truth read over REST: equal within the bound, or visibly marked as
// not live; every step that acts is also held to its contract on the exchange (docs/actions.md,
// test/support/trader-session/postconditions.ts: the kill switch leaves nothing open or pending, an
// amend carries the legs, a flatten sells what its dialog states, …).
// A failure prints the seed and the path and shrinks to a short sequence; replay with
// LT_SESSION_SEED=<seed> LT_SESSION_PATH=<path>. The long version is bench/trader-session.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTraderSession } from '../support/trader-session/run';
import { startWorld, type World } from '../support/trader-session/world';
import { screenshots } from '../support/terminal-page';

const seed = Number(process.env.LT_SESSION_SEED ?? Date.now() % 2 ** 31);
const path = process.env.LT_SESSION_PATH;

describe.sequential('random trader session against the sandbox, the screen held to the exchange', () => {
  let world: World;

  beforeAll(async () => {
    // With a Turbo Account on a prepaid session: Turbo-book orders are signed as it, and its orders,
    // fills and margin risk panel are held to the exchange too.
    world = await startWorld({ turboAccount: true });
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('after every step each panel equals the exchange within the bound, or says it is not live', async () => {
    const shot = screenshots(() => world.page, 'trader-session');
    console.log(`trader session seed ${seed}${path ? ` path ${path}` : ''}`);
    const result = await runTraderSession(world, {
      seed,
      // Short in npm test (about two minutes on 2 cores); bench/trader-session.ts is the long run.
      numRuns: 3,
      maxCommands: 10,
      boundMs: 10_000,
      restart: false,
      // The actions with a contract (kill switch, cancels, places, amends, stops, flatten) three
      // times as often: in 30 steps most of them act, and their postconditions are checked.
      favourContracts: true,
      timeLimitMs: 240_000,
      ...(path === undefined ? {} : { path }),
      print: (line) => console.log(line),
    });
    await shot('end');
    console.log(`trader session: ${result.runs} runs, ${result.steps} steps`);
    expect(result.failure, result.failure ?? '').toBeNull();
  }, 600_000);
});
