// The solver pool with an injected faulty worker and injected timers: deadlines and cancel
// grace periods fire when the test says, so nothing here sleeps or measures time.
import { expect } from 'chai';
import { once } from 'node:events';
import { SolverPool, type Timers } from '../../src/engine/pool/solver-pool.js';
import { Budget } from '../../src/engine/budget.js';
import { newFlag, raiseFlag } from '../../src/engine/shared-flag.js';
import type { SubproblemJob } from '../../src/engine/subproblem-runner.js';
import { plainSlot, plainVolunteer, type Subproblem } from '../../src/engine/subproblem.js';
import { scheduleProblem } from '../../src/engine/schedule.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { toOrderedJson } from '../../src/engine/ordered-json.js';
import { shift, volunteer } from '../helpers/engine.js';

const HOUR = 3_600_000;
const sub = (group: string): Subproblem => ({
  group,
  groups: [group],
  volunteers: [plainVolunteer(0, 'a', group, 8)],
  shifts: [plainSlot(0, 's', group, 0, 4 * HOUR, 1)],
});
const job = (group: string): SubproblemJob => ({
  sub: sub(group),
  backend: 'highs',
  slice: { deadline: Date.now() + 60_000, ms: 60_000 },
  lpText: false,
  maxMipPairs: 0,
});

/** Timers that fire only when the test calls fire(); `waits` lists what was set, in ms. */
class ManualTimers implements Timers {
  private readonly pending = new Set<{ fire: () => void; ms: number }>();
  set(fire: () => void, ms: number): unknown {
    const timer = { fire, ms };
    this.pending.add(timer);
    return timer;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as { fire: () => void; ms: number });
  }
  waits(): number[] {
    return [...this.pending].map((t) => t.ms);
  }
  /** Fires every pending timer, as if its time had come. */
  fireAll(): void {
    for (const timer of [...this.pending]) {
      this.pending.delete(timer);
      timer.fire();
    }
  }
}

/** A promise that resolves on the job's first incumbent, and the run's options that report it. */
function firstIncumbent(): { heard: Promise<void>; onIncumbent: () => void } {
  let onIncumbent: () => void = () => {};
  const heard = new Promise<void>((resolve) => (onIncumbent = resolve));
  return { heard, onIncumbent };
}

describe('solver pool', function () {
  let pool: SolverPool;
  let timers: ManualTimers;
  beforeEach(async () => {
    timers = new ManualTimers();
    pool = new SolverPool({ size: 1, graceMs: 2000, cancelGraceMs: 200, timers, workerUrl: new URL('../fixtures/workers/faulty-worker.js', import.meta.url) });
    await pool.ready();
  });
  afterEach(() => pool.close());

  it('a job’s slice extended while it runs (its flag raised: BudgetSlice.extend) is seen by the worker at once', async () => {
    const now = Date.now();
    const extend = newFlag();
    const { heard, onIncumbent } = firstIncumbent();
    const outcome = pool.run({ ...job('extend'), slice: { deadline: now + 60_000, ms: 5_000, extend } }, { onIncumbent });
    // The worker says when it has its budget (an incumbent); then the flag goes up.
    await heard;
    raiseFlag(extend);
    const got = await outcome;
    expect(got.kind).to.equal('lost');
    const [, before, after] = /deadline (\d+) -> (\d+)/.exec(got.kind === 'lost' ? got.reason : '')!;
    expect(Number(before) - now).to.be.within(5_000, 10_000);
    expect(Number(after)).to.equal(now + 60_000);
  });

  it('solves a job and clears its deadline', async () => {
    const outcome = await pool.run(job('ok'));
    expect(outcome.kind).to.equal('done');
    expect(timers.waits()).to.deep.equal([]);
  });

  it('stops a stuck worker at the deadline, keeps its best schedule, and replaces it', async () => {
    const { heard, onIncumbent } = firstIncumbent();
    const outcome = pool.run(job('hang'), { onIncumbent });
    await heard;
    expect(timers.waits()).to.have.length(1);
    expect(timers.waits()[0]).to.be.greaterThan(2000);
    timers.fireAll();
    expect(await outcome).to.deep.equal({
      kind: 'lost',
      reason: 'the solver passed its deadline and was stopped',
      incumbent: [[0, 0, 'hang']],
      timedOut: true,
    });
    expect(pool.stats()).to.deep.equal({ size: 1, busy: 0, queued: 0 });
    await pool.ready();
    expect((await pool.run(job('ok'))).kind).to.equal('done');
  });

  it('a cancelled worker that does not answer is stopped after the cancel grace and replaced', async () => {
    const controller = new AbortController();
    const { heard, onIncumbent } = firstIncumbent();
    const outcome = pool.run(job('hang'), { signal: controller.signal, onIncumbent });
    await heard;
    controller.abort();
    expect(timers.waits()).to.deep.equal([200]);
    const replaced = once(pool, 'replaced');
    timers.fireAll();
    expect(await replaced).to.deep.equal(['the solver did not stop when cancelled and was stopped']);
    expect(await outcome).to.deep.equal({ kind: 'lost', reason: 'the solver did not stop when cancelled and was stopped', incumbent: [[0, 0, 'hang']] });
    await pool.ready();
    expect((await pool.run(job('ok'))).kind).to.equal('done');
  });

  it('a cancelled queued job leaves the queue at once', async () => {
    const { heard, onIncumbent } = firstIncumbent();
    const running = pool.run(job('hang'), { onIncumbent });
    await heard;
    const controller = new AbortController();
    const queued = pool.run(job('ok'), { signal: controller.signal });
    expect(pool.stats()).to.deep.equal({ size: 1, busy: 1, queued: 1 });
    controller.abort();
    expect(await queued).to.deep.equal({ kind: 'lost', reason: 'cancelled before it started' });
    expect(pool.stats()).to.deep.equal({ size: 1, busy: 1, queued: 0 });
    timers.fireAll();
    expect((await running).kind).to.equal('lost');
  });

  it('survives a worker that exits, and one that fails a solve', async () => {
    const crashed = await pool.run(job('crash'));
    expect(crashed.kind).to.equal('lost');
    expect((crashed as { reason: string }).reason).to.match(/exited with code 3/);
    await pool.ready();
    const failed = await pool.run(job('throw'));
    expect(failed).to.deep.equal({ kind: 'lost', reason: 'the solver failed: Error: injected failure' });
    expect((await pool.run(job('ok'))).kind).to.equal('done');
    expect(pool.stats()).to.deep.equal({ size: 1, busy: 0, queued: 0 });
  });

  it('tells each worker once to warm up when asked, and a worker that replaces one when it is ready', async () => {
    const warmUps = async (on: SolverPool): Promise<string> => {
      const outcome = await on.run(job('warm-ups'));
      return outcome.kind === 'lost' ? outcome.reason : outcome.kind;
    };
    expect(await warmUps(pool)).to.match(/^the solver failed: warm-ups: 0, job sent: no flag -> no flag \(thread \d+\)$/);
    pool.warmUp();
    pool.warmUp();
    const first = await warmUps(pool);
    // A job came before the warm-up message: the flag was set already (the real worker skips its rounds).
    expect(first).to.match(/^the solver failed: warm-ups: 1, job sent: true -> true \(thread \d+\)$/);
    expect((await pool.run(job('crash'))).kind).to.equal('lost');
    await pool.ready();
    const replaced = await warmUps(pool);
    // The new worker gets its own warm-up message and its flag is set by its first job (whether the
    // job was already on its way when the worker read the warm-up message is a race, as it is for
    // the real worker, which then skips its rounds).
    expect(replaced).to.match(/^the solver failed: warm-ups: 1, job sent: (true|false) -> true \(thread \d+\)$/);
    expect(replaced).to.not.equal(first);
    const two = new SolverPool({
      size: 2,
      graceMs: 2000,
      cancelGraceMs: 200,
      timers,
      workerUrl: new URL('../fixtures/workers/faulty-worker.js', import.meta.url),
    });
    try {
      await two.ready();
      two.warmUp();
      // Two jobs at once: one on each worker.
      const [a, b] = await Promise.all([warmUps(two), warmUps(two)]);
      for (const reason of [a, b]) expect(reason).to.match(/^the solver failed: warm-ups: 1, job sent: (true|false) -> true \(thread \d+\)$/);
      expect(a).to.not.equal(b);
    } finally {
      await two.close();
    }
  });

  it('queues jobs beyond its workers and answers them all', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => pool.run(job('ok'))));
    expect(outcomes.map((o) => o.kind)).to.deep.equal(['done', 'done', 'done', 'done']);
  });

  it('a lost subproblem still gets a complete schedule (greedy fallback)', async () => {
    const request = {
      volunteers: [volunteer('a', 'k', 8), volunteer('b', 'k', 8)],
      unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 10, 14, { k: 1 })],
    };
    const fallBack = (outcome: { kind: 'lost'; reason: string; timedOut?: true }): Promise<Awaited<ReturnType<typeof scheduleProblem>>> =>
      scheduleProblem(
        { problem: normalizeRequest(request as never), warnings: [], backend: 'highs', budget: Budget.forTimeLimit(1), diagnostics: { lpText: false } },
        { run: () => Promise.resolve(outcome) },
        1,
      );
    const out = await fallBack({ kind: 'lost', reason: 'injected' });
    const result = JSON.parse(toOrderedJson(out.result));
    expect(checkSchedule(request, result)).to.deep.equal([]);
    expect(result.unfilled_shifts).to.deep.equal([]);
    expect(out.status).to.equal('feasible');
    expect(out.subproblems[0]!.diagnostics.phases.at(-1)).to.include({ status: 'error', note: 'injected' });
    // A failed worker is not the clock; one stopped at the deadline is.
    expect(out.subproblems[0]!.diagnostics.time_limited).to.equal(false);
    const late = await fallBack({ kind: 'lost', reason: 'the solver passed its deadline and was stopped', timedOut: true });
    expect(late.subproblems[0]!.diagnostics.time_limited).to.equal(true);
  });
});
