// Cancelling a solve: through the worker pool (a running job, a queued one) and in this thread.
// Driven by events (the first progress event, the promise resolving, the pool's state), not
// by sleeps: a large scarce instance with a long time limit is aborted once it reports a schedule.
import { expect } from 'chai';
import { festival } from '../../bench/generate.js';
import { Budget } from '../../src/engine/budget.js';
import { createScheduler, type EngineOutput, type Scheduler, type SolveProgress } from '../../src/engine/scheduler.js';
import { toOrderedJson } from '../../src/engine/ordered-json.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { filledSlots, inProcess, shift, volunteer, type Json } from '../helpers/engine.js';
import { checkSchedule } from '../helpers/schedule-checker.js';

/** Demand far above supply: the coverage MIP has work for the whole limit. */
const scarce: Json = festival({ seed: 5, volunteers: 150, shifts: 400, days: 3, groups: 4, demand: 1, caps: [8, 10, 12, 16] });
const small: Json = {
  volunteers: [volunteer('a', 'k', 8), volunteer('b', 'k', 8)],
  unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 10, 14, { k: 1 })],
};

function solve(scheduler: Scheduler, request: Json, signal?: AbortSignal, onIncumbent?: (p: SolveProgress) => void): Promise<EngineOutput> {
  return scheduler.solve({
    problem: normalizeRequest(request as never),
    warnings: [],
    backend: 'highs',
    budget: Budget.forTimeLimit(120, signal ? { signal } : {}),
    diagnostics: { lpText: false },
    ...(signal ? { signal } : {}),
    ...(onIncumbent ? { onIncumbent } : {}),
  });
}

/** Asserts the cancelled output: a valid schedule, feasible, at least as full as the progress seen. */
function expectBestSoFar(out: EngineOutput, seen: SolveProgress): void {
  const result = JSON.parse(toOrderedJson(out.result)) as Json;
  expect(checkSchedule(scarce, result)).to.deep.equal([]);
  expect(out.status).to.equal('feasible');
  expect(out.cancelled).to.equal(true);
  expect(filledSlots(scarce, result)).to.be.at.least(seen.filled);
  const phases = out.subproblems.flatMap((s) => s.diagnostics.phases);
  expect(phases.some((ph) => ph.status === 'cancelled')).to.equal(true);
}

describe('cancelling a solve', function () {
  this.timeout(60_000);

  describe('on the worker pool', () => {
    let scheduler: Scheduler;
    before(async () => {
      scheduler = createScheduler({ workers: 1 });
      await scheduler.ready();
    });
    after(() => scheduler.close());

    it('returns the best schedule so far and frees the worker', async () => {
      const controller = new AbortController();
      let seen: SolveProgress | undefined;
      let heard: () => void = () => {};
      const first = new Promise<void>((resolve) => (heard = resolve));
      const solving = solve(scheduler, scarce, controller.signal, (p) => {
        seen ??= p;
        heard();
      });
      await first;
      expect(seen!.filled).to.be.greaterThan(0);
      expect(scheduler.stats().busy).to.equal(1);
      controller.abort();
      expectBestSoFar(await solving, seen!);
      expect(scheduler.stats()).to.deep.include({ busy: 0, queued: 0 });
      const next = await solve(scheduler, small);
      expect(next.status).to.equal('optimal');
    });

    it('drops a queued solve at once, while the running one goes on', async () => {
      const running = new AbortController();
      let seen: SolveProgress | undefined;
      let heard: () => void = () => {};
      const first = new Promise<void>((resolve) => (heard = resolve));
      const long = solve(scheduler, scarce, running.signal, (p) => {
        seen ??= p;
        heard();
      });
      await first;
      const queued = new AbortController();
      const waiting = solve(scheduler, small, queued.signal);
      expect(scheduler.stats()).to.deep.include({ busy: 1, queued: 1 });
      queued.abort();
      const dropped = await waiting;
      expect(dropped.cancelled).to.equal(true);
      expect(dropped.subproblems[0]!.diagnostics.phases.at(-1)).to.include({ status: 'cancelled', note: 'cancelled before it started' });
      expect(scheduler.stats()).to.deep.include({ busy: 1, queued: 0 });
      running.abort();
      expectBestSoFar(await long, seen!);
      expect(scheduler.stats()).to.deep.include({ busy: 0, queued: 0 });
    });
  });

  it('in this thread, when the progress listener aborts', async () => {
    const scheduler = await inProcess();
    const controller = new AbortController();
    let seen: SolveProgress | undefined;
    const out = await solve(scheduler, scarce, controller.signal, (p) => {
      seen ??= p;
      controller.abort();
    });
    expect(seen).to.not.equal(undefined);
    expectBestSoFar(out, seen!);
    expect(scheduler.stats().busy).to.equal(0);
  });
});
