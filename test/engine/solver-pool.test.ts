import { expect } from 'chai';
import { SolverPool } from '../../src/engine/pool/solver-pool.js';
import type { SolveTask } from '../../src/engine/pool/messages.js';
import type { Subproblem } from '../../src/engine/subproblem.js';
import { scheduleProblem } from '../../src/engine/schedule.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { toOrderedJson } from '../../src/engine/ordered-json.js';
import { shift, volunteer } from '../helpers/engine.js';

const HOUR = 3_600_000;
const sub = (group: string): Subproblem => ({
  group,
  volunteers: [{ index: 0, id: 'a', cap: 8, locks: [] }],
  shifts: [{ index: 0, id: 's', start: 0, end: 4 * HOUR, hours: 4, required: 1, locked: 0 }],
});
const task = (group: string, ms = 300): SolveTask => ({ sub: sub(group), backend: 'highs', deadline: Date.now() + ms, budgetMs: ms, debugLp: false, maxMipPairs: 0 });

describe('solver pool', function () {
  this.timeout(20_000);
  let pool: SolverPool;
  beforeEach(async () => {
    pool = new SolverPool({ size: 1, graceMs: 200, workerUrl: new URL('../fixtures/workers/faulty-worker.js', import.meta.url) });
    await pool.ready();
  });
  afterEach(() => pool.close());

  it('solves a task', async () => {
    const outcome = await pool.run(task('ok'));
    expect(outcome.kind).to.equal('done');
  });

  it('stops a stuck worker at the deadline, keeps its best schedule, and replaces it', async () => {
    const started = Date.now();
    const outcome = await pool.run(task('hang', 300));
    expect(Date.now() - started).to.be.lessThan(3000);
    expect(outcome).to.deep.equal({ kind: 'lost', reason: 'the solver passed its deadline and was stopped', incumbent: [[0, 0]] });
    await pool.ready();
    expect((await pool.run(task('ok'))).kind).to.equal('done');
  });

  it('survives a worker that exits, and one that fails a solve', async () => {
    const crashed = await pool.run(task('crash'));
    expect(crashed.kind).to.equal('lost');
    expect((crashed as { reason: string }).reason).to.match(/exited with code 3/);
    await pool.ready();
    const failed = await pool.run(task('throw'));
    expect(failed).to.deep.equal({ kind: 'lost', reason: 'the solver failed: Error: injected failure' });
    expect((await pool.run(task('ok'))).kind).to.equal('done');
    expect(pool.stats()).to.deep.equal({ size: 1, busy: 0, queued: 0 });
  });

  it('queues tasks beyond its workers and answers them all', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => pool.run(task('ok', 2000))));
    expect(outcomes.map((o) => o.kind)).to.deep.equal(['done', 'done', 'done', 'done']);
  });

  it('a lost subproblem still gets a complete schedule (greedy fallback)', async () => {
    const request = { volunteers: [volunteer('a', 'k', 8), volunteer('b', 'k', 8)], unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 10, 14, { k: 1 })] };
    const out = await scheduleProblem(normalizeRequest(request as never), [], { backend: 'highs', timeLimitS: 1, debug: 'true' }, async () => ({ kind: 'lost', reason: 'injected' }));
    const result = JSON.parse(toOrderedJson(out.result));
    expect(checkSchedule(request, result)).to.deep.equal([]);
    expect(result.unfilled_shifts).to.deep.equal([]);
    expect(out.status).to.equal('feasible');
    expect(out.subproblems[0]!.diagnostics.phases.at(-1)).to.include({ status: 'error', note: 'injected' });
  });
});
