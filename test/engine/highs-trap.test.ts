// A trap in HiGHS's WebAssembly (a RuntimeError) leaves the instance failed: every later call of
// the backend fails at once without touching HiGHS, its models are not released nor a phase's
// fixed bounds restored, the library's own errors do not count, and replacementFor gives the
// worker a working instance in its place (highs-backend.ts; solve-worker.ts).
import { expect } from 'chai';
import type { Highs } from 'highs';
import type { PhaseRequest, SolverBackend } from '../../src/engine/backends/backend.js';
import { highsBackend, loadHighs, replacementFor } from '../../src/engine/backends/highs-backend.js';
import { Budget } from '../../src/engine/budget.js';
import { MipModel } from '../../src/engine/mip-model.js';

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

/** The real HiGHS, but its `trapAt`-th createModel (1-based), or a model's run while `runTraps`, throws `error`; counts the calls that reached HiGHS. */
function trapping(highs: Highs, error: () => Error, trapAt: number) {
  const calls = { createModel: 0, run: 0, dispose: 0, changeColsBounds: 0 };
  let runTraps = false;
  const proxy = new Proxy(highs, {
    get(target, key, receiver) {
      if (key !== 'createModel') return Reflect.get(target, key, receiver) as unknown;
      return (...args: Parameters<Highs['createModel']>): Model => {
        calls.createModel++;
        if (calls.createModel === trapAt) throw error();
        const model = target.createModel(...args);
        return new Proxy(model, {
          get(m, k, r) {
            const value = Reflect.get(m, k, r) as unknown;
            if (k === 'run')
              return (...a: unknown[]) => {
                calls.run++;
                if (runTraps) throw error();
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

  it('a trap in createModel: that call throws it, every later call fails at once, and open models are not released', () => {
    const t = trapping(highs, () => new RuntimeError('memory access out of bounds'), 2);
    const backend = highsBackend(t.highs);
    const first = backend.open(smallMip());
    expect(first.solve(request())).to.include({ status: 'optimal', objective: 5 });
    expect(backend.failed?.()).to.equal(undefined);
    expect(() => backend.open(smallMip())).to.throw('memory access out of bounds');
    expect(backend.failed?.()).to.equal('RuntimeError: memory access out of bounds');
    expect(() => backend.open(smallMip())).to.throw(
      'HiGHS stopped working in this thread after RuntimeError: memory access out of bounds; no more calls are made on it',
    );
    expect(() => backend.columnLp!(Float64Array.of(0), Float64Array.of(1), [])).to.throw('HiGHS stopped working');
    const outcome = first.solve(request());
    expect(outcome.status).to.equal('error');
    expect(outcome.message).to.contain('HiGHS stopped working');
    first.dispose();
    expect(t.calls).to.deep.equal({ createModel: 2, run: 1, dispose: 0, changeColsBounds: 0 });
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
    expect(() => backend.open(smallMip())).to.throw('Maximum call stack size exceeded');
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
    expect(() => failed.open(smallMip())).to.throw('memory access out of bounds');
    const working: SolverBackend = highsBackend(highs);
    expect(replacementFor(working)).to.equal(undefined);
    const fresh = await replacementFor(failed)!;
    expect(fresh.failed?.()).to.equal(undefined);
    expect(fresh.open(smallMip()).solve(request())).to.include({ status: 'optimal', objective: 5 });
  });
});
