// A trap in HiGHS's WebAssembly (a RuntimeError) leaves the instance failed: no later call of the
// backend reaches HiGHS, and none throws for it (a solve ends `error`, a column LP is not solved),
// its models are not released nor a phase's fixed bounds restored, the library's own errors do not
// count, and replacementFor gives the worker a working instance in its place (highs-backend.ts;
// solve-worker.ts).
import { expect } from 'chai';
import type { Highs } from 'highs';
import { replacementFor, type PhaseRequest, type SolverBackend } from '../../src/engine/backends/backend.js';
import { solveSubproblemAgainOnFailure, type SubproblemResult } from '../../src/engine/solve-subproblem.js';
import { decompose } from '../../src/engine/subproblem.js';
import type { SubproblemIncumbent } from '../../src/engine/subproblem-runner.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import { festival } from '../../bench/generate.js';
import { Budget } from '../../src/engine/budget.js';
import { MipModel } from '../../src/engine/mip-model.js';
import { inProcessScheduler, type Scheduler } from '../../src/engine/scheduler.js';
import { solve, type Json } from '../helpers/engine.js';
import { checkSchedule } from '../helpers/schedule-checker.js';

const { RuntimeError } = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }).WebAssembly;

/** max x0 + 2 x1 + 3 x2, x0 + x1 + x2 <= 2, binaries: 5 at x1 = x2 = 1. */
function smallMip(): MipModel {
  const m = new MipModel();
  const cols = [0, 1, 2].map((j) => m.addCol(`x${j}`, 0, 1, true));
  m.addRow('cap', -Infinity, 2, cols, [1, 1, 1]);
  return m;
}
const request = (): PhaseRequest => ({
  objective: { sense: 'max', costs: Float64Array.of(1, 2, 3) },
  rowBounds: new Map(),
  budget: Budget.forTimeLimit(30),
  absGap: 0,
  relGap: 0,
});

type Model = ReturnType<Highs['createModel']>;

/**
 * The real HiGHS, but its `trapAt`-th createModel (1-based; 'first MIP': the first with integer
 * columns), its `runTrapAt`-th run of any model, or a model's run while `runTraps`, throws `error`;
 * counts the calls that reached HiGHS.
 */
function trapping(highs: Highs, error: () => Error, trapAt: number | 'first MIP', runTrapAt = 0) {
  let trapped = false;
  const calls = { createModel: 0, run: 0, dispose: 0, changeColsBounds: 0 };
  let runTraps = false;
  const proxy = new Proxy(highs, {
    get(target, key, receiver) {
      if (key !== 'createModel') return Reflect.get(target, key, receiver) as unknown;
      return (...args: Parameters<Highs['createModel']>): Model => {
        calls.createModel++;
        const source = args[0] as { integrality?: ArrayLike<number> } | undefined;
        if (
          calls.createModel === trapAt ||
          (trapAt === 'first MIP' && !trapped && source?.integrality !== undefined && Array.from(source.integrality).includes(1))
        ) {
          trapped = true;
          throw error();
        }
        const model = target.createModel(...args);
        return new Proxy(model, {
          get(m, k, r) {
            const value = Reflect.get(m, k, r) as unknown;
            if (k === 'run')
              return (...a: unknown[]) => {
                calls.run++;
                if (runTraps || calls.run === runTrapAt) throw error();
                return (value as (...b: unknown[]) => unknown).apply(m, a);
              };
            if (k === 'dispose')
              return () => {
                calls.dispose++;
                (value as () => void).call(m);
              };
            if (k === 'changeColsBounds')
              return (...a: unknown[]) => {
                calls.changeColsBounds++;
                return (value as (...b: unknown[]) => unknown).apply(m, a);
              };
            return typeof value === 'function' ? (value as (...b: unknown[]) => unknown).bind(m) : value;
          },
        });
      };
    },
  });
  return {
    highs: proxy,
    calls,
    trapRuns: () => {
      runTraps = true;
    },
  };
}

describe('engine: a trap in HiGHS fails its instance', function () {
  this.timeout(60_000);
  let highs: Highs;
  before(async () => {
    highs = await loadHighs();
  });

  it('a trap in createModel: that model and every later one solve to `error` without reaching HiGHS, and open models are not released', () => {
    const t = trapping(highs, () => new RuntimeError('memory access out of bounds'), 2);
    const backend = highsBackend(t.highs);
    const first = backend.open(smallMip());
    expect(first.solve(request())).to.include({ status: 'optimal', objective: 5 });
    expect(backend.failed?.()).to.equal(undefined);
    const stopped = 'HiGHS stopped working in this thread after RuntimeError: memory access out of bounds; no more calls are made on it';
    const trapped = backend.open(smallMip());
    expect(backend.failed?.()).to.equal('RuntimeError: memory access out of bounds');
    expect(trapped.solve(request())).to.deep.include({ status: 'error', objective: null, message: stopped });
    expect(backend.open(smallMip()).solve(request())).to.deep.include({ status: 'error', message: stopped });
    const lp = backend.columnLp!(Float64Array.of(0), Float64Array.of(1), []);
    lp.addColumns([{ cost: 1, rows: [0], values: [1] }]);
    expect(lp.solve(Budget.forTimeLimit(5))).to.equal(undefined);
    lp.dispose();
    expect(first.solve(request())).to.deep.include({ status: 'error', message: stopped });
    first.dispose();
    trapped.dispose();
    expect(t.calls).to.deep.equal({ createModel: 2, run: 1, dispose: 0, changeColsBounds: 0 });
  });

  it("a trap in a column LP's solve: it is not solved, and the instance is failed", () => {
    const t = trapping(highs, () => new RuntimeError('memory access out of bounds'), 0);
    const backend = highsBackend(t.highs);
    // min x0 + 2 x1 with x0 + x1 >= 1: 1 at x0 = 1, the row's dual 1.
    const lp = backend.columnLp!(Float64Array.of(1), Float64Array.of(Infinity), [{ cost: 1, rows: [0], values: [1] }]);
    const solved = lp.solve(Budget.forTimeLimit(5));
    expect(solved?.objective).to.equal(1);
    expect(Array.from(solved!.rowDual)).to.deep.equal([1]);
    t.trapRuns();
    lp.addColumns([{ cost: 2, rows: [0], values: [1] }]);
    expect(lp.solve(Budget.forTimeLimit(5))).to.equal(undefined);
    expect(backend.failed?.()).to.equal('RuntimeError: memory access out of bounds');
    lp.addColumns([{ cost: 3, rows: [0], values: [1] }]);
    expect(lp.solve(Budget.forTimeLimit(5))).to.equal(undefined);
    lp.dispose();
    expect(t.calls).to.deep.include({ run: 2, dispose: 0 });
  });

  it('a trap inside a solve: the phase ends in error, the instance is failed, and the fixed bounds are not restored', () => {
    const t = trapping(highs, () => new RuntimeError('unreachable'), 0);
    const backend = highsBackend(t.highs);
    const session = backend.open(smallMip());
    const fixed = (): PhaseRequest => ({ ...request(), colBounds: new Map([[0, [0, 0]]]) });
    expect(session.solve(fixed())).to.include({ status: 'optimal', objective: 5 });
    expect(t.calls.changeColsBounds).to.equal(2); // fixed, then restored
    t.trapRuns();
    const outcome = session.solve(fixed());
    expect(outcome.status).to.equal('error');
    expect(outcome.message).to.equal('unreachable');
    expect(backend.failed?.()).to.equal('RuntimeError: unreachable');
    expect(t.calls.changeColsBounds).to.equal(3); // fixed, not restored
    expect(session.solve(request()).message).to.contain('HiGHS stopped working');
    expect(t.calls.run).to.equal(2);
  });

  it('running out of its stack (a RangeError) fails the instance too', () => {
    const t = trapping(highs, () => new RangeError('Maximum call stack size exceeded'), 1);
    const backend = highsBackend(t.highs);
    expect(backend.open(smallMip()).solve(request()).status).to.equal('error');
    expect(backend.failed?.()).to.equal('RangeError: Maximum call stack size exceeded');
  });

  it("the library's own error does not fail the instance", () => {
    const t = trapping(highs, () => new highs.errors.HighsError('bad model', 'createModel'), 1);
    const backend = highsBackend(t.highs);
    expect(() => backend.open(smallMip())).to.throw('bad model');
    expect(backend.failed?.()).to.equal(undefined);
    const session = backend.open(smallMip());
    expect(session.solve(request())).to.include({ status: 'optimal', objective: 5 });
    session.dispose();
    expect(t.calls.dispose).to.equal(1);
  });

  it('replacementFor: a working instance in place of a failed one, nothing for one that works', async () => {
    const t = trapping(highs, () => new RuntimeError('memory access out of bounds'), 1);
    const failed = highsBackend(t.highs);
    expect(failed.open(smallMip()).solve(request()).status).to.equal('error');
    const working: SolverBackend = highsBackend(highs);
    expect(replacementFor(working)).to.equal(undefined);
    const fresh = await replacementFor(failed)!;
    expect(fresh.failed?.()).to.equal(undefined);
    expect(fresh.open(smallMip()).solve(request())).to.include({ status: 'optimal', objective: 5 });
  });
});

describe('engine: a solver that fails while scheduling', function () {
  this.timeout(120_000);
  let highs: Highs;
  before(async () => {
    highs = await loadHighs();
  });
  // Two groups, each its own subproblem: "kitchen" runs MIPs (two models), "bar" only the fairness
  // bound's column LP; all proven within the limit.
  const request = festival({ seed: 71, volunteers: 40, shifts: 24, days: 1, groups: 2, demand: 1.3 });
  const schedule = async (scheduler: Scheduler): Promise<Json> => {
    const { result } = await solve(request, { timeLimitS: 30, debug: 'true' }, scheduler);
    expect(checkSchedule(request, result)).to.deep.equal([]);
    return result;
  };
  const solverFailed = (result: Json): Json[] => (result.warnings as Json[]).filter((w) => w.code === 'solver_failed');
  const withoutDiagnostics = (result: Json): Json => ({ ...result, diagnostics: undefined });
  const phasesOf = (result: Json, group: string): Json[] => (result.diagnostics.subproblems as Json[]).find((sub) => sub.group === group)!.phases as Json[];
  const failedAt = (phases: Json[]): number => phases.findIndex((ph) => ph.status === 'error');
  const memoryTrap = (): Error => new RuntimeError('memory access out of bounds');
  let clean: Json;
  before(async () => {
    clean = await schedule(inProcessScheduler({ highs: highsBackend(highs) }));
    expect(clean.diagnostics.status).to.equal('optimal');
  });

  it('a trap in HiGHS: the group is solved again on a fresh instance of another seed, with no warning; the next request is as clean', async () => {
    const t = trapping(highs, memoryTrap, 'first MIP');
    const scheduler = inProcessScheduler({ highs: highsBackend(t.highs) });
    const trapped = await schedule(scheduler);
    const kitchen = phasesOf(trapped, 'kitchen');
    const failed = failedAt(kitchen);
    expect(kitchen[failed]!.note).to.contain('RuntimeError: memory access out of bounds');
    const again = kitchen.findIndex(
      (ph) =>
        ph.note === `solved again from the start on a fresh HiGHS with random_seed 1, after the solver failed (RuntimeError: memory access out of bounds)`,
    );
    expect(again).to.be.greaterThan(failed);
    expect(kitchen.slice(again).map((ph) => ph.status)).to.not.include('error');
    expect(failedAt(phasesOf(trapped, 'bar'))).to.equal(-1);
    expect(solverFailed(trapped)).to.deep.equal([]);
    expect(trapped.diagnostics.status).to.equal('optimal');
    expect(trapped.summary.filled_slots).to.equal(clean.summary.filled_slots);
    // The failed instance is replaced (seed 0) before the next subproblem and the next request: the clean answer, byte for byte (diagnostics aside).
    const created = t.calls.createModel;
    const next = await schedule(scheduler);
    expect(withoutDiagnostics(next)).to.deep.equal(withoutDiagnostics(clean));
    expect(t.calls.createModel).to.equal(created);
  });

  it('a trap again in the second solve: the first is kept where as good, and the answer warns', async () => {
    const t = trapping(highs, memoryTrap, 'first MIP');
    const backend = highsBackend(t.highs);
    const result = await schedule(
      inProcessScheduler({
        highs: { ...backend, reload: async (seed) => highsBackend(trapping(await loadHighs(), memoryTrap, 'first MIP').highs, seed) },
      }),
    );
    // Both solves end on construction and local search: as good as each other, so the first is kept.
    const kitchen = phasesOf(result, 'kitchen');
    const again = kitchen.findIndex((ph) => (ph.note as string | undefined)?.startsWith('solved again from the start') === true);
    expect(kitchen[again]!.note).to.equal(
      'solved again from the start on a fresh HiGHS with random_seed 1, after the solver failed (RuntimeError: memory access out of bounds); its schedule was not kept: the first was as good or better',
    );
    expect(failedAt(kitchen)).to.be.lessThan(again);
    expect(failedAt(kitchen.slice(again))).to.be.greaterThan(-1);
    expect(solverFailed(result)).to.deep.equal([
      {
        code: 'solver_failed',
        message:
          'The solver failed while scheduling group kitchen (RuntimeError: memory access out of bounds); that part of the schedule was finished without it, so it may fill fewer slots, or spread the hours less evenly, than it could.',
      },
    ]);
    expect(result.diagnostics.status).to.equal('feasible');
  });

  it('a trap late in the first solve, and a second that does worse: the first is kept, with the warning, and no schedule of the second reaches the pool', async () => {
    const kitchen = decompose(normalizeRequest(request)).find((sub) => sub.group === 'kitchen')!;
    const solveKitchen = (backend: SolverBackend, onIncumbent?: (i: SubproblemIncumbent) => void): Promise<SubproblemResult> =>
      solveSubproblemAgainOnFailure(kitchen, { backend, budget: Budget.forTimeLimit(30), ...(onIncumbent ? { onIncumbent } : {}) });
    const counted = trapping(highs, memoryTrap, 0);
    const clean = await solveKitchen(highsBackend(counted.highs));
    expect(clean.solverFailure).to.equal(undefined);
    // The last run traps (fairness is at its best by then); the second solve has no working solver: construction and local search only.
    const t = trapping(highs, memoryTrap, 0, counted.calls.run);
    const noSolver = (): SolverBackend => ({
      name: 'highs',
      open: () => ({ solve: () => ({ status: 'error', objective: null, bound: null, gap: null, ms: 0, message: 'no solver' }), dispose: () => {} }),
    });
    let retrying = false;
    const seen: number[] = [];
    const reload = (): Promise<SolverBackend> => {
      retrying = true;
      return Promise.resolve(noSolver());
    };
    const result = await solveKitchen({ ...highsBackend(t.highs), reload }, (incumbent) => {
      if (retrying) seen.push(incumbent.assignments.length);
    });
    expect(retrying).to.equal(true);
    const alone = await solveKitchen(noSolver());
    expect(alone.diagnostics.levels!.at(-1)!.value).to.be.greaterThan(clean.diagnostics.levels!.at(-1)!.value); // worse fairness
    expect(result.solverFailure).to.equal('RuntimeError: memory access out of bounds');
    // The first solve's schedule: as fair as the clean one (the trapped run could not improve it).
    expect(result.diagnostics.levels!.at(-1)!.value).to.equal(clean.diagnostics.levels!.at(-1)!.value);
    expect(result.diagnostics.phases.some((ph) => ph.note?.endsWith('its schedule was not kept: the first was as good or better'))).to.equal(true);
    expect(seen).to.deep.equal([]);
  });

  it('a solve that throws in this thread is lost, not thrown: the greedy fill, with a warning', async () => {
    const bug = (): never => {
      throw new Error('a bug of ours\nwith a stack');
    };
    const result = await schedule(inProcessScheduler({ highs: { ...highsBackend(highs), open: bug, columnLp: bug } }));
    expect(result.summary.filled_slots).to.be.greaterThan(0);
    const subs = result.diagnostics.subproblems as Json[];
    expect(subs.map((sub) => (sub.phases as Json[]).map((ph) => `${ph.name} ${ph.status}`))).to.deep.equal([
      ['greedy feasible', 'coverage error'],
      ['greedy feasible', 'coverage error'],
    ]);
    expect(solverFailed(result).map((w) => w.message)).to.deep.equal(
      subs.map(
        (sub) =>
          `The solver failed while scheduling group ${sub.group} (the solver failed: Error: a bug of ours); that part of the schedule was finished without it, so it may fill fewer slots, or spread the hours less evenly, than it could.`,
      ),
    );
  });
});
