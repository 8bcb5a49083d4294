// HiGHS 1.15.1 (npm highs 1.15.3) has a fault after the restart its MIP makes at the root: on this
// fairness MIP of the engine (recorded from a randomized campaign's roster; the fixture's note)
// it traps, memory access out of bounds, with random_seed 0, and solves with seed 1. The engine
// solves a subproblem whose solver failed again on a fresh instance with seed 1
// (solveSubproblemAgainOnFailure; tested with traps put into HiGHS in highs-trap.test.ts): that
// roster gets its schedule, with no warning.
import { expect } from 'chai';
import type { Highs } from 'highs';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import { RETRY_SEED } from '../../src/engine/solve-subproblem.js';
import { loadConfig } from '../../src/config/config.js';
import { Budget } from '../../src/engine/budget.js';
import { MipModel } from '../../src/engine/mip-model.js';
import { inProcessScheduler } from '../../src/engine/scheduler.js';
import { scheduleRequest } from '../../src/service/schedule-service.js';
import { fixture, schemas } from '../helpers/app.js';
import { trapRoster, type Json } from '../helpers/engine.js';
import { checkSchedule } from '../helpers/schedule-checker.js';

interface Recorded {
  numCols: number;
  numRows: number;
  colLower: number[];
  colUpper: Array<number | 'inf'>;
  integer: number[];
  rowLower: Array<number | '-inf'>;
  rowUpper: Array<number | 'inf'>;
  starts: number[];
  indices: number[];
  values: number[];
  costs: number[];
  start: number[];
  options: Record<string, number | boolean>;
}
const recorded = fixture('solver/highs-restart-trap.json') as unknown as Recorded;
const bound = (x: number | 'inf' | '-inf'): number => (x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);

function mipModel(r: Recorded): MipModel {
  const m = new MipModel();
  for (let j = 0; j < r.numCols; j++) m.addCol(`c${j}`, r.colLower[j]!, bound(r.colUpper[j]!), r.integer[j] === 1);
  for (let i = 0; i < r.numRows; i++) {
    const from = r.starts[i]!;
    const to = r.starts[i + 1]!;
    m.addRow(`r${i}`, bound(r.rowLower[i]!), bound(r.rowUpper[i]!), r.indices.slice(from, to), r.values.slice(from, to));
  }
  return m;
}

describe('engine: the MIP that HiGHS 1.15.1 traps on after its restart', function () {
  this.timeout(120_000);

  it('HiGHS with random_seed 0 traps on it (if this fails, HiGHS was mended: the trap guard and the second solve may be retired)', async () => {
    const highs: Highs = await loadHighs(); // its own instance: a trap leaves it unusable
    const inf = (x: number | 'inf' | '-inf'): number => (x === 'inf' ? highs.infinity : x === '-inf' ? -highs.infinity : x);
    const h = highs.createModel({
      numCols: recorded.numCols,
      numRows: recorded.numRows,
      colCost: Float64Array.from(recorded.costs),
      colLower: Float64Array.from(recorded.colLower),
      colUpper: Float64Array.from(recorded.colUpper, inf),
      rowLower: Float64Array.from(recorded.rowLower, inf),
      rowUpper: Float64Array.from(recorded.rowUpper, inf),
      matrix: {
        format: 'csr',
        numRows: recorded.numRows,
        numCols: recorded.numCols,
        starts: Int32Array.from(recorded.starts),
        indices: Int32Array.from(recorded.indices),
        values: Float64Array.from(recorded.values),
      },
      integrality: Int32Array.from(recorded.integer),
    });
    h.options.set({ output_flag: false, log_to_console: false, random_seed: 0, ...recorded.options, time_limit: 60 });
    h.setSolution({ colValue: Float64Array.from(recorded.start) });
    expect(() => h.run()).to.throw('memory access out of bounds');
  });

  it("the engine's session with the retry's seed solves it to its optimum, and HiGHS keeps working", async () => {
    const backend = highsBackend(await loadHighs(), RETRY_SEED);
    const session = backend.open(mipModel(recorded));
    const outcome = session.solve({
      objective: { sense: 'min', costs: Float64Array.from(recorded.costs) },
      rowBounds: new Map(),
      budget: Budget.forTimeLimit(60),
      absGap: recorded.options.mip_abs_gap as number,
      relGap: recorded.options.mip_rel_gap as number,
      start: Float64Array.from(recorded.start),
      fewerCuts: true,
    });
    expect(backend.failed?.()).to.equal(undefined);
    expect(outcome.status).to.equal('optimal');
    // The start (1,450.00019) is within the gap of the optimum: the hours are whole, the rest a tie-break.
    expect(outcome.objective).to.be.closeTo(1450, 0.001);
    session.dispose();
  });

  it('the roster it came from: its schedule, with no warning, every step ended on its own', async () => {
    // Until f9eefa8 the first solve of this roster reached the trap (its fairness MIP, the
    // fixture) and the group was solved again with seed 1. Since the levels of wishes solve their
    // LPs in a session of their own, the main session's HiGHS takes another path and this
    // roster's first solve no longer traps; the second solve after a trap is tested with traps
    // put into HiGHS (highs-trap.test.ts), and the trap itself on the recorded MIP above.
    const request = trapRoster();
    const scheduler = inProcessScheduler({ highs: highsBackend(await loadHighs()) });
    const deps = { schemas: schemas(), limits: loadConfig({}).limits, scheduler };
    const answer = await scheduleRequest(request, { backend: 'highs', timeLimitS: 60, debug: 'true' }, deps);
    const result = JSON.parse(answer.json) as Json;
    expect(checkSchedule(request, result)).to.deep.equal([]);
    expect((result.warnings as Json[]).map((w) => w.code)).to.not.include('solver_failed');
    const [sub, ...others] = result.diagnostics.subproblems as Json[];
    expect(others).to.deep.equal([]);
    expect((sub!.phases as Json[]).map((ph) => ph.status)).to.not.include('error');
    expect(sub!.filled).to.equal(sub!.fill_bound);
    // Measured there (in the service's worker threads, 60 s): fairness's windows ran 35 passes in
    // 26 s, each taking a schedule HiGHS's pieces priced a little lower as better; a schedule is
    // now judged by itself (LevelRunner.accept; windows.test.ts), and they end in about 2 s.
    expect(result.diagnostics.time_limited, 'the clock stopped nothing').to.equal(false);
    const windows = (sub!.phases as Json[]).filter((ph) => ph.name === 'fairness_lns');
    expect(windows.length).to.be.greaterThan(0);
    for (const ph of windows) expect(ph.status).to.not.equal('timedout');
  });
});
